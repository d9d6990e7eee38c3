package bplang_test

import (
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/bplang"
	"github.com/blueprint-ls/blueprint-ls/bplang/internal/bpref"
	"github.com/blueprint-ls/blueprint-ls/internal/gen"
	"github.com/blueprint-ls/blueprint-ls/internal/parsetest"
)

// referenceDocs are the texts the parse is held to the reference parse
// on: every .bp and .blueprint file of the repository (the conformance
// inputs, the Celerity documentation's examples, the editors' fixtures),
// the shared examples when present, and generated blueprints.
func referenceDocs(t testing.TB) map[string][]byte {
	docs := map[string][]byte{
		"gen1.bp":   gen.Blueprint(1, "bp"),
		"gen12.bp":  gen.Blueprint(12, "bp"),
		"gen300.bp": gen.Blueprint(300, "bp"),
	}
	for _, root := range []string{"..", "/work/shared/examples"} {
		filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.IsDir() {
				if name := d.Name(); name == ".git" || name == "node_modules" {
					return filepath.SkipDir
				}
				return nil
			}
			if strings.HasSuffix(path, ".bp") || strings.HasSuffix(path, ".blueprint") {
				if b, err := os.ReadFile(path); err == nil {
					docs[path] = b
				}
			}
			return nil
		})
	}
	if len(docs) < 90 {
		t.Fatalf("found only %d documents", len(docs))
	}
	return docs
}

// sameAsReference reports how the parse of content differs from the
// reference parse (package bpref, the parser before issue 36's
// rebuild): "" when the trees, diagnostics and line tables are equal.
func sameAsReference(name string, content []byte) string {
	return parsetest.Diff(bplang.Parse(name, content), bpref.Parse(name, content))
}

// TestParseMatchesReference holds the parse to the reference parse on
// every document of the repository and on chains of random edits of
// each (errors kept, so recovery is exercised too).
func TestParseMatchesReference(t *testing.T) {
	steps := 150
	if testing.Short() {
		steps = 20
	}
	docs := referenceDocs(t)
	for name, data := range docs {
		if diff := sameAsReference(name, data); diff != "" {
			t.Fatalf("%s: %s", name, diff)
		}
		if len(data) > 200_000 {
			continue
		}
		rng := rand.New(rand.NewSource(int64(len(data))))
		text := data
		for step := 0; step < steps; step++ {
			text = parsetest.Edit(rng, text, bpEdits)
			if diff := sameAsReference(name, text); diff != "" {
				t.Fatalf("%s after %d edits: %s\ntext:\n%s", name, step+1, diff, text)
			}
			if step%40 == 39 {
				text = data // start again, so errors do not pile up without end
			}
		}
	}
}

// FuzzParseMatchesReference is TestParseMatchesReference on fuzzed
// texts.
func FuzzParseMatchesReference(f *testing.F) {
	for _, data := range referenceDocs(f) {
		if len(data) < 20_000 {
			f.Add(data)
		}
	}
	for _, s := range bpEdits {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if diff := sameAsReference("f.bp", b); diff != "" {
			t.Fatalf("%s\ntext: %q", diff, b)
		}
	})
}

// randomExpr writes a random expression of the language: every operator
// (with and without line breaks around it), calls with positional and
// named arguments, arrays, objects, groups, accessors, literals, strings
// with interpolations (some using operators), and now and then a token
// out of place.
func randomExpr(rng *rand.Rand, depth int) string {
	leaves := []string{"variables.a", "values.b[0]", `resources.c.spec["d.e"]`, "elem.name", "i", "x", "1", "-2.5",
		`"s"`, `"${variables.a}"`, `"a-${variables.a == "x"}-${!elem.c}"`, "true", "false", "none", `"q\"q"`, `"${f('a==b', "c")}"`, `"${g("}", x >= 1)}"`}
	if depth <= 0 || rng.Intn(4) == 0 {
		return leaves[rng.Intn(len(leaves))]
	}
	sub := func() string { return randomExpr(rng, depth-1) }
	ops := []string{"||", "&&", "==", "!=", "<", "<=", ">", ">="}
	switch rng.Intn(9) {
	case 0, 1, 2:
		sep := []string{" ", " ", "\n    ", ""}
		return sub() + sep[rng.Intn(len(sep))] + ops[rng.Intn(len(ops))] + sep[rng.Intn(len(sep))] + sub()
	case 3:
		return "!" + sub()
	case 4:
		return "(" + sub() + ")"
	case 5:
		if rng.Intn(2) == 0 {
			return "f(" + sub() + ", " + sub() + ")"
		}
		return "g(a = " + sub() + ",\n " + sub() + ").x"
	case 6:
		return "[" + sub() + ", " + sub() + "]"
	case 7:
		return "{ k = " + sub() + ", \"m\" = " + sub() + " }"
	}
	junk := []string{"", "", "", ")", "]", "=", ",", "@", "{"}
	return sub() + junk[rng.Intn(len(junk))]
}

// TestParseMatchesReferenceExpressions holds the parse to the reference
// parse on random expressions in a value, in a resource's spec and in a
// string's interpolation.
func TestParseMatchesReferenceExpressions(t *testing.T) {
	n := 4000
	if testing.Short() {
		n = 500
	}
	rng := rand.New(rand.NewSource(36))
	for i := 0; i < n; i++ {
		x := randomExpr(rng, 4)
		var doc string
		switch i % 3 {
		case 0:
			doc = "value v: string {\n    value = " + x + "\n}\n"
		case 1:
			doc = "resource r: aws/s3/bucket {\n    spec {\n        a = " + x + "\n        b = [" + x + "]\n    }\n}\n"
		default:
			doc = "value v: string {\n    value = \"pre ${" + x + "} post\"\n}\n"
		}
		if diff := sameAsReference("x.bp", []byte(doc)); diff != "" {
			t.Fatalf("%s\ntext:\n%s", diff, doc)
		}
	}
}

// TestCursorMatchesReference holds CursorAt to the reference's (the
// cursor reads tokens with their texts, which the parse's tokens no
// longer carry) at offsets all over every document of the repository.
func TestCursorMatchesReference(t *testing.T) {
	for name, data := range referenceDocs(t) {
		if len(data) > 200_000 {
			continue
		}
		rng := rand.New(rand.NewSource(int64(len(data))))
		for k := 0; k < 60; k++ {
			off := rng.Intn(len(data) + 1)
			got, gotOK := bplang.CursorAt(data, off)
			want, wantOK := bpref.CursorAt(data, off)
			if gotOK != wantOK || !reflect.DeepEqual(got, bplang.Cursor(want)) {
				t.Fatalf("%s at %d: %+v %v, want %+v %v", name, off, got, gotOK, want, wantOK)
			}
		}
	}
}
