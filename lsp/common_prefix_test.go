package lsp

import "github.com/blueprint-ls/blueprint-ls/source"

// commonPrefix is the length of the longest common prefix of a and b.
func commonPrefix(a, b []byte) int {
	return source.CommonPrefix(source.NewText(a), source.NewText(b))
}
