package resources

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"
)

// customHub is what the custom resource providers of one registry share:
// the service token targets, the ResponseURL server, the real-time cap and
// the log of unmapped tokens.
type customHub struct {
	seed    int64
	log     *zap.Logger
	wait    time.Duration
	now     func() time.Time
	server  responseServer
	mu      sync.Mutex
	targets map[string]CustomTarget
	warned  map[string]bool
	// simulated are the resources (stack id, logical id) the simulated
	// responder has answered Data for, to say so once per resource.
	simulated map[[2]string]bool
}

func (h *customHub) target(token string) (CustomTarget, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	t, ok := h.targets[token]
	if !ok && !h.warned[token] {
		h.warned[token] = true
		h.log.Info("custom resource service token is not mapped; a simulated responder answers SUCCESS with a generated physical id, and generated Data for the attributes the template reads (map it with --service-token TOKEN=TARGET)",
			zap.String("serviceToken", token))
	}
	return t, ok
}

// noteSimulated says, once per resource, that its Data was generated.
func (h *customHub) noteSimulated(cr *CustomRequest, attrs []string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	k := [2]string{cr.StackID, cr.LogicalResourceID}
	if h.simulated[k] {
		return
	}
	if h.simulated == nil {
		h.simulated = map[[2]string]bool{}
	}
	h.simulated[k] = true
	h.log.Info("custom resource answered by the simulated responder: its Data holds generated values for the attributes the template reads",
		zap.String("logicalResourceId", cr.LogicalResourceID), zap.String("stackId", cr.StackID),
		zap.String("serviceToken", cr.ServiceToken), zap.Strings("attributes", attrs))
}

// The custom provider's model is its own, never the template's properties,
// so that no user property can collide with it.
const (
	customIDKey     = "PhysicalResourceId"
	customDataKey   = "Data"
	customNoEchoKey = "NoEcho"
	customPropsKey  = "Properties"
)

const customSchemaDoc = `{"typeName": %q,
 "description": "A custom resource: the model is the response (PhysicalResourceId, Data, NoEcho) and the properties it answered.",
 "properties": {
  "PhysicalResourceId": {"type": "string", "minLength": 1, "maxLength": 1024},
  "Data": {"type": "object"},
  "NoEcho": {"type": "boolean"},
  "Properties": {"type": "object"},
  "ServiceToken": {"type": "string"},
  "ServiceTimeout": {"type": ["string", "integer"]}
 },
 "additionalProperties": true,
 "primaryIdentifier": ["/properties/PhysicalResourceId"],
 "readOnlyProperties": ["/properties/PhysicalResourceId", "/properties/Data", "/properties/NoEcho", "/properties/Properties"]
}`

type customProvider struct {
	typeName string
	schema   *Schema
	hub      *customHub
}

func newCustomProvider(typeName string, hub *customHub) (*customProvider, error) {
	s, err := ParseSchema("custom:"+typeName, []byte(fmt.Sprintf(customSchemaDoc, typeName)))
	if err != nil {
		return nil, err
	}
	return &customProvider{typeName: typeName, schema: s, hub: hub}, nil
}

func (p *customProvider) TypeName() string { return p.typeName }
func (p *customProvider) Schema() *Schema  { return p.schema }

func (p *customProvider) PhysicalID(m map[string]any) (string, error) {
	if id, ok := m[customIDKey].(string); ok && id != "" {
		return id, nil
	}
	return "", fmt.Errorf("the custom resource model has no PhysicalResourceId")
}

func (p *customProvider) Ref(m map[string]any) (any, error) { return p.PhysicalID(m) }

// GetAtt answers a key of the response's Data.
func (p *customProvider) GetAtt(m map[string]any, attribute string) (any, error) {
	data, _ := m[customDataKey].(map[string]any)
	if v, ok := data[attribute]; ok {
		return v, nil
	}
	id, _ := p.PhysicalID(m)
	return nil, fmt.Errorf("CustomResource attribute error: Vendor response doesn't contain %s key in object %s", attribute, id)
}

// NoEcho reports whether the response asked for its Data to be masked.
func (p *customProvider) NoEcho(m map[string]any) bool {
	b, _ := m[customNoEchoKey].(bool)
	return b
}

// Timeout is the ServiceTimeout property (1 to 3600 seconds), 3600 s when
// absent.
func (p *customProvider) Timeout(_ Action, props map[string]any) time.Duration {
	if props != nil {
		if _, ok := props[customPropsKey].(map[string]any); ok && props["ServiceToken"] == nil {
			props = props[customPropsKey].(map[string]any)
		}
		if s, ok := scalarString(props["ServiceTimeout"]); ok {
			if n, err := strconv.Atoi(s); err == nil && n >= 1 && n <= 3600 {
				return time.Duration(n) * time.Second
			}
		}
	}
	return time.Hour
}

