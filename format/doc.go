// Package format owns formatting of blueprint documents: `textDocument/
// formatting`, range formatting and `blueprint-ls fmt`.
//
// Formatting is a list of minimal text edits against the original content,
// never a reprint of the tree, so everything the formatter does not
// understand is left exactly as written.
//
// JSON and JSONC are re-laid out token by token: only the whitespace
// between tokens changes (one member per line, two-space or tab
// indentation, `"k": v`, no space before `,`), comments stay where they
// were relative to their neighbours, and JSONC trailing commas are kept
// (they are the author's choice and harmless there).
//
// YAML is changed only where the change cannot alter the document:
// indentation of block mappings and sequences (block scalars, multi-line
// plain and quoted scalars and flow collections move with their parent so
// their relative indentation is kept), trailing whitespace outside scalar
// content, the final newline, and spacing inside `${..}` of single-line
// plain and quoted scalars. Comments, scalar styles, quoting and key order
// are kept.
//
// Invariants:
//
//   - A document with syntax errors is refused: an error, no edits.
//   - The formatted document parses to the same tree as the original:
//     the same structure, keys, tags, styles and scalar values, except
//     for whitespace inside `${..}` (outside string literals). Every result
//     is checked by re-parsing before it is returned; when a check fails
//     the formatter retries with fewer kinds of change, so a formatter bug
//     can cost formatting but never the user's data.
//   - Formatting is idempotent: formatting formatted text gives no edits.
//   - Edits are sorted, do not overlap and are as small as the change
//     allows (common prefixes and suffixes trimmed), so an editor keeps
//     the cursor and undo history sensible.
package format
