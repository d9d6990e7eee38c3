package bplang

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/internal/gen"
	"github.com/blueprint-ls/blueprint-ls/internal/parsetest"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// TestParseSplitEqualsWhole: a text read in two halves (parseSplit, made
// to split every text here) gives the tree, diagnostics and line table
// the whole parse gives, on every .bp of the repository, generated
// blueprints and random edits of them; and it does split most of them.
func TestParseSplitEqualsWhole(t *testing.T) {
	docs := map[string][]byte{}
	for _, n := range []int{2, 9, 40, 300} {
		docs[fmt.Sprintf("gen%d.bp", n)] = gen.Blueprint(n, "bp")
	}
	for _, pattern := range []string{"../testdata/bp/*.bp", "../testdata/celerity-docs-bp/*.bp", "testdata/*.bp", "testdata/*/*.bp"} {
		files, _ := filepath.Glob(pattern)
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			docs[f] = b
		}
	}
	rng := rand.New(rand.NewSource(36))
	split, texts := 0, 0
	check := func(name string, src []byte) {
		t.Helper()
		texts++
		got := parseSplit(name, src, source.NewMapper(src), 0)
		if got == nil {
			return
		}
		split++
		if d := parsetest.Diff(got, parseWhole(name, src, source.NewMapper(src))); d != "" {
			t.Fatalf("%s: %s\n%s", name, d, src)
		}
	}
	for name, src := range docs {
		check(name, src)
		for range 10 {
			src := parsetest.Edit(rng, src, splitEdits)
			check(name+" (edited)", src)
			check(name+" (edited twice)", parsetest.Edit(rng, src, splitEdits))
		}
	}
	t.Logf("%d of %d texts read in two halves", split, texts)
	if g := gen.Blueprint(1000, "bp"); parseSplit("g.bp", g, source.NewMapper(g), 0) == nil {
		t.Fatal("the generated blueprint was not split")
	}
	if split < 150 {
		t.Fatalf("only %d of %d texts split", split, texts)
	}
}

// splitEdits are what the random edits of TestParseSplitEqualsWhole
// type: what opens strings, comments and blocks across the split, and
// statements that start a line.
var splitEdits = []string{"x", "9", " ", "\n", "{", "}", "[", "]", "\"", `"""`, "#", "//", "/*", "*/", "=", ":",
	"\nresource r: aws/s3/bucket {\n}\n", "\nvariable v: string\n", "resource ", "${", "\\"}

// FuzzParseSplit holds the two-core parse (made to split any text) to
// the whole parse on fuzzed texts.
func FuzzParseSplit(f *testing.F) {
	f.Add(gen.Blueprint(4, "bp"))
	f.Fuzz(func(t *testing.T, src []byte) {
		if got := parseSplit("f.bp", src, source.NewMapper(src), 0); got != nil {
			if d := parsetest.Diff(got, parseWhole("f.bp", src, source.NewMapper(src))); d != "" {
				t.Fatalf("%s\n%s", d, src)
			}
		}
	})
}
