package resources

// Wrappers (faults, the contract checker) implement Unwrap, so that what a
// provider offers beyond the Provider interface stays reachable.
type unwrapper interface{ Unwrap() Provider }

// NoEchoer is implemented by providers whose models may ask to be masked
// (a custom resource whose response said NoEcho).
type NoEchoer interface {
	NoEcho(model map[string]any) bool
}

// IsNoEcho reports whether a model's attributes must be masked in outputs
// and events (a custom resource's response with NoEcho: true).
func IsNoEcho(p Provider, model map[string]any) bool {
	n, ok := implementation[NoEchoer](p)
	return ok && n.NoEcho(model)
}

// implementation is the first of p and the providers it wraps, outside in,
// that implements T.
func implementation[T any](p Provider) (T, bool) {
	for p != nil {
		if t, ok := p.(T); ok {
			return t, true
		}
		u, ok := p.(unwrapper)
		if !ok {
			break
		}
		p = u.Unwrap()
	}
	var none T
	return none, false
}

// TimeoutMessage is the reason the engine gives when an action of p times
// out: the provider's own wording when it has one, else CloudFormation's
// generic one.
func TimeoutMessage(p Provider, a Action) string {
	for q := p; q != nil; {
		if t, ok := q.(TimeoutMessager); ok {
			if m := t.TimeoutMessage(a); m != "" {
				return m
			}
		}
		u, ok := q.(unwrapper)
		if !ok {
			break
		}
		q = u.Unwrap()
	}
	return "Resource timed out waiting for completion"
}

// LiveAttributer is implemented by providers some of whose attributes
// other resources change after the resource's own operations (a VPC's
// Ipv6CidrBlocks, which a VPCCidrBlock adds to): Fn::GetAtt of those is
// answered from the object as the Cloud holds it now.
type LiveAttributer interface {
	ReadsLive(attribute string) bool
}

// ReadsLive reports whether Fn::GetAtt of attribute of p's resources must
// read the object as it is now rather than the model its last operation
// returned.
func ReadsLive(p Provider, attribute string) bool {
	l, ok := implementation[LiveAttributer](p)
	return ok && l.ReadsLive(attribute)
}
