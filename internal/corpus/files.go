package corpus

import (
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
)

// Templates lists the template files under dir, sorted.
func Templates(dir string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		switch strings.ToLower(filepath.Ext(p)) {
		case ".json", ".yaml", ".yml", ".template":
			files = append(files, p)
		}
		return nil
	})
	sort.Strings(files)
	return files, err
}
