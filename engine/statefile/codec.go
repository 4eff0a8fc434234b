package statefile

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"reflect"
	"strconv"
	"unsafe"

	"github.com/stacksim/stacksim/engine/store"
	"github.com/stacksim/stacksim/resources"
)

// The rows of a state file of format 2, one value per row (db.go):
//
//	byte 0       the value's codec version (1)
//	bytes 1..4   CRC-32C of the row's key and of bytes 5.., big-endian
//	then         the row's keys in the secondary indexes of its table: a
//	             count (uvarint), then per index in store.Indexes order a
//	             byte (0: not in it; 1: in it) and, when in it, the key as
//	             uvarint length and bytes
//	then         the row: JSON, the same fields as format 1's rows (an
//	             event chunk has its own shape: chunkJSON)
//
// The checksum makes a damaged value, or a value moved to another key, a
// refused file rather than a wrong world; the index keys let a save remove
// the index entries of the row it replaces without decoding it.

const codecVersion = 1

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// encodeValue makes the stored value of a row, and returns its index keys
// (one per index of its table, "" and false where the row is not in it).
func encodeValue(enc *rowEncoder, key string, r store.Record) ([]byte, []indexKey, error) {
	payload, err := enc.row(r)
	if err != nil {
		return nil, nil, err
	}
	idx := indexKeys(r)
	b := make([]byte, 5, 5+8+len(payload)+32*len(idx))
	b[0] = codecVersion
	b = binary.AppendUvarint(b, uint64(len(idx)))
	for _, k := range idx {
		if !k.ok {
			b = append(b, 0)
			continue
		}
		b = append(b, 1)
		b = binary.AppendUvarint(b, uint64(len(k.key)))
		b = append(b, k.key...)
	}
	b = append(b, payload...)
	binary.BigEndian.PutUint32(b[1:5], checksum(key, b[5:]))
	return b, idx, nil
}

// indexKey is a row's key in one index of its table (ok false: the row is
// not in that index).
type indexKey struct {
	key string
	ok  bool
}

// indexKeys returns a row's keys in the indexes of its table, in
// store.Indexes order.
func indexKeys(r store.Record) []indexKey {
	names := store.Indexes(r.Table())
	if len(names) == 0 {
		return nil
	}
	out := make([]indexKey, len(names))
	for _, k := range store.IndexKeys(r) {
		for i, n := range names {
			if n == k.Index {
				out[i] = indexKey{key: k.Key, ok: true}
			}
		}
	}
	return out
}

func checksum(key string, rest []byte) uint32 {
	h := crc32.Update(0, castagnoli, []byte(key))
	return crc32.Update(h, castagnoli, rest)
}

// value is a stored value taken apart.
type value struct {
	idx     []indexKey
	payload []byte
}

// splitValue checks a stored value and takes it apart.
func splitValue(key string, b []byte) (value, error) {
	if len(b) < 6 || b[0] != codecVersion {
		return value{}, fmt.Errorf("its value is not a row of this format")
	}
	if checksum(key, b[5:]) != binary.BigEndian.Uint32(b[1:5]) {
		return value{}, fmt.Errorf("its checksum does not match: the value is damaged")
	}
	rest := b[5:]
	n, w := binary.Uvarint(rest)
	if w <= 0 || n > 16 {
		return value{}, fmt.Errorf("its index keys are damaged")
	}
	rest = rest[w:]
	v := value{idx: make([]indexKey, 0, n)}
	for i := uint64(0); i < n; i++ {
		if len(rest) == 0 {
			return value{}, fmt.Errorf("its index keys are damaged")
		}
		present := rest[0]
		rest = rest[1:]
		if present == 0 {
			v.idx = append(v.idx, indexKey{})
			continue
		}
		l, w := binary.Uvarint(rest)
		if w <= 0 || uint64(len(rest)-w) < l {
			return value{}, fmt.Errorf("its index keys are damaged")
		}
		v.idx = append(v.idx, indexKey{key: string(rest[w : w+int(l)]), ok: true})
		rest = rest[w+int(l):]
	}
	v.payload = rest
	return v, nil
}

