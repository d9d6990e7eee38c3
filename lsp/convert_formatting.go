package lsp

import (
	"go.lsp.dev/protocol"

	"github.com/blueprint-ls/blueprint-ls/format"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// sourceEdits is the language packages' edit type.
type sourceEdits = source.Edit

// maxTabSize is the widest indentation the server formats with, the
// bound `blueprint-ls fmt -indent` enforces; a client's larger tabSize
// (up to 2^32-1, which would build gigabyte indents) is ignored.
const maxTabSize = 16

// formatOptions maps LSP formatting options onto the formatter's. The
// final newline and trailing-whitespace clean-up are on unless the client
// turns them off explicitly (most clients send neither).
func formatOptions(o protocol.FormattingOptions) format.Options {
	opts := format.DefaultOptions()
	if o.TabSize > 0 && o.TabSize <= maxTabSize {
		opts.IndentWidth = int(o.TabSize)
	}
	opts.UseTabs = !o.InsertSpaces && o.TabSize > 0
	if o.InsertFinalNewline != nil {
		opts.InsertFinalNewline = *o.InsertFinalNewline
	}
	if o.TrimTrailingWhitespace != nil {
		opts.TrimTrailingWhitespace = *o.TrimTrailingWhitespace
	}
	return opts
}

// toTextEdits converts edits against the content of m.
func toTextEdits(m *source.Mapper, edits []source.Edit, enc source.Encoding) []protocol.TextEdit {
	out := make([]protocol.TextEdit, 0, len(edits))
	for _, e := range edits {
		out = append(out, protocol.TextEdit{Range: toRange(m, e.Range, enc), NewText: e.NewText})
	}
	return out
}
