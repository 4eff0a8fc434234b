package corpus

import (
	"path"
	"strings"
	"testing"
)

func TestUnmadeWellFormed(t *testing.T) {
	if len(Unmade) == 0 {
		t.Fatal("no entries")
	}
	for rel, why := range Unmade {
		switch path.Ext(rel) {
		case ".json", ".yaml", ".yml", ".template":
		default:
			t.Errorf("%s: not a template file name", rel)
		}
		if strings.HasPrefix(rel, "/") || strings.Contains(rel, "\\") {
			t.Errorf("%s: not relative to the corpus with slashes", rel)
		}
		if why.Verdict < TemplateFault || why.Verdict > StandIn || strings.HasPrefix(why.Verdict.String(), "unknown") {
			t.Errorf("%s: verdict %d", rel, why.Verdict)
		}
		if len(why.Reason) < 20 {
			t.Errorf("%s: reason %q says too little", rel, why.Reason)
		}
	}
	if got := TemplateFault.Plural(2) + ", " + CannotHave.Plural(1) + ", " + CannotHave.Plural(3); got != "2 template faults, 1 an input stacksim cannot have, 3 inputs stacksim cannot have" {
		t.Errorf("plurals: %s", got)
	}
}
