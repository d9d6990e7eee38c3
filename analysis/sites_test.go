package analysis

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/internal/gen"
	"github.com/blueprint-ls/blueprint-ls/schema"
)

// TestSiteScalarsHoldSubstitution (with EdgesFromSeq against
// EdgesFrom on every symbol) holds what checkSpecSubstitutions
// relies on to skip the site look-up: every site of a spec (of any
// kind but an export's field) is a string scalar holding "${"; and
// that each site's owner is the symbol Lookup finds by its name (owner
// takes it by place when no name is declared twice). Both in the
// analysis of every testdata blueprint and of generated ones, whole and
// after an edit (the incremental analysis carries sites over).
func TestSiteScalarsHoldSubstitution(t *testing.T) {
	files := testdataBlueprints(t)
	check := func(name string, res *Result) {
		t.Helper()
		// EdgesFromSeq yields what EdgesFrom lists, in its order.
		for _, sym := range append(slices.Clone(res.Symbols()), nil, &Symbol{Kind: ResourceSymbol, Name: "stranger"}) {
			var seq []*Edge
			for e := range res.EdgesFromSeq(sym) {
				seq = append(seq, e)
			}
			if list := res.EdgesFrom(sym); !slices.Equal(seq, list) {
				t.Errorf("%s: %v: EdgesFromSeq yields %d edges, EdgesFrom lists %d", name, sym, len(seq), len(list))
			}
		}
		for _, s := range res.Sites() {
			// owner takes a definition's symbol by its place when no name
			// is declared twice: the one Lookup finds.
			if o := s.Owner; o != nil && o.Kind != DataSourceFieldSymbol && res.Lookup(o.Kind, o.Name) != o {
				t.Errorf("%s: site at %v: owner %v %q is not the symbol of its name", name, s.Scalar.Rng, o.Kind, o.Name)
			}
			if s.Kind == SiteExportField {
				continue
			}
			if !s.Scalar.IsString() || !strings.Contains(s.Scalar.Value, "${") {
				t.Errorf("%s: site of kind %v at %v: scalar %q (tag %v) holds no ${", name, s.Kind, s.Scalar.Rng, s.Scalar.Value, s.Scalar.Tag)
			}
		}
	}
	ctx := context.Background()
	dup := "dup.blueprint.yaml"
	dupText := []byte("version: 2025-05-12\nvariables:\n  env:\n    type: string\nvalues:\n  v:\n    type: string\n    value: ${variables.env}\n  v:\n    type: string\n    value: x-${variables.env}\nresources:\n  a:\n    type: aws/sqs/queue\n    spec:\n      queueName: ${variables.env}\n  b:\n    type: aws/sqs/queue\n    spec:\n      queueName: b-${values.v}\n  a:\n    type: aws/sqs/queue\n    spec:\n      queueName: a2-${variables.env}\n  c:\n    type: aws/sqs/queue\n    spec:\n      queueName: c-${resources.b.spec.queueName}\n")
	check(dup, Analyze(ctx, schema.Parse("file://"+dup, dupText), Options{Path: dup}))
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		check(path, Analyze(ctx, schema.Parse("file://"+path, data), Options{Path: path, Repair: true}))
	}
	for _, format := range []string{"yaml", "json", "bp"} {
		name := "gen.blueprint." + format
		if format == "bp" {
			name = "gen.bp"
		}
		data := gen.Blueprint(40, format)
		prev := Analyze(ctx, schema.Parse("file://"+name, data), Options{Path: name})
		check(name, prev)
		// An edit in the middle: the other resources' sites are carried over.
		at := strings.Index(string(data), "r20")
		if at < 0 {
			t.Fatalf("%s: no r20", name)
		}
		edited := append(append(append([]byte{}, data[:at]...), "q"...), data[at:]...)
		check(name+" edited", AnalyzeIncremental(ctx, prev, schema.Parse("file://"+name, edited), Options{Path: name}))
	}
}
