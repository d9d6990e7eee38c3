package main

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/sourcegraph/conc/pool"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/eval"
	"github.com/blueprint-ls/blueprint-ls/project"
	"github.com/blueprint-ls/blueprint-ls/providers/registry"
	"github.com/blueprint-ls/blueprint-ls/rules"
	regopolicy "github.com/blueprint-ls/blueprint-ls/rules/policy"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// ruleSettings is what check runs the rules with for one project config:
// which rules (the config's rules: section, --rules overriding its
// sets) and the variable inputs the blueprint is evaluated with (the
// config's inputs.vars, then --vars and --var). Nil runs no rules.
type ruleSettings struct {
	cfg      *rules.Config
	inputs   eval.Inputs
	key      string          // what distinguishes these settings from the defaults
	policies *regopolicy.Set // the config's rules.policies folder, nil for none
}

// defaultRuleSets stands for --rules when neither the flag nor a config's
// rules: section says which rules run: empty runs them all. The tests of the other
// check features set it to "none" (TestMain) so their fixtures keep
// testing what they were written for; the rules' own tests pass --rules.
var defaultRuleSets = ""

// parseRulesFlag reads --rules: all, none, or a comma-separated list of
// rule sets.
func parseRulesFlag(s string) ([]string, error) {
	if s == "" {
		return nil, nil
	}
	var out []string
	for _, w := range strings.Split(s, ",") {
		w = strings.TrimSpace(w)
		switch w {
		case "all", "none", string(rules.Security), string(rules.Reliability), string(rules.Cost):
			out = append(out, w)
		default:
			return nil, fmt.Errorf("unknown rule set %q in --rules (want all, none, security, reliability or cost)", w)
		}
	}
	return out, nil
}

// ruleSettingsFor builds the settings of cfg: nil when --rules none.
func (pl *planner) ruleSettingsFor(cfg *projectConfig) (*ruleSettings, error) {
	flag := pl.o.rules
	if flag == "" && cfg.Rules == nil {
		flag = defaultRuleSets
	}
	sets, _ := parseRulesFlag(flag)
	rc := cfg.Rules
	if len(sets) == 1 && sets[0] == "none" && (rc == nil || rc.Policies == "") {
		return nil, nil
	}
	key := ""
	if rc != nil {
		key = cfg.Path
	}
	if sets != nil {
		c := project.RulesConfig{}
		if rc != nil {
			c = *rc
		}
		c.Sets = nil
		for _, s := range sets {
			c.Sets = append(c.Sets, project.Word{Text: s})
		}
		rc = &c
	}
	rcfg, diags := rules.Configure(rc)
	if len(diags) > 0 {
		return nil, refuseRuleMistakes(cfg, diags)
	}
	rs := &ruleSettings{cfg: rcfg, key: key}
	if rc != nil && rc.Policies != "" {
		set, err := regopolicy.Load(context.Background(), rc.Policies, regopolicy.Options{Limit: cfg.Limits.DocumentLimit()})
		if err != nil {
			return nil, fmt.Errorf("config %s: rules.policies: %w", cfg.Path, err)
		}
		rs.policies = set
		for _, f := range set.Problems {
			if pl.policyProblems == nil {
				pl.policyProblems = map[string]regopolicy.File{}
			}
			pl.policyProblems[f.Path] = f
		}
	}
	for _, f := range cfg.VarsFiles {
		if err := rs.inputs.AddVarsFile(f); err != nil {
			return nil, fmt.Errorf("config %s: inputs.vars: %w", cfg.Path, err)
		}
		rs.key = cfg.Path
	}
	if pl.vars != nil && (len(pl.vars.files) > 0 || len(pl.vars.vars) > 0) {
		flags, err := pl.vars.inputs()
		if err != nil {
			return nil, err
		}
		for name, v := range flags.Vars {
			if rs.inputs.Vars == nil {
				rs.inputs.Vars = map[string]eval.Input{}
			}
			rs.inputs.Vars[name] = v
		}
	}
	return rs, nil
}

// refuseRuleMistakes is refuseMistakes for the rules: section's ids and
// parameters, which package rules checks.
func refuseRuleMistakes(cfg *projectConfig, diags []source.Diagnostic) error {
	_, err := refuseMistakes(cfg, diags, nil)
	return err
}

// run evaluates the analysed blueprint with the inputs and runs the
// rules over it, returning diags followed by their findings (diags
// itself is left as it is); no findings for a document with syntax
// errors (the rules would read a repaired guess) or when rs is nil.
// Evaluation's own problems (a missing input) are not reported by
// check: what they leave unknown is simply not judged.
func (rs *ruleSettings) run(ctx context.Context, res *analysis.Result, reg *registry.Registry, diags []source.Diagnostic) []source.Diagnostic {
	if rs == nil || res == nil || res.File == nil || res.File.HasSyntaxErrors() {
		return diags
	}
	// Lazy: the rules read a few fields of each spec (issue 34).
	bp, err := eval.Eval(ctx, res, rs.inputs, eval.Options{Registry: reg, Lazy: true})
	if err != nil {
		return diags
	}
	// Capped: the findings go to a new slice, never into diags's room.
	all := rules.Append(ctx, diags[:len(diags):len(diags)], bp, rules.Options{Config: rs.cfg, Registry: reg, ForEach: fanOut})
	if rs.policies != nil {
		all = append(all, rs.policies.Check(ctx, bp, res.File.Mapper)...)
	}
	return all
}

// policyProblemFiles reports the policy files with mistakes, one result
// per file, sorted by path.
func (pl *planner) policyProblemFiles() []fileResult {
	var out []fileResult
	for _, p := range slices.Sorted(maps.Keys(pl.policyProblems)) {
		f := pl.policyProblems[p]
		shown := p
		if rel := relSlash(pl.wd, p); rel != "" {
			shown = filepath.FromSlash(rel)
		}
		out = append(out, fileResult{path: shown, diags: f.Diagnostics, mapper: f.Mapper})
	}
	return out
}

// fanOut runs do over the cores: a large blueprint's rules share them
// (a panic surfaces in the caller, whose job turns it into an
// internal-error diagnostic). One goroutine per core takes the next
// task until none is left: a goroutine per task, handed over one at a
// time, woke the scheduler for each (the 5,000-resource blueprint's 40
// chunks cost some milliseconds of CPU more than running them in turn).
func fanOut(n int, do func(i int)) {
	workers := min(n, runtime.GOMAXPROCS(0))
	if workers <= 1 {
		for i := range n {
			do(i)
		}
		return
	}
	var next atomic.Int64
	p := pool.New()
	for range workers {
		p.Go(func() {
			for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
				do(i)
			}
		})
	}
	p.Wait()
}
