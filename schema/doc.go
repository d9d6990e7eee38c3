// Package schema owns blueprint documents as written: position-exact
// parsing of YAML, JSON and JSONC into one node tree, the typed view of the
// spec (Blueprint, Variable, Value, DataSource, Resource, Include, Export)
// whose fields point back at their nodes, the field table that drives
// structural rules, completion and hover, the structural rules
// themselves, and the same table written as a JSON Schema (jsonschema.go)
// for editors without blueprint-ls.
//
// Invariants: every node and every mapping key and value carries its exact
// byte range; every string scalar carries a decoded→source OffsetMap, so a
// position inside a decoded value lands on the exact source byte through
// escapes, folding and block indentation. Parsing never panics and reports
// syntax errors at their real position. Only this package imports the YAML
// library. `${..}` text is opaque here apart from where the spec forbids
// substitutions; package subst parses it.
package schema
