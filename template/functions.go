package template

import "strings"

// fnID identifies an intrinsic function call. A map with exactly one member
// whose key is a function name is a call; the parser marks it once, so that
// evaluation dispatches on a byte.
type fnID uint8

const (
	fnNone fnID = iota
	fnRef
	fnCondition // {"Condition": name}: a call only in condition contexts
	fnGetAtt
	fnSub
	fnJoin
	fnSelect
	fnSplit
	fnIf
	fnEquals
	fnAnd
	fnOr
	fnNot
	fnFindInMap
	fnGetAZs
	fnBase64
	fnImportValue
	fnCidr
	fnTransform
	// Rule-specific functions (the Rules section only).
	fnContains
	fnEachMemberEquals
	fnEachMemberIn
	fnRefAll
	fnValueOf
	fnValueOfAll
	// AWS::LanguageExtensions.
	fnLength
	fnToJsonString
	// Fn::GetStackOutput: an output of another stack.
	fnGetStackOutput
	// A key that starts with "Fn::" but names no function.
	fnUnknown
)

var fnByName = map[string]fnID{
	"Ref":                  fnRef,
	"Condition":            fnCondition,
	"Fn::GetAtt":           fnGetAtt,
	"Fn::Sub":              fnSub,
	"Fn::Join":             fnJoin,
	"Fn::Select":           fnSelect,
	"Fn::Split":            fnSplit,
	"Fn::If":               fnIf,
	"Fn::Equals":           fnEquals,
	"Fn::And":              fnAnd,
	"Fn::Or":               fnOr,
	"Fn::Not":              fnNot,
	"Fn::FindInMap":        fnFindInMap,
	"Fn::GetAZs":           fnGetAZs,
	"Fn::Base64":           fnBase64,
	"Fn::ImportValue":      fnImportValue,
	"Fn::Cidr":             fnCidr,
	"Fn::Transform":        fnTransform,
	"Fn::Contains":         fnContains,
	"Fn::EachMemberEquals": fnEachMemberEquals,
	"Fn::EachMemberIn":     fnEachMemberIn,
	"Fn::RefAll":           fnRefAll,
	"Fn::ValueOf":          fnValueOf,
	"Fn::ValueOfAll":       fnValueOfAll,
	"Fn::Length":           fnLength,
	"Fn::ToJsonString":     fnToJsonString,
	"Fn::GetStackOutput":   fnGetStackOutput,
}

// shortTags maps each YAML short-form tag to the long-form key it stands for.
var shortTags = map[string]string{
	"!Ref":              "Ref",
	"!Condition":        "Condition",
	"!GetAtt":           "Fn::GetAtt",
	"!Sub":              "Fn::Sub",
	"!Join":             "Fn::Join",
	"!Select":           "Fn::Select",
	"!Split":            "Fn::Split",
	"!If":               "Fn::If",
	"!Equals":           "Fn::Equals",
	"!And":              "Fn::And",
	"!Or":               "Fn::Or",
	"!Not":              "Fn::Not",
	"!FindInMap":        "Fn::FindInMap",
	"!GetAZs":           "Fn::GetAZs",
	"!Base64":           "Fn::Base64",
	"!ImportValue":      "Fn::ImportValue",
	"!Cidr":             "Fn::Cidr",
	"!Transform":        "Fn::Transform",
	"!Contains":         "Fn::Contains",
	"!EachMemberEquals": "Fn::EachMemberEquals",
	"!EachMemberIn":     "Fn::EachMemberIn",
	"!RefAll":           "Fn::RefAll",
	"!ValueOf":          "Fn::ValueOf",
	"!ValueOfAll":       "Fn::ValueOfAll",
	"!Length":           "Fn::Length",
	"!ToJsonString":     "Fn::ToJsonString",
}

// supportedFunctions is the list CloudFormation prints with "Encountered
// unsupported function".
const supportedFunctions = "[Fn::Base64, Fn::GetAtt, Fn::GetAZs, Fn::ImportValue, Fn::Join, Fn::Split, " +
	"Fn::FindInMap, Fn::Select, Ref, Fn::Equals, Fn::If, Fn::Not, Condition, Fn::And, Fn::Or, " +
	"Fn::Contains, Fn::EachMemberEquals, Fn::EachMemberIn, Fn::ValueOf, Fn::ValueOfAll, Fn::RefAll, " +
	"Fn::Sub, Fn::Cidr]"

// callOf returns the intrinsic function a map calls: a map with one member
// whose key names a function.
func callOf(n *Node) fnID {
	if len(n.Fields) != 1 {
		return fnNone
	}
	k := n.Fields[0].Key
	if k != "Ref" && k != "Condition" && !strings.HasPrefix(k, "Fn::") {
		return fnNone // most maps: no lookup
	}
	if id := fnNamed(k); id != fnNone {
		return id
	}
	if strings.HasPrefix(k, "Fn::") && !strings.HasPrefix(k, "Fn::ForEach::") {
		return fnUnknown
	}
	return fnNone
}

// isConditionFn tells whether id is one of the condition functions.
func isConditionFn(id fnID) bool {
	switch id {
	case fnEquals, fnAnd, fnOr, fnNot, fnCondition:
		return true
	}
	return false
}

// isRuleOnlyFn tells whether id may appear only in the Rules section.
func isRuleOnlyFn(id fnID) bool {
	switch id {
	case fnContains, fnEachMemberEquals, fnEachMemberIn, fnRefAll, fnValueOf, fnValueOfAll:
		return true
	}
	return false
}

// fnNamed is fnByName[name] as a switch, which callOf runs for every map
// of one member; TestFnNamed holds the two equal.
func fnNamed(name string) fnID {
	switch name {
	case "Ref":
		return fnRef
	case "Condition":
		return fnCondition
	case "Fn::GetAtt":
		return fnGetAtt
	case "Fn::Sub":
		return fnSub
	case "Fn::Join":
		return fnJoin
	case "Fn::Select":
		return fnSelect
	case "Fn::Split":
		return fnSplit
	case "Fn::If":
		return fnIf
	case "Fn::Equals":
		return fnEquals
	case "Fn::And":
		return fnAnd
	case "Fn::Or":
		return fnOr
	case "Fn::Not":
		return fnNot
	case "Fn::FindInMap":
		return fnFindInMap
	case "Fn::GetAZs":
		return fnGetAZs
	case "Fn::Base64":
		return fnBase64
	case "Fn::ImportValue":
		return fnImportValue
	case "Fn::Cidr":
		return fnCidr
	case "Fn::Transform":
		return fnTransform
	case "Fn::Contains":
		return fnContains
	case "Fn::EachMemberEquals":
		return fnEachMemberEquals
	case "Fn::EachMemberIn":
		return fnEachMemberIn
	case "Fn::RefAll":
		return fnRefAll
	case "Fn::ValueOf":
		return fnValueOf
	case "Fn::ValueOfAll":
		return fnValueOfAll
	case "Fn::Length":
		return fnLength
	case "Fn::ToJsonString":
		return fnToJsonString
	case "Fn::GetStackOutput":
		return fnGetStackOutput
	}
	return fnNone
}
