package engine

import "github.com/stacksim/stacksim/engine/store"

// ClientRequestToken makes the calls that start operations idempotent, as
// AWS documents it ("Specify this token if you plan to retry requests so
// that CloudFormation knows that you're not attempting to create a stack
// with the same name", CreateStack; the same for UpdateStack, DeleteStack,
// ExecuteChangeSet, ContinueUpdateRollback, CancelUpdateStack and
// RollbackStack): a call whose token started one of the stack's
// operations through the same call is a retry, and is answered as the
// first one was, without doing anything again, whatever the stack's status
// is now. A token that started an operation of another call on the stack
// is refused with TokenAlreadyExistsException. A call without a token is
// never a retry.

// retryOf tells whether a call of kind with token on st repeats the call
// that started one of its operations.
func (tx *txn) retryOf(kind OperationKind, st *store.StackRecord, token string) (bool, error) {
	if token == "" || st == nil {
		return false, nil
	}
	for _, op := range tx.OperationsOf(st.StackId) {
		if op.ClientRequestToken != token {
			continue
		}
		if op.Kind == kind {
			return true, nil
		}
		// UNVERIFIED wording (the model's description of the exception:
		// "A client request token already exists").
		return false, TokenAlreadyExistsError("A client request token already exists: %s started %s on stack [%s]; use a new token for a new call", token, op.Kind, st.StackId)
	}
	return false, nil
}

// CreateChangeSet's ClientToken makes a retry of the call harmless, as AWS
// documents it ("Specify this token if you plan to retry requests so that
// CloudFormation knows that you're not attempting to create another change
// set with the same name", CreateChangeSet in the API reference): a call
// naming a change set of the stack that a call with the same token made is
// answered with that change set, and nothing is done again, whatever has
// happened to it since. Without a token, or with another one, the name is
// taken (AlreadyExistsException).

// changeSetRetry returns the change set of st that a call with in's name
// and token made, or nil.
func (tx *txn) changeSetRetry(st *store.StackRecord, in CreateChangeSetInput) *store.ChangeSetRecord {
	if in.ClientToken == "" || st == nil {
		return nil
	}
	for _, cs := range tx.ChangeSetsOf(st.StackId) {
		if cs.Name == in.ChangeSetName && cs.ClientToken == in.ClientToken {
			return cs
		}
	}
	return nil
}
