package contract

import (
	"strconv"
	"testing"
)

// The checker remembers at least deletedWindow deleted identifiers, and
// forgets the older ones (a long session deletes without end); a create
// of an identifier makes it not deleted.
func TestDeletedIDsWindow(t *testing.T) {
	var d deletedIDs
	id := func(i int) string { return "id-" + strconv.Itoa(i) }
	for i := 0; i < 2*deletedWindow+10; i++ {
		d.add(id(i))
	}
	for _, c := range []struct {
		i    int
		want bool
	}{
		{0, false}, {deletedWindow - 1, false}, // the oldest window: forgotten
		{deletedWindow, true}, {2*deletedWindow - 1, true}, // the older generation
		{2 * deletedWindow, true}, {2*deletedWindow + 9, true}, // the newer
		{2*deletedWindow + 10, false}, // never deleted
	} {
		if got := d.has(id(c.i)); got != c.want {
			t.Errorf("deleted %s: %v, want %v", id(c.i), got, c.want)
		}
	}
	if n := len(d.newer) + len(d.older); n > 2*deletedWindow {
		t.Errorf("remembers %d identifiers, more than two windows", n)
	}
	d.remove(id(deletedWindow))
	d.remove(id(2 * deletedWindow))
	if d.has(id(deletedWindow)) || d.has(id(2*deletedWindow)) {
		t.Error("an identifier created again is still deleted")
	}
}
