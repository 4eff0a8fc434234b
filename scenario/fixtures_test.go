package scenario

import (
	"context"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden logs of the fixtures with the current ones")

// TestFixtures replays every scenario of fixtures/ and compares its event log
// with the golden.log beside it (go test ./scenario -update rewrites them).
func TestFixtures(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("..", "fixtures", "*", "scenario.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) < 20 {
		t.Fatalf("found %d fixtures, expected every lifecycle", len(paths))
	}
	for _, path := range paths {
		dir := filepath.Dir(path)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			if filepath.Base(dir) == "serverless" {
				if err := exec.Command("python3", "-c", "import samtranslator").Run(); err != nil {
					t.Skipf("python3 cannot import samtranslator (pip install aws-sam-translator): %v", err)
				}
			}
			sc, err := LoadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Run(context.Background(), sc, Options{})
			if err != nil {
				t.Fatalf("%v\n%s", err, res.Log())
			}
			for _, f := range res.Failures {
				t.Error(f)
			}
			golden := filepath.Join(dir, "golden.log")
			if *update {
				if err := os.WriteFile(golden, []byte(res.Log()), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v: run 'go test ./scenario -update' to write it", err)
			}
			if d := Diff(string(want), res.Log()); d != "" {
				t.Errorf("the event log differs from %s (- golden, + now); if the change is right, run 'go test ./scenario -update':\n%s", golden, d)
			}
		})
	}
}

// TestFixturesDeterministic replays one fixture twice: the same bytes.
func TestFixturesDeterministic(t *testing.T) {
	sc, err := LoadFile(filepath.Join("..", "fixtures", "custom-resource-changing-id", "scenario.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	a, err := Run(context.Background(), sc, Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Run(context.Background(), sc, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d := Diff(a.Log(), b.Log()); d != "" {
		t.Errorf("two runs differ:\n%s", d)
	}
}
