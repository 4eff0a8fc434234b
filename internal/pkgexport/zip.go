package pkgexport

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"time"
)

// Zips made as the AWS CLI's make_zip makes them (a folder's files,
// following symbolic links, named by their path from the folder, deflated,
// with their mode; no entries for folders), but deterministically, so that
// the same content always has the same MD5 and so the same key: entries
// sorted by name and every timestamp 1980-01-01 00:00:00, the earliest a
// zip can hold, and every mode 0644, or 0755 when the owner may execute
// the file. (The AWS CLI takes os.walk's order, each file's modification
// time and its whole mode, so its hashes change when a file is touched,
// or checked out under another umask.)

var zipEpoch = time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)

type zipEntry struct{ name, path string }

// zipFolder zips the files under dir.
func zipFolder(dir string) ([]byte, error) {
	var entries []zipEntry
	seen := map[string]bool{}
	var walk func(real, rel string) error
	walk = func(real, rel string) error {
		resolved, err := filepath.EvalSymlinks(real)
		if err != nil {
			return err
		}
		if seen[resolved] {
			return nil // a link back up: os.walk would loop
		}
		seen[resolved] = true
		list, err := os.ReadDir(real)
		if err != nil {
			return err
		}
		for _, d := range list {
			p := filepath.Join(real, d.Name())
			r := d.Name()
			if rel != "" {
				r = rel + "/" + d.Name()
			}
			st, err := os.Stat(p) // follows links, as followlinks=True
			if err != nil {
				continue // a dangling link: os.walk leaves it out
			}
			if st.IsDir() {
				if err := walk(p, r); err != nil {
					return err
				}
				continue
			}
			entries = append(entries, zipEntry{name: r, path: p})
		}
		delete(seen, resolved)
		return nil
	}
	if err := walk(dir, ""); err != nil {
		return nil, fmt.Errorf("zipping %s: %w", dir, err)
	}
	return makeZip(entries)
}

// zipFile zips one file, under its base name (the AWS CLI copies it into
// an empty folder and zips the folder).
func zipFile(path string) ([]byte, error) {
	return makeZip([]zipEntry{{name: filepath.Base(path), path: path}})
}

func makeZip(entries []zipEntry) ([]byte, error) {
	sort.Slice(entries, func(i, j int) bool { return entries[i].name < entries[j].name })
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		if err := addFile(zw, e); err != nil {
			return nil, fmt.Errorf("zipping %s: %w", e.path, err)
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func addFile(zw *zip.Writer, e zipEntry) error {
	f, err := os.Open(e.path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	h, err := zip.FileInfoHeader(st)
	if err != nil {
		return err
	}
	h.Name = e.name
	h.Method = zip.Deflate
	h.Modified = zipEpoch
	mode := os.FileMode(0o644)
	if st.Mode()&0o100 != 0 {
		mode = 0o755
	}
	h.SetMode(mode)
	w, err := zw.CreateHeader(h)
	if err != nil {
		return err
	}
	_, err = io.Copy(w, f)
	return err
}

// isZip tells whether a file is a zip archive (zipfile.is_zipfile).
func isZip(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return false
	}
	_, err = zip.NewReader(f, st.Size())
	return err == nil
}
