package engine

import (
	"encoding/json"
	"reflect"
	"testing"
)

// A callback context that is a JSON value already is kept as it is; any
// other goes through JSON, so that the handler gets back what a round trip
// gives (json.Number for Go numbers, maps for structs); one that is not
// JSON is an error.
func TestCallbackContexts(t *testing.T) {
	same := map[string]any{"id": "x", "n": json.Number("-1.5e3"), "list": []any{true, nil, "é"}, "m": map[string]any{}}
	got, err := callbackOf(same)
	if err != nil || reflect.ValueOf(got).Pointer() != reflect.ValueOf(same).Pointer() {
		t.Fatalf("a JSON value was copied or refused: %v %v", got, err)
	}
	type pair struct{ A int }
	got, err = callbackOf(map[string]any{"int": 3, "float": 2.5, "struct": pair{A: 1}, "bad": "\xff"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"int": json.Number("3"), "float": json.Number("2.5"), "struct": map[string]any{"A": json.Number("1")}, "bad": "\ufffd"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("round trip: %#v, want %#v", got, want)
	}
	if _, err := callbackOf(map[string]any{"n": json.Number("1.")}); err == nil {
		t.Fatal("an invalid number literal was accepted")
	}
	if _, err := callbackOf(map[string]any{"ch": make(chan int)}); err == nil {
		t.Fatal("a channel was accepted")
	}
	for s, ok := range map[string]bool{"0": true, "-0": true, "12": true, "1.5": true, "1e9": true, "1E+2": true, "2.5e-3": true,
		"": false, "-": false, "01": false, "1.": false, ".5": false, "1e": false, "+1": false, "1x": false, "Infinity": false} {
		if validNumber(s) != ok {
			t.Errorf("validNumber(%q) = %v", s, !ok)
		}
	}
	// The task keeps the value and makes its text for the state file.
	task := &Task{}
	task.SetCallback(same)
	if task.Callback()["id"] != "x" {
		t.Fatal("the task lost its context")
	}
	if err := task.EncodeCallback(); err != nil {
		t.Fatal(err)
	}
	back := (&Task{CallbackContext: task.CallbackContext}).Callback()
	if !reflect.DeepEqual(back, same) {
		t.Fatalf("text %s reads back as %#v", task.CallbackContext, back)
	}
}
