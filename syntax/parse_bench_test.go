package syntax

import (
	"bytes"
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

// BenchmarkParseYAMLBroken5000 parses a 5,000-resource blueprint with one
// mistake in it: locating a syntax error re-parses prefixes of the
// document, which must stay well under a second on a large file. Each
// mistake sits near the end, the worst case for that search.
func BenchmarkParseYAMLBroken5000(b *testing.B) {
	content := gen.Blueprint(5000, "yaml")
	last := bytes.LastIndex(content, []byte("\n      billingMode: PAY_PER_REQUEST"))
	breakAt := func(old, new string) []byte {
		out := append([]byte(nil), content[:last]...)
		out = append(out, bytes.Replace(content[last:], []byte(old), []byte(new), 1)...)
		return out
	}
	for _, bc := range []struct {
		name    string
		content []byte
	}{
		{"second-colon", breakAt("PAY_PER_REQUEST", "PAY: PER_REQUEST")},
		{"dedented-key", breakAt("\n      billingMode:", "\n     billingMode:")},
		{"tab", breakAt("\n      billingMode:", "\n\tbillingMode:")},
		{"unclosed-bracket", breakAt("PAY_PER_REQUEST", "[PAY_PER_REQUEST")},
		{"quote-closed-far-below", breakAt("PAY_PER_REQUEST", "'PAY_PER_REQUEST")},
		{"unterminated-quote", append(append([]byte(nil), content...), "    description: \"unterminated\n"...)},
		{"bad-token-middle", append(append([]byte(nil), content[:len(content)/2]...), bytes.Replace(content[len(content)/2:], []byte("billingMode: PAY_PER_REQUEST"), []byte("billingMode: @PAY"), 1)...)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.content)))
			b.ReportAllocs()
			for b.Loop() {
				f := ParseYAML(bc.content)
				if len(f.Diagnostics) != 1 || f.Diagnostics[0].Code != "yaml-syntax" {
					b.Fatalf("want one syntax error, got %v", f.Diagnostics)
				}
			}
		})
	}
}
