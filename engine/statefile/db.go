package statefile

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"runtime/debug"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"

	"github.com/stacksim/stacksim/engine/store"
)

// A state file of format 2 is a bbolt database (go.etcd.io/bbolt: a
// copy-on-write B+tree in one file, whose transactions are atomic and
// survive a crash at any point). It holds the store row by row:
//
//	bucket "meta"        format, version, identity, clock and counters
//	bucket TABLE         per table of the store (stacks, resources...):
//	                     the store's primary key → the row (codec.go)
//	bucket TABLE.INDEX   per secondary index: the index's key followed by
//	                     the primary key → the primary key
//	bucket "tasks"       the task queue: Seq (8 bytes) → the task's JSON
//
// A command reads what it needs (store.Backing: a row by key, a range by
// prefix, a stack's last event chunk), and a save writes the rows its
// commits changed, the queue and the clock, in one transaction. See
// docs/state-format.md for the format and why it was chosen.

const (
	// dbVersion 4 has the events' Operation column (format.go): its
	// layout is version 3's, whose files are read as they are and become
	// version 4 at their first save (a stacksim of version 3 would refuse
	// the column as damage; it refuses the version with a clear message).
	dbVersion = 4
	// prevDBVersion is version 3: objects under their stacks, events of 8
	// columns.
	prevDBVersion = layoutVersion
	// legacyDBVersion is the version of format 2 before objects lay under
	// their stacks (objects.go): read, and laid out anew by the first save.
	legacyDBVersion = 2
	metaBucket      = "meta"
	taskBucket      = "tasks"
)

// boltMagic is what a bbolt file holds at byte 16 (its first meta page's
// magic number, little-endian on every platform stacksim builds for).
var boltMagic = []byte{0xed, 0xda, 0x0c, 0xed}

// isDB reports whether data (a file's first bytes) is a bbolt database.
func isDB(data []byte) bool { return len(data) >= 20 && bytes.Equal(data[16:20], boltMagic) }

// dbMeta is what the meta bucket holds under "identity" and "meta".
type dbIdentity struct {
	Region    string `json:"region"`
	AccountID string `json:"accountId"`
	Partition string `json:"partition"`
	Seed      int64  `json:"seed"`
}

type dbMeta struct {
	Clock    time.Time     `json:"clock"`
	Counters stateCounters `json:"counters"`
}

// DB is an open state file of format 2. It is open read-only (bbolt's
// shared lock on the file) while a process reads it; a save opens it for
// writing (the exclusive lock) for the time of its transaction only. So
// readers — other commands, a process of `stacksim serve` between its
// saves — read while a writer works, and wait only while it saves. Writers
// are kept apart by the state file's own lock (PATH.lock).
type DB struct {
	path string
	bdb  *bolt.DB // read-only
	// rtx is the read transaction the store's reads go through: opened on
	// the first read, closed before a save.
	rtx *bolt.Tx
	in  interner
	// wait bounds the waits for bbolt's lock on the file.
	wait time.Duration
	// legacy is a file of version 2 (objects keyed by the store's key),
	// until a save lays it out anew.
	legacy bool
	// from is the version the file had when it was opened, when a save
	// of this process changed it (0: none did).
	opened, from int
}

// openDB opens the database at path read-only.
func openDB(path string, wait time.Duration) (*DB, error) {
	bdb, err := boltOpen(path, true, wait)
	if err != nil {
		return nil, err
	}
	return &DB{path: path, bdb: bdb, in: interner{}, wait: wait}, nil
}

// boltOpen opens a bbolt database, waiting up to wait for its lock (a
// reader's shared lock waits for a save; a save's exclusive lock for the
// readers).
func boltOpen(path string, readOnly bool, wait time.Duration) (*bolt.DB, error) {
	if err := checkDBSize(path); err != nil {
		return nil, err
	}
	var bdb *bolt.DB
	err := guardDB(path, func() error {
		var err error
		// bbolt waits forever on a Timeout of 0: 1ns gives up at once.
		bdb, err = bolt.Open(path, 0o600, &bolt.Options{ReadOnly: readOnly, Timeout: max(wait, time.Nanosecond),
			FreelistType: bolt.FreelistMapType, InitialMmapSize: initialMmap})
		return err
	})
	if err != nil {
		if errors.Is(err, bolterrors.ErrTimeout) {
			return nil, &LockedError{Path: path, LockPath: path, Waited: wait}
		}
		var se *Error
		if errors.As(err, &se) {
			return nil, err
		}
		return nil, &Error{Path: path, Problem: "it is not a readable state database: " + err.Error(), Hint: hintCorrupt, Err: err}
	}
	return bdb, nil
}