// TimeoutMessage is CloudFormation's reason when a custom resource never answers.
func (p *customProvider) TimeoutMessage(Action) string {
	return "CloudFormation did not receive a response from your Custom Resource. Please check your Custom Resource for errors."
}

// properties returns the template properties of a request state: the state
// itself when it is the template's (it has a ServiceToken), or the
// Properties the custom model kept.
func customProperties(state map[string]any) map[string]any {
	if state == nil {
		return nil
	}
	if _, ok := state["ServiceToken"]; ok {
		return state
	}
	if props, ok := state[customPropsKey].(map[string]any); ok {
		return props
	}
	return state
}

func (p *customProvider) Create(ctx context.Context, req *Request) (*ProgressEvent, error) {
	return p.send(ctx, req, CustomCreate)
}

func (p *customProvider) Update(ctx context.Context, req *Request) (*ProgressEvent, error) {
	return p.send(ctx, req, CustomUpdate)
}

func (p *customProvider) Delete(ctx context.Context, req *Request) (*ProgressEvent, error) {
	return p.send(ctx, req, CustomDelete)
}

// Read answers the model it is given: CloudFormation keeps a custom
// resource's last response and never asks the target to describe it.
func (p *customProvider) Read(_ context.Context, req *Request) (*ProgressEvent, error) {
	m := req.DesiredResourceState
	if _, err := p.PhysicalID(m); err != nil {
		if req.PhysicalResourceID == "" {
			return Failed(ErrNotFound, "A custom resource is read from its last response; the request holds none."), nil
		}
		m = map[string]any{customIDKey: req.PhysicalResourceID}
	}
	return Success(CopyModel(m)), nil
}

// List answers no models: CloudFormation cannot list custom resources.
func (p *customProvider) List(context.Context, *Request) (*ProgressEvent, error) {
	return &ProgressEvent{Status: StatusSuccess, ResourceModels: []map[string]any{}}, nil
}

func (p *customProvider) send(ctx context.Context, req *Request, requestType string) (*ProgressEvent, error) {
	props := StringifyModel(customProperties(req.DesiredResourceState))
	token, _ := props["ServiceToken"].(string)
	if token == "" {
		return Failed(ErrInvalidRequest, "%s", ValidationMessage(req.LogicalResourceIdentifier, []string{"#: required key [ServiceToken] not found"})), nil
	}
	key := requestKey(p.hub.seed, req.StackID, req.LogicalResourceIdentifier, req.EntropyToken())
	cr := &CustomRequest{
		RequestType:        requestType,
		ServiceToken:       token,
		StackID:            req.StackID,
		ResourceType:       p.typeName,
		LogicalResourceID:  req.LogicalResourceIdentifier,
		ResourceProperties: props,
	}
	if requestType != CustomCreate {
		cr.PhysicalResourceID = req.PhysicalResourceID
		if cr.PhysicalResourceID == "" {
			cr.PhysicalResourceID, _ = p.PhysicalID(req.DesiredResourceState)
		}
		if cr.PhysicalResourceID == "" && requestType == CustomDelete {
			// A resource whose Create never answered (or answered without
			// the id the engine could keep) is still sent its Delete:
			// CloudFormation makes an id up, as the simulated responder
			// would have answered the Create.
			cr.PhysicalResourceID = generatedCustomID(cr, key)
		}
		if cr.PhysicalResourceID == "" {
			return Failed(ErrNotFound, "The %s request of custom resource %s has no PhysicalResourceId.", requestType, req.LogicalResourceIdentifier), nil
		}
	}
	cr.RequestID = requestID(key, req, cr)
	if requestType == CustomUpdate {
		cr.OldResourceProperties = StringifyModel(customProperties(req.PreviousResourceState))
		if old, _ := cr.OldResourceProperties["ServiceToken"].(string); old != "" && old != token {
			return Failed(ErrInvalidRequest, "Modifying service token is not allowed."), nil
		}
	}
	resp, err := p.deliver(ctx, cr, key, req.Attributes)
	if err != nil {
		if errors.Is(err, ErrNoResponse) {
			return nil, ErrNoResponse
		}
		return Failed(ErrGeneralServiceException, "Failed to deliver the %s request of custom resource %s to %s: %v", requestType, req.LogicalResourceIdentifier, token, err), nil
	}
	if resp.Status == "FAILED" {
		ev := Failed(ErrGeneralServiceException, "Received response status [FAILED] from custom resource. Message returned: %s (RequestId: %s)", resp.Reason, cr.RequestID)
		if requestType == CustomCreate {
			// A failed Create names a physical id too (the response needs
			// one): CloudFormation sends the rollback's Delete to it, with
			// the properties (BEHAVIOUR.md §7).
			ev.ResourceModel = map[string]any{customIDKey: resp.PhysicalResourceID, customPropsKey: props}
		}
		return ev, nil
	}
	if requestType == CustomDelete {
		return Success(nil), nil
	}
	model := map[string]any{customIDKey: resp.PhysicalResourceID, customPropsKey: props}
	if resp.Data != nil {
		model[customDataKey] = resp.Data
	}
	if resp.NoEcho {
		model[customNoEchoKey] = true
	}
	return Success(model), nil
}

