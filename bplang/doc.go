// Package bplang is the front end of the blueprint language: the block
// syntax of .bp and .blueprint documents (Bluelink 0.4). It lexes and
// parses the text and yields the same position-exact syntax tree the YAML
// and JSON parsers yield for the same blueprint, so the typed view,
// every analysis rule, the evaluator, the plan engine and every editor
// feature read a .bp document unchanged.
//
// The mapping: each declaration (`resource name: aws/s3/bucket {..}`) is
// an entry of its section's mapping (resources), keyed by its name, whose
// `type` key sits on the ':' and whose other keys are the block's fields;
// `spec {..}` and `metadata {..}` blocks are mappings; `foreach x` is
// `each`, `select by label {..}` the linkSelector, a data source's
// `filter` and `export` statements its filter and exports. Array and
// object literals in a value position are sequences and mappings;
// literals are scalars of their type. Any other expression (a reference,
// a call, an operator) is a string scalar holding the ${..} substitution
// it means, whose offset map leads every byte back to the expression as
// written: references and calls are copied as written, an operator becomes
// the call of the core function it stands for (== eq, != not(eq(..)),
// < lt, <= le, > gt, >= ge, && and, || or, ! not) named at the operator's
// own range, so hover, rename and diagnostics on a .bp document point into
// its text. A "${..}" inside a string literal stays an interpolation; one
// whose expression uses an operator is rewritten the same way (interp.go).
//
// The parser recovers: an error abandons the field (or statement) it is
// in and parsing resumes at the next one, so one mistake is one bp-syntax
// diagnostic and the rest of the document keeps its features. Nesting is
// bounded by MaxDepth. The package knows no blueprint semantics beyond
// the shape of the statements: what is valid is the schema's to say.
//
// The parse costs about what reading the tree's nodes does: the parser
// pulls bare tokens (a kind and a range) from the lexer as it goes, names
// and verbatim values are slices of one copy of the text, the nodes and
// their lists are carved from slabs, and the expressions of a statement
// come from pools the next statement reuses (pool.go). The parser as it
// was before that rebuild is kept, frozen, in internal/bpref: the
// differential tests (reference_test.go) hold the two to the same tree
// and diagnostics.
//
// Beside the parser: Emit writes any blueprint tree (from YAML or JSON
// too) in the language and Format lays a .bp document out canonically,
// comments kept (emit.go); CursorAt reads the place of a cursor from text
// that may not parse, for completion (cursor.go); Statements splits a
// document where the parser resumes, for the analysis of a document with
// a syntax error (statements.go); Splice re-parses the one declaration an
// edit falls in and splices it into the previous version's tree
// (splice.go; SpliceAt when the caller knows where the edit is), and
// DefinitionAt finds that declaration for the language server, whose
// parse's coordinates pad its first line so that an edit inside it moves
// nothing after it (slack.go; lsp/padding.go).
package bplang