// guardDB runs fn, turning a panic of bbolt (it panics on some damaged
// pages) into a refusal of the file — and a fault on its memory map too
// (a page read past the end of a truncated file, a damaged page number):
// debug.SetPanicOnFault makes those panics of this goroutine, not the
// end of the process.
func guardDB(path string, fn func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			err = &Error{Path: path, Problem: fmt.Sprintf("it is damaged (%v)", r), Hint: hintCorrupt}
		}
	}()
	return fn()
}

// Close closes the database.
func (d *DB) Close() error {
	d.endRead()
	return d.bdb.Close()
}

func (d *DB) endRead() {
	if d.rtx != nil {
		_ = d.rtx.Rollback()
		d.rtx = nil
	}
}

func (d *DB) read() (*bolt.Tx, error) {
	if d.rtx == nil {
		tx, err := d.bdb.Begin(false)
		if err != nil {
			return nil, &Error{Path: d.path, Problem: "cannot read it: " + err.Error(), Err: err}
		}
		d.rtx = tx
	}
	return d.rtx, nil
}

// rowError is the refusal of a damaged row of table t.
func (d *DB) rowError(t store.TableID, k string, err error) error {
	return d.damaged(describeKey(t, k), err)
}

// describeKey names a row for a person: its table and key, with the stack
// Num and chunk numbers of binary keys written out ("events of stack #3,
// chunk 11"; "resources of stack #3: Queue").
func describeKey(t store.TableID, k string) string {
	num := func() string {
		return fmt.Sprintf("#%d", binary.BigEndian.Uint32([]byte(k[:4])))
	}
	switch t {
	case store.TEvents:
		if len(k) == 8 {
			return fmt.Sprintf("events of stack %s, chunk %d", num(), binary.BigEndian.Uint32([]byte(k[4:])))
		}
	case store.TResources:
		if len(k) > 4 {
			return fmt.Sprintf("resources of stack %s: %s", num(), k[4:])
		}
	case store.TRetired:
		if i := bytes.IndexByte([]byte(k), 0); len(k) > 4 && i > 4 {
			return fmt.Sprintf("retired of stack %s: %s %s", num(), k[4:i], k[i+1:])
		}
	case store.TSteps:
		if i := bytes.IndexByte([]byte(k), 0); i >= 0 && len(k)-i == 5 {
			return fmt.Sprintf("steps of operation %s: step %d", k[:i], binary.BigEndian.Uint32([]byte(k[i+1:])))
		}
	}
	return fmt.Sprintf("%s %s", t, bytes.ReplaceAll([]byte(k), []byte{0}, []byte(" ")))
}

// damaged is the refusal of a damaged part of the file.
func (d *DB) damaged(where string, err error) error {
	return &Error{Path: d.path, Problem: where + ": " + err.Error(), Hint: hintCorrupt, Err: err}
}

// Get implements store.Backing.
func (d *DB) Get(t store.TableID, k string) (r store.Record, err error) {
	err = guardDB(d.path, func() error {
		tx, err := d.read()
		if err != nil {
			return err
		}
		b := tx.Bucket([]byte(t.String()))
		if b == nil {
			return nil
		}
		at := rowKey(tx, t, k, d.legacy)
		if at == nil {
			return nil
		}
		raw := b.Get(at)
		if raw == nil {
			if clustered(t) && !d.legacy {
				return d.rowError(t, k, fmt.Errorf("%s names it under stack #%x, the table does not hold it there", whereBucket, at[:4]))
			}
			return nil
		}
		r, err = d.decode(t, k, raw)
		return err
	})
	return r, err
}

func (d *DB) decode(t store.TableID, k string, raw []byte) (store.Record, error) {
	v, err := splitValue(k, raw)
	if err != nil {
		return nil, d.rowError(t, k, err)
	}
	r, err := decodeRow(t, k, v.payload, d.in)
	if err != nil {
		return nil, d.rowError(t, k, err)
	}
	if r.Key() != k {
		return nil, d.rowError(t, k, fmt.Errorf("the row's key is %q", r.Key()))
	}
	return r, nil
}

