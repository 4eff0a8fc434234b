package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/stacksim/stacksim/resources/internal/schemapack"
)

func main() {
	dir := flag.String("schemas", "../shared/schemas/us-east-1", "the directory of registry schemas")
	out := flag.String("out", "resources/registry/us-east-1.pack", "the pack to write")
	flag.Parse()
	if err := run(*dir, *out); err != nil {
		fmt.Fprintln(os.Stderr, "registrygen:", err)
		os.Exit(1)
	}
}

func run(dir, out string) error {
	entries, err := schemapack.FromDir(dir)
	if err != nil {
		return err
	}
	data, err := schemapack.Encode(entries)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	tmp := out + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	if err := os.Rename(tmp, out); err != nil {
		return err
	}
	fmt.Printf("%s: %d types, %d bytes\n", out, len(entries), len(data))
	return nil
}
