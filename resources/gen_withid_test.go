package resources

import (
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// withID puts an id into an ARN template ({$id}, {$id!lower}) as text: how
// the value generator filled its templates before expandWithID, kept as
// the reference it must answer as.
func withID(tpl, id string) string {
	id = braces.Replace(id)
	tpl = strings.ReplaceAll(tpl, "{$id!lower}", strings.ToLower(id))
	return strings.ReplaceAll(tpl, "{$id}", id)
}

// expandWithID, which fills a template compiled once, must answer what
// expanding the template with the id written into it (withID) answers:
// the same text, the same randomness, and an error where it errs (an
// unclosed template's message quotes its text from the brace on, which
// holds the id or not). Every ARN and id template of the value generator,
// with ids plain and awkward.
func TestExpandWithIDMatchesWithID(t *testing.T) {
	var tpls []string
	for _, m := range []map[string]string{ownARNs, foreignARNs} {
		for _, v := range m {
			tpls = append(tpls, v)
		}
	}
	sort.Strings(tpls)
	tpls = append(tpls, "{$id}", "{$id!lower}-{$upper:8}", "x{$id}{$hex:4}{$id!lower}", "{$id:3}{$lower:5}", "a{$id", "{$id}}{")
	ids := []string{"s-Queue-ABC123", "MiXeD", "", "with{$upper:4}braces}", "{$id}"}
	req := &Request{Region: "eu-west-1", AWSAccountID: "123456789012", AWSPartition: "aws",
		StackID: "arn:aws:cloudformation:eu-west-1:123456789012:stack/s/0a1b", LogicalResourceIdentifier: "R"}
	for i, tpl := range tpls {
		for j, id := range ids {
			purpose := "gen:/properties/P" + strconv.Itoa(i*len(ids)+j)
			a := newEnv(req, 7, time.Unix(0, 0).UTC(), map[string]any{})
			b := newEnv(req, 7, time.Unix(0, 0).UTC(), map[string]any{})
			want, wantErr := a.expandString(withID(tpl, id), purpose)
			got, gotErr := b.expandWithID(tpl, id, purpose)
			if got != want || (gotErr == nil) != (wantErr == nil) {
				t.Errorf("%q with id %q: got %q, %v; want %q, %v", tpl, id, got, gotErr, want, wantErr)
			}
		}
	}
}

func TestIsIndex(t *testing.T) {
	for _, s := range []string{"", "0", "7", "12", "007", "-1", "+3", "-", "+", "1-", "a", "Tags", "1a", "99999999999999999999", "123456789012345678", "1234567890123456789", " 1", "1 "} {
		_, err := strconv.Atoi(s)
		if got, want := isIndex(s), err == nil; got != want {
			t.Errorf("isIndex(%q) = %v, Atoi says %v", s, got, want)
		}
	}
}
