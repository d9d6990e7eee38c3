package lsp

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"sync"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/eval"
	"github.com/blueprint-ls/blueprint-ls/project"
	"github.com/blueprint-ls/blueprint-ls/providers/registry"
	"github.com/blueprint-ls/blueprint-ls/rules"
	"github.com/blueprint-ls/blueprint-ls/rules/policy"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// The editor runs the best-practice rules (package rules) in the full
// phase, after the analysis, and keeps their findings per resource from
// one version to the next (rules_memo.go): an edit re-evaluates and
// re-checks only what it can change, so the rules cost what the edit
// touches, not what the document holds.

// defaultRulesOff stands for a project config without a rules: section:
// false runs every rule. The tests of the other editor features set it
// (TestMain) so their scenarios keep testing what they were written for;
// the rules' own tests write a config with a rules: section.
var defaultRulesOff = false

var ruleMemos sync.Map // canonical URI → *ruleMemo

// ruleKey identifies what the rules read besides the document.
type ruleKey struct {
	cfg      *project.Config
	settings *Settings
	reg      *registry.Registry
}

// ruleDiagnostics returns the rules' findings for a blueprint snapshot
// whose text parses; nothing for other documents or when its project
// config turns the rules off.
func (s *Snapshot) ruleDiagnostics() []source.Diagnostic {
	if s.Dialect().Kind != dialect.Bluelink {
		return nil
	}
	var rc *project.RulesConfig
	if s.policy != nil {
		rc = s.policy.Rules
	}
	if rc == nil && defaultRulesOff {
		return nil
	}
	a := s.Analysis()
	res := a.Result
	if res == nil || res.Blueprint == nil || res.File == nil || res.File.HasSyntaxErrors() || res.Repaired != nil {
		return nil
	}
	if rc == nil && res.Blueprint.Resources.Len() > editorRulesResources {
		return nil // too large to re-check as you type unless the config asks for it
	}
	cfg, _ := rules.Configure(rc) // the config document reports its mistakes
	v, _ := ruleMemos.LoadOrStore(s.URI, &ruleMemo{})
	m := v.(*ruleMemo)
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.seq == s.seq && m.has {
		return m.diags
	}
	key := ruleKey{s.policy, s.Settings, s.Registry()}
	var dir string
	if s.Path != "" {
		dir = filepath.Dir(s.Path)
	}
	inputs, _ := planInputs(s.Settings, dir, s.roots)
	withPolicies := rc != nil && rc.Policies != ""
	limit := editorRuleFindings
	if withPolicies {
		limit = 0 // capped below, with the policies' findings
	}
	ds := m.updateCapped(s.ctx, res, res.File.Text, key, cfg, inputs, s.Registry(), limit)
	if withPolicies && s.ctx.Err() == nil {
		ds = append(ds, m.policies(s.ctx, res, rc.Policies, s.policy.Limits.DocumentLimit())...)
		source.SortDiagnostics(ds)
		ds = capFindings(ds, editorRuleFindings)
	}
	if s.ctx.Err() != nil {
		return nil // superseded: keep the memo of the last complete run
	}
	m.seq, m.diags = s.seq, ds
	return ds
}

// The editor's bounds on the rules, so that a keystroke's diagnostics
// stay quick on a large blueprint: publishing thousands of findings per
// version costs more than checking them (JSON out, JSON in, the client's
// redraw). Without a rules section in the project config, a blueprint of
// more than editorRulesResources resources is not checked by the rules
// in the editor (the open checks every resource once; an edit re-runs
// only what it changed, measured up to 5,000 resources by
// BenchmarkEditInResourceRules); with one, it is. At 5,000 resources the
// rules took an edit's diagnostics from 4 to 13 ms, the open's from 0.5
// to 0.8 s and the server's peak memory from 126 to 190 MiB (lspbench,
// docs/performance.md): the default stops at 1,000, where they cost an
// edit about 3 ms. Either way at most
// editorRuleFindings findings are shown, the most severe first, and one
// more says how many were left out. `blueprint-ls check` shows them all.
const (
	editorRulesResources = 1000
	editorRuleFindings   = 500
)

var codeRulesCapped = source.NewCode("rules-capped", source.Information,
	"The editor shows at most 500 of the best-practice rules' findings in one blueprint, the most severe first; `blueprint-ls check` lists every one.", "")

// capFindings keeps the limit most severe of ds (sorted by position),
// in position order, and adds one finding at the text's start saying how
// many more there are. Of the findings of the least severe level kept,
// the first ones are: what a stable sort by severity would keep, in one
// pass.
func capFindings(ds []source.Diagnostic, limit int) []source.Diagnostic {
	if len(ds) <= limit {
		return ds
	}
	var c findingsCap
	for _, d := range ds {
		c.count(d)
	}
	out := c.start(limit)
	for _, d := range ds {
		out = c.keep(out, d)
	}
	return out
}

// findingsCap is capFindings over findings visited twice, in position
// order: counted, then kept.
type findingsCap struct {
	per       [source.Hint + 1]int
	n         int
	cut, room int
}

// severityCounts counts findings by severityLevel.
type severityCounts [source.Hint + 1]int32

