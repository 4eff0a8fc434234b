// Package corpus is what the corpus tools share: the templates of a
// corpus directory, and the inputs a run gives each template, as a user
// would (a value for every parameter without a default, the SSM parameters
// the account is said to hold). `make corpus` (template/internal/corpus)
// runs the templates through the template package; `make corpus-create`
// (cmd/internal/corpuscreate) creates and deletes a stack of each.
//
// It must not know about the engine: it is a leaf above template and
// paramstore.
package corpus