// Scan implements store.Backing.
func (d *DB) Scan(t store.TableID, ix, prefix string, fn func(r store.Record) bool) error {
	return guardDB(d.path, func() error {
		tx, err := d.read()
		if err != nil {
			return err
		}
		rows := tx.Bucket([]byte(t.String()))
		if rows == nil {
			return nil
		}
		p := []byte(prefix)
		if ix == store.IxID && clustered(t) && !d.legacy {
			// by the store's key: the where bucket is in that order
			where := tx.Bucket([]byte(whereBucket))
			if where == nil {
				return nil
			}
			c := where.Cursor()
			for k, num := c.Seek(p); k != nil && bytes.HasPrefix(k, p); k, num = c.Next() {
				raw := rows.Get(append(bytes.Clone(num), k...))
				if raw == nil {
					return d.rowError(t, string(k), fmt.Errorf("%s names it under stack #%x, the table does not hold it there", whereBucket, num))
				}
				r, err := d.decode(t, string(k), raw)
				if err != nil {
					return err
				}
				if !fn(r) {
					return nil
				}
			}
			return nil
		}
		if ix == store.IxID {
			c := rows.Cursor()
			for k, v := c.Seek(p); k != nil && bytes.HasPrefix(k, p); k, v = c.Next() {
				r, err := d.decode(t, string(k), v)
				if err != nil {
					return err
				}
				if !fn(r) {
					return nil
				}
			}
			return nil
		}
		index := tx.Bucket([]byte(t.String() + "." + ix))
		if index == nil {
			return nil
		}
		c := index.Cursor()
		for k, pk := c.Seek(p); k != nil && bytes.HasPrefix(k, p); k, pk = c.Next() {
			var raw []byte
			if at := rowKey(tx, t, string(pk), d.legacy); at != nil {
				raw = rows.Get(at)
			}
			if raw == nil {
				return d.rowError(t, string(pk), fmt.Errorf("index %s names it, the table does not hold it", ix))
			}
			r, err := d.decode(t, string(pk), raw)
			if err != nil {
				return err
			}
			if !fn(r) {
				return nil
			}
		}
		return nil
	})
}

// LastChunk implements store.Backing.
func (d *DB) LastChunk(num uint32) (c *store.EventChunk, err error) {
	err = guardDB(d.path, func() error {
		tx, err := d.read()
		if err != nil {
			return err
		}
		b := tx.Bucket([]byte(store.TEvents.String()))
		if b == nil {
			return nil
		}
		var last [8]byte
		binary.BigEndian.PutUint32(last[:4], num)
		binary.BigEndian.PutUint32(last[4:], math.MaxUint32)
		cur := b.Cursor()
		k, v := cur.Seek(last[:])
		if k == nil || !bytes.Equal(k, last[:]) {
			k, v = cur.Prev()
		}
		if k == nil || len(k) != 8 || !bytes.Equal(k[:4], last[:4]) {
			return nil
		}
		r, err := d.decode(store.TEvents, string(k), v)
		if err != nil {
			return err
		}
		c = r.(*store.EventChunk)
		return nil
	})
	return c, err
}

// load reads what every command needs — the header, the identity, the
// clock and counters, the task queue — and returns a store laid over the
// database for the rest.
func (d *DB) load() (*store.Store, error) {
	var (
		id   dbIdentity
		meta dbMeta
		s    *store.Store
	)
	err := guardDB(d.path, func() error {
		tx, err := d.read()
		if err != nil {
			return err
		}
		mb := tx.Bucket([]byte(metaBucket))
		if mb == nil || string(mb.Get([]byte("format"))) != stateFormat {
			return &Error{Path: d.path, Problem: "it is a bbolt database, not a stacksim state file", Hint: hintFormat}
		}
		v := string(mb.Get([]byte("version")))
		d.legacy = v == fmt.Sprint(legacyDBVersion)
		switch v {
		case fmt.Sprint(dbVersion):
			d.opened = dbVersion
		case fmt.Sprint(prevDBVersion):
			d.opened = prevDBVersion
		case fmt.Sprint(legacyDBVersion):
			d.opened = legacyDBVersion
		default:
			return &Error{Path: d.path, Hint: hintVersion,
				Problem: fmt.Sprintf("its format version is %s; this stacksim reads version %d (and %d, %d and %d, which it upgrades)", v, dbVersion, prevDBVersion, legacyDBVersion, stateVersion)}
		}
		for _, f := range []struct {
			key string
			v   any
		}{{"identity", &id}, {"meta", &meta}} {
			raw := mb.Get([]byte(f.key))
			vv, err := splitValue(f.key, raw)
			if err == nil {
				err = decodeJSON(vv.payload, f.v)
			}
			if err != nil {
				return d.damaged("meta "+f.key, err)
			}
		}
		if id.Region == "" || id.AccountID == "" || id.Partition == "" || meta.Clock.IsZero() {
			return d.damaged("meta identity", fmt.Errorf("region, accountId, partition and clock are required"))
		}
		s, err = store.New(store.Identity{Region: id.Region, AccountID: id.AccountID, Partition: id.Partition, Seed: id.Seed},
			meta.Clock.UnixNano())
		if err != nil {
			return err
		}
		s.Meta.IDs, s.Meta.Tasks, s.Meta.Stacks = meta.Counters.IDs, meta.Counters.Tasks, meta.Counters.Stacks
		return d.loadTasks(tx, s)
	})
	if err != nil {
		return nil, err
	}
	s.SetBacking(d)
	return s, nil
}