// deliver sends the request to its target and waits (at most the hub's
// real-time cap) for the response.
func (p *customProvider) deliver(ctx context.Context, cr *CustomRequest, key entropyKey, attrs []string) (*CustomResponse, error) {
	target, ok := p.hub.target(cr.ServiceToken)
	if !ok {
		return p.simulate(cr, key, attrs), nil
	}
	url, ch, done, err := p.hub.server.expect(cr.RequestID)
	if err != nil {
		return nil, err
	}
	defer done()
	cr.ResponseURL = url
	wctx, cancel := context.WithTimeout(ctx, p.hub.wait)
	defer cancel()
	p.hub.log.Debug("custom resource request", zap.String("serviceToken", cr.ServiceToken),
		zap.String("requestType", cr.RequestType), zap.String("logicalResourceId", cr.LogicalResourceID))
	noAnswer := func() (*CustomResponse, error) {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		p.hub.log.Info("custom resource target did not answer within the real-time cap; the action waits for its ServiceTimeout",
			zap.String("serviceToken", cr.ServiceToken), zap.Duration("cap", p.hub.wait))
		return nil, ErrNoResponse
	}
	resp, err := target.Deliver(wctx, cr)
	if errors.Is(err, ErrNoResponse) || (err != nil && wctx.Err() != nil) {
		return noAnswer()
	}
	if err != nil {
		return nil, err
	}
	if resp != nil {
		return resp, checkCustomResponse(resp, cr)
	}
	select {
	case body := <-ch:
		return ParseCustomResponse(body, cr)
	case <-wctx.Done():
		return noAnswer()
	}
}

// requestID is a request's RequestId: unique to the request, derived from
// what identifies it. In the forward phase a resource gets at most one
// request of a type per attempt (the key it always had); a rollback or a
// cleanup may send the same type again in the same operation
// (the rollback's Update after the forward one; the Deletes of two physical
// ids in one cleanup), so there the phase and the physical id are in the
// key too.
func requestID(key entropyKey, req *Request, cr *CustomRequest) string {
	name := "custom-request:" + cr.RequestType + ":" + strconv.Itoa(req.Attempt)
	if req.Phase != PhaseForward {
		name += ":" + req.Phase.String() + ":" + cr.PhysicalResourceID
	}
	return key.stream(name).uuid()
}

// generatedCustomID is the physical id of a custom resource that has none:
// STACK-LOGICALID-RANDOM, as the simulated responder answers a Create.
func generatedCustomID(cr *CustomRequest, key entropyKey) string {
	return strings.Join([]string{StackName(cr.StackID), cr.LogicalResourceID, key.stream("custom-physical-id").pick(alphaUpperNum, 13)}, "-")
}

// simulate is the built-in responder for unmapped service tokens: SUCCESS,
// a generated physical id on Create (the request's otherwise) and, on
// Create and Update, Data with a generated value for every attribute the
// template reads of the resource (attrs), so that Fn::GetAtt resolves as
// the real target's answer would let it. The values are made from the
// attribute's name as a registry type's attributes are (an Arn is an ARN,
// an Id an id, an Endpoint a host name...), keyed by the seed, the stack
// and the logical id: the same on every update.
func (p *customProvider) simulate(cr *CustomRequest, key entropyKey, attrs []string) *CustomResponse {
	id := cr.PhysicalResourceID
	if cr.RequestType == CustomCreate {
		id = generatedCustomID(cr, key)
	}
	resp := &CustomResponse{Status: "SUCCESS", PhysicalResourceID: id, StackID: cr.StackID, RequestID: cr.RequestID, LogicalResourceID: cr.LogicalResourceID}
	if cr.RequestType != CustomDelete && len(attrs) > 0 {
		resp.Data = p.simulatedData(cr, id, attrs)
		p.hub.noteSimulated(cr, attrs)
	}
	return resp
}

func (p *customProvider) simulatedData(cr *CustomRequest, id string, attrs []string) map[string]any {
	now := Epoch
	if p.hub.now != nil {
		now = p.hub.now()
	}
	req := &Request{StackID: cr.StackID, LogicalResourceIdentifier: cr.LogicalResourceID, ClientRequestToken: "custom-data"}
	if parts := strings.SplitN(cr.StackID, ":", 6); len(parts) == 6 && parts[0] == "arn" {
		req.AWSPartition, req.Region, req.AWSAccountID = parts[1], parts[3], parts[4]
	}
	e := newEnv(req, p.hub.seed, now, map[string]any{customIDKey: id})
	vg := newValueGen(p.schema)
	data := make(map[string]any, len(attrs))
	for _, a := range attrs {
		name := a[strings.LastIndexByte(a, '.')+1:]
		data[a] = vg.str(e, plainString, genRequest{path: "/Data/" + a, name: name})
	}
	return data
}
