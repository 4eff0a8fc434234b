package statefile

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"io"
	"os"
)

// checkDBSize refuses a database file shorter than its last transaction
// says it is (a truncated file): bbolt would map the missing pages and
// fault on them. The two meta pages of bbolt are at the start of the file
// (16-byte page header, then magic, version, page size, flags, root
// bucket (16), freelist, high-water page id, transaction id and an FNV-64a
// checksum of the 56 bytes before it, little-endian); the valid one with
// the higher transaction id is the state's.
func checkDBSize(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	head := make([]byte, 80)
	if _, err := io.ReadFull(f, head); err != nil {
		return &Error{Path: path, Problem: "it is truncated: too short to be a state database", Hint: hintCorrupt}
	}
	pageSize := int64(binary.LittleEndian.Uint32(head[24:28]))
	var best struct {
		txid, hwm uint64
		ok        bool
	}
	for i := int64(0); i < 2; i++ {
		m := make([]byte, 64)
		if pageSize < 1024 || pageSize > 1<<16 {
			break
		}
		if _, err := f.ReadAt(m, i*pageSize+16); err != nil {
			continue
		}
		h := fnv.New64a()
		h.Write(m[:56])
		if binary.LittleEndian.Uint32(m[0:4]) != 0xed0cdaed || h.Sum64() != binary.LittleEndian.Uint64(m[56:64]) {
			continue
		}
		txid, hwm := binary.LittleEndian.Uint64(m[48:56]), binary.LittleEndian.Uint64(m[40:48])
		if !best.ok || txid > best.txid {
			best.txid, best.hwm, best.ok = txid, hwm, true
		}
	}
	if !best.ok {
		return nil // bbolt refuses it, with its own reason
	}
	if need := int64(best.hwm) * pageSize; fi.Size() < need {
		return &Error{Path: path, Hint: hintCorrupt,
			Problem: fmt.Sprintf("it is truncated: it holds %d bytes, its last save wrote %d", fi.Size(), need)}
	}
	return nil
}
