package template

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// FuzzParse feeds arbitrary bodies to Parse, and what parses to Bind and
// to the resolution of every property and output. Nothing may panic, and
// every error must be the package's positioned *Error.
func FuzzParse(f *testing.F) {
	_ = filepath.WalkDir("testdata", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
		return nil
	})
	f.Add([]byte(`{"Resources": {"A": {"Type": "AWS::SNS::Topic", "Properties": {"X": {"Fn::Sub": "${A.Arn}"}}}}}`))
	f.Add([]byte("Resources:\n  A: {Type: AWS::SNS::Topic, Properties: {X: !Select [0, !Cidr [10.0.0.0/16, 1, 8]]}}\n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		done := make(chan struct{})
		defer close(done)
		go func() {
			select {
			case <-done:
			case <-time.After(10 * time.Second): // a hang shows up as a crasher
				panic(fmt.Sprintf("SLOWINPUT %q", body))
			}
		}()
		tpl, err := Parse("fuzz", body)
		if err != nil {
			if AsList(err) == nil {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		_ = tpl.Capabilities()
		for _, r := range tpl.Resources {
			_ = tpl.References(r.LogicalID)
		}
		b, err := tpl.Bind(BindInput{Pseudo: testPseudo})
		if err != nil {
			if AsList(err) == nil {
				t.Fatalf("bind error of type %T: %v", err, err)
			}
			return
		}
		r := fakeResolver{}
		for _, res := range b.Resources() {
			for _, attr := range []string{"Properties", "Metadata", "CreationPolicy", "UpdatePolicy"} {
				_, _ = b.ResourceAttribute(res.LogicalID, attr, r)
			}
		}
		for _, o := range b.Outputs() {
			_, _ = b.OutputValue(o.Name, r)
			_, _, _ = b.ExportName(o.Name, r)
		}
	})
}
