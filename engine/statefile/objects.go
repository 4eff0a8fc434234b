package statefile

import (
	"bytes"
	"encoding/binary"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/stacksim/stacksim/engine/store"
)

// Cloud objects are most of an account's rows, and their keys (type, then
// physical id) do not follow stacks: AWS names an SSM parameter
// CFN-P000-RANDOM whatever its stack, so the 500 objects a create makes
// fall among every other stack's, and a save rewrote a B+tree page for
// nearly each (an account of 10,000 resources: ~500 of its 1,678 pages,
// 20 ms, against 2 ms in an account of 500).
//
// Since version 3, an object's row lies under its stack: bucket "objects"
// maps the stack's Num (4 bytes, big-endian; 0 for an object no stack
// made) followed by the store's key to the row, so a stack's objects are
// neighbours; bucket "objects.where" maps the store's key to that Num
// (small entries: many to a page), for reads by key. The indexes
// ("objects.stack") still map to the store's key. A file of version 2
// (objects keyed by the store's key alone) is read as it is and laid out
// anew by its first save, in the same transaction.

const (
	// whereBucket maps an object's store key to the Num its row lies under.
	whereBucket = "objects.where"
	// layoutVersion is the version from which objects lie under stacks.
	layoutVersion = 3
)

// clustered reports whether the rows of table t lie under their stack.
func clustered(t store.TableID) bool { return t == store.TObjects }

// rowKey is where the row of key k of table t lies in the table's bucket;
// nil when a clustered row is not there. legacy reads a file of version 2.
func rowKey(tx *bolt.Tx, t store.TableID, k string, legacy bool) []byte {
	if !clustered(t) || legacy {
		return []byte(k)
	}
	where := tx.Bucket([]byte(whereBucket))
	if where == nil {
		return nil
	}
	num := where.Get([]byte(k))
	if len(num) != 4 {
		return nil
	}
	return append(append(make([]byte, 0, 4+len(k)), num...), k...)
}

// clusterPrefix is the Num a record's row lies under.
func clusterPrefix(r store.Record) [4]byte {
	var p [4]byte
	if o, ok := r.(*store.ObjectRecord); ok {
		binary.BigEndian.PutUint32(p[:], o.Num)
	}
	return p
}

// putClustered writes (r nil: deletes) the row of a clustered table and
// its entry in the where bucket; raw is the row's old value (nil: none).
func putClustered(tx *bolt.Tx, rows *bolt.Bucket, k string, r store.Record, val []byte) (old []byte, err error) {
	where, err := tx.CreateBucketIfNotExists([]byte(whereBucket))
	if err != nil {
		return nil, err
	}
	key := []byte(k)
	var oldKey []byte
	if num := where.Get(key); len(num) == 4 {
		oldKey = append(append(make([]byte, 0, 4+len(k)), num...), k...)
		old = bytes.Clone(rows.Get(oldKey)) // the writes below may move it
	}
	if r == nil {
		if oldKey != nil {
			if err := rows.Delete(oldKey); err != nil {
				return nil, err
			}
		}
		return old, where.Delete(key)
	}
	p := clusterPrefix(r)
	newKey := append(append(make([]byte, 0, 4+len(k)), p[:]...), k...)
	if oldKey != nil && !bytes.Equal(oldKey, newKey) {
		if err := rows.Delete(oldKey); err != nil {
			return nil, err
		}
	}
	if err := rows.Put(newKey, val); err != nil {
		return nil, err
	}
	if oldKey == nil || !bytes.Equal(oldKey[:4], p[:]) {
		if err := where.Put(key, p[:]); err != nil {
			return nil, err
		}
	}
	return old, nil
}

// migrateObjects lays the objects of a file of version 2 out under their
// stacks: each row moves to its stack's Num (read from the "objects.stack"
// index, whose keys are Num followed by the store's key; 0 for a row the
// index does not name) and gets its entry in the where bucket.
func migrateObjects(tx *bolt.Tx) error {
	name := []byte(store.TObjects.String())
	old := tx.Bucket(name)
	if old == nil {
		return nil
	}
	nums := map[string][4]byte{}
	if ix := tx.Bucket([]byte(store.TObjects.String() + ".stack")); ix != nil {
		if err := ix.ForEach(func(k, _ []byte) error {
			if len(k) >= 4 {
				var p [4]byte
				copy(p[:], k[:4])
				nums[string(k[4:])] = p
			}
			return nil
		}); err != nil {
			return err
		}
	}
	type row struct{ k, v []byte }
	var rows []row
	if err := old.ForEach(func(k, v []byte) error {
		rows = append(rows, row{bytes.Clone(k), bytes.Clone(v)})
		return nil
	}); err != nil {
		return err
	}
	if err := tx.DeleteBucket(name); err != nil {
		return err
	}
	b, err := tx.CreateBucket(name)
	if err != nil {
		return err
	}
	b.FillPercent = 0.9
	where, err := tx.CreateBucketIfNotExists([]byte(whereBucket))
	if err != nil {
		return err
	}
	for _, r := range rows {
		p := nums[string(r.k)]
		if err := b.Put(append(p[:], r.k...), r.v); err != nil {
			return fmt.Errorf("objects %q: %w", r.k, err)
		}
		if err := where.Put(r.k, p[:]); err != nil {
			return err
		}
	}
	return nil
}
