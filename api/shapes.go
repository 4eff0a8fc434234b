package api

// The service model's input shapes, for a client that checks its input as
// botocore does before it calls (the CLI's --cli-input-json).

// Shape is a shape of the model: its type ("structure", "list", "map",
// "string", "boolean", "integer", "long", ...), a structure's members in
// the model's order, the shapes of a list's items (Member) and of a map's
// keys and values, and its minimum (a string's or a list's length, an
// integer's value), which botocore checks.
type Shape struct {
	Type               string
	Members            []Member
	Member, Key, Value string
	Min                *int64
}

// Member is a member of a structure.
type Member struct {
	Name, Shape string
	Required    bool
}

// InputShape is the name of an operation's input shape (CreateStack:
// CreateStackInput), or false when the model has no such operation or it
// takes no input.
func InputShape(operation string) (string, bool) {
	s, ok := modelOperations[operation]
	return s, ok && s != ""
}

// ShapeNamed is a shape of the model by name.
func ShapeNamed(name string) (Shape, bool) {
	s, ok := modelShapes[name]
	if !ok {
		return Shape{}, false
	}
	out := Shape{Type: s.Type, Member: s.Member, Key: s.Key, Value: s.Value, Min: s.Min}
	for _, m := range s.Members {
		out.Members = append(out.Members, Member(m))
	}
	return out, true
}
