package lsp

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/eval"
	"github.com/blueprint-ls/blueprint-ls/project"
	"github.com/blueprint-ls/blueprint-ls/providers/registry"
	"github.com/blueprint-ls/blueprint-ls/rules"
	"github.com/blueprint-ls/blueprint-ls/rules/policy"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// The editor runs the best-practice rules (package rules) in the full
// phase, after the analysis, and keeps their findings per resource from
// one version to the next: an edit re-evaluates and re-checks only the
// resources it can change (the edited one, and those whose references
// reach it), so the rules cost what the edit touches, not what the
// document holds. Everything else (the variables, values and other
// sections, the settings' plan inputs, the project config) invalidates
// the whole document.

// defaultRulesOff stands for a project config without a rules: section:
// false runs every rule. The tests of the other editor features set it
// (TestMain) so their scenarios keep testing what they were written for;
// the rules' own tests write a config with a rules: section.
var defaultRulesOff = false

// ruleMemo is what the editor remembers of one document's rules.
type ruleMemo struct {
	mu      sync.Mutex
	seq     uint64 // the snapshot last computed
	diags   []source.Diagnostic
	content []byte // its text
	outside []byte // its text outside the resources
	key     any    // its rules config and inputs
	res     map[string]resourceRules
	global  []source.Diagnostic // findings outside any resource (exports)
	checked int                 // resource instances the last update evaluated and checked
	fps     map[string][]byte   // each resource's evaluated instances, as last seen
	inst    map[string][]*eval.Resource
	vars    []*eval.Named
}

// resourceRules is one resource's findings, in the offsets of the text it
// was checked in.
type resourceRules struct {
	start, end int
	diags      []source.Diagnostic
}

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
	if m.seq == s.seq && m.content != nil {
		return m.diags
	}
	key := ruleKey{s.policy, s.Settings, s.Registry()}
	var dir string
	if s.Path != "" {
		dir = filepath.Dir(s.Path)
	}
	inputs, _ := planInputs(s.Settings, dir, s.roots)
	ds := m.update(s.ctx, res, s.Content, key, cfg, inputs, s.Registry())
	if rc != nil && rc.Policies != "" && s.ctx.Err() == nil {
		ds = append(ds, m.policies(s.ctx, res, rc.Policies, s.policy.Limits.DocumentLimit())...)
		source.SortDiagnostics(ds)
	}
	if s.ctx.Err() != nil {
		return nil // superseded: keep the memo of the last complete run
	}
	ds = capFindings(ds, editorRuleFindings)
	m.seq, m.diags = s.seq, ds
	return ds
}

// The editor's bounds on the rules, so that a keystroke's diagnostics
// stay quick on a large blueprint: publishing thousands of findings per
// version costs more than checking them (JSON out, JSON in, the client's
// redraw). Without a rules section in the project config, a blueprint of
// more than editorRulesResources resources is not checked by the rules
// in the editor; with one, it is. Either way at most editorRuleFindings
// findings are shown, the most severe first, and one more says how many
// were left out. `blueprint-ls check` shows them all.
const (
	editorRulesResources = 500
	editorRuleFindings   = 500
)

var codeRulesCapped = source.NewCode("rules-capped", source.Information,
	"The editor shows at most 500 of the best-practice rules' findings in one blueprint, the most severe first; `blueprint-ls check` lists every one.", "")

// capFindings keeps the limit most severe of ds (sorted by position),
// in position order, and adds one finding at the text's start saying how
// many more there are.
func capFindings(ds []source.Diagnostic, limit int) []source.Diagnostic {
	if len(ds) <= limit {
		return ds
	}
	kept := slices.Clone(ds)
	slices.SortStableFunc(kept, func(a, b source.Diagnostic) int { return cmp.Compare(a.Severity, b.Severity) })
	kept = kept[:limit]
	source.SortDiagnostics(kept)
	note := codeRulesCapped.New(source.R(0, 0), "%d more best-practice findings are not shown: the editor shows the %d most severe; run blueprint-ls check for every one, or narrow the rules in .blueprint-ls.yaml", len(ds)-limit, limit)
	return append([]source.Diagnostic{note}, kept...)
}

