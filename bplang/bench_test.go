package bplang_test

import (
	"testing"

	"github.com/blueprint-ls/blueprint-ls/bplang"
	"github.com/blueprint-ls/blueprint-ls/internal/gen"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// TestGeneratedParses keeps the benchmark honest: the generated document
// parses with no diagnostic and has every resource.
func TestGeneratedParses(t *testing.T) {
	data := gen.Blueprint(50, "bp")
	f := bplang.Parse("gen.bp", data)
	for _, d := range f.Diagnostics {
		t.Errorf("%v %s", d.Range, d.Message)
	}
	res, _ := f.Root.(*syntax.Mapping).Get("resources").(*syntax.Mapping)
	if res == nil || len(res.Entries) != 50 {
		t.Fatalf("want 50 resources, got %v", res)
	}
}

func benchParse(b *testing.B, n int) {
	data := gen.Blueprint(n, "bp")
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if f := bplang.Parse("gen.bp", data); f.HasSyntaxErrors() {
			b.Fatal(f.Diagnostics[0].Message)
		}
	}
}

func BenchmarkParse1000(b *testing.B) { benchParse(b, 1000) }
func BenchmarkParse5000(b *testing.B) { benchParse(b, 5000) }
