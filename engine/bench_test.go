package engine_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/engine"
	"github.com/blueprint-ls/blueprint-ls/eval"
	"github.com/blueprint-ls/blueprint-ls/funcs"
	"github.com/blueprint-ls/blueprint-ls/internal/gen"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/subst"
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

// BenchmarkPlanNestedCalls plans a call nested as deeply as the parser
// allows (subst.MaxDepth), and one half as deep: evaluation is linear in
// the expression's size, so the first takes about twice the second
// (printing every level's expression made it quadratic: 46 s at 32,000).
func BenchmarkPlanNestedCalls(b *testing.B) {
	for _, n := range []int{subst.MaxDepth / 2, subst.MaxDepth - 1} {
		doc := []byte("version: 2023-04-20\nvariables:\n  x:\n    type: string\n    default: a\nresources:\n  q:\n    type: aws/sqs/queue\n    spec:\n      queueName: ${" +
			strings.Repeat("trim(", n) + "variables.x" + strings.Repeat(")", n) + "}\n")
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := engine.PlanFile(context.Background(), "/x/a.blueprint.yaml", doc, eval.Inputs{}, engine.Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