func (d *DB) loadTasks(tx *bolt.Tx, s *store.Store) error {
	b := tx.Bucket([]byte(taskBucket))
	if b == nil {
		return nil
	}
	return b.ForEach(func(k, raw []byte) error {
		where := fmt.Sprintf("tasks %d", binary.BigEndian.Uint64(append(make([]byte, 8-min(len(k), 8)), k[:min(len(k), 8)]...)))
		v, err := splitValue(string(k), raw)
		if err != nil {
			return d.damaged(where, err)
		}
		t := &store.Task{}
		if err := decodeJSON(v.payload, t); err != nil {
			return d.damaged(where, err)
		}
		switch {
		case t.Kind == "":
			return d.damaged(where, fmt.Errorf("the task has no Kind"))
		case t.Seq == 0 || t.Seq > s.Meta.Tasks:
			return d.damaged(where, fmt.Errorf("task %d is outside 1..counters.tasks (%d)", t.Seq, s.Meta.Tasks))
		case t.At.IsZero():
			return d.damaged(where, fmt.Errorf("task %d has no At", t.Seq))
		}
		s.LoadTask(t)
		return nil
	})
}

// save writes what the store's commits changed since the last save, the
// queue, the clock and counters, in one transaction: all of it or, when
// anything fails, nothing.
func (d *DB) save(s *store.Store) error {
	d.endRead()
	if err := d.bdb.Close(); err != nil {
		return err
	}
	w, err := boltOpen(d.path, false, max(d.wait, saveWait))
	if err == nil {
		err = guardDB(d.path, func() error {
			return w.Update(func(tx *bolt.Tx) error {
				if d.legacy {
					if err := migrateObjects(tx); err != nil {
						return fmt.Errorf("lay out the objects of version %d anew: %w", legacyDBVersion, err)
					}
				}
				w := newRowWriter(tx)
				if err := s.Dirty(func(t store.TableID, k string, r store.Record) error {
					return w.put(t, k, r)
				}); err != nil {
					return err
				}
				return putMeta(tx, s)
			})
		})
		err = errors.Join(err, w.Close())
	}
	ro, rerr := boltOpen(d.path, true, max(d.wait, saveWait))
	if rerr != nil {
		return errors.Join(err, rerr)
	}
	d.bdb = ro
	if err != nil {
		return err
	}
	d.legacy = false
	if d.opened != dbVersion && d.from == 0 {
		d.from = d.opened
	}
	d.opened = dbVersion
	s.MarkSaved()
	return nil
}

// saveWait is the least a save waits for readers to let go of the file:
// they read for milliseconds, and a writer's lock is held already.
const saveWait = 5 * time.Second

// rowWriter writes the rows of one save: the buckets of each table and
// its indexes looked up once, not for every row.
type rowWriter struct {
	tx     *bolt.Tx
	enc    *rowEncoder
	tables map[store.TableID]*tableWriter
}

type tableWriter struct {
	rows    *bolt.Bucket
	indexes []string
	ix      []*bolt.Bucket // made on first use
}

func newRowWriter(tx *bolt.Tx) *rowWriter {
	return &rowWriter{tx: tx, enc: newRowEncoder(), tables: map[store.TableID]*tableWriter{}}
}

func (w *rowWriter) table(t store.TableID) (*tableWriter, error) {
	if tw, ok := w.tables[t]; ok {
		return tw, nil
	}
	rows, err := w.tx.CreateBucketIfNotExists([]byte(t.String()))
	if err != nil {
		return nil, err
	}
	rows.FillPercent = 0.9
	names := store.Indexes(t)
	tw := &tableWriter{rows: rows, indexes: names, ix: make([]*bolt.Bucket, len(names))}
	w.tables[t] = tw
	return tw, nil
}

