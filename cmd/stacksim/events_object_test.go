package main

import (
	"reflect"
	"testing"
	"time"

	"github.com/stacksim/stacksim/engine"
)

// eventsObject builds what toObject reads back from the answer's JSON:
// every field of engine.StackEvent filled (so a field added to the struct
// and not to eventsObject fails here), each omitempty one left empty in
// turn, timestamps with and without microseconds and in another zone,
// strings JSON escapes, no events, and a NextToken.
func TestEventsObjectMatchesToObject(t *testing.T) {
	full := func(i int) engine.StackEvent {
		var ev engine.StackEvent
		v := reflect.ValueOf(&ev).Elem()
		for f := 0; f < v.NumField(); f++ {
			switch fv := v.Field(f); fv.Kind() {
			case reflect.String:
				fv.SetString(v.Type().Field(f).Name + "-\"<é\x01\\>" + string(rune('a'+i%26)))
			case reflect.Struct:
				if _, ok := fv.Interface().(time.Time); !ok {
					t.Fatalf("StackEvent.%s: a field eventsObject does not know", v.Type().Field(f).Name)
				}
			default:
				t.Fatalf("StackEvent.%s: a field eventsObject does not know", v.Type().Field(f).Name)
			}
		}
		ev.Timestamp = time.Date(2025, 1, 1, 0, 0, i%60, 0, time.UTC)
		return ev
	}
	var events []engine.StackEvent
	for i := 0; i < 40; i++ {
		ev := full(i)
		v := reflect.ValueOf(&ev).Elem()
		if f := i % (v.NumField() + 1); f < v.NumField() && v.Field(f).Kind() == reflect.String {
			v.Field(f).SetString("")
		}
		switch i % 4 {
		case 1:
			ev.Timestamp = ev.Timestamp.Add(123456789 * time.Nanosecond)
		case 2:
			ev.Timestamp = ev.Timestamp.In(time.FixedZone("x", -5*3600)).Add(999 * time.Nanosecond)
		case 3:
			ev.Timestamp = ev.Timestamp.Add(1500 * time.Nanosecond)
		}
		events = append(events, ev)
	}
	for name, out := range map[string]*engine.DescribeStackEventsOutput{
		"events":          {StackEvents: events},
		"events and next": {StackEvents: events[:3], NextToken: "tok=="},
		"none":            {StackEvents: []engine.StackEvent{}},
		"nil":             {},
	} {
		want, err := toObject(out)
		if err != nil {
			t.Fatal(err)
		}
		if got := eventsObject(out); !reflect.DeepEqual(any(got), want) {
			t.Errorf("%s:\n got %#v\nwant %#v", name, got, want)
		}
	}
}

// pyISOTime writes Python's isoformat of a UTC time.
func TestPyISOTime(t *testing.T) {
	for in, want := range map[time.Time]string{
		time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC):                      "2025-01-02T03:04:05+00:00",
		time.Date(2025, 1, 2, 3, 4, 5, 1000, time.UTC):                   "2025-01-02T03:04:05.000001+00:00",
		time.Date(2025, 1, 2, 3, 4, 5, 999, time.UTC):                    "2025-01-02T03:04:05+00:00",
		time.Date(2025, 1, 2, 3, 4, 5, 123456789, time.UTC):              "2025-01-02T03:04:05.123456+00:00",
		time.Date(2025, 1, 2, 22, 4, 5, 0, time.FixedZone("x", -3*3600)): "2025-01-03T01:04:05+00:00",
	} {
		if got := pyISOTime(in); got != want {
			t.Errorf("%v: %s, want %s", in, got, want)
		}
	}
}
