package jsonvalue

import (
	"bytes"
	"encoding/json"
	"testing"
)

// samples covers every branch of Append: each kind of value, each escape,
// invalid UTF-8, numbers valid and not, nil maps and lists, other Go types.
var samples = []any{
	nil, true, false, "", "plain", "quote\" back\\slash", "\b\f\n\r\t\x00\x01\x1f\x7f",
	"<html> & </html>", "line\u2028sep\u2029", "bad \xff utf8 \xc3", "é 日本 🎉",
	json.Number("0"), json.Number("-12.5e+3"), json.Number(""), json.Number("1.5E-7"),
	map[string]any(nil), []any(nil), map[string]any{}, []any{},
	map[string]any{"b": "2", "a": []any{"x", json.Number("1"), true, nil, map[string]any{"z": "<"}}, "Ä": "k", "A": ""},
	[]any{map[string]any{"k": []any{}}, "s"},
	3.25, 7, map[string]string{"x": "y"}, []string{"a"}, struct{ A int }{1},
}

func TestMatchesEncodingJSON(t *testing.T) {
	for _, v := range samples {
		want, werr := json.Marshal(v)
		got, gerr := Marshal(v)
		if (werr != nil) != (gerr != nil) || !bytes.Equal(got, want) {
			t.Errorf("Marshal(%#v) = %s, %v; encoding/json: %s, %v", v, got, gerr, want, werr)
		}
	}
}

func TestInvalidNumberRefused(t *testing.T) {
	for _, n := range []string{"01", "1.", ".5", "1e", "--1", "+1", "0x10", "1e+", "NaN"} {
		v := map[string]any{"n": json.Number(n)}
		_, werr := json.Marshal(v)
		b := []byte("keep")
		got, gerr := Append(b, v)
		if werr == nil || gerr == nil {
			t.Errorf("%q: encoding/json error %v, Append error %v: want both refused", n, werr, gerr)
		}
		if string(got) != "keep" {
			t.Errorf("%q: Append changed its slice to %q on an error", n, got)
		}
	}
}

// FuzzMatchesEncodingJSON: any JSON document, decoded into the data model
// (numbers as json.Number), is written exactly as encoding/json writes it;
// a string of any bytes too.
func FuzzMatchesEncodingJSON(f *testing.F) {
	f.Add([]byte(`{"a":[1,"x\u2028",{"<":true}],"b":null}`), "s\xff<>&\u2029")
	f.Add([]byte(`[]`), "")
	f.Fuzz(func(t *testing.T, doc []byte, s string) {
		d := json.NewDecoder(bytes.NewReader(doc))
		d.UseNumber()
		var v any
		if d.Decode(&v) == nil {
			want, _ := json.Marshal(v)
			got, err := Marshal(v)
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("Marshal = %s, %v; encoding/json: %s", got, err, want)
			}
		}
		want, _ := json.Marshal(s)
		if got := AppendString(nil, s); !bytes.Equal(got, want) {
			t.Fatalf("AppendString(%q) = %s; encoding/json: %s", s, got, want)
		}
	})
}

func BenchmarkAppend(b *testing.B) {
	v := map[string]any{"Name": "param-0001", "Type": "String", "Value": "some value <with> chars", "Tags": []any{map[string]any{"Key": "k", "Value": "v"}}, "Tier": "Standard"}
	b.Run("jsonvalue", func(b *testing.B) {
		var buf []byte
		for i := 0; i < b.N; i++ {
			buf, _ = Append(buf[:0], v)
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			_, _ = json.Marshal(v)
		}
	})
}
