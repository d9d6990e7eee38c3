package rules_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/eval"
	"github.com/blueprint-ls/blueprint-ls/rules"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// check analyses, evaluates and runs the rules over a YAML blueprint;
// it returns the rules' findings and the analysis's error diagnostics.
func check(t *testing.T, src string, in eval.Inputs, cfg *rules.Config) (found, errs []source.Diagnostic) {
	t.Helper()
	ctx := context.Background()
	f := schema.Parse("/tmp/test.blueprint.yaml", []byte(src))
	res := analysis.Analyze(ctx, f, analysis.Options{Path: "/tmp/test.blueprint.yaml"})
	for _, d := range res.Diagnostics {
		if d.Severity == source.Error {
			errs = append(errs, d)
		}
	}
	bp, err := eval.Eval(ctx, res, in, eval.Options{})
	if err != nil {
		t.Fatal(err)
	}
	found = rules.Run(ctx, bp, rules.Options{Config: cfg})
	// check evaluates lazily (the rules read a few fields of each
	// spec): every finding must be the same.
	lazy, err := eval.Eval(ctx, res, in, eval.Options{Lazy: true})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(found, rules.Run(ctx, lazy, rules.Options{Config: cfg})); diff != "" {
		t.Errorf("lazy evaluation changes the findings (-eager +lazy):\n%s", diff)
	}
	return found, errs
}

// caseBlueprint writes a rule's example as a blueprint: a resource of
// the rule's first type with the spec, or, for a blueprint-level rule,
// the example itself under a version.
func caseBlueprint(r *rules.Rule, spec string) string {
	if len(r.Types) == 0 {
		return "version: 2025-11-02\n" + spec
	}
	var b strings.Builder
	b.WriteString("version: 2025-11-02\nresources:\n  r:\n    type: " + r.Types[0] + "\n    spec:\n")
	for _, l := range strings.Split(strings.TrimRight(spec, "\n"), "\n") {
		b.WriteString("      " + l + "\n")
	}
	return b.String()
}

func codes(ds []source.Diagnostic, code string) []source.Diagnostic {
	var out []source.Diagnostic
	for _, d := range ds {
		if d.Code == code {
			out = append(out, d)
		}
	}
	return out
}

// TestRuleTable runs every rule's failing and passing examples: each
// failing one is reported by the rule, no passing one is, and the
// passing ones are valid blueprints (the property names are the
// provider's).
func TestRuleTable(t *testing.T) {
	for _, r := range rules.All() {
		t.Run(r.ID, func(t *testing.T) {
			if len(r.Bad) == 0 || len(r.Good) == 0 {
				t.Fatalf("rule %s needs at least one failing and one passing example", r.ID)
			}
			for i, spec := range r.Bad {
				src := caseBlueprint(r, spec)
				found, errs := check(t, src, eval.Inputs{}, nil)
				if len(codes(found, r.ID)) == 0 {
					t.Errorf("bad[%d] not reported:\n%s\nfound: %v\nanalysis errors: %v", i, src, found, errs)
				}
			}
			for i, spec := range r.Good {
				src := caseBlueprint(r, spec)
				found, errs := check(t, src, eval.Inputs{}, nil)
				if got := codes(found, r.ID); len(got) > 0 {
					t.Errorf("good[%d] reported:\n%s\n%v", i, src, got)
				}
				if len(errs) > 0 {
					t.Errorf("good[%d] is not a valid blueprint:\n%s\n%v", i, src, errs)
				}
			}
		})
	}
}

// TestRuleTableComplete checks the table's own invariants: known
// resource types, documented equivalents in upper snake case.
func TestRuleTableComplete(t *testing.T) {
	reg := analysis.BuiltinRegistry()
	withEq := 0
	for _, r := range rules.All() {
		for _, ty := range r.Types {
			if _, ok := reg.ResourceType(ty); !ok {
				t.Errorf("%s: unknown resource type %s", r.ID, ty)
			}
		}
		for _, e := range r.Equivalents {
			if e != strings.ToUpper(e) || strings.ContainsAny(e, " -") {
				t.Errorf("%s: equivalent %q is not an AWS Config / Guard identifier", r.ID, e)
			}
		}
		if len(r.Equivalents) > 0 {
			withEq++
		}
	}
	t.Logf("%d rules, %d with equivalents", len(rules.All()), withEq)
}

// TestQuickFixFlag: a rule's QuickFix flag (the documentation's "Has a
// quick fix") says whether its failing examples come with a fix.
func TestQuickFixFlag(t *testing.T) {
	for _, r := range rules.All() {
		fixed := false
		for _, spec := range r.Bad {
			found, _ := check(t, caseBlueprint(r, spec), eval.Inputs{}, nil)
			for _, d := range codes(found, r.ID) {
				if len(d.Suggestions) > 0 {
					fixed = true
				}
			}
		}
		if fixed != r.QuickFix() {
			t.Errorf("%s: QuickFix() is %t, its failing examples have a fix: %t", r.ID, r.QuickFix(), fixed)
		}
	}
}
