package bplang_test

import (
	"testing"

	"github.com/blueprint-ls/blueprint-ls/bplang"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// TestMultilineIndentErrorWholeCharacter: the error on a multi-line
// string's line indented less than its closer covers the indentation and
// the whole character after it, however many bytes it has (its end fell
// inside a multi-byte character, so check --format json gave an
// end.offset in the middle of it).
func TestMultilineIndentErrorWholeCharacter(t *testing.T) {
	tests := []struct {
		name, line string
		want       source.Range // of the diagnostic, in bytes (the line starts at 39)
	}{
		{"ascii", "  a", source.R(39, 42)},
		{"two bytes", "  é", source.R(39, 43)},
		{"no-break space in the indent", " \u00a0x", source.R(39, 42)},
		{"ideographic space", "\u3000x", source.R(39, 42)},
		{"four bytes", "  😀", source.R(39, 45)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "value v: string {\n    value = \"\"\"\n" + "\n\n\n\n\n" + tt.line + "\n        \"\"\"\n}\n"
			f := bplang.Parse("x.bp", []byte(src))
			if len(f.Diagnostics) != 1 {
				t.Fatalf("diagnostics %v, want one", f.Diagnostics)
			}
			if got := f.Diagnostics[0].Range; got != tt.want {
				t.Errorf("range %v (%q), want %v (%q)", got, src[got.Start:got.End], tt.want, src[tt.want.Start:tt.want.End])
			}
		})
	}
}