// metaValue makes a stored value with no index keys (the meta bucket's,
// the queue's).
func metaValue(key string, v any) ([]byte, error) {
	payload, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	b := make([]byte, 6, 6+len(payload))
	b[0] = codecVersion
	b = append(b, payload...)
	binary.BigEndian.PutUint32(b[1:5], checksum(key, b[5:]))
	return b, nil
}

// row is a row's JSON; a resource's or a cloud object's is valid only until
// the next call (it is written into the encoder's scratch buffer).
func (enc *rowEncoder) row(r store.Record) ([]byte, error) {
	switch r := r.(type) {
	case *store.EventChunk:
		return enc.chunk(r), nil
	case *store.ObjectRecord:
		b, err := appendObject(enc.scratch[:0], r.Num, r.Obj)
		enc.keep(b)
		return b, err
	case *store.ResourceRecord:
		b, err := appendResource(enc.scratch[:0], r)
		enc.keep(b)
		return b, err
	}
	return json.Marshal(r)
}

// objectJSON is a cloud object's row: the object, and the Num of the stack
// that made it (its secondary index).
type objectJSON struct {
	Num uint32            `json:"Num"`
	Obj *resources.Object `json:"Obj"`
}

// An event chunk's row is two JSON texts on two lines: chunkJSON, then its
// events as rows of format 1's eventColumns (parsed by hand: events are
// most of a state). chunkJSON holds what format 1 derives from the whole
// stack: which events are the stack's own (Stack: their indexes), and the
// counts that keep event ids unique (Dup: [index, count] where the count
// is not 0).
type chunkJSON struct {
	Num   uint32   `json:"Num"`
	Chunk uint32   `json:"Chunk"`
	Stack []int    `json:"Stack,omitempty"`
	Dup   [][2]int `json:"Dup,omitempty"`
}

// rowEncoder encodes the rows of one save. The events of a resource share
// one properties map (an event keeps the map the step resolved, never
// changed): its JSON is made once per save, not once per event. Every map
// it remembers is held by the rows being saved, so an address is not
// reused while the encoder lives.
type rowEncoder struct {
	props map[unsafe.Pointer]string
	// scratch is the buffer the fast writers write a row into: row's
	// answer is valid until its next call (encodeValue copies it into
	// the value bbolt keeps).
	scratch []byte
}

// keep keeps b, grown by a writer, as the scratch buffer.
func (enc *rowEncoder) keep(b []byte) {
	if b != nil {
		enc.scratch = b[:0]
	}
}

func newRowEncoder() *rowEncoder { return &rowEncoder{props: map[unsafe.Pointer]string{}} }

// propertiesText is e.PropertiesText(), made once per map.
func (enc *rowEncoder) propertiesText(e *store.EventRecord) string {
	m, ok := e.Properties.(map[string]any)
	if !ok || enc == nil {
		return e.PropertiesText()
	}
	k := reflect.ValueOf(m).UnsafePointer()
	if t, ok := enc.props[k]; ok {
		return t
	}
	t := e.PropertiesText()
	enc.props[k] = t
	return t
}

func (enc *rowEncoder) chunk(c *store.EventChunk) []byte {
	b := make([]byte, 0, 64+len(c.Events)*256)
	b = append(b, `{"Num":`...)
	b = strconv.AppendUint(b, uint64(c.Num), 10)
	b = append(b, `,"Chunk":`...)
	b = strconv.AppendUint(b, uint64(c.Chunk), 10)
	sep := byte(':')
	b = append(b, `,"Stack"`...)
	for i := range c.Events {
		if c.Events[i].OfStack {
			b = append(b, sep)
			if sep == ':' {
				b = append(b, '[')
			}
			sep = ','
			b = strconv.AppendInt(b, int64(i), 10)
		}
	}
	if sep == ':' {
		b = append(b, ":[]"...)
	} else {
		b = append(b, ']')
	}
	b = append(b, `,"Dup":[`...)
	first := true
	for i := range c.Events {
		if d := c.Events[i].Dup; d > 0 {
			if !first {
				b = append(b, ',')
			}
			first = false
			b = append(b, '[')
			b = strconv.AppendInt(b, int64(i), 10)
			b = append(b, ',')
			b = strconv.AppendUint(b, uint64(d), 10)
			b = append(b, ']')
		}
	}
	b = append(b, "]}\n["...)
	for i := range c.Events {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendEventRow(b, &c.Events[i], enc.propertiesText(&c.Events[i]))
	}
	return append(b, ']')
}

