package resources

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"sync"
)

// Overlays are stacksim's simulation rules for registry types that have no
// embedded schema of their own: an "x-stacksim" section (the format of
// simulation) laid on the registry's facts, for what the schema cannot
// say — what Ref answers (an EIP's is its address), values AWS derives from
// other properties, attributes that are not properties (a nested stack's
// Outputs.NAME). Everything an overlay does not give is inferred from the
// schema as for any registry type.
//
//	{"typeName": "AWS::EC2::EIP",
//	 "description": "why the overlay exists",
//	 "x-stacksim": {"ref": "/properties/PublicIp"}}
//
//go:embed overlays/*.json
var overlayFS embed.FS

var (
	overlayOnce sync.Once
	overlays    map[string]*simulation
	overlayErr  error
)

type overlayFile struct {
	TypeName    string      `json:"typeName"`
	Description string      `json:"description"`
	Sim         *simulation `json:"x-stacksim"`
}

func loadOverlays() {
	overlays = map[string]*simulation{}
	entries, err := fs.ReadDir(overlayFS, "overlays")
	if err != nil {
		overlayErr = err
		return
	}
	for _, e := range entries {
		name := "overlays/" + e.Name()
		data, err := overlayFS.ReadFile(name)
		if err != nil {
			overlayErr = err
			return
		}
		var f overlayFile
		d := json.NewDecoder(bytes.NewReader(data))
		d.UseNumber()
		d.DisallowUnknownFields()
		if err := d.Decode(&f); err != nil {
			overlayErr = fmt.Errorf("%s: %w", name, describeJSONError(data, err))
			return
		}
		if f.TypeName == "" || f.Sim == nil {
			overlayErr = fmt.Errorf("%s: an overlay names its typeName and has an x-stacksim section", name)
			return
		}
		if SchemaFileName(f.TypeName) != e.Name() {
			overlayErr = fmt.Errorf("%s: the overlay of %s is named %s", name, f.TypeName, SchemaFileName(f.TypeName))
			return
		}
		overlays[f.TypeName] = f.Sim
	}
}

// overlayOf is the overlay of a type, nil when it has none.
func overlayOf(typeName string) (*simulation, error) {
	overlayOnce.Do(loadOverlays)
	if overlayErr != nil {
		return nil, overlayErr
	}
	return overlays[typeName], nil
}

// OverlayTypes lists the types that have an overlay.
func OverlayTypes() ([]string, error) {
	overlayOnce.Do(loadOverlays)
	out := make([]string, 0, len(overlays))
	for t := range overlays {
		out = append(out, t)
	}
	return out, overlayErr
}
