package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkHandlerProcess100 creates a stack of 100 boxes of a handler
// example (each create is two requests: the create and its callback),
// with one process per request and with one long-lived process, and
// reports the cost of one request (ms/request).
//
//	go test ./cmd/stacksim -run '^$' -bench HandlerProcess100 -benchtime 3x
func BenchmarkHandlerProcess100(b *testing.B) {
	const n = 100
	var tmpl strings.Builder
	tmpl.WriteString("Resources:\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&tmpl, "  Box%d:\n    Type: TYPE\n    Properties:\n      Name: bench-box-%d\n      Size: 1\n", i, i)
	}
	goBin := filepath.Join(b.TempDir(), "go-box")
	if out, err := exec.Command("go", "build", "-o", goBin, "./"+filepath.ToSlash(filepath.Join(examplesDir, "go"))).CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	handlers := []struct{ name, typeName, command string }{
		{"go", "Example::Go::Box", goBin},
		{"python", "Example::Python::Box", "python3 " + abs(b, filepath.Join(examplesDir, "python", "handler.py"))},
	}
	if _, err := os.Stat(filepath.Join(examplesDir, "typescript", "dist", "handlers.js")); err == nil {
		handlers = append(handlers, struct{ name, typeName, command string }{"typescript", "Example::TypeScript::Box",
			"node " + abs(b, filepath.Join(examplesDir, "launchers", "rpdk-node.js")) + " " + abs(b, filepath.Join(examplesDir, "typescript", "dist", "handlers.js"))})
	}
	for _, h := range handlers {
		lang := strings.TrimPrefix(strings.TrimSuffix(strings.ToLower(h.typeName), "::box"), "example::")
		schema := filepath.Join(examplesDir, lang, "example-"+lang+"-box.json")
		body := filepath.Join(b.TempDir(), "boxes.yaml")
		if err := os.WriteFile(body, []byte(strings.ReplaceAll(tmpl.String(), "TYPE", h.typeName)), 0o644); err != nil {
			b.Fatal(err)
		}
		for _, mode := range []string{"per-request", "persistent"} {
			scheme := "exec"
			if h.name == "typescript" {
				scheme += "+rpdk-test"
			}
			if mode == "persistent" {
				scheme += "+persistent"
			}
			b.Run(h.name+"/"+mode, func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					b.StopTimer()
					dir := b.TempDir()
					b.Setenv("EXAMPLE_CLOUD_DIR", filepath.Join(dir, "cloud"))
					b.StartTimer()
					_, errOut, code := runCLIb(b, "--state", filepath.Join(dir, "state.db"), "--quiet",
						"--handler", h.typeName+"="+scheme+":"+h.command, "--schema", h.typeName+"="+schema,
						"create-stack", "--stack-name", "boxes", "--template-body", "file://"+body)
					if code != 0 {
						b.Fatalf("create-stack: exit %d\n%s", code, errOut)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N)/float64(2*n), "ms/request")
			})
		}
	}
}

func runCLIb(b *testing.B, args ...string) (string, string, int) {
	var out, errOut strings.Builder
	code := run(args, strings.NewReader(""), &out, &errOut)
	return out.String(), errOut.String(), code
}
