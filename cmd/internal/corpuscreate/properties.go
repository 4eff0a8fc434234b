package main

import (
	"encoding/json"
	"strconv"

	"github.com/stacksim/stacksim/resources"
)

// schemaValues makes a parameter's value from the schema of the property
// that reads it (corpus.Properties), from the same schemas the engine
// simulates the types with.
type schemaValues struct {
	reg *resources.Registry
}

func newSchemaValues(schemaDir string) *schemaValues {
	return &schemaValues{reg: resources.NewRegistry(resources.RegistryOptions{SchemaDir: schemaDir})}
}

func (s *schemaValues) Close() error { return s.reg.Close() }

// PropertyValue is a scalar value for the property, as a string (the form
// a parameter's value has).
func (s *schemaValues) PropertyValue(typeName string, path []string, key string) (string, bool) {
	schema, err := s.reg.Schema(typeName)
	if err != nil || schema == nil {
		return "", false
	}
	v, ok := schema.ExampleValue(1, path, key)
	if !ok {
		return "", false
	}
	switch t := v.(type) {
	case string:
		return t, t != ""
	case json.Number:
		return t.String(), true
	case bool:
		return strconv.FormatBool(t), true
	}
	return "", false // an object or an array is no parameter's value
}
