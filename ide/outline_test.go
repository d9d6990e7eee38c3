package ide

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// The syntax outline takes its groups from the dialect: a manifest lists
// droplets with their type, an unknown document only its top-level keys.
func TestOutlineByDialect(t *testing.T) {
	type sym struct {
		Name, Detail string
		Kind         SymbolKind
		Sel          source.Range
		Children     []sym
	}
	var flat func([]DocumentSymbol) []sym
	flat = func(ds []DocumentSymbol) []sym {
		var out []sym
		for _, d := range ds {
			out = append(out, sym{d.Name, d.Detail, d.Kind, d.SelectionRange, flat(d.Children)})
		}
		return out
	}
	manifest := `{"schema": "cloud-assembly/1.0", "droplets": {"A": {"type": "npm://p/C"}}}`
	got := flat(Outline(dialect.ManifestDialect, schema.Parse("m.json", []byte(manifest)), nil))
	want := []sym{
		{"schema", "cloud-assembly/1.0", SymbolProperty, source.R(1, 9), nil},
		{"droplets", "", SymbolSection, source.R(33, 43), []sym{{"A", "npm://p/C", SymbolResource, source.R(46, 49), nil}}},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("manifest outline (-want +got):\n%s", d)
	}
	workflow := "name: CI\njobs:\n  test:\n    runs-on: ubuntu-latest\n"
	got = flat(Outline(dialect.UnknownDialect, schema.Parse("ci.yaml", []byte(workflow)), nil))
	want = []sym{
		{"name", "CI", SymbolProperty, source.R(0, 4), nil},
		{"jobs", "", SymbolSection, source.R(9, 13), nil},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("unknown outline (-want +got):\n%s", d)
	}
	// A blueprint whose text does not parse into a Result: the syntax
	// outline with the blueprint's sections.
	bp := "version: 2023-04-20\nresources:\n  q:\n    type: aws/sqs/queue\n"
	got = flat(Outline(dialect.BluelinkDialect, schema.Parse("b.yaml", []byte(bp)), nil))
	want = []sym{
		{"version", "2023-04-20", SymbolProperty, source.R(0, 7), nil},
		{"resources", "", SymbolSection, source.R(20, 29), []sym{{"q", "aws/sqs/queue", SymbolResource, source.R(33, 34), nil}}},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("blueprint syntax outline (-want +got):\n%s", d)
	}
}

// TestOutlineLinks: each link is under the resource making it, named
// after the resource at its other end, at the linkSelector's byLabel.
func TestOutlineLinks(t *testing.T) {
	text := `version: 2025-11-02
resources:
  handler:
    type: celerity/handler
    linkSelector:
      byLabel: {store: orders}
    spec:
      handlerName: orders
  store:
    type: celerity/datastore
    metadata:
      labels: {store: orders}
    spec:
      keys: {partitionKey: id}
`
	f := schema.Parse("a.blueprint.yaml", []byte(text))
	res := analysis.Analyze(context.Background(), f, analysis.Options{})
	var got []string
	for _, section := range Outline(dialect.BluelinkDialect, f, res) {
		for _, d := range section.Children {
			for _, c := range d.Children {
				got = append(got, fmt.Sprintf("%s/%s %q %s %d %s", section.Name, d.Name, text[c.SelectionRange.Start:c.SelectionRange.End], c.Name, c.Kind, c.Detail))
			}
		}
	}
	want := []string{`resources/handler "byLabel" → store 10 link celerity/handler → celerity/datastore (linkSelector)`}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}
