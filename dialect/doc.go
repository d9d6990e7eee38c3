// Package dialect says what kind of document a text is, once, from its
// name and content, and carries what each kind knows about itself: its
// name, the source its diagnostics are published under, whether blueprint
// analysis and features apply, and, for blueprint dialects, the one table
// of top-level sections (the section keys, the reference namespaces they
// define, and the sentence describing each).
//
// A dialect is a value (Bluelink, Landscaper, Manifest, Config,
// ProviderSchema, Unknown),
// not a branch in every feature: the language server, check and discovery
// ask Detect and then read the value. A new kind of document (a .bp file)
// is a new value here plus its detection rule; see docs/architecture.md.
//
// Invariants: detection reads only bytes (no parser, no I/O) and costs
// one pass over the top level of the text; the section keys "variables",
// "values", "datasources", "resources", "include" and "exports" are
// written in this package and nowhere else in non-test code.
package dialect
