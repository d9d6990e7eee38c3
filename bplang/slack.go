package bplang

import (
	"bytes"

	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// DefinitionAt is syntax.DefinitionAt for the blueprint language: it
// returns the declaration (resource, data, value, variable, export,
// include) whose statement's lines hold the bytes [start, end) of f, when
// f parsed clean and Splice would re-parse that statement alone for an
// edit there. The definition runs from the statement's keyword, first on
// its line, to the next statement's, which starts a line too; its first
// line must end in a line break. An edit in version, transform or
// metadata, before the first statement or across two, an insertion at
// the very end of the text, and any statement a keyword not first on its
// line starts or ends, give false.
//
// Open is true only when the first line ends in the block's '{', then
// spaces: `resource orders: aws/dynamodb/table {`. Spaces there are
// between tokens, where the lexer skips them, so padding can mean
// nothing. Anywhere else it might: a first line ending in a comment (the
// spaces would be in its text), in a field of the block or an object or
// list literal opened there (whose text as written the emitter copies),
// or in a """ string's opener (a line of its own).
func DefinitionAt(f *syntax.File, start, end int) (syntax.Definition, bool) {
	root, ok := f.Root.(*syntax.Mapping)
	if f.Format != syntax.BP || len(f.Diagnostics) > 0 || f.HasSyntaxErrors() || !ok ||
		start < 0 || start > end || end > f.Text.Len() {
		return syntax.Definition{}, false
	}
	c := f.Text
	st, ok := statementAround(root, start, c.Len())
	if !ok || end > st.next || start == end && start == st.next ||
		st.start > 0 && c.At(st.start-1) != '\n' || st.next < c.Len() && c.At(st.next-1) != '\n' {
		return syntax.Definition{}, false
	}
	keyLineEnd, broken := source.LineEnd(c.Slice(st.start, st.next), 0)
	if !broken {
		return syntax.Definition{}, false
	}
	d := syntax.Definition{Start: st.start, End: st.next, KeyLineEnd: st.start + keyLineEnd}
	decl := root.Entries[st.sec].Value.(*syntax.Mapping).Entries[st.child].Value.(*syntax.Mapping)
	if len(decl.Entries) > 0 {
		// The type (or an include's path) is the last token before the
		// block's '{', which must be on the same line (declare).
		if head := decl.Entries[0].Value.Range().End; head <= d.KeyLineEnd {
			rest := bytes.TrimRight(c.Slice(head, d.KeyLineEnd), " ")
			d.Open = string(bytes.TrimLeft(rest, " \t")) == "{"
		}
	}
	return d, true
}
