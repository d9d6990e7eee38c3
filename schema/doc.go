// Package schema is the blueprint's typed view of a document tree
// (package syntax): Blueprint, Variable, Value, DataSource, Resource,
// Include and Export, whose fields point back at their nodes; the field
// table that drives structural rules, completion and hover; the
// structural rules themselves; and the same table written as a JSON
// Schema (jsonschema.go) for editors without blueprint-ls. The section
// keys come from package dialect's table. syntax.go gives the tree's
// types their schema names (schema.Mapping is syntax.Mapping).
// LoadFrom (reuse.go) loads the next version of a spliced document,
// taking over the previous version's typed resources, and their
// diagnostics, whose entries are the same nodes, and moving those whose
// entries the splice moved (move.go: each node the view points at
// replaced by its twin in the copy, the diagnostics moved); a version
// that keeps every resource name shares the previous names and index.
//
// Invariants: every typed field points at the node it was read from, so
// every diagnostic lands on the exact source range. `${..}` text is
// opaque here apart from where the spec forbids substitutions; package
// subst parses it.
package schema
