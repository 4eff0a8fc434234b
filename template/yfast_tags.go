package template

// tagNames names the tag spelled b, for the fast path: a short form and the
// function it stands for ("!Ref", "Ref"), or a standard scalar tag and ""
// ("!!str", ""). An unknown tag has no name. The short forms are those of
// shortTags (TestTagNames holds them equal); the switch costs no hashing
// and no allocation.
func tagNames(b []byte) (name, long string) {
	switch string(b) {
	case "!Ref":
		return "!Ref", "Ref"
	case "!Condition":
		return "!Condition", "Condition"
	case "!GetAtt":
		return "!GetAtt", "Fn::GetAtt"
	case "!Sub":
		return "!Sub", "Fn::Sub"
	case "!Join":
		return "!Join", "Fn::Join"
	case "!Select":
		return "!Select", "Fn::Select"
	case "!Split":
		return "!Split", "Fn::Split"
	case "!If":
		return "!If", "Fn::If"
	case "!Equals":
		return "!Equals", "Fn::Equals"
	case "!And":
		return "!And", "Fn::And"
	case "!Or":
		return "!Or", "Fn::Or"
	case "!Not":
		return "!Not", "Fn::Not"
	case "!FindInMap":
		return "!FindInMap", "Fn::FindInMap"
	case "!GetAZs":
		return "!GetAZs", "Fn::GetAZs"
	case "!ImportValue":
		return "!ImportValue", "Fn::ImportValue"
	case "!Cidr":
		return "!Cidr", "Fn::Cidr"
	case "!Transform":
		return "!Transform", "Fn::Transform"
	case "!Contains":
		return "!Contains", "Fn::Contains"
	case "!EachMemberEquals":
		return "!EachMemberEquals", "Fn::EachMemberEquals"
	case "!EachMemberIn":
		return "!EachMemberIn", "Fn::EachMemberIn"
	case "!RefAll":
		return "!RefAll", "Fn::RefAll"
	case "!ValueOf":
		return "!ValueOf", "Fn::ValueOf"
	case "!ValueOfAll":
		return "!ValueOfAll", "Fn::ValueOfAll"
	case "!Length":
		return "!Length", "Fn::Length"
	case "!ToJsonString":
		return "!ToJsonString", "Fn::ToJsonString"
	case "!Base64":
		return "!Base64", "Fn::Base64"
	case "!!str":
		return "!!str", ""
	case "!!int":
		return "!!int", ""
	case "!!float":
		return "!!float", ""
	case "!!bool":
		return "!!bool", ""
	case "!!null":
		return "!!null", ""
	case "!!binary":
		return "!!binary", ""
	case "!!timestamp":
		return "!!timestamp", ""
	}
	return "", ""
}
