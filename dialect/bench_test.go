package dialect

import (
	"testing"

	"github.com/blueprint-ls/blueprint-ls/internal/gen"
)

// Detection runs once per document version in the language server, so
// its cost beside parsing matters: one pass over the top level.
func benchDetect(b *testing.B, n int, format string) {
	data := gen.Blueprint(n, format)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if k, _ := Detect("file:///w/infra."+format, format, data); k != Bluelink {
			b.Fatalf("Detect = %v", k)
		}
	}
}

func BenchmarkDetectYAML5000(b *testing.B) { benchDetect(b, 5000, "yaml") }
func BenchmarkDetectJSON5000(b *testing.B) { benchDetect(b, 5000, "json") }
