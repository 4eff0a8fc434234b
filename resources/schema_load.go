package resources

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/stacksim/stacksim/internal/readfile"
)

// MaxSchemaFileBytes is the largest schema file read (4 MiB; the largest
// of the registry's is under 300 KB).
const MaxSchemaFileBytes = 4 << 20

var schemaFileLimit = readfile.Limit{Max: MaxSchemaFileBytes, What: "a resource schema",
	Hint: "a registry schema is a few hundred KB at most; check the file"}

// LoadSchemaFile reads one schema file.
func LoadSchemaFile(path string) (*Schema, error) {
	data, err := readfile.Read(path, schemaFileLimit)
	if err != nil {
		return nil, fmt.Errorf("read schema: %w", err)
	}
	return ParseSchema(path, data)
}

// LoadSchemaDir reads every *.json file of a directory (not its
// sub-directories) and returns the schemas by type name. Two files for one
// type are an error naming both. Validators compile lazily, so loading the
// 1504 registry schemas takes a fraction of a second.
func LoadSchemaDir(dir string) (map[string]*Schema, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("read schema directory: %w", err)
	}
	out := make(map[string]*Schema, len(entries))
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		path := filepath.Join(dir, e.Name())
		data, err := readfile.Read(path, schemaFileLimit)
		if err != nil {
			return nil, fmt.Errorf("read schema: %w", err)
		}
		s, err := ParseSchema(path, data)
		if errors.Is(err, ErrNotResourceSchema) {
			continue // a module placeholder or another non-resource document
		}
		if err != nil {
			return nil, err
		}
		if prev, ok := out[s.TypeName]; ok {
			return nil, fmt.Errorf("%s: type %s is already defined by %s; keep one file per type", s.Source, s.TypeName, prev.Source)
		}
		out[s.TypeName] = s
	}
	return out, nil
}

// SchemaFileName is the registry's file name for a type:
// AWS::S3::Bucket → aws-s3-bucket.json.
func SchemaFileName(typeName string) string {
	return strings.ToLower(strings.ReplaceAll(typeName, "::", "-")) + ".json"
}

// schemaDir finds schemas in a directory lazily: by the registry's file name
// first, then, for a type not found so, by reading the whole directory once.
type schemaDir struct {
	dir     string
	mu      sync.Mutex
	byType  map[string]*Schema
	scanned bool
	scanErr error
}

func newSchemaDir(dir string) *schemaDir {
	return &schemaDir{dir: dir, byType: map[string]*Schema{}}
}

// lookup returns the schema of a type, nil when the directory has none.
func (d *schemaDir) lookup(typeName string) (*Schema, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if s, ok := d.byType[typeName]; ok {
		return s, nil
	}
	if !d.scanned {
		path := filepath.Join(d.dir, SchemaFileName(typeName))
		if _, err := os.Stat(path); err == nil {
			s, err := LoadSchemaFile(path)
			if err == nil {
				s, err = overlaidDirSchema(s)
			}
			if err != nil {
				return nil, err
			}
			if s.TypeName == typeName {
				d.byType[typeName] = s
				return s, nil
			}
		}
		d.scan()
	}
	if d.scanErr != nil {
		return nil, d.scanErr
	}
	return overlaidDirSchema(d.byType[typeName])
}

// named is the path of the file with typeName's registry file name, ""
// when the directory has none.
func (d *schemaDir) named(typeName string) string {
	path := filepath.Join(d.dir, SchemaFileName(typeName))
	if _, err := os.Stat(path); err != nil {
		return ""
	}
	return path
}

// misnamed describes the file of the directory that has typeName's
// registry file name but declares another type ("" when there is none, or
// it declares typeName).
func (d *schemaDir) misnamed(typeName string) string {
	path := d.named(typeName)
	if path == "" {
		return ""
	}
	s, err := LoadSchemaFile(path)
	if err != nil || s.TypeName == typeName {
		return ""
	}
	return fmt.Sprintf("%s declares typeName %s, not %s", path, s.TypeName, typeName)
}

// scan reads the whole directory, once (the caller holds d.mu).
func (d *schemaDir) scan() {
	if d.scanned {
		return
	}
	all, err := LoadSchemaDir(d.dir)
	if err != nil {
		err = fmt.Errorf("looking for it in --schemas %s: %w", d.dir, err)
	}
	d.scanned, d.scanErr = true, err
	for t, s := range all {
		d.byType[t] = s
	}
}

// types lists the types the directory holds a schema of, sorted (the
// directory is read once).
func (d *schemaDir) types() ([]string, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.scan()
	if d.scanErr != nil {
		return nil, d.scanErr
	}
	out := make([]string, 0, len(d.byType))
	for t := range d.byType {
		out = append(out, t)
	}
	sort.Strings(out)
	return out, nil
}
