package template

import (
	"strings"
	"testing"
)

func TestResolveKnown(t *testing.T) {
	known := map[string]any{"Env": "prod", "Names": []any{"a", "b"}, "AWS::Region": "us-east-1", "AWS::AccountId": "123456789012"}
	for _, tt := range []struct {
		name, value string
		want        string // the value's JSON after
	}{
		{"a parameter", `!Ref Env`, `"prod"`},
		{"a list parameter", `!Ref Names`, "[\n          \"a\",\n          \"b\"\n        ]"},
		{"a pseudo parameter", `!Ref AWS::Region`, `"us-east-1"`},
		{"a resource", `!Ref Other`, "{\n          \"Ref\": \"Other\"\n        }"},
		{"a Sub of known values", `!Sub "s3://code-${AWS::AccountId}-${AWS::Region}/${Env}.zip"`, `"s3://code-123456789012-us-east-1/prod.zip"`},
		{"a Sub with a literal", `!Sub "${!Literal}-${Env}"`, `"${Literal}-prod"`},
		{"a Sub with its own variables", `!Sub ["${A}-${Env}", {A: !Ref AWS::Region}]`, `"us-east-1-prod"`},
		{"a Sub of an attribute", `!Sub "${Other.Arn}-${Env}"`, "{\n          \"Fn::Sub\": \"${Other.Arn}-${Env}\"\n        }"},
		{"a Sub of a resource", `!Sub ["${A}", {A: !GetAtt Other.Arn}]`, `"Fn::GetAtt"`},
		{"inside another function", `!Join ["-", [!Ref Env, !GetAtt Other.Arn]]`, "\"Fn::Join\": [\n            \"-\",\n            [\n              \"prod\","},
	} {
		body := "Resources:\n  R:\n    Type: AWS::SSM::Parameter\n    Metadata: {M: !Ref Env}\n    Properties:\n      V: " + tt.value + "\n  Other: {Type: AWS::SNS::Topic}\nOutputs:\n  O: {Value: !Ref Env}\n"
		root, err := ParseTree("t.yaml", []byte(body))
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		before := string(root.JSON())
		out := string(ResolveKnown(root, known).JSON())
		if !strings.Contains(out, tt.want) {
			t.Errorf("%s: no %s in\n%s", tt.name, tt.want, out)
		}
		if !strings.Contains(out, "\"M\": {\n          \"Ref\": \"Env\"") {
			t.Errorf("%s: Metadata resolved:\n%s", tt.name, out)
		}
		if !strings.Contains(out, "\"O\": {\n      \"Value\": \"prod\"") {
			t.Errorf("%s: the output is not resolved:\n%s", tt.name, out)
		}
		if string(root.JSON()) != before {
			t.Errorf("%s: the tree given was changed", tt.name)
		}
	}
}