// update computes the findings for content, re-checking only the
// resources whose text changed since the memo's, or whose references
// reach one that did; the others' findings move with their resource.
func (m *ruleMemo) update(ctx context.Context, res *analysis.Result, content []byte, key any, cfg *rules.Config, in eval.Inputs, reg registryType) []source.Diagnostic {
	defs := res.Blueprint.Resources.Items()
	spans := make(map[string][2]int, len(defs))
	var outside bytes.Buffer
	last := 0
	for _, d := range defs {
		r := defRange(d)
		spans[d.Name] = [2]int{r.Start, r.End}
		if r.Start >= last && r.End <= len(content) {
			outside.Write(content[last:r.Start])
			last = r.End
		}
	}
	outside.Write(content[min(last, len(content)):])

	full := m.content == nil || m.key != key || !bytes.Equal(m.outside, outside.Bytes())
	for name := range m.res {
		if _, ok := spans[name]; !ok {
			full = true // a resource went: what referenced it changes
		}
	}
	var instances []*eval.Resource
	fps := map[string][]byte{}
	inst := map[string][]*eval.Resource{}
	dirty := map[string]bool{} // the resources evaluated and checked again
	var fullBP *eval.Blueprint
	if full {
		bp, err := eval.Eval(ctx, res, in, eval.Options{Registry: reg})
		if err != nil {
			return nil
		}
		fullBP = bp
		instances = bp.Resources
		m.vars = bp.Variables
		for _, r := range instances {
			inst[r.Template] = append(inst[r.Template], r)
		}
		for name, fp := range fingerprints(instances) {
			fps[name] = fp
		}
	} else {
		users := usersOf(res)
		var frontier []string
		for name, sp := range spans {
			old, ok := m.res[name]
			if !ok || !bytes.Equal(m.content[old.start:old.end], content[sp[0]:sp[1]]) {
				frontier = append(frontier, name)
			}
		}
		// maybe holds what an edit can change: the edited resources and
		// every resource whose references reach one. Everything else is
		// read from the memo when referenced.
		maybe := map[string]bool{}
		for _, name := range frontier {
			maybe[name] = true
			for _, u := range users(name) {
				maybe[u] = true
			}
		}
		for name, fp := range m.fps {
			fps[name] = fp
		}
		for name, rs := range m.inst {
			inst[name] = rs
		}
		known := func(name string) ([]*eval.Resource, bool) {
			if maybe[name] {
				return nil, false
			}
			rs, ok := m.inst[name]
			return rs, ok
		}
		// Evaluate the edited resources, then, round by round, the users
		// of those whose evaluated value changed (an edit of a
		// description changes nothing downstream).
		for len(frontier) > 0 && ctx.Err() == nil {
			round := map[string]bool{}
			for _, name := range frontier {
				if _, ok := spans[name]; ok && !dirty[name] {
					round[name], dirty[name] = true, true
				}
			}
			if len(round) == 0 {
				break
			}
			bp, err := eval.Eval(ctx, res, in, eval.Options{Registry: reg, Resources: func(name string) bool { return round[name] }, Known: known})
			if err != nil {
				return nil
			}
			instances = append(instances, bp.Resources...)
			m.vars = bp.Variables
			for name := range round {
				inst[name] = nil
			}
			for _, r := range bp.Resources {
				inst[r.Template] = append(inst[r.Template], r)
			}
			frontier = frontier[:0]
			for name, fp := range fingerprints(bp.Resources) {
				if !bytes.Equal(fps[name], fp) {
					frontier = append(frontier, users(name)...)
				}
				fps[name] = fp
			}
		}
		if ctx.Err() != nil {
			return nil
		}
	}
	m.checked = len(instances)
	whole := &eval.Blueprint{Path: res.Path, Result: res, Resources: instances}
	if full {
		whole = fullBP // with its exports, which export-secret-value reads
	}
	found := rules.Run(ctx, whole, rules.Options{Config: cfg, Registry: reg})
	if ctx.Err() != nil {
		return nil // the memo stays what the last complete run left
	}
	next := make(map[string]resourceRules, len(spans))
	for name, sp := range spans {
		next[name] = resourceRules{start: sp[0], end: sp[1]}
	}
	byStart := sortedSpans(spans)
	var global []source.Diagnostic
	for _, d := range found {
		name := owner(byStart, d.Range.Start)
		if name == "" {
			global = append(global, d)
			continue
		}
		if !full && !dirty[name] {
			continue // a blueprint-level rule's finding on a clean resource: kept below
		}
		rr := next[name]
		rr.diags = append(rr.diags, d)
		next[name] = rr
	}
	if !full {
		for name, rr := range next {
			if dirty[name] {
				continue
			}
			old := m.res[name]
			delta := rr.start - old.start
			for _, d := range old.diags {
				rr.diags = append(rr.diags, d.Moved(delta))
			}
			next[name] = rr
		}
		// Exports are not evaluated by a partial run; the text outside
		// the resources is unchanged, so their findings move with the
		// resources before them.
		global = global[:0]
		for _, d := range m.global {
			global = append(global, d.Moved(shiftAfter(m.res, next, d.Range.Start, len(content)-len(m.content))))
		}
	}
	// The resources do not overlap and each one's findings are sorted:
	// in resource order they are sorted; the few outside merge in.
	n := len(global)
	for _, rr := range next {
		n += len(rr.diags)
	}
	out := make([]source.Diagnostic, 0, n)
	for _, sp := range byStart {
		out = append(out, next[sp.name].diags...)
	}
	if len(global) > 0 {
		out = append(out, global...)
		source.SortDiagnostics(out)
	}
	m.content, m.outside, m.key, m.res, m.global, m.fps, m.inst = content, append([]byte(nil), outside.Bytes()...), key, next, global, fps, inst
	return out
}

