package main

import (
	"encoding/json"
	"fmt"
	"time"
)

// toObject turns an engine answer (a struct with the AWS CLI's JSON names)
// into the ordered value the renderer prints: members keep the order of the
// struct's fields, numbers stay exact, and timestamps are written as the
// AWS CLI v2 writes them (Python's isoformat: 2025-01-01T00:00:06+00:00).
func toObject(v any) (any, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	out, err := parseOrdered(data)
	if err != nil {
		return nil, fmt.Errorf("render %T: %w", v, err)
	}
	return out, nil
}

// mustObject is toObject for values that always marshal (the engine's
// answers): a failure is a bug.
func mustObject(v any) object {
	o, err := toObject(v)
	if err != nil {
		panic(err)
	}
	obj, ok := o.(object)
	if !ok {
		panic(fmt.Sprintf("render %T: not an object", v))
	}
	return obj
}

// timestampKeys are the members that hold timestamps in CloudFormation's
// shapes.
var timestampKeys = map[string]bool{
	"CreationTime": true, "LastUpdatedTime": true, "DeletionTime": true, "Timestamp": true,
	"LastUpdatedTimestamp": true, "LastCheckTimestamp": true, "StartTime": true, "EndTime": true,
}

// pyISOTime formats a time as Python's datetime.isoformat() does for a UTC
// time: microseconds only when there are some.
func pyISOTime(t time.Time) string {
	t = t.UTC()
	layout := "2006-01-02T15:04:05+00:00"
	if t.Nanosecond()/1000 != 0 {
		// Go's .000000 truncates to microseconds, as Python keeps them.
		layout = "2006-01-02T15:04:05.000000+00:00"
	}
	var b [32]byte
	return string(t.AppendFormat(b[:0], layout))
}
