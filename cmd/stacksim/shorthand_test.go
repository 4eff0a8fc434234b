package main

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestShorthand(t *testing.T) {
	tests := []struct {
		in   string
		want map[string]any
	}{
		{"ParameterKey=Env,ParameterValue=prod", map[string]any{"ParameterKey": "Env", "ParameterValue": "prod"}},
		{"ParameterKey=Subnets,ParameterValue=a\\,b", map[string]any{"ParameterKey": "Subnets", "ParameterValue": "a,b"}},
		{`Key=Name,Value="my, name"`, map[string]any{"Key": "Name", "Value": "my, name"}},
		{`Key=Name,Value='it\'s'`, map[string]any{"Key": "Name", "Value": "it's"}},
		{"Key=Name,Value=two words ", map[string]any{"Key": "Name", "Value": "two words"}},
		{"Key=a=b", map[string]any{"Key": "a=b"}},
		{"ParameterValue=a,b,ParameterKey=K", map[string]any{"ParameterValue": []any{"a", "b"}, "ParameterKey": "K"}},
		{"A=[x,y],B={c=d}", map[string]any{"A": []any{"x", "y"}, "B": map[string]any{"c": "d"}}},
		{"UsePreviousValue=true,ParameterKey=K", map[string]any{"UsePreviousValue": "true", "ParameterKey": "K"}},
		{"A=", map[string]any{"A": ""}},
	}
	for _, tt := range tests {
		got, _, err := parseShorthand(tt.in)
		if err != nil {
			t.Errorf("%q: %v", tt.in, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q: got %#v, want %#v", tt.in, got, tt.want)
		}
	}
	for _, bad := range []string{"foo", "A=b,", `A="unclosed`, "A=[x,y"} {
		if _, _, err := parseShorthand(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestSpreadListFlags(t *testing.T) {
	got := spreadListFlags([]string{"create-stack", "--capabilities", "A", "B", "--stack-name", "x", "--tags", "Key=a,Value=b", "--", "--tags", "z"})
	want := []string{"create-stack", "--capabilities", "A", "--capabilities", "B", "--stack-name", "x", "--tags", "Key=a,Value=b", "--", "--tags", "z"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q", got)
	}
}

// A long input is quoted around the fault, the caret still under it.
func TestShorthandErrorQuotesAWindow(t *testing.T) {
	long := strings.Repeat("x", 1000)
	tests := []struct {
		in, wantLine string
	}{
		{"ParameterKey=P,ParameterValue=[" + long, "..." + strings.Repeat("x", 100) + " (1,031 bytes in all)"},
		{"ParameterKey=P,ParameterValue='" + long, "ParameterKey=P,ParameterValue='" + strings.Repeat("x", 169) + "... (1,031 bytes in all)"},
		{"A", "A"},
	}
	for _, tt := range tests {
		_, _, err := parseShorthand(tt.in)
		if err == nil {
			t.Fatalf("%.40q: no error", tt.in)
		}
		lines := strings.Split(err.Error(), "\n")
		if len(lines) != 3 || lines[1] != tt.wantLine {
			t.Fatalf("%.40q: error\n%s\nwant the input line\n%s", tt.in, err, tt.wantLine)
		}
		// The caret is under the character the parser stopped at.
		var se *shorthandError
		if !errors.As(err, &se) {
			t.Fatal(err)
		}
		window, at := quoteWindow(se.value, se.index)
		if caret := strings.Index(lines[2], "^"); caret != at || window != lines[1] {
			t.Errorf("%.40q: caret at %d, want %d", tt.in, caret, at)
		}
		if se.index < len(se.value) && lines[1][at] != se.value[se.index] {
			t.Errorf("%.40q: the caret is under %q, the parser stopped at %q", tt.in, lines[1][at], se.value[se.index])
		}
	}
}
