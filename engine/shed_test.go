package engine

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stacksim/stacksim/engine/store"
)

// After a save, a deleted stack's rows leave memory (Store.ShedDeleted):
// a long serve session holds its live stacks, not every stack it ever
// deleted. What the API answers for the deleted stack (by its ARN) is the
// same before and after, read back from the file; the rows read back are
// shed again at the next save; a live stack keeps its rows. With a buffer
// of 8 rows the rows are in memdb when they are shed.
func TestShedDeletedStacks(t *testing.T) {
	for _, small := range []bool{false, true} {
		t.Run(fmt.Sprintf("memdb=%v", small), func(t *testing.T) {
			if small {
				defer func(n int) { store.MaxBuffered = n }(store.MaxBuffered)
				store.MaxBuffered = 8
			}
			path := filepath.Join(t.TempDir(), "state.db")
			e, err := Open(path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = e.Close() }()
			var b strings.Builder
			b.WriteString("Resources:\n")
			for i := 0; i < 30; i++ {
				fmt.Fprintf(&b, "  P%02d:\n    Type: AWS::SSM::Parameter\n    Properties: {Type: String, Value: v%d}\n", i, i)
			}
			ids := map[string]string{}
			for _, name := range []string{"early", "gone", "kept"} {
				out, err := e.CreateStack(ctx(), CreateStackInput{StackName: name, TemplateBody: b.String()})
				if err != nil {
					t.Fatal(err)
				}
				ids[name] = out.StackId
			}
			run := func() {
				t.Helper()
				if _, err := e.Run(ctx()); err != nil {
					t.Fatal(err)
				}
			}
			del := func(name string) {
				t.Helper()
				if _, err := e.DeleteStack(ctx(), DeleteStackInput{StackName: name}); err != nil {
					t.Fatal(err)
				}
				run()
			}
			save := func() {
				t.Helper()
				if err := e.Save(); err != nil {
					t.Fatal(err)
				}
			}
			run()
			del("early")
			save() // the first save writes the whole file: early is shed from there
			del("gone")
			answers := func(id string) string {
				t.Helper()
				var out strings.Builder
				for token := ""; ; {
					ev, err := e.DescribeStackEvents(ctx(), DescribeStackEventsInput{StackName: id, NextToken: token})
					if err != nil {
						t.Fatal(err)
					}
					out.Write(mustJSON(t, ev))
					if token = ev.NextToken; token == "" {
						break
					}
				}
				rs, err := e.DescribeStackResources(ctx(), DescribeStackResourcesInput{StackName: id})
				if err != nil {
					t.Fatal(err)
				}
				out.Write(mustJSON(t, rs))
				return out.String()
			}
			resident := func(name string) int {
				t.Helper()
				st := e.st.Read().StackByID(ids[name])
				n := 0
				for _, tb := range []store.TableID{store.TResources, store.TRetired, store.TEvents} {
					n += e.st.Resident(tb, store.NumKey(st.Num))
				}
				return n
			}
			before := map[string]string{}
			for name, id := range ids {
				before[name] = answers(id)
			}
			if n := resident("gone"); n < 30 {
				t.Fatalf("before the save memory holds %d rows of the deleted stack, want its 30 resources and more", n)
			}
			kept := resident("kept")
			save()
			for _, name := range []string{"early", "gone"} {
				if n := resident(name); n != 0 {
					t.Fatalf("after the save memory holds %d rows of deleted stack %s, want none", n, name)
				}
			}
			if n := resident("kept"); n != kept {
				t.Fatalf("the live stack has %d rows in memory after the save, %d before: it must keep them", n, kept)
			}
			for name, id := range ids {
				if got := answers(id); got != before[name] {
					t.Fatalf("stack %s is described otherwise once shed:\n%s", name, lineDiff(before[name], got))
				}
			}
			if n := resident("gone"); n == 0 {
				t.Fatal("describing the deleted stack read none of its rows back")
			}
			save()
			if n := resident("gone"); n != 0 {
				t.Fatalf("the rows read back stay in memory after the next save (%d)", n)
			}
			// What was shed is in the file: the next process reads the same.
			if err := e.Close(); err != nil {
				t.Fatal(err)
			}
			if e, err = Open(path, Options{}); err != nil {
				t.Fatal(err)
			}
			for name, id := range ids {
				if got := answers(id); got != before[name] {
					t.Fatalf("stack %s is described otherwise after a reopen:\n%s", name, lineDiff(before[name], got))
				}
			}
		})
	}
}
