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
	for p != nil {
		if n, ok := p.(NoEchoer); ok {
			return n.NoEcho(model)
		}
		u, ok := p.(unwrapper)
		if !ok {
			return false
		}
		p = u.Unwrap()
	}
	return false
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
