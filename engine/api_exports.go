package engine

import (
	"context"
	"slices"

	"github.com/stacksim/stacksim/engine/store"
)

// ListExportsInput is ListExports' request.
type ListExportsInput struct {
	NextToken string `json:"NextToken,omitempty"`
}

// ListExportsOutput is ListExports' answer.
type ListExportsOutput struct {
	Exports   []Export `json:"Exports"`
	NextToken string   `json:"NextToken,omitempty"`
}

// ListExports lists the exported output values of the account and region,
// by name, a page at a time.
func (e *Engine) ListExports(ctx context.Context, in ListExportsInput) (*ListExportsOutput, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := &ListExportsOutput{Exports: []Export{}}
	err := e.view(func(tx *txn) error {
		after := ""
		if in.NextToken != "" {
			parts, err := decodeToken(in.NextToken, "ListExports", 1)
			if err != nil {
				return err
			}
			after = parts[0]
		}
		size := e.pageSize()
		tx.ScanFrom(store.TExports, store.IxID, "", after, func(r store.Record) bool {
			x := r.(*store.ExportRecord)
			if in.NextToken != "" && x.Name <= after {
				return true
			}
			if len(out.Exports) == size {
				out.NextToken = encodeToken("ListExports", out.Exports[len(out.Exports)-1].Name)
				return false
			}
			out.Exports = append(out.Exports, Export{ExportingStackId: x.StackId, Name: x.Name, Value: x.Value})
			return true
		})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// ListImportsInput is ListImports' request.
type ListImportsInput struct {
	ExportName string `json:"ExportName"`
	NextToken  string `json:"NextToken,omitempty"`
}

// ListImportsOutput is ListImports' answer: the names of the stacks that
// import the export.
type ListImportsOutput struct {
	Imports   []string `json:"Imports"`
	NextToken string   `json:"NextToken,omitempty"`
}

// ListImports lists the stacks that import an exported value, by name, a
// page at a time. An export no stack imports is an error, as in AWS.
func (e *Engine) ListImports(ctx context.Context, in ListImportsInput) (*ListImportsOutput, error) {
	if in.ExportName == "" {
		return nil, requiredError("exportName")
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	out := &ListImportsOutput{Imports: []string{}}
	err := e.view(func(tx *txn) error {
		var names []string
		for _, id := range tx.Importers(in.ExportName) {
			if st := tx.StackByID(id); st != nil && st.Live() {
				names = append(names, st.StackName)
			}
		}
		if len(names) == 0 {
			// Recorded from AWS: "Export 'NAME' is not imported by any
			// stack." (ValidationError).
			return ValidationError("Export '%s' is not imported by any stack.", in.ExportName)
		}
		slices.Sort(names)
		start := 0
		if in.NextToken != "" {
			parts, err := decodeToken(in.NextToken, "ListImports", 2)
			if err != nil {
				return err
			}
			if parts[0] != in.ExportName {
				return invalidToken()
			}
			start, _ = slices.BinarySearch(names, parts[1])
		}
		size := e.pageSize()
		for _, name := range names[start:] {
			if len(out.Imports) == size {
				out.NextToken = encodeToken("ListImports", in.ExportName, name)
				break
			}
			out.Imports = append(out.Imports, name)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
