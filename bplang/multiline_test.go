package bplang_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/bplang"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// TestMultilineStrings: the """ strings as the lexer sees them, not a
// quote in a comment or a one-line string, and not an unterminated one.
func TestMultilineStrings(t *testing.T) {
	src := "# \"\"\" not one\nvalue v: string {\n    value = \"\"\"\n        a   \n        \"\"\"\n    x = \"q\\\"\"\n}\nvalue w: string {\n    value = \"\"\"\n  open\n"
	got := bplang.MultilineStrings([]byte(src))
	first := strings.Index(src, "= \"\"\"") + 2
	want := []source.Range{source.R(first, strings.Index(src, "        \"\"\"\n")+11)}
	if !slices.Equal(got, want) {
		t.Errorf("MultilineStrings = %v, want %v", got, want)
	}
}
