// Package store is the engine's store: everything the simulated world
// knows, in memory, with the transactions that change it.
//
// It owns:
//
//   - the tables (go-memdb) and their rows (records.go): stacks, resources,
//     retired and released physical resources, event chunks, exports and
//     imports, cloud objects, operations and their steps, change sets;
//   - the keys and indexes of those tables (keys.go, schema.go);
//   - the transaction layer (store.go): a write transaction's overlay, the
//     committed buffer over memdb (buffer.go: grouped by key partition,
//     so that a scan of one stack's rows visits only theirs), the journal
//     that undoes a transaction or rolls it back to a savepoint, and scans
//     that merge the three;
//   - typed access to the tables (tables.go: StackByID, PutResource,
//     Retire, OperationOf...), the stack events as stored (events.go: chunks,
//     sequence numbers, the bookkeeping that keeps event ids unique), the
//     task queue (queue.go) and the virtual clock and counters (Meta);
//   - the simulated cloud on the store (cloud.go: resources.Cloud);
//   - reading rows by need from a Backing (backing.go: the state file is
//     one), remembering the rows commits change until they are saved, and
//     dropping from memory, once saved, the rows of deleted stacks and the
//     keys of deleted rows (shed.go), so that a long session holds its
//     live stacks, not every stack it ever deleted;
//   - the shapes of the API that rows keep as they are (types.go: Tag,
//     Output, Parameter...; the engine shows them under its own names).
//
// It must not know how operations run (plans are data to it), what a task
// does (a Task's Kind is an opaque name), the API's calls and errors, the
// state file's format, or anything of the CLI. One write transaction at a
// time, and every transaction under the engine's mutex: the engine
// guarantees both; the store checks the first.
//
// Rows are shared, never changed: a row read from a transaction is the one
// every snapshot holds. To change one, copy it (Clone), change the copy and
// put the copy; maps and slices inside a stored row are immutable.
package store
