package schema

import (
	"fmt"
	"math/rand"
	"path/filepath"
	"slices"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/internal/gen"
	"github.com/blueprint-ls/blueprint-ls/internal/parsetest"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// padTyped is what the random edits of TestPadParsedEqualsParse type:
// what changes where a key line ends and what it holds.
var padTyped = []string{"x", " ", "\n", ":", "{", "}", "\"", "'", "#", "//", "/*", "*/", "|", "- ", "? ",
	"\n  k:\n", "\n    k: 1\n", "\"a\": {", "resource r: t {", "\\", "\t", "${"}

// TestPadParsedEqualsParse holds syntax.PadParsed to the parse it
// stands for: for every blueprint of testdata in every format, generated
// ones, and random edits of them that still parse clean, the padding
// PadPoints finds put into the text, the tree of the text moved by
// PadParsed is the whole parse of the padded text, and every padded
// key line still reads as an Open definition's.
func TestPadParsedEqualsParse(t *testing.T) {
	docs := parsetest.Corpus(t, []string{"../testdata"}, ".yaml", ".yml", ".json", ".jsonc", ".bp")
	for _, format := range []string{"yaml", "json", "bp"} {
		for _, n := range []int{1, 7, 40} {
			docs[fmt.Sprintf("gen%d.blueprint.%s", n, format)] = gen.Blueprint(n, format)
		}
	}
	docs["gen.blueprint.jsonc"] = append([]byte("// generated\n"), gen.Blueprint(5, "json")...)
	rng := rand.New(rand.NewSource(1))
	padded, edited := 0, 0
	for name, doc := range docs {
		uri := "file:///" + filepath.ToSlash(name)
		for k := range 12 {
			text := doc
			if k > 0 {
				text = parsetest.Edit(rng, doc, padTyped)
				if k > 1 {
					text = parsetest.Edit(rng, text, padTyped)
				}
			}
			if checkPadParsed(t, uri, text) && k > 0 {
				edited++
			}
		}
		padded++
	}
	if edited < 200 {
		t.Fatalf("only %d edited texts had padding to check", edited)
	}
	t.Logf("%d documents, %d edited texts padded", padded, edited)
}

// checkPadParsed checks PadParsed on text and reports whether there
// was padding to check.
func checkPadParsed(t *testing.T, uri string, text []byte) bool {
	t.Helper()
	f := Parse(uri, text)
	points := PadPoints(f)
	if len(f.Diagnostics) == 0 && !f.HasSyntaxErrors() {
		if want := definitionsOpen(f); !slices.Equal(points, want) {
			t.Fatalf("%s: PadPoints %v, DefinitionAt says %v", uri, points, want)
		}
	}
	if len(points) == 0 {
		return false
	}
	const size = 7
	out := parsetest.Pad(text, points, size)
	want := Parse(uri, out)
	pt := source.NewText(out)
	syntax.PadParsed(f, points, sameSizes(len(points), size), pt, source.NewMapperOf(pt))
	if d := parsetest.Diff(f, want); d != "" {
		t.Fatalf("%s padded at %v: %s\n%s", uri, points, d, out)
	}
	for i, p := range points {
		at := p + i*size
		if d, ok := DefinitionAt(want, at, at); !ok || !d.Open || d.KeyLineEnd != at+size {
			t.Fatalf("%s: padding at %d does not end an open key line: %+v %v", uri, p, d, ok)
		}
	}
	return true
}

// definitionsOpen asks DefinitionAt about every definition of f, a
// clean parse, and returns where the key line of each Open one ends.
func definitionsOpen(f *File) []int {
	root, ok := f.Root.(*syntax.Mapping)
	if !ok {
		return nil
	}
	var out []int
	for _, sec := range root.Entries {
		if section, ok := sec.Value.(*syntax.Mapping); ok {
			for _, e := range section.Entries {
				if d, ok := DefinitionAt(f, e.Key.Rng.Start, e.Key.Rng.Start); ok && d.Open && !slices.Contains(out, d.KeyLineEnd) {
					out = append(out, d.KeyLineEnd)
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// BenchmarkPadWhole: what padding a text that arrives whole costs after
// its parse (PadPoints, then PadParsed), at 5,000 resources.
func BenchmarkPadWhole(b *testing.B) {
	for _, format := range []string{"yaml", "json", "bp"} {
		b.Run(format, func(b *testing.B) {
			uri := "file:///bench.blueprint." + format
			text := gen.Blueprint(5000, format)
			for range b.N {
				b.StopTimer()
				f := Parse(uri, text)
				b.StartTimer()
				points := PadPoints(f)
				out := parsetest.Pad(text, points, 64)
				pt := source.NewText(out)
				syntax.PadParsed(f, points, sameSizes(len(points), 64), pt, source.NewMapperOf(pt))
			}
		})
	}
}

// FuzzPadParsed is TestPadParsedEqualsParse on fuzzed texts in every
// format.
func FuzzPadParsed(f *testing.F) {
	for _, format := range []string{"yaml", "json", "bp"} {
		f.Add(gen.Blueprint(3, format), uint8(len(format)))
	}
	f.Fuzz(func(t *testing.T, text []byte, format uint8) {
		uri := []string{"file:///f.blueprint.yaml", "file:///f.blueprint.json", "file:///f.blueprint.jsonc", "file:///f.bp"}[format%4]
		checkPadParsed(t, uri, text)
	})
}

// sameSizes returns n sizes of size.
func sameSizes(n, size int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = size
	}
	return out
}
