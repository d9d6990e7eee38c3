package bplang

import (
	"bytes"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// MultilineStrings returns the ranges of the """ strings of content that
// end, in order, as the parser lexes them; an unterminated one, which
// runs to the end of the text and is a syntax error, is left out. Spaces
// before a line break inside one are part of its value: a server that
// pads lines (package lsp, slack.go) must not pad those.
func MultilineStrings(content []byte) []source.Range {
	var out []source.Range
	for _, t := range lex(content).toks {
		if text := content[t.start:t.end]; t.kind == tMultiline && len(text) >= 6 && bytes.HasSuffix(text, []byte(`"""`)) {
			out = append(out, source.R(t.start, t.end))
		}
	}
	return out
}
