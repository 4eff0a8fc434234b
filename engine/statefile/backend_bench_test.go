package statefile

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// The measurement behind the choice of the state file's format
// (docs/state-format.md): bbolt, a B+tree read by key and range, against
// an append-only journal of committed changes beside a snapshot. Rows are
// of the sizes a 500-resource stack has (its record 120 KB, 500 resources
// 600 B, 500 cloud objects 400 B, 16 event chunks 40 KB): what a create
// writes, what a one-property update writes, and what a read of one stack
// reads, in an account of 1 or 20 such stacks.
//
//	go test ./engine/statefile -run '^$' -bench Backend -benchtime 20x -count 5

type benchRow struct {
	b, k string
	v    []byte
}

func benchValue(n int) []byte { return bytes.Repeat([]byte("x"), n) }

func benchStack(num int) []benchRow {
	p := binary.BigEndian.AppendUint32(nil, uint32(num))
	rows := []benchRow{{"stacks", fmt.Sprintf("arn:stack/s%d", num), benchValue(120000)}}
	for i := 0; i < 500; i++ {
		rows = append(rows, benchRow{"resources", string(p) + fmt.Sprintf("R%03d", i), benchValue(600)},
			benchRow{"objects", fmt.Sprintf("AWS::SSM::Parameter\x00s%d-R%03d", num, i), benchValue(400)})
	}
	for c := 0; c < 16; c++ {
		rows = append(rows, benchRow{"events", string(p) + fmt.Sprintf("%04d", c), benchValue(40000)})
	}
	return append(rows, benchRow{"operations", fmt.Sprintf("arn:stack/s%d/op/1", num), benchValue(2000)})
}

func benchPut(tx *bolt.Tx, rows []benchRow) error {
	sort.Slice(rows, func(i, j int) bool {
		if rows[i].b != rows[j].b {
			return rows[i].b < rows[j].b
		}
		return rows[i].k < rows[j].k
	})
	for _, r := range rows {
		b, err := tx.CreateBucketIfNotExists([]byte(r.b))
		if err != nil {
			return err
		}
		b.FillPercent = 0.9
		if err := b.Put([]byte(r.k), r.v); err != nil {
			return err
		}
	}
	return nil
}

func benchAccount(b *testing.B, stacks int) string {
	path := filepath.Join(b.TempDir(), "a.db")
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		b.Fatal(err)
	}
	for s := 1; s <= stacks; s++ {
		if err := db.Update(func(tx *bolt.Tx) error { return benchPut(tx, benchStack(s)) }); err != nil {
			b.Fatal(err)
		}
	}
	if err := db.Close(); err != nil {
		b.Fatal(err)
	}
	return path
}

// A create: a new stack's rows, one transaction.
func BenchmarkBackendBoltCreate500(b *testing.B) {
	for _, stacks := range []int{1, 20} {
		b.Run(fmt.Sprintf("account=%d", stacks), func(b *testing.B) {
			path := benchAccount(b, stacks)
			db, err := bolt.Open(path, 0o600, nil)
			if err != nil {
				b.Fatal(err)
			}
			defer db.Close()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := db.Update(func(tx *bolt.Tx) error { return benchPut(tx, benchStack(100+i)) }); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// A one-property update: open, write five rows, close.
func BenchmarkBackendBoltUpdateOne(b *testing.B) {
	for _, stacks := range []int{1, 20} {
		b.Run(fmt.Sprintf("account=%d", stacks), func(b *testing.B) {
			path := benchAccount(b, stacks)
			p := string(binary.BigEndian.AppendUint32(nil, 1))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				db, err := bolt.Open(path, 0o600, nil)
				if err != nil {
					b.Fatal(err)
				}
				rows := []benchRow{{"stacks", "arn:stack/s1", benchValue(120000)}, {"resources", p + "R001", benchValue(600)},
					{"objects", "AWS::SSM::Parameter\x00s1-R001", benchValue(400)}, {"events", p + "0016", benchValue(2000)},
					{"operations", "arn:stack/s1/op/2", benchValue(2000)}}
				if err := db.Update(func(tx *bolt.Tx) error { return benchPut(tx, rows) }); err != nil {
					b.Fatal(err)
				}
				if err := db.Close(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// A read of one stack: open read-only, its record and its resources.
func BenchmarkBackendBoltReadStack(b *testing.B) {
	for _, stacks := range []int{1, 20} {
		b.Run(fmt.Sprintf("account=%d", stacks), func(b *testing.B) {
			path := benchAccount(b, stacks)
			p := binary.BigEndian.AppendUint32(nil, 1)
			b.ResetTimer()
			n := 0
			for i := 0; i < b.N; i++ {
				db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
				if err != nil {
					b.Fatal(err)
				}
				_ = db.View(func(tx *bolt.Tx) error {
					n += len(tx.Bucket([]byte("stacks")).Get([]byte("arn:stack/s1")))
					c := tx.Bucket([]byte("resources")).Cursor()
					for k, v := c.Seek(p); k != nil && bytes.HasPrefix(k, p); k, v = c.Next() {
						n += len(v)
					}
					return nil
				})
				_ = db.Close()
			}
		})
	}
}

// The journal's side: a create appends its rows and flushes them; an
// update appends five rows. (Its reads need a snapshot with an index of
// its own and the journal replayed: what bbolt is.)
func BenchmarkBackendJournalCreate500(b *testing.B) {
	f, err := os.OpenFile(filepath.Join(b.TempDir(), "journal"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var buf bytes.Buffer
		for _, r := range benchStack(100 + i) {
			buf.WriteString(r.b)
			buf.WriteString(r.k)
			buf.Write(r.v)
		}
		if _, err := f.Write(buf.Bytes()); err != nil {
			b.Fatal(err)
		}
		if err := f.Sync(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkBackendJournalUpdateOne(b *testing.B) {
	path := filepath.Join(b.TempDir(), "journal")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := f.Write(benchValue(125000)); err != nil {
			b.Fatal(err)
		}
		if err := f.Sync(); err != nil {
			b.Fatal(err)
		}
		_ = f.Close()
	}
}
