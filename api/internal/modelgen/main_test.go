package main

import (
	"bytes"
	"errors"
	"os"
	"testing"
)

// TestGeneratedIsCurrent regenerates api/model_gen.go from the machine's
// botocore and compares it with the committed file.
func TestGeneratedIsCurrent(t *testing.T) {
	path, err := FindModel()
	if errors.Is(err, ErrNoModel) {
		t.Skip("skipped: python3 with botocore is not on this machine, so api/model_gen.go cannot be checked against the model")
	}
	if err != nil {
		t.Fatal(err)
	}
	data, err := ReadModel(path)
	if err != nil {
		t.Fatal(err)
	}
	want, err := Generate(data)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../../model_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("api/model_gen.go is stale against %s: run 'go run ./api/internal/modelgen' and commit it", path)
	}
}
