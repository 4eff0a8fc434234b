package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stacksim/stacksim/engine"
)

// decodeOrderedRef is what parseOrdered replaced: encoding/json's tokens
// into the renderers' values. The tests hold parseOrdered to it.
func decodeOrderedRef(dec *json.Decoder, key string) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			o := object{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k := kt.(string)
				v, err := decodeOrderedRef(dec, k)
				if err != nil {
					return nil, err
				}
				o = append(o, member{k, v})
			}
			_, err := dec.Token()
			return o, err
		case '[':
			list := []any{}
			for dec.More() {
				v, err := decodeOrderedRef(dec, key)
				if err != nil {
					return nil, err
				}
				list = append(list, v)
			}
			_, err := dec.Token()
			return list, err
		}
	case string:
		if timestampKeys[key] {
			if ts, err := time.Parse(time.RFC3339Nano, t); err == nil {
				return pyISOTime(ts), nil
			}
		}
		return t, nil
	case json.Number:
		return t, nil
	case bool:
		return t, nil
	case nil:
		return nil, nil
	}
	return nil, fmt.Errorf("unexpected JSON token %v", tok)
}

func refOrdered(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeOrderedRef(dec, "")
	if err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("trailing data")
	}
	return v, nil
}

func TestParseOrderedMatchesDecoder(t *testing.T) {
	for _, in := range []string{
		`{}`, `[]`, `{"a":[],"b":{}}`, `{"Timestamp":"2025-01-01T00:00:05.25Z","x":"2025-01-01T00:00:05Z"}`,
		`{"s":"q\"b\\s\/\b\f\n\r\t\u00e9\ud83d\ude00\ud800x\ud800\u0041é"}`,
		`[1,-2.5e10,0,true,false,null,"x"]`, ` { "k" : [ { "CreationTime" : "bad" } ] } `,
	} {
		got, err := parseOrdered([]byte(in))
		want, werr := refOrdered([]byte(in))
		if (err != nil) != (werr != nil) || !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %#v %v\nwant %#v %v", in, got, err, want, werr)
		}
	}
}

// FuzzParseOrdered: on whatever json.Marshal writes, parseOrdered and the
// decoder agree.
func FuzzParseOrdered(f *testing.F) {
	f.Add("x", 1.5, true, "2025-01-01T00:00:00Z")
	f.Add("\u2028\x00\xff", -3.0, false, "")
	f.Fuzz(func(t *testing.T, s string, n float64, b bool, ts string) {
		v := map[string]any{"S": s, "N": n, "B": b, "Timestamp": ts, "L": []any{s, map[string]any{s: n}}, "Z": nil}
		data, err := json.Marshal(v)
		if err != nil {
			return
		}
		got, err := parseOrdered(data)
		if err != nil {
			t.Fatalf("%s: %v", data, err)
		}
		want, _ := refOrdered(data)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s:\n got %#v\nwant %#v", data, got, want)
		}
	})
}

var _ = time.Now

// writeJSONString escapes as the AWS CLI's JSON does (Python's json.dumps
// with ensure_ascii off): quotes, backslashes and control characters;
// U+FFFD and invalid UTF-8 as \ufffd; everything else as it is.
func TestWriteJSONString(t *testing.T) {
	for in, want := range map[string]string{
		"plain":           `"plain"`,
		"q\"b\\n\nr\rt\t": `"q\"b\\n\nr\rt\t"`,
		"\b\f\x00\x1f":    `"\b\f\u0000\u001f"`,
		"é😀":              `"é😀"`,
		"\ufffd\xff.":     `"\ufffd\ufffd."`,
		"":                `""`,
	} {
		var b strings.Builder
		writeJSONString(&b, in)
		if b.String() != want {
			t.Errorf("%q: %s, want %s", in, b.String(), want)
		}
	}
}

// BenchmarkPrintEvents is what describe-stack-events spends printing the
// events of a 500-resource stack as JSON (its answer made an ordered
// object, written as the AWS CLI writes it).
func BenchmarkPrintEvents(b *testing.B) {
	var resp engine.DescribeStackEventsOutput
	for i := 0; i < 1500; i++ {
		resp.StackEvents = append(resp.StackEvents, engine.StackEvent{
			StackId: "arn:aws:cloudformation:us-east-1:123456789012:stack/s1/0b6e7b1c-6f7e-4c43-a5a3-2f0f5b2f4c11",
			EventId: fmt.Sprintf("P%03d-CREATE_COMPLETE-2025-01-01T00:00:%02dZ", i%500, i%60), StackName: "s1",
			LogicalResourceId: fmt.Sprintf("P%03d", i%500), PhysicalResourceId: fmt.Sprintf("CFN-P%03d-4BT8XQ2Z", i%500),
			ResourceType: "AWS::SSM::Parameter", Timestamp: time.Date(2025, 1, 1, 0, 0, i%60, 0, time.UTC),
			ResourceStatus: "CREATE_COMPLETE", ResourceProperties: `{"Type":"String","Value":"v"}`,
		})
	}
	var buf bytes.Buffer
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		buf.Reset()
		if err := render(&buf, outputJSON, "DescribeStackEvents", eventsObject(&resp)); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(buf.Len()))
}
