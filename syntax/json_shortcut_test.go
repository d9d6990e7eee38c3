package syntax

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/internal/gen"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// referenceJSON parses content as a splice's parser does (every node
// allocated alone, every value copied) with every string decoded by the
// decoding loop: what ParseJSON built before its shortcuts.
func referenceJSON(content []byte, jsonc bool) *File {
	p := &jsonParser{src: content, jsonc: jsonc, slabs: &nodeSlabs{}, decodeAll: true}
	return parseJSONMapped(content, p, source.NewMapper(content))
}

// sameJSONParse reports how ParseJSON differs from referenceJSON on
// content ("" when it does not).
func sameJSONParse(content []byte) string {
	for _, jsonc := range []bool{false, true} {
		got, want := ParseJSON(content, jsonc), referenceJSON(content, jsonc)
		if !reflect.DeepEqual(got.Root, want.Root) {
			return "trees differ:\n" + dump(got) + "\nwant\n" + dump(want)
		}
		if !reflect.DeepEqual(got.Diagnostics, want.Diagnostics) {
			return "diagnostics differ"
		}
	}
	return ""
}

// TestJSONShortcutsAgree holds ParseJSON's shortcuts (slabs, substrings
// of one copy of the text, strings without escapes taken whole) to the
// plain parse, on every JSON and JSONC file of the repository's testdata,
// generated blueprints and random edits of them that add and remove
// quotes, escapes, line breaks and brackets.
func TestJSONShortcutsAgree(t *testing.T) {
	var docs [][]byte
	for _, g := range []string{"testdata/parse/*.json*", "../testdata/*/*.json*", "../testdata/*/*/*.json*", "../testdata/*/*/*/*.json*"} {
		paths, _ := filepath.Glob(g)
		for _, p := range paths {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			docs = append(docs, b)
		}
	}
	if len(docs) < 20 {
		t.Fatalf("only %d JSON files", len(docs))
	}
	docs = append(docs, gen.Blueprint(50, "json"))
	rng := rand.New(rand.NewPCG(36, 36))
	pieces := []string{`"`, `\`, `\"`, `\u00e9`, `\n`, "\n", "'", "{", "}", "[", "]", ",", ":", "\x01", "é", "/*", "//"}
	for i, doc := range docs {
		if diff := sameJSONParse(doc); diff != "" {
			t.Fatalf("document %d: %s", i, diff)
		}
		for range 20 {
			at := rng.IntN(len(doc) + 1)
			edited := append([]byte(nil), doc[:at]...)
			if rng.IntN(3) == 0 && at < len(doc) {
				edited = append(edited, doc[at+1:]...)
			} else {
				edited = append(append(edited, pieces[rng.IntN(len(pieces))]...), doc[at:]...)
			}
			if diff := sameJSONParse(edited); diff != "" {
				t.Fatalf("document %d edited at %d: %s\n%s", i, at, diff, edited)
			}
		}
	}
}

func FuzzJSONShortcuts(f *testing.F) {
	addSeeds(f, ".json", ".jsonc")
	f.Add([]byte(`{"a": "b\"c", "d": ["e", 1, true, null], "f": "g`))
	f.Fuzz(func(t *testing.T, b []byte) {
		if diff := sameJSONParse(b); diff != "" {
			t.Fatal(diff)
		}
	})
}
