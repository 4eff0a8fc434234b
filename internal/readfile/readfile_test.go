package readfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// zeros is an endless stream, as /dev/zero is.
type zeros struct{ read int64 }

func (z *zeros) Read(p []byte) (int, error) {
	clear(p)
	z.read += int64(len(p))
	return len(p), nil
}

func TestRead(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, size int) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(strings.Repeat("x", size)), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	lim := Limit{Max: 100, What: "a test file", Hint: "make it smaller"}
	tests := []struct {
		name    string
		path    string
		size    int    // bytes read, when accepted
		wantErr string // the error, when refused
	}{
		{"empty", write("empty", 0), 0, ""},
		{"small", write("small", 10), 10, ""},
		{"at the limit", write("limit", 100), 100, ""},
		{"one byte over", write("over", 101), 0, "over is 101 bytes, more than the 100 bytes a test file may hold: make it smaller"},
		{"far over", write("far", 5000), 0, "far is 5,000 bytes, more than the 100 bytes a test file may hold: make it smaller"},
		{"not a regular file", "/dev/zero", 0, "/dev/zero holds more than the 100 bytes a test file may hold: make it smaller"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := os.Stat(tc.path); err != nil {
				t.Skip(err)
			}
			data, err := Read(tc.path, lim)
			if tc.wantErr == "" {
				if err != nil || len(data) != tc.size {
					t.Fatalf("Read: %d bytes, %v; want %d bytes", len(data), err, tc.size)
				}
				return
			}
			var tl *TooLargeError
			if !errors.As(err, &tl) {
				t.Fatalf("Read: %d bytes, %v; want a *TooLargeError", len(data), err)
			}
			if got := strings.TrimPrefix(err.Error(), dir+string(filepath.Separator)); got != tc.wantErr {
				t.Fatalf("error\n got %s\nwant %s", got, tc.wantErr)
			}
		})
	}
}

func TestReadMissing(t *testing.T) {
	_, err := Read(filepath.Join(t.TempDir(), "nope"), Limit{Max: 10})
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Read of a missing file: %v, want fs.ErrNotExist unwrapped", err)
	}
}

// A stream is read up to the limit and no further.
func TestReadFromStopsAtTheLimit(t *testing.T) {
	z := &zeros{}
	_, err := ReadFrom(z, "stdin", Limit{Max: 1 << 20, What: "a fault file"})
	var tl *TooLargeError
	if !errors.As(err, &tl) || tl.Size != -1 {
		t.Fatalf("ReadFrom: %v", err)
	}
	if z.read > 2<<20 {
		t.Errorf("read %d bytes of an endless stream for a limit of 1 MiB", z.read)
	}
	if want := "stdin holds more than the 1,048,576 bytes a fault file may hold"; err.Error() != want {
		t.Errorf("error\n got %s\nwant %s", err, want)
	}
	data, err := ReadFrom(io.LimitReader(&zeros{}, 1000), "stdin", Limit{Max: 1000})
	if err != nil || len(data) != 1000 {
		t.Fatalf("ReadFrom at the limit: %d bytes, %v", len(data), err)
	}
}

func TestExcerpt(t *testing.T) {
	long := strings.Repeat("a", MaxQuote+50)
	accented := strings.Repeat("a", MaxQuote-1) + "é" + "tail" // é straddles the cut
	tests := []struct{ in, excerpt, quote string }{
		{"short", "short", `"short"`},
		{"", "", `""`},
		{long, long[:MaxQuote] + "... (250 bytes in all)", `"` + long[:MaxQuote] + `"... (250 bytes in all)`},
		{accented, accented[:MaxQuote-1] + "... (205 bytes in all)", `"` + accented[:MaxQuote-1] + `"... (205 bytes in all)`},
	}
	for _, tc := range tests {
		if got := Excerpt(tc.in); got != tc.excerpt {
			t.Errorf("Excerpt(%d bytes) = %q, want %q", len(tc.in), got, tc.excerpt)
		}
		if got := Quote(tc.in); got != tc.quote {
			t.Errorf("Quote(%d bytes) = %s, want %s", len(tc.in), got, tc.quote)
		}
	}
}

func TestBytes(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", 51200: "51,200", 1048576: "1,048,576", -1234: "-1,234"} {
		if got := Bytes(n); got != want {
			t.Errorf("Bytes(%d) = %s, want %s", n, got, want)
		}
	}
}
