package schema

import (
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/blueprint-ls/blueprint-ls/internal/gen"
)

func benchParse(b *testing.B, n int, format string) {
	content := gen.Blueprint(n, format)
	b.SetBytes(int64(len(content)))
	b.ReportAllocs()
	for b.Loop() {
		var f *File
		if format == "json" {
			f = ParseJSON(content, false)
		} else {
			f = ParseYAML(content)
		}
		if f.Root == nil || len(f.Diagnostics) > 0 {
			b.Fatalf("parse failed: %v", f.Diagnostics)
		}
	}
}

// benchDecode is the baseline: yaml.v3 decoding the same bytes into a
// yaml.Node, with no positions beyond its own.
func benchDecode(b *testing.B, n int) {
	content := gen.Blueprint(n, "yaml")
	b.SetBytes(int64(len(content)))
	b.ReportAllocs()
	for b.Loop() {
		var node yaml.Node
		if err := yaml.Unmarshal(content, &node); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseYAML1000(b *testing.B)    { benchParse(b, 1000, "yaml") }
func BenchmarkParseYAML5000(b *testing.B)    { benchParse(b, 5000, "yaml") }
func BenchmarkParseJSON1000(b *testing.B)    { benchParse(b, 1000, "json") }
func BenchmarkParseJSON5000(b *testing.B)    { benchParse(b, 5000, "json") }
func BenchmarkYAMLv3Decode1000(b *testing.B) { benchDecode(b, 1000) }
func BenchmarkYAMLv3Decode5000(b *testing.B) { benchDecode(b, 5000) }
