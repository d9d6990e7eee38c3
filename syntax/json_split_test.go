package syntax_test

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/internal/gen"
	"github.com/blueprint-ls/blueprint-ls/internal/parsetest"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// TestJSONSplitEqualsWhole: a JSON or JSONC text read in two halves
// (made to split every text here) gives the tree, diagnostics and line
// table the whole parse gives, on the JSON files of the repository,
// generated blueprints and random edits of them (typing comments,
// strings, braces and members across the cut); and it does split many.
func TestJSONSplitEqualsWhole(t *testing.T) {
	docs := jsonDocs(t)
	for _, n := range []int{3, 8, 30, 120} {
		docs[fmt.Sprintf("gen%d.json", n)] = gen.Blueprint(n, "json")
	}
	docs["gen41.jsonc"] = []byte("// generated\n" + strings.Replace(string(gen.Blueprint(41, "json")), "},\n", "}, // member\n", 3))
	rng := rand.New(rand.NewSource(36))
	split, texts := 0, 0
	check := func(name string, src []byte) {
		t.Helper()
		texts++
		jsonc := strings.HasSuffix(strings.TrimSuffix(name, " (edited)"), ".jsonc")
		if syntax.SplitsJSON(src, jsonc) {
			split++
		}
		if d := parsetest.Diff(syntax.ParseJSONSplitting(src, jsonc, 0), syntax.ParseJSONSplitting(src, jsonc, 1<<62)); d != "" {
			t.Fatalf("%s: %s\n%s", name, d, src)
		}
	}
	for name, src := range docs {
		check(name, src)
		edits := 30
		if strings.HasPrefix(name, "gen") {
			edits = 100 // the ones long enough to cut
		}
		for range edits {
			check(name+" (edited)", parsetest.Edit(rng, src, jsonEdits))
		}
	}
	t.Logf("%d of %d texts read in two halves", split, texts)
	if !syntax.SplitsJSON(gen.Blueprint(1000, "json"), false) {
		t.Fatal("the generated blueprint was not split")
	}
	if split < 100 {
		t.Fatalf("only %d of %d texts split", split, texts)
	}
}
