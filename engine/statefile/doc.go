// Package statefile is the state file: the whole store as versioned JSON
// on disk.
//
// It owns:
//
//   - the format (format.go: one row per line, tables in a fixed order,
//     rows in key order; events as rows of strings, parsed by hand in
//     events.go), Encode and Decode;
//   - the checks a file must pass before it becomes a store (load.go: the
//     header, the JSON; build.go: every row's keys and references, table
//     by table); a file that fails
//     them is refused with an *Error saying what, where and what to do, and
//     is never written to;
//   - the file on disk (file.go): Open takes the lock (lock_unix.go:
//     flock on PATH.lock; lock_other.go elsewhere) and reads the file, Write
//     saves atomically (a temporary file beside it, fsynced, renamed over
//     it, the directory fsynced).
//
// It knows the store's rows (engine/store) and nothing above them: not the
// engine, its operations or its API, nor the CLI. The engine decides when
// to save and what a loaded state means (a task's step, the providers).
package statefile
