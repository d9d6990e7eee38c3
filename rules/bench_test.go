package rules_test

import (
	"context"
	"strconv"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/eval"
	"github.com/blueprint-ls/blueprint-ls/internal/gen"
	"github.com/blueprint-ls/blueprint-ls/rules"
	"github.com/blueprint-ls/blueprint-ls/schema"
)

// BenchmarkPhases1000 times, on the 1,000-resource generated blueprint,
// what check does without the rules (parse and analysis) beside what the
// rules add (evaluation, then the rules), so their ratio is visible;
// eval-lazy+rules is what check runs.
//
//	go test ./rules -run '^$' -bench Phases1000 -benchtime 20x
func BenchmarkPhases1000(b *testing.B) {
	ctx := context.Background()
	content := gen.Blueprint(1000, "yaml")
	analyse := func() *analysis.Result {
		f := schema.Parse("/tmp/gen.blueprint.yaml", content)
		return analysis.Analyze(ctx, f, analysis.Options{Path: "/tmp/gen.blueprint.yaml"})
	}
	res := analyse()
	bp, err := eval.Eval(ctx, res, eval.Inputs{}, eval.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("parse+analyse", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			analyse()
		}
	})
	b.Run("eval", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := eval.Eval(ctx, res, eval.Inputs{}, eval.Options{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("eval-resources-only", func(b *testing.B) {
		b.ReportAllocs()
		all := res.Blueprint.Resources.Names()
		for b.Loop() {
			if _, err := eval.Eval(ctx, res, eval.Inputs{}, eval.Options{Partial: true, Resources: all}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("rules", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			rules.Run(ctx, bp, rules.Options{})
		}
	})
	// What check does: a lazy evaluation, whose fields the rules (and
	// references) evaluate as they read them.
	b.Run("eval-lazy", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := eval.Eval(ctx, res, eval.Inputs{}, eval.Options{Lazy: true}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("eval-lazy+rules", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			bp, err := eval.Eval(ctx, res, eval.Inputs{}, eval.Options{Lazy: true})
			if err != nil {
				b.Fatal(err)
			}
			rules.Run(ctx, bp, rules.Options{})
		}
	})
}

// BenchmarkCheckRules times what check runs for the rules (a lazy
// evaluation, then every rule) on the generated blueprints of 1,000,
// 5,000 and 20,000 resources, one after another (no fan-out), with the
// collector off as check runs (issue 36: the rules' share of check's
// budget; the time should grow in step with the resources).
//
//	GOGC=off go test ./rules -run '^$' -bench CheckRules -benchtime 10x
func BenchmarkCheckRules(b *testing.B) {
	ctx := context.Background()
	for _, n := range []int{1000, 5000, 20000} {
		content := gen.Blueprint(n, "yaml")
		f := schema.Parse("/tmp/gen.blueprint.yaml", content)
		res := analysis.Analyze(ctx, f, analysis.Options{Path: "/tmp/gen.blueprint.yaml"})
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			findings := 0
			for b.Loop() {
				bp, err := eval.Eval(ctx, res, eval.Inputs{}, eval.Options{Lazy: true})
				if err != nil {
					b.Fatal(err)
				}
				findings = len(rules.Run(ctx, bp, rules.Options{}))
			}
			b.ReportMetric(float64(findings), "findings")
		})
	}
}
