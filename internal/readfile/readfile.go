package readfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// Limit is how much of one kind of file a reader takes, and what the
// error says when a file is larger.
type Limit struct {
	// Max is the largest size accepted, in bytes.
	Max int64
	// What names the kind of file in the error: "a fault file",
	// "a template body".
	What string
	// Hint says what to do with a larger file (may be empty).
	Hint string
}

// TooLargeError: a file (or stream) larger than its limit.
type TooLargeError struct {
	// Name is the file as the user wrote it.
	Name string
	// Size is the file's size; -1 when it is not known (a pipe or a
	// device, read until the limit was passed).
	Size  int64
	Limit Limit
}

func (e *TooLargeError) Error() string {
	what := e.Limit.What
	if what == "" {
		what = "the file"
	}
	var b strings.Builder
	if e.Size >= 0 {
		fmt.Fprintf(&b, "%s is %s bytes, more than the %s bytes %s may hold", e.Name, Bytes(e.Size), Bytes(e.Limit.Max), what)
	} else {
		fmt.Fprintf(&b, "%s holds more than the %s bytes %s may hold", e.Name, Bytes(e.Limit.Max), what)
	}
	if e.Limit.Hint != "" {
		b.WriteString(": ")
		b.WriteString(e.Limit.Hint)
	}
	return b.String()
}

// Read reads the file at path, refusing it with a *TooLargeError when it
// is larger than lim.Max. A regular file is refused by its size, before a
// byte is read; anything else is read until lim.Max is passed and no
// further. The errors of opening and reading are os's, unwrapped, so that
// callers word them as they did.
func Read(path string, lim Limit) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size := int64(-1)
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		size = fi.Size()
		if size > lim.Max {
			return nil, &TooLargeError{Name: path, Size: size, Limit: lim}
		}
	}
	return read(f, path, lim, size)
}

// ReadFrom reads r to its end, refusing it with a *TooLargeError as soon
// as more than lim.Max bytes came; name names it in the error.
func ReadFrom(r io.Reader, name string, lim Limit) ([]byte, error) {
	return read(r, name, lim, -1)
}

// read reads at most lim.Max+1 bytes of r into a buffer sized for size
// (the file's size when known), so that a file is read into one
// allocation of its own size.
func read(r io.Reader, name string, lim Limit, size int64) ([]byte, error) {
	initial := int64(512)
	if size >= 0 {
		initial = size + 1 // +1: the read that sees the end
	}
	buf := make([]byte, 0, min(initial, lim.Max+1))
	lr := io.LimitReader(r, lim.Max+1)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := lr.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if int64(len(buf)) > lim.Max {
			// The file grew, or is not a regular file.
			if size > lim.Max {
				return nil, &TooLargeError{Name: name, Size: size, Limit: lim}
			}
			return nil, &TooLargeError{Name: name, Size: -1, Limit: lim}
		}
		if errors.Is(err, io.EOF) {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// Bytes writes a size with thousands separators: 51200 → "51,200".
func Bytes(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