// defRange is a resource definition's text: its key to the end of its
// value.
func defRange(d *schema.Resource) source.Range {
	if d.Entry == nil || d.Entry.Key == nil || d.Entry.Value == nil {
		return d.NameRange()
	}
	return source.R(d.Entry.Key.Rng.Start, d.Entry.Value.Range().End)
}

// usersOf returns, for a resource name, the resources whose references
// reach it directly or through values.
func usersOf(res *analysis.Result) func(name string) []string {
	users := map[*analysis.Symbol][]*analysis.Symbol{}
	for _, e := range res.Edges() {
		if e.Kind == analysis.EdgeReference && e.From != nil && e.To != nil {
			users[e.To] = append(users[e.To], e.From)
		}
	}
	return func(name string) []string {
		var out []string
		seen := map[*analysis.Symbol]bool{}
		var queue []*analysis.Symbol
		if sym := res.Lookup(analysis.ResourceSymbol, name); sym != nil {
			queue = append(queue, sym)
		}
		for len(queue) > 0 {
			x := queue[0]
			queue = queue[1:]
			for _, u := range users[x] {
				if seen[u] {
					continue
				}
				seen[u] = true
				switch u.Kind {
				case analysis.ResourceSymbol:
					out = append(out, u.Name)
				case analysis.ValueSymbol:
					queue = append(queue, u)
				}
			}
		}
		return out
	}
}

// fingerprints renders each resource's evaluated instances (type,
// presence, spec, metadata), by resource name: what its users read.
func fingerprints(rs []*eval.Resource) map[string][]byte {
	out := map[string][]byte{}
	for _, r := range rs {
		b := out[r.Template]
		b = append(b, r.Name...)
		b = append(b, 0)
		b = append(b, r.Type...)
		b = append(b, byte(r.Condition))
		if r.Spec.Sensitive() || r.Metadata.Sensitive() {
			b = append(b, 's') // a secret flows in: secret-in-plain-field reads it
		}
		b = append(b, eval.JSONUnmasked(r.Spec)...)
		b = append(b, eval.JSONUnmasked(r.Metadata)...)
		out[r.Template] = b
	}
	return out
}

type registryType = *registry.Registry

type span struct {
	name       string
	start, end int
}

func sortedSpans(spans map[string][2]int) []span {
	out := make([]span, 0, len(spans))
	for name, sp := range spans {
		out = append(out, span{name, sp[0], sp[1]})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].start < out[j].start })
	return out
}

// owner names the resource whose text holds off, "" for none.
func owner(spans []span, off int) string {
	i := sort.Search(len(spans), func(i int) bool { return spans[i].end > off })
	if i < len(spans) && spans[i].start <= off {
		return spans[i].name
	}
	return ""
}

// shiftAfter is how far text outside the resources at old offset off
// moved: as far as the first resource after it that is still there, or
// by the whole length change when none follows.
func shiftAfter(old, next map[string]resourceRules, off, total int) int {
	best, delta := -1, total
	for name, o := range old {
		n, ok := next[name]
		if !ok || o.start < off {
			continue
		}
		if best < 0 || o.start < best {
			best, delta = o.start, n.start-o.start
		}
	}
	return delta
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
	for _, d := range res.Blueprint.Resources.Items() {
		bp.Resources = append(bp.Resources, m.inst[d.Name]...)
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
