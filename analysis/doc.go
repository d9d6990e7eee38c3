// Package analysis turns a parsed blueprint into an immutable Result:
// every string scalar's substitutions parsed, every reference resolved to
// the definition it names, types inferred through references and function
// calls, the dependency graph, child blueprints, link selections, and every
// semantic diagnostic of the spec with an exact range.
//
// Invariants: Analyze is a pure function of its inputs (document, registry,
// function table, child loader); a Result is never mutated after Analyze
// returns, so the language server shares it between concurrent requests.
// One mistake gives one diagnostic: unresolvable references and bad
// expressions have type unknown, which absorbs follow-on checks. A Result
// holds at most MaxDiagnostics diagnostics and a summary of the rest.
// Include paths stay inside Options.Roots (the project); children are read
// through the Loader, from disk with internal/safefs and its size budget.
//
// A document with syntax errors gets its syntax errors only, unless
// Options.Repair asks for its repaired analysis (repair.go): half-typed
// lines finished (repair_typing.go), the top-level entries still broken
// left out, every offset kept, and no diagnostic that leaving them out may
// have caused.
//
// AnalyzeIncremental (reuse.go) gives the Result Analyze would for the
// next version of a document, starting from the previous version's: the
// definitions the edit cannot have changed (same text, nothing they
// depend on changed) keep their types, references, calls and own
// diagnostics, moved by how far the edit moved them. The document-wide
// checks (wide.go) take the previous version's link selections and
// cycles over, moved, where the changed definitions' labels, types and
// dependencies cannot have changed them, and recompute the rest; unused
// names come from the previous version's use counts with the changed
// definitions' references counted again. The link graph (link_graph.go:
// the selections and the references placed in link-activating fields,
// with each link type's cardinality and required capabilities checked)
// is taken over from the previous version when the edit kept every
// selection and every type and activates no link (keptLinks), and made
// again in full otherwise. A Result keeps each unit's
// records apart (units.go): a definition the edit did not touch keeps its
// symbol, and when it did not move and names only such symbols it shares
// the previous version's records outright; one that moved gets them made
// again in one pass. schema.LoadFrom takes over the typed resources whose nodes the
// splice shared. The previous Result is only read.
//
// A whole analysis of a document with many resources fans out
// (fanout.go): the templates of the resources' sites are parsed and
// their specs validated on a bounded pool of goroutines, chunk by chunk,
// and the sequential passes consume the chunks in symbol order, so the
// Result is the one a sequential run gives (TestFanOutEqualsSequential).
// Nothing else runs concurrently; an incremental analysis never fans out.
//
// AnalyzeTransformed (transformed.go) checks a blueprint as its
// transformer plugins make it: the transformed blueprint is analysed as a
// document of its own that the user never sees, and only its diagnostics
// inside the resources a transformer made reach the user, each moved to
// the name of the abstract resource it came from. The transformers run
// behind an interface (Transformer, pluginhost.Runner in production), so
// the analysis itself launches nothing.
package analysis
