package webview

import (
	"bytes"
	"context"
	"flag"
	"os"
	"testing"

	"github.com/goccy/go-graphviz"
)

var update = flag.Bool("update", false, "rewrite layout.json and the golden files")

// layout.json is dot's layout of the diagram statemachine's tables make
// now: when the tables change, go test ./webview -run
// TestMachineLayoutCurrent -update lays it out again. (Graphviz runs here
// only, as WebAssembly, never in stacksim itself.)
func TestMachineLayoutCurrent(t *testing.T) {
	nodes, arcs := stackMachine()
	ctx := context.Background()
	gv, err := graphviz.New(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer gv.Close()
	g, err := graphviz.ParseBytes([]byte(machineDOT(nodes, arcs)))
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	var out bytes.Buffer
	if err := gv.Render(ctx, g, graphviz.Format("plain"), &out); err != nil {
		t.Fatal(err)
	}
	l, err := parsePlain(out.String())
	if err != nil {
		t.Fatal(err)
	}
	want := marshalLayout(l)
	if *update {
		if err := os.WriteFile("layout.json", want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(layoutJSON, want) && !*update {
		t.Fatal("layout.json is not dot's layout of the state machine's tables now: run go test ./webview -run TestMachineLayoutCurrent -update and commit it")
	}
	for _, n := range nodes {
		if _, ok := l.Nodes[dotID(n.Status)]; !ok {
			t.Errorf("dot placed no node %s", dotID(n.Status))
		}
	}
	for _, a := range arcs {
		if len(l.Arcs[a.key()].Points) < 4 {
			t.Errorf("dot drew no arc %s", a.key())
		}
	}
}
