package resources

// HandlerErrorCode is the errorCode of a FAILED ProgressEvent.
type HandlerErrorCode string

// The 19 error codes of the resource handler contract.
const (
	ErrNotUpdatable             HandlerErrorCode = "NotUpdatable"
	ErrInvalidRequest           HandlerErrorCode = "InvalidRequest"
	ErrAccessDenied             HandlerErrorCode = "AccessDenied"
	ErrInvalidCredentials       HandlerErrorCode = "InvalidCredentials"
	ErrAlreadyExists            HandlerErrorCode = "AlreadyExists"
	ErrNotFound                 HandlerErrorCode = "NotFound"
	ErrResourceConflict         HandlerErrorCode = "ResourceConflict"
	ErrThrottling               HandlerErrorCode = "Throttling"
	ErrServiceLimitExceeded     HandlerErrorCode = "ServiceLimitExceeded"
	ErrNotStabilized            HandlerErrorCode = "NotStabilized"
	ErrGeneralServiceException  HandlerErrorCode = "GeneralServiceException"
	ErrServiceInternalError     HandlerErrorCode = "ServiceInternalError"
	ErrNetworkFailure           HandlerErrorCode = "NetworkFailure"
	ErrInternalFailure          HandlerErrorCode = "InternalFailure"
	ErrInvalidTypeConfiguration HandlerErrorCode = "InvalidTypeConfiguration"
	ErrHandlerInternalFailure   HandlerErrorCode = "HandlerInternalFailure"
	ErrNonCompliant             HandlerErrorCode = "NonCompliant"
	ErrUnsupportedTarget        HandlerErrorCode = "UnsupportedTarget"
	ErrUnknown                  HandlerErrorCode = "Unknown"
)

var allCodes = [...]HandlerErrorCode{
	ErrNotUpdatable, ErrInvalidRequest, ErrAccessDenied, ErrInvalidCredentials,
	ErrAlreadyExists, ErrNotFound, ErrResourceConflict, ErrThrottling,
	ErrServiceLimitExceeded, ErrNotStabilized, ErrGeneralServiceException,
	ErrServiceInternalError, ErrNetworkFailure, ErrInternalFailure,
	ErrInvalidTypeConfiguration, ErrHandlerInternalFailure, ErrNonCompliant,
	ErrUnsupportedTarget, ErrUnknown,
}

// ErrorCodes lists the 19 codes in the contract's order.
func ErrorCodes() []HandlerErrorCode {
	out := make([]HandlerErrorCode, len(allCodes))
	copy(out, allCodes[:])
	return out
}

// Valid reports whether c is one of the 19 codes.
func (c HandlerErrorCode) Valid() bool {
	for _, k := range allCodes {
		if c == k {
			return true
		}
	}
	return false
}

// Retriable reports whether CloudFormation retries an action that failed
// with c: NetworkFailure, ResourceConflict, ServiceInternalError and
// Throttling are retried; every other code is terminal.
func (c HandlerErrorCode) Retriable() bool {
	switch c {
	case ErrNetworkFailure, ErrResourceConflict, ErrServiceInternalError, ErrThrottling:
		return true
	}
	return false
}
