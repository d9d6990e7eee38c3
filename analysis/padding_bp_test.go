package analysis

import (
	"context"
	"strings"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/bplang"
	"github.com/blueprint-ls/blueprint-ls/internal/gen"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// TestPaddedBPEditCarriesUnitsOver: in the blueprint language, padding
// a resource's first line (as the language server does, lsp/slack.go)
// and then typing in its spec while taking the length from the padding
// re-checks that resource alone: every other unit is carried over, as
// for the same edit without padding, and the result is a full
// analysis's.
func TestPaddedBPEditCarriesUnitsOver(t *testing.T) {
	const name = "gen.bp"
	text := string(gen.Blueprint(40, "bp"))
	start := strings.Index(text, "\nresource r19: ") + 1
	if start == 0 {
		t.Fatal("no resource r19")
	}
	keyLineEnd := start + strings.IndexByte(text[start:], '\n')
	field := strings.Index(text[start:], "visibilityTimeout = 45")
	if field < 0 {
		t.Fatal("no visibilityTimeout in r19")
	}
	at := start + field + len("visibilityTimeout = 45")
	pad := strings.Repeat(" ", 64)

	// Each version is analysed from the one before; want is how far the
	// edit moves the text after r19 (the splice's delta).
	versions := []struct {
		name  string
		text  string
		delta int
	}{
		{"padded", text[:keyLineEnd] + pad + text[keyLineEnd:at] + text[at:], 64},
		{"typed into the padding's place", text[:keyLineEnd] + pad[2:] + text[keyLineEnd:at] + ".5" + text[at:], 0},
		{"removed again", text[:keyLineEnd] + pad + text[keyLineEnd:at] + text[at:], 0},
		{"typed again", text[:keyLineEnd] + pad[2:] + text[keyLineEnd:at] + ".5" + text[at:], 0},
	}
	file := schema.Parse(name, []byte(text))
	if d, ok := bplang.DefinitionAt(file, at, at); !ok || !d.Open || d.Start != start || d.KeyLineEnd != keyLineEnd {
		t.Fatalf("DefinitionAt = %+v, %v; want r19's open statement at %d", d, ok, start)
	}
	res := Analyze(context.Background(), file, Options{})
	units := unitCount(res.Symbols())
	for _, v := range versions {
		nf := schema.Splice(file, []byte(v.text))
		if nf == nil {
			t.Fatalf("%s: not spliced", v.name)
		}
		if sp, ok := nf.Spliced(file); !ok || sp.Delta != v.delta {
			t.Fatalf("%s: Spliced = %+v, %v; want a delta of %d", v.name, sp, ok, v.delta)
		}
		got := AnalyzeIncremental(context.Background(), res, nf, Options{})
		want := Analyze(context.Background(), schema.Parse(name, []byte(v.text)), Options{})
		if diff := sameAnalysis(got, want); diff != "" {
			t.Fatalf("%s: %s", v.name, diff)
		}
		if got.carried != units-1 {
			t.Errorf("%s: %d of %d units carried over, want all but r19's", v.name, got.carried, units)
		}
		file, res = nf, got
	}
	// "45.5", 62 bytes of padding after its place in text.
	want := source.R(at-2+62, at+2+62)
	found := false
	for _, d := range res.Diagnostics {
		found = found || d.Code == "resource-field-type" && d.Range == want
	}
	if !found {
		t.Errorf("no %s at %v: %v", "resource-field-type", want, res.Diagnostics)
	}
}
