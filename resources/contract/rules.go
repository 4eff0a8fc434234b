package contract

// Rule IDs. They are stable: scenario files, golden files and users' CI
// match on them. docs/handlers.md lists them with the contract's wording.
const (
	// RuleHandlerError: the handler returned an error or panicked instead of
	// answering a ProgressEvent (the engine records FAILED
	// HandlerInternalFailure).
	RuleHandlerError = "handler-error"
	// RuleEventMissing: the handler answered neither an event nor an error.
	RuleEventMissing = "event-missing"
	// RuleStatusInvalid: status is not IN_PROGRESS, SUCCESS or FAILED.
	RuleStatusInvalid = "status-invalid"
	// RuleFailedErrorCode: FAILED without one of the 19 error codes.
	RuleFailedErrorCode = "failed-error-code"
	// RuleFailedMessage: FAILED without a message.
	RuleFailedMessage = "failed-message"
	// RuleSuccessErrorCode: SUCCESS with an error code.
	RuleSuccessErrorCode = "success-error-code"
	// RuleInProgressErrorCode: IN_PROGRESS with an error code.
	RuleInProgressErrorCode = "in-progress-error-code"
	// RuleInProgressResourceModels: IN_PROGRESS with resourceModels.
	RuleInProgressResourceModels = "in-progress-resource-models"
	// RuleTerminalCallbackDelay: SUCCESS or FAILED with callbackDelaySeconds
	// other than 0.
	RuleTerminalCallbackDelay = "terminal-callback-delay"
	// RuleCallbackDelayNegative: IN_PROGRESS with a negative
	// callbackDelaySeconds.
	RuleCallbackDelayNegative = "callback-delay-negative"
	// RuleReadListInProgress: read or list answered IN_PROGRESS.
	RuleReadListInProgress = "read-list-in-progress"
	// RuleDeleteSuccessModel: delete SUCCESS with a model.
	RuleDeleteSuccessModel = "delete-success-model"
	// RuleModelSchema: a model does not conform to the shape of the schema
	// (JSON Schema without required, dependencies, propertyNames,
	// conditional and boolean subschemas; stringified scalars coerced).
	RuleModelSchema = "model-schema"
	// RuleModelNull: a model holds a null.
	RuleModelNull = "model-null"
	// RulePrimaryIdentifierMissing: a create or update event's model (IN_PROGRESS
	// or SUCCESS; a create's first FAILED event excepted), a read SUCCESS
	// model or a list model lacks the primary identifier.
	RulePrimaryIdentifierMissing = "primary-identifier-missing"
	// RulePrimaryIdentifierChanged: an update or read answered a primary
	// identifier other than the request's.
	RulePrimaryIdentifierChanged = "primary-identifier-changed"
	// RuleWriteOnlyReturned: a SUCCESS model holds a writeOnly property.
	RuleWriteOnlyReturned = "write-only-returned"
	// RuleInputNotApplied: a create or update SUCCESS model lacks a property
	// of the request or holds another value (writeOnly and readOnly
	// properties aside; arrays in order unless insertionOrder is false).
	RuleInputNotApplied = "input-not-applied"
	// RuleResourceModelsNotList: an action other than list answered
	// resourceModels.
	RuleResourceModelsNotList = "resource-models-not-list"
	// RuleListResourceModel: list answered resourceModel (it answers
	// resourceModels).
	RuleListResourceModel = "list-resource-model"
	// RuleListModelsMissing: list SUCCESS without resourceModels (an empty
	// array when nothing is found).
	RuleListModelsMissing = "list-models-missing"
	// RuleDeletedResourceFound: read, update or delete answered SUCCESS for a
	// resource whose delete had succeeded (it must answer NotFound).
	RuleDeletedResourceFound = "deleted-resource-found"
	// RuleCreateExisting: create answered SUCCESS with the identifier of a
	// resource that another create had made and nobody deleted (it must
	// answer AlreadyExists).
	RuleCreateExisting = "create-existing"
	// RuleCreateOnlyChanged: update answered SUCCESS (or IN_PROGRESS) to a
	// request whose desired state changes a createOnly property of the
	// previous state (it must answer FAILED NotUpdatable).
	RuleCreateOnlyChanged = "create-only-changed"
)

// Rules lists every rule ID with its one-line description, in a stable order.
func Rules() []RuleInfo {
	return []RuleInfo{
		{RuleHandlerError, "the handler returned an error or panicked instead of a ProgressEvent"},
		{RuleEventMissing, "the handler answered neither a ProgressEvent nor an error"},
		{RuleStatusInvalid, "status is not IN_PROGRESS, SUCCESS or FAILED"},
		{RuleFailedErrorCode, "FAILED without a valid errorCode"},
		{RuleFailedMessage, "FAILED without a message"},
		{RuleSuccessErrorCode, "SUCCESS with an errorCode"},
		{RuleInProgressErrorCode, "IN_PROGRESS with an errorCode"},
		{RuleInProgressResourceModels, "IN_PROGRESS with resourceModels"},
		{RuleTerminalCallbackDelay, "SUCCESS or FAILED with callbackDelaySeconds other than 0"},
		{RuleCallbackDelayNegative, "IN_PROGRESS with a negative callbackDelaySeconds"},
		{RuleReadListInProgress, "read or list answered IN_PROGRESS"},
		{RuleDeleteSuccessModel, "delete SUCCESS with a model"},
		{RuleModelSchema, "a model does not conform to the shape of the schema"},
		{RuleModelNull, "a model holds a null value"},
		{RulePrimaryIdentifierMissing, "a model lacks the primary identifier"},
		{RulePrimaryIdentifierChanged, "update or read answered another primary identifier than the request's"},
		{RuleWriteOnlyReturned, "a SUCCESS model holds a writeOnly property"},
		{RuleInputNotApplied, "a create or update SUCCESS model does not hold the request's properties"},
		{RuleResourceModelsNotList, "an action other than list answered resourceModels"},
		{RuleListResourceModel, "list answered resourceModel instead of resourceModels"},
		{RuleListModelsMissing, "list SUCCESS without resourceModels"},
		{RuleDeletedResourceFound, "read, update or delete succeeded on a deleted resource"},
		{RuleCreateExisting, "create succeeded with the identifier of an existing resource"},
		{RuleCreateOnlyChanged, "update accepted a change of a createOnly property"},
	}
}

// RuleInfo is a rule ID and what it checks.
type RuleInfo struct {
	ID          string
	Description string
}
