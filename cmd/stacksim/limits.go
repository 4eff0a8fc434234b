package main

import (
	"errors"

	"github.com/stacksim/stacksim/internal/readfile"
	"github.com/stacksim/stacksim/template"
)

// The limits of the files the CLI reads itself (README.md lists every
// limit). Every file is read through internal/readfile.
var (
	// paramFileLimit bounds a file:// value of --parameters, --tags and
	// the list flags: CloudFormation takes at most 200 parameters of 4,096
	// bytes, far less than this.
	paramFileLimit = readfile.Limit{Max: 1 << 20, What: "a file:// value",
		Hint: "CloudFormation takes at most 200 parameters of 4,096 bytes and 50 tags; check the path"}
	// goldenLimit bounds run --golden FILE (an event log).
	goldenLimit = readfile.Limit{Max: 8 << 20, What: "a golden event log",
		Hint: "a golden log is the event log of one scenario; check the path"}
	// templateBodyLimit is AWS's TemplateBody quota; the error is AWS's
	// (template.BodySizeError).
	templateBodyLimit = readfile.Limit{Max: template.MaxBodyBytes, What: "a template body"}
)

// readTemplateFile reads the file of --template-body file://PATH,
// refusing one larger than AWS's TemplateBody quota with AWS's error.
func readTemplateFile(path string) ([]byte, error) {
	data, err := readfile.Read(path, templateBodyLimit)
	var tl *readfile.TooLargeError
	if errors.As(err, &tl) {
		return nil, template.BodySizeError(path, tl.Size)
	}
	return data, err
}
