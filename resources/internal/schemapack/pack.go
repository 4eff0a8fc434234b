package schemapack

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sort"
)

const (
	magic   = "stacksim-schemas\x00"
	version = 1
)

// Encode writes a pack of entries (sorted by name first), with a preset
// dictionary made from them.
func Encode(entries []Entry) ([]byte, error) {
	es := append([]Entry(nil), entries...)
	sort.Slice(es, func(i, j int) bool { return es[i].Name < es[j].Name })
	dict := Dictionary(es)
	blobs := make([][]byte, len(es))
	for i, e := range es {
		var b bytes.Buffer
		w, err := flate.NewWriterDict(&b, flate.BestCompression, dict)
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(e.Doc); err != nil {
			return nil, err
		}
		if err := w.Close(); err != nil {
			return nil, err
		}
		blobs[i] = b.Bytes()
	}
	var out []byte
	out = append(out, magic...)
	out = append(out, version)
	out = binary.AppendUvarint(out, uint64(len(dict)))
	out = append(out, dict...)
	out = binary.AppendUvarint(out, uint64(len(es)))
	for i, e := range es {
		out = binary.AppendUvarint(out, uint64(len(e.Name)))
		out = append(out, e.Name...)
		out = binary.AppendUvarint(out, uint64(len(blobs[i])))
	}
	for _, b := range blobs {
		out = append(out, b...)
	}
	return out, nil
}

// Pack is an opened pack: its index read, its documents still compressed.
type Pack struct {
	data  []byte
	dict  []byte
	names []string
	spans [][2]int // start, end of each blob in data
}

// ErrCorrupt marks a pack that cannot be read.
var ErrCorrupt = errors.New("schema pack is corrupt")

// Open reads a pack's index. data must not change afterwards.
func Open(data []byte) (*Pack, error) {
	r := &reader{b: data}
	if !bytes.HasPrefix(data, []byte(magic)) || len(data) <= len(magic) {
		return nil, fmt.Errorf("%w: no header", ErrCorrupt)
	}
	r.i = len(magic)
	if v := r.byte(); v != version {
		return nil, fmt.Errorf("%w: version %d, want %d", ErrCorrupt, v, version)
	}
	p := &Pack{data: data}
	p.dict = r.bytes(int(r.uvarint()))
	n := int(r.uvarint())
	if r.err != nil || n < 0 || n > len(data) {
		return nil, fmt.Errorf("%w: bad index", ErrCorrupt)
	}
	p.names = make([]string, n)
	sizes := make([]int, n)
	for i := 0; i < n; i++ {
		p.names[i] = string(r.bytes(int(r.uvarint())))
		sizes[i] = int(r.uvarint())
	}
	if r.err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, r.err)
	}
	p.spans = make([][2]int, n)
	off := r.i
	for i, s := range sizes {
		if s < 0 || off+s > len(data) {
			return nil, fmt.Errorf("%w: %s overruns the pack", ErrCorrupt, p.names[i])
		}
		p.spans[i] = [2]int{off, off + s}
		off += s
	}
	if !sort.StringsAreSorted(p.names) {
		return nil, fmt.Errorf("%w: index not sorted", ErrCorrupt)
	}
	return p, nil
}

// Names lists the pack's types, sorted. Callers must not change it.
func (p *Pack) Names() []string { return p.names }

// Has reports whether the pack holds a type.
func (p *Pack) Has(name string) bool {
	_, ok := p.index(name)
	return ok
}

func (p *Pack) index(name string) (int, bool) {
	i := sort.SearchStrings(p.names, name)
	return i, i < len(p.names) && p.names[i] == name
}

// Doc decompresses one type's document; ok is false when the pack has none.
func (p *Pack) Doc(name string) (doc []byte, ok bool, err error) {
	i, ok := p.index(name)
	if !ok {
		return nil, false, nil
	}
	sp := p.spans[i]
	r := flate.NewReaderDict(bytes.NewReader(p.data[sp[0]:sp[1]]), p.dict)
	defer r.Close()
	doc, err = io.ReadAll(r)
	if err != nil {
		return nil, true, fmt.Errorf("%w: %s: %v", ErrCorrupt, name, err)
	}
	return doc, true, nil
}

type reader struct {
	b   []byte
	i   int
	err error
}

func (r *reader) byte() byte {
	if r.i >= len(r.b) {
		r.err = io.ErrUnexpectedEOF
		return 0
	}
	c := r.b[r.i]
	r.i++
	return c
}

func (r *reader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b[r.i:])
	if n <= 0 {
		r.err = io.ErrUnexpectedEOF
		return 0
	}
	r.i += n
	return v
}

func (r *reader) bytes(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || r.i+n > len(r.b) {
		r.err = io.ErrUnexpectedEOF
		return nil
	}
	b := r.b[r.i : r.i+n]
	r.i += n
	return b
}
