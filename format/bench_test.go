package format

import (
	"testing"

	"github.com/blueprint-ls/blueprint-ls/internal/gen"
	"github.com/blueprint-ls/blueprint-ls/schema"
)

// BenchmarkFormat measures formatting beside the baseline of parsing the
// same text, which formatting does twice (before and to check the result).
func BenchmarkFormat(b *testing.B) {
	// Indenting by four where the generator indents by two gives
	// formatting work on almost every line.
	opts := DefaultOptions()
	opts.IndentWidth = 4
	for _, tc := range []struct {
		name, uri, format string
		n                 int
	}{
		{"yaml-1000", "b.yaml", "yaml", 1000},
		{"yaml-5000", "b.yaml", "yaml", 5000},
		{"json-1000", "b.json", "json", 1000},
		{"json-5000", "b.json", "json", 5000},
	} {
		src := gen.Blueprint(tc.n, tc.format)
		b.Run(tc.name+"/parse", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				schema.Parse(tc.uri, src)
			}
		})
		b.Run(tc.name+"/format", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				edits, err := Format(tc.uri, src, opts)
				if err != nil || len(edits) == 0 {
					b.Fatalf("%d edits, %v", len(edits), err)
				}
			}
		})
	}
}
