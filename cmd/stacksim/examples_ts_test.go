package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// The TypeScript example, written with the official plugin library from
// npm and run through the library's own entry points by stacksim's
// launcher. scripts/build_handler_examples.sh (make test runs it) installs
// it with npm ci and builds it with tsc.

func typescriptExample(t *testing.T) handlerExample {
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed: the TypeScript handler example is not run")
	}
	dir := filepath.Join(examplesDir, "typescript")
	if _, err := os.Stat(filepath.Join(dir, "dist", "handlers.js")); err != nil {
		t.Fatalf("the TypeScript example is not built (%v): run 'bash scripts/build_handler_examples.sh' (make test does)", err)
	}
	launcher := abs(t, filepath.Join(examplesDir, "launchers", "rpdk-node.js"))
	return handlerExample{
		lang: "typescript", typeName: "Example::TypeScript::Box", source: "src/handlers.ts",
		target: func(t *testing.T, src string, persistent bool) string {
			mode := "exec+rpdk-test:"
			if persistent {
				mode = "exec+rpdk-test+persistent:"
			}
			if abs(t, src) == abs(t, dir) {
				return mode + "node " + launcher + " " + abs(t, filepath.Join(dir, "dist", "handlers.js"))
			}
			return mode + "node " + launcher + " " + filepath.Join(src, "dist", "handlers.js")
		},
		copySource: func(t *testing.T) string {
			// A copy of the project beside its node_modules, built by
			// compileBroken once the patch is in.
			src := t.TempDir()
			for _, f := range []string{"tsconfig.json", "package.json"} {
				copyInto(t, filepath.Join(dir, f), filepath.Join(src, f))
			}
			for _, f := range []string{"handlers.ts", "models.ts"} {
				copyInto(t, filepath.Join(dir, "src", f), filepath.Join(src, "src", f))
			}
			if err := os.Symlink(abs(t, filepath.Join(dir, "node_modules")), filepath.Join(src, "node_modules")); err != nil {
				t.Fatal(err)
			}
			return src
		},
		patches: map[string][2]string{
			"contract_create_delete": {`            return ProgressEvent.success<ProgressEvent<ResourceModel, CallbackContext>>(toModel(box));`,
				`            const broken = toModel(box);
            broken.id = undefined;
            return ProgressEvent.success<ProgressEvent<ResourceModel, CallbackContext>>(broken);`},
			"contract_delete_read": {`            throw new exceptions.NotFound(ResourceModel.TYPE_NAME, request.desiredResourceState.id);
        }
        return ProgressEvent.success<ProgressEvent<ResourceModel>>(toModel(box));`, `            return ProgressEvent.success<ProgressEvent<ResourceModel>>(request.desiredResourceState);
        }
        return ProgressEvent.success<ProgressEvent<ResourceModel>>(toModel(box));`},
			"contract_update_create_only_property": {`        if (model.name != null && model.name !== box.Name) {`, `        if (false) {`},
		},
	}
}

func copyInto(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestHandlerExampleTypeScript(t *testing.T) {
	ex := typescriptExample(t)
	// A broken copy is compiled with the example's own tsc.
	runExampleWith(t, ex, func(t *testing.T, src string) {
		cmd := exec.Command(filepath.Join(src, "node_modules", ".bin", "tsc"), "-p", src)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("tsc of the broken copy: %v\n%s", err, out)
		}
	})
}
