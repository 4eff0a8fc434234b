// Package corpus is what the corpus tools share: the templates of a
// corpus directory; the inputs a run gives each template, as a careful
// user would (a value for every parameter without a default, of the kind
// the resource property that reads it takes; the SSM parameters the
// account is said to hold, those an SSM type's default names in its
// author's account among them); the templates of the corpus that make the
// exports a template imports (Exports); and the templates that do not
// create, each with its verdict (Unmade). `make corpus`
// (template/internal/corpus) runs the templates through the template
// package; `make corpus-create` (cmd/internal/corpuscreate) creates and
// deletes a stack of each.
//
// It must not know about the engine: it is a leaf above template and
// paramstore.
package corpus
