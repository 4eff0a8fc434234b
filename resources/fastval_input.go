package resources

// InputCertainlyValidFunc is InputCertainlyValid for template properties
// as they stand: what InputCertainlyValid(StringifyModel(m)) would say of
// m with each value for which pending reports true replaced by Pending,
// found in one walk that neither copies nor stringifies the model (the
// engine checks every resource's properties when its step starts, and
// most are valid). pending is asked of every value before it is looked
// at; it must answer false for maps and lists that are to be walked.
// False means "not certain": the caller asks ValidateInput.
func (s *Schema) InputCertainlyValidFunc(model map[string]any, pending func(any) bool) bool {
	if s.compileInput() != nil {
		return false
	}
	if model == nil {
		model = map[string]any{}
	}
	return s.input.fast.walk(s.shapeTree(), model, &inputWalk{pending: pending})
}
