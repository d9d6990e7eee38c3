package analysis

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/google/go-cmp/cmp"
)

// TestCatalogTypesAreKnown checks a blueprint of 200 resource types drawn
// at random (fixed seed) from the whole built-in catalog: none is
// unknown, and no provider is missing. The last resource is misspelt so
// that the check is seen to work.
func TestCatalogTypesAreKnown(t *testing.T) {
	names := BuiltinRegistry().ResourceTypeNames()
	if len(names) < 1500 {
		t.Fatalf("%d built-in resource types", len(names))
	}
	rng := rand.New(rand.NewPCG(14, 2026))
	var b strings.Builder
	b.WriteString("version: 2025-11-02\nresources:\n")
	for i, k := range rng.Perm(len(names))[:200] {
		fmt.Fprintf(&b, "  r%d:\n    type: %s\n", i, names[k])
	}
	b.WriteString("  typo:\n    type: aws/lambda/functon\n")
	f := schema.Parse("/p/catalog.blueprint.yaml", []byte(b.String()))
	r := Analyze(context.Background(), f, Options{Path: "/p/catalog.blueprint.yaml"})
	unknown := 0
	for _, d := range r.Diagnostics {
		switch d.Code {
		case "resource-unknown-type":
			unknown++
			if got := string(f.Content()[d.Range.Start:d.Range.End]); got != "aws/lambda/functon" {
				t.Errorf("unknown type %q: %s", got, describe(r, d))
			}
		case "resource-unknown-provider":
			t.Errorf("%s", describe(r, d))
		}
	}
	if unknown != 1 {
		t.Errorf("%d resource-unknown-type diagnostics, want 1 (the typo)", unknown)
	}
}

// TestCelerityTypes: a blueprint using the Celerity transform and its
// abstract types is checked against their built-in schemas (no
// "provider celerity is not loaded"), links between them are known, and
// a planned type without a defined spec accepts any spec.
func TestCelerityTypes(t *testing.T) {
	src := `version: 2025-11-02
transform: celerity-2026-02-27-draft
resources:
  ordersApi:
    type: celerity/api
    linkSelector:
      byLabel:
        app: orders
    spec:
      protocols: ["http"]
  getOrder:
    type: celerity/handler
    metadata:
      labels:
        app: orders
      annotations:
        celerity.handler.http: true
        celerity.handler.http.method: GET
        celerity.handler.http.path: /orders/{id}
    spec:
      handlerName: getOrder
      handler: orders.get
      memory: "lots"
      timeot: 30
  chat:
    type: celerity/channel
    spec:
      anything: [1, 2]
`
	f := schema.Parse("/p/celerity.blueprint.yaml", []byte(src))
	r := Analyze(context.Background(), f, Options{Path: "/p/celerity.blueprint.yaml"})
	var got []string
	for _, d := range r.Diagnostics {
		got = append(got, d.Code+" "+string(f.Content()[d.Range.Start:d.Range.End]))
	}
	want := []string{
		`resource-field-type "lots"`,
		"resource-unknown-field timeot",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
}