func severityLevel(d source.Diagnostic) int { return int(min(max(d.Severity, 0), source.Hint)) }

func (c *findingsCap) count(d source.Diagnostic) { c.per[severityLevel(d)]++; c.n++ }

// add counts findings already counted by level.
func (c *findingsCap) add(per *severityCounts) {
	for lv, k := range per {
		c.per[lv] += int(k)
		c.n += int(k)
	}
}

// wants reports whether findings counted as per may hold one keep keeps
// (after start): one more severe than the cut, or at the cut while room
// is left.
func (c *findingsCap) wants(per *severityCounts) bool {
	for lv := 0; lv < c.cut; lv++ {
		if per[lv] > 0 {
			return true
		}
	}
	return c.cut < len(per) && per[c.cut] > 0 && c.room > 0
}

// start decides what is kept (every finding more severe than level cut,
// and room of those at cut) and returns the list holding the note.
func (c *findingsCap) start(limit int) []source.Diagnostic {
	c.cut, c.room = 0, limit
	for ; c.cut < int(source.Hint) && c.per[c.cut] <= c.room; c.cut++ {
		c.room -= c.per[c.cut]
	}
	out := make([]source.Diagnostic, 0, limit+1)
	return append(out, codeRulesCapped.New(source.R(0, 0), "%d more best-practice findings are not shown: the editor shows the %d most severe; run blueprint-ls check for every one, or narrow the rules in .blueprint-ls.yaml", c.n-limit, limit))
}

func (c *findingsCap) keep(out []source.Diagnostic, d source.Diagnostic) []source.Diagnostic {
	if c.kept(d) {
		out = append(out, d)
	}
	return out
}

// kept reports whether d, the next finding in position order, is kept
// (after start), taking its room.
func (c *findingsCap) kept(d source.Diagnostic) bool {
	switch lv := severityLevel(d); {
	case lv < c.cut:
		return true
	case lv == c.cut && c.room > 0:
		c.room--
		return true
	}
	return false
}

// rulesMarkdown lists the rules' findings (hints left out) under the
// plan preview: what the planned resources would deploy that a rule
// advises against.
func rulesMarkdown(m *source.Mapper, ds []source.Diagnostic) string {
	var b strings.Builder
	n := 0
	for _, d := range ds {
		if d.Severity == source.Hint {
			continue
		}
		if n == 0 {
			b.WriteString("\n### Rules\n\n")
		}
		n++
		l, c := m.LineCol(d.Range.Start, source.UTF32)
		doc := d.Code
		if code, ok := source.LookupCode(d.Code); ok && code.Doc != "" {
			doc = "[" + d.Code + "](" + code.Doc + ")"
		}
		fmt.Fprintf(&b, "- %d:%d %s %s: %s\n", l, c, d.Severity, doc, d.Message)
	}
	return b.String()
}

// policies runs the project's Rego policies (the config's rules.policies
// folder) over every resource instance the memo holds, in source order.
// A policy file with a mistake is reported on the blueprint's first
// line, pointing at the mistake.
func (m *ruleMemo) policies(ctx context.Context, res *analysis.Result, dir string, limit int64) []source.Diagnostic {
	set, err := loadPolicies(ctx, dir, limit)
	if err != nil {
		return []source.Diagnostic{policy.CodeInvalid.New(source.Range{}, "policies: %v", err)}
	}
	var out []source.Diagnostic
	for _, f := range set.Problems {
		for _, d := range f.Diagnostics {
			l, c := f.Mapper.LineCol(d.Range.Start, source.UTF32)
			p := policy.CodeInvalid.New(source.Range{}, "policy file %s:%d:%d: %s; its rules do not run", filepath.Base(f.Path), l, c, d.Message)
			p.Related = []source.Related{{URI: f.Path, Range: d.Range, Message: d.Message}}
			out = append(out, p)
		}
	}
	bp := &eval.Blueprint{Path: res.Path, Result: res, Variables: m.vars}
	for i := range m.defs {
		bp.Resources = append(bp.Resources, m.defs[i].inst...)
	}
	return append(out, set.Check(ctx, bp, res.File.Mapper)...)
}

// policySets caches loaded policy folders by path; a folder is loaded
// again when one of its files changed (by size and modification time).
var policySets sync.Map // dir → *loadedPolicies

type loadedPolicies struct {
	stamp string
	set   *policy.Set
}

func loadPolicies(ctx context.Context, dir string, limit int64) (*policy.Set, error) {
	stamp := policyStamp(dir)
	if v, ok := policySets.Load(dir); ok && v.(*loadedPolicies).stamp == stamp {
		return v.(*loadedPolicies).set, nil
	}
	set, err := policy.Load(ctx, dir, policy.Options{Limit: limit})
	if err != nil {
		return nil, err
	}
	policySets.Store(dir, &loadedPolicies{stamp: stamp, set: set})
	return set, nil
}

// policyStamp names the state of the folder's policy files.
func policyStamp(dir string) string {
	var b strings.Builder
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".rego") {
			return nil
		}
		if info, err := d.Info(); err == nil {
			fmt.Fprintf(&b, "%s %d %d\n", p, info.Size(), info.ModTime().UnixNano())
		}
		return nil
	})
	return b.String()
}
