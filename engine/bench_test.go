package engine_test

import (
	"context"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/engine"
	"github.com/blueprint-ls/blueprint-ls/eval"
	"github.com/blueprint-ls/blueprint-ls/funcs"
	"github.com/blueprint-ls/blueprint-ls/internal/gen"
	"github.com/blueprint-ls/blueprint-ls/schema"
)

// BenchmarkPlan5000 plans a generated 5,000-resource blueprint from its
// bytes: parse, analysis, evaluation, graph, stages and diff. The
// Parse5000 baseline shows the share of parsing alone.
func BenchmarkPlan5000(b *testing.B) {
	content := gen.Blueprint(5000, "yaml")
	var in eval.Inputs
	_ = in.AddVar("region=eu-west-1")
	b.ReportAllocs()
	b.SetBytes(int64(len(content)))
	for b.Loop() {
		// The generator writes one value (an array given as a YAML
		// list) that analysis rejects; planning goes on regardless.
		p, _, err := engine.PlanFile(context.Background(), "gen.blueprint.yaml", content, in, engine.Options{Env: &funcs.TestEnv{}})
		if err != nil || p == nil {
			b.Fatal(err)
		}
		if len(p.Resources) < 4000 { // resources whose condition is false are not planned
			b.Fatalf("%d resources", len(p.Resources))
		}
	}
}

func BenchmarkParse5000(b *testing.B) {
	content := gen.Blueprint(5000, "yaml")
	b.ReportAllocs()
	b.SetBytes(int64(len(content)))
	for b.Loop() {
		schema.Parse("gen.blueprint.yaml", content)
	}
}
