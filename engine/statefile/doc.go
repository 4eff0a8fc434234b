// Package statefile is the state file: the store on disk, read by need
// and saved by change (docs/state-format.md).
//
// It owns:
//
//   - format 2, a bbolt database holding the store row by row (db.go: the
//     buckets, the Backing the store reads through, the save of the rows
//     that changed in one transaction; codec.go: a row's value — a
//     checksum, its index keys, its JSON; objects.go: cloud objects laid
//     under their stacks since version 3, and the files of version 2 laid
//     out anew by their first save; dbcheck.go: a truncated file refused
//     before it is mapped);
//   - format 1, the whole store as versioned JSON (format.go: one row per
//     line, tables in a fixed order, rows in key order; events as rows of
//     strings, parsed by hand in events.go), Encode and Decode: what state
//     export and import move, and the files of earlier versions, which the
//     first save upgrades;
//   - the checks a JSON state must pass before it becomes a store (load.go:
//     the header, the JSON; build.go: every row's keys and references,
//     table by table); a file that fails them is refused with an *Error
//     saying what, where and what to do, and is never written to (the
//     engine then checks its invariants: Inconsistent);
//   - the file on disk (file.go): Open(path, Options) takes the lock and
//     opens the database (or reads the JSON: at most MaxFileBytes, 256 MiB,
//     through internal/readfile; a path that is not a regular file is
//     refused before anything is locked or read); Save writes what changed,
//     or — for a new state, or one of format 1 — the whole database beside
//     the file, renamed over it; Create writes an imported state;
//   - the lock (lock.go, lock_unix.go: flock on PATH.lock; lock_other.go:
//     PATH.lock created exclusively where flock does not exist).
//
// # The lock
//
// Open, unless Options.ReadOnly, takes PATH.lock and holds it until Close.
// When another process holds it, Open waits up to LockOptions.Wait (0:
// not at all), trying again every few milliseconds at first and at most
// every 50 ms, calling LockOptions.OnWait once when it starts to wait; then
// it returns a *LockedError with the Holder, how long it waited, and a Hint
// the caller may replace with its own advice (the CLI names --lock-timeout).
//
// While held, the lock file holds a record of its holder, one line of JSON
// (pid, LockOptions.Command, LockOptions.Detail, since when), which the
// processes that find the file locked read into their *LockedError. A
// process that holds a state for its whole life — stacksim serve — opens
// it with, for example,
//
//	statefile.LockOptions{Command: "stacksim serve", Detail: "on 127.0.0.1:4599"}
//
// (engine.Options.StateLock), and every other writer then says "state file
// X is in use by stacksim serve (pid N, on 127.0.0.1:4599, since T)". It
// may listen first and open the state after, so that Detail is the address
// it got.
//
// On unix the lock file, once made, is never removed (not by Close, not
// when nothing was saved): a removed lock file lets a waiting writer lock
// the old inode while the next locks a new one — two writers at once. A
// writer that took the lock checks that its file is still the one at
// PATH.lock (fstat against lstat) and tries again when it is not. The lock
// file is opened with O_NOFOLLOW and without O_TRUNC, and written only when
// it is a regular file with one link holding nothing, a record, or the bare
// pid earlier versions wrote: a link, a hard link or a file of someone
// else's planted there is refused with an *Error and left as it is. On
// release the record is emptied. Where flock does not exist (lock_other.go)
// the file is the lock: it is created with O_EXCL (no link followed, nothing
// truncated), holds the record, and is removed on Close; a process that
// dies leaves it, and the *LockedError says to remove it.
//
// It knows the store's rows (engine/store) and nothing above them: not the
// engine, its operations or its API, nor the CLI. The engine decides when
// to save and what a loaded state means (a task's step, the providers).
package statefile
