package engine

import (
	"encoding/json"
	"unicode/utf8"

	"github.com/stacksim/stacksim/engine/store"
)

// Callback contexts. An IN_PROGRESS answer's callbackContext is handed back
// on the next call as JSON would carry it: the engine used to encode it into
// the task (Task.CallbackContext) and decode it for the request, on every
// callback. Most contexts are JSON values already — maps, arrays, strings,
// booleans and json.Numbers, which a JSON round trip (with UseNumber) gives
// back unchanged — and those are kept as they are in the task (Task.cc);
// the text is made only when the state is saved. Anything else (a Go int, a
// float64, a struct, a string that is not UTF-8) still takes the round
// trip, so a handler gets back exactly what it would have.

// callbackOf returns the callback context to keep for the next call: the
// handler's own value when the round trip would not change it, else the
// value after the round trip. An error says the value is not JSON.
func callbackOf(v map[string]any) (map[string]any, error) {
	if v == nil || jsonValue(v) {
		return v, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return store.DecodeCallback(b)
}

// jsonValue tells whether v is made only of what a JSON decode with
// UseNumber makes (so that encoding and decoding it again gives it back).
func jsonValue(v any) bool {
	switch t := v.(type) {
	case nil, bool:
		return true
	case string:
		return utf8.ValidString(t)
	case json.Number:
		return validNumber(string(t))
	case map[string]any:
		for k, e := range t {
			if !utf8.ValidString(k) || !jsonValue(e) {
				return false
			}
		}
		return true
	case []any:
		for _, e := range t {
			if !jsonValue(e) {
				return false
			}
		}
		return true
	}
	return false
}

// validNumber tells whether s is a JSON number literal (RFC 8259 §6), as
// json.Marshal checks a json.Number.
func validNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	default:
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if i >= len(s) || s[i] < '0' || s[i] > '9' {
			return false
		}
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if i >= len(s) || s[i] < '0' || s[i] > '9' {
			return false
		}
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	}
	return i == len(s)
}