// put writes one row (r nil: deletes it) and its index entries. A table
// without indexes is written without reading the row it replaces.
func (w *rowWriter) put(t store.TableID, k string, r store.Record) error {
	tw, err := w.table(t)
	if err != nil {
		return err
	}
	rows := tw.rows
	key := []byte(k)
	var old, now []indexKey
	var val []byte
	if r != nil {
		val, now, err = encodeValue(w.enc, k, r)
		if err != nil {
			return fmt.Errorf("%s %q: %w", t, k, err)
		}
	}
	var oldRaw []byte
	switch {
	case clustered(t):
		if oldRaw, err = putClustered(w.tx, rows, k, r, val); err != nil {
			return err
		}
	default:
		if len(tw.indexes) > 0 {
			if oldRaw = rows.Get(key); oldRaw != nil {
				oldRaw = bytes.Clone(oldRaw) // the put below may move it
			}
		}
		if r == nil {
			err = rows.Delete(key)
		} else {
			err = rows.Put(key, val)
		}
		if err != nil {
			return err
		}
	}
	if len(tw.indexes) == 0 {
		return nil
	}
	if oldRaw != nil {
		if v, err := splitValue(k, oldRaw); err == nil {
			old = v.idx
		}
	}
	for i, name := range tw.indexes {
		var was, is indexKey
		if i < len(old) {
			was = old[i]
		}
		if i < len(now) {
			is = now[i]
		}
		if was == is {
			continue
		}
		ib := tw.ix[i]
		if ib == nil {
			if ib, err = w.tx.CreateBucketIfNotExists([]byte(t.String() + "." + name)); err != nil {
				return err
			}
			tw.ix[i] = ib
		}
		if was.ok {
			if err := ib.Delete([]byte(was.key + k)); err != nil {
				return err
			}
		}
		if is.ok {
			if err := ib.Put([]byte(is.key+k), key); err != nil {
				return err
			}
		}
	}
	return nil
}

// putMeta writes the header, identity, clock, counters and the queue.
func putMeta(tx *bolt.Tx, s *store.Store) error {
	mb, err := tx.CreateBucketIfNotExists([]byte(metaBucket))
	if err != nil {
		return err
	}
	put := func(k string, v any) error {
		b, err := metaValue(k, v)
		if err != nil {
			return err
		}
		return mb.Put([]byte(k), b)
	}
	if err := mb.Put([]byte("format"), []byte(stateFormat)); err != nil {
		return err
	}
	if err := mb.Put([]byte("version"), []byte(fmt.Sprint(dbVersion))); err != nil {
		return err
	}
	if err := put("identity", dbIdentity{Region: s.ID.Region, AccountID: s.ID.AccountID, Partition: s.ID.Partition, Seed: s.ID.Seed}); err != nil {
		return err
	}
	if err := put("meta", dbMeta{Clock: time.Unix(0, s.Meta.Now).UTC(),
		Counters: stateCounters{IDs: s.Meta.IDs, Tasks: s.Meta.Tasks, Stacks: s.Meta.Stacks}}); err != nil {
		return err
	}
	if tx.Bucket([]byte(taskBucket)) != nil {
		if err := tx.DeleteBucket([]byte(taskBucket)); err != nil {
			return err
		}
	}
	tb, err := tx.CreateBucket([]byte(taskBucket))
	if err != nil {
		return err
	}
	for _, t := range s.Queue.All() {
		t.StepText()
		if err := t.EncodeCallback(); err != nil {
			return fmt.Errorf("task %d: its callback context: %w", t.Seq, err)
		}
		var k [8]byte
		binary.BigEndian.PutUint64(k[:], t.Seq)
		b, err := metaValue(string(k[:]), t)
		if err != nil {
			return err
		}
		if err := tb.Put(k[:], b); err != nil {
			return err
		}
	}
	return nil
}

// writeNew writes the whole store as a new database at path (which must
// not exist): the first save of a new state, or the upgrade of a file of
// format 1. The file is complete and flushed when it returns.
func writeNew(path string, s *store.Store) error {
	bdb, err := bolt.Open(path, 0o600, &bolt.Options{FreelistType: bolt.FreelistMapType, InitialMmapSize: initialMmap})
	if err != nil {
		return err
	}
	tx := s.Read()
	err = bdb.Update(func(btx *bolt.Tx) error {
		w := newRowWriter(btx)
		for _, t := range store.Tables() {
			var ferr error
			tx.Scan(t, store.IxID, "", func(r store.Record) bool {
				ferr = w.put(t, r.Key(), r)
				return ferr == nil
			})
			if ferr != nil {
				return ferr
			}
		}
		return putMeta(btx, s)
	})
	return errors.Join(err, bdb.Close())
}

// initialMmap is the size bbolt maps the database at first (address
// space, not memory: pages are read only when touched): large enough that
// a save of a large account does not map the file again as it grows.
const initialMmap = 256 << 20