// appendEventRow appends an event as a row of eventColumns (trailing empty
// columns left out), as format 1 writes it.
func appendEventRow(b []byte, e *store.EventRecord, props string) []byte {
	cols := eventCols(e, props)
	n := len(cols)
	for n > 0 && cols[n-1] == "" {
		n--
	}
	b = append(b, '[')
	for i, c := range cols[:n] {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, c)
	}
	return append(b, ']')
}

// decodeRow makes the row of table t with key k from its JSON.
func decodeRow(t store.TableID, k string, payload []byte, in interner) (store.Record, error) {
	var r store.Record
	switch t {
	case store.TStacks:
		r = &store.StackRecord{}
	case store.TResources, store.TRetired:
		rec, err := decodeResource(payload, in)
		if err != nil {
			return nil, err
		}
		if len(k) < 4 {
			return nil, fmt.Errorf("its key is too short")
		}
		rec.Num = binary.BigEndian.Uint32([]byte(k[:4]))
		return rec, nil
	case store.TEvents:
		return decodeChunk(payload, in)
	case store.TExports:
		r = &store.ExportRecord{}
	case store.TImports:
		r = &store.ImportRecord{}
	case store.TObjects:
		var o objectJSON
		if err := decodeJSON(payload, &o); err != nil {
			return nil, err
		}
		if o.Obj == nil || o.Obj.Type == "" || o.Obj.ID == "" {
			return nil, fmt.Errorf("the object has no Type or ID")
		}
		return store.NewObjectRecord(o.Num, o.Obj), nil
	case store.TOperations:
		r = &store.OperationRecord{}
	case store.TSteps:
		r = &store.StepRecord{}
	case store.TReleased:
		r = &store.ReleasedRecord{}
	case store.TChangeSets:
		r = &store.ChangeSetRecord{}
	default:
		return nil, fmt.Errorf("no table %d", t)
	}
	if err := decodeJSON(payload, r); err != nil {
		return nil, err
	}
	return r, nil
}

func decodeJSON(payload []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(payload))
	d.UseNumber()
	return d.Decode(v)
}

func decodeChunk(payload []byte, in interner) (*store.EventChunk, error) {
	nl := bytes.IndexByte(payload, '\n')
	if nl < 0 {
		return nil, fmt.Errorf("an event chunk has two lines")
	}
	var cj chunkJSON
	if err := json.Unmarshal(payload[:nl], &cj); err != nil {
		return nil, err
	}
	rows, err := parseEventRows(payload[nl+1:], in)
	if err != nil {
		return nil, err
	}
	c := &store.EventChunk{Num: cj.Num, Chunk: cj.Chunk, Events: make([]store.EventRecord, len(rows), max(len(rows), 1))}
	for i := range rows {
		ev, err := eventOf(&rows[i])
		if err != nil {
			return nil, fmt.Errorf("event %d: %w", i+1, err)
		}
		c.Events[i] = ev
	}
	for _, i := range cj.Stack {
		if i < 0 || i >= len(c.Events) {
			return nil, fmt.Errorf("stack event %d is outside the chunk", i)
		}
		c.Events[i].OfStack = true
	}
	for _, d := range cj.Dup {
		if d[0] < 0 || d[0] >= len(c.Events) || d[1] < 0 || d[1] > 0xffff {
			return nil, fmt.Errorf("event-id count %v is outside the chunk", d)
		}
		c.Events[d[0]].Dup = uint16(d[1])
	}
	return c, nil
}
