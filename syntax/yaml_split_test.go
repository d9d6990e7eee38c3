package syntax

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/internal/gen"
)

// TestSplitParseEqualsWhole: a text read in two halves (fastParseSplit,
// made to split every text here) gives the tree, diagnostics and line
// table the whole parse gives, on every YAML file of the repository,
// generated blueprints and random edits of them; and it does split most
// of the generated ones.
func TestSplitParseEqualsWhole(t *testing.T) {
	corpus := fastCorpus(t)
	for _, n := range []int{3, 10, 57} {
		corpus["gen"+string(rune('a'+n%26))] = gen.Blueprint(n, "yaml")
	}
	rng := rand.New(rand.NewPCG(32, 36))
	split, texts := 0, 0
	check := func(name string, src []byte) {
		t.Helper()
		texts++
		want := parseYAMLSplit(src, nil, true, math.MaxInt)
		got := parseYAMLSplit(src, nil, true, 0)
		if d := diffFiles(got, want); d != "" {
			t.Fatalf("%s: %s\n%s", name, d, src)
		}
		if _, _, ok := fastParseSplit(src, got.Mapper, 0); ok {
			split++
		}
	}
	for name, src := range corpus {
		check(name, src)
		if len(src) > 200_000 {
			continue
		}
		for range 8 {
			check(name+" (edited)", mutateYAML(rng, src))
		}
	}
	t.Logf("%d of %d texts read in two halves", split, texts)
	if _, _, ok := fastParseSplit(gen.Blueprint(1000, "yaml"), nil, 0); !ok {
		t.Fatal("the generated blueprint was not split")
	}
	if split < 100 {
		t.Fatalf("only %d of %d texts split", split, texts)
	}
}

// diffFiles reports how got differs from want: "" when the trees,
// diagnostics and line tables are the same.
func diffFiles(got, want *File) string {
	switch {
	case !reflect.DeepEqual(got.Root, want.Root):
		return "the trees differ"
	case !reflect.DeepEqual(got.Diagnostics, want.Diagnostics):
		return fmt.Sprintf("diagnostics %v, want %v", got.Diagnostics, want.Diagnostics)
	case !reflect.DeepEqual(got.Mapper.LineStarts(), want.Mapper.LineStarts()):
		return "line tables differ"
	}
	return ""
}

// FuzzSplitParse holds the two-core parses of YAML, JSON and JSONC
// (made to split any text) to the whole parse on fuzzed texts.
func FuzzSplitParse(f *testing.F) {
	f.Add(gen.Blueprint(4, "yaml"), uint8(0))
	f.Add(gen.Blueprint(4, "json"), uint8(1))
	f.Add(append([]byte("{\n  // c\n"), gen.Blueprint(4, "json")[2:]...), uint8(2))
	f.Fuzz(func(t *testing.T, src []byte, kind uint8) {
		var got, want *File
		switch kind % 3 {
		case 0:
			got, want = parseYAMLSplit(src, nil, true, 0), parseYAMLSplit(src, nil, true, math.MaxInt)
		default:
			jsonc := kind%3 == 2
			got, want = parseJSONSplitting(src, nil, jsonc, 0), parseJSONWhole(src, nil, jsonc)
		}
		if d := diffFiles(got, want); d != "" {
			t.Fatalf("%s\n%s", d, src)
		}
	})
}
