package analysis

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/schema"
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
			if got := string(f.Content[d.Range.Start:d.Range.End]); got != "aws/lambda/functon" {
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
