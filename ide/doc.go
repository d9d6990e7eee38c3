// Package ide holds the logic of every editor feature — completion, hover,
// signature help, navigation, rename, symbols, semantic tokens, folding,
// selection ranges, inlay hints, document links, code lenses and code
// actions — as plain Go functions over an immutable *analysis.Result.
// Folding (Folds) and the outline (Outline) work from the syntax tree
// alone, for every dialect (package dialect), so they serve manifests,
// project configs and text that does not parse.
//
// It owns what a feature answers, never how it travels: results are plain
// structs in byte offsets (source.Range), and package lsp alone converts
// them into protocol types (lsp/convert*.go). Nothing here imports
// go.lsp.dev.
//
// Invariants: a Result is never mutated. What is at a place (a site, a
// reference, a symbol's key) comes from the Result's records of the unit
// there (analysis.Result.SiteAt and its kin), so a feature asked right
// after an edit builds nothing over the whole document; what names a
// symbol (highlights, references, the code lenses' counts) comes from the
// records of the units naming it (ReferencesTo, NameRefsTo, UseCounts),
// never from a table. The look-up tables over the whole document live in
// an Index (indexFor), built on first need and dropped when the Result
// is collected. Ranges returned by Completion and SignatureHelp are offsets
// into the text they were given (which may be newer than the Result, when
// the current text does not parse); a completion's range covers the whole
// word under the cursor, on its line (completion_edit.go: lsp sends it as
// the replace range, and up to the cursor as the insert range, to clients
// that take both); every other range is an offset into the document of
// the Result it names (Location.URI / Mapper).
package ide
