package lsp

import (
	"bytes"
	"context"
	"maps"
	"slices"
	"sort"
	"sync"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/eval"
	"github.com/blueprint-ls/blueprint-ls/providers/registry"
	"github.com/blueprint-ls/blueprint-ls/rules"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// ruleMemo is what the editor remembers of one document's rules, so that
// an edit re-runs only the rules whose inputs it changed:
//
//   - an edit inside one resource evaluates and checks that resource;
//   - an edit inside a variable or a value evaluates the variables and
//     values (a handful), and checks again only the resources that read
//     one whose evaluated value changed: an edit that changes no
//     evaluated value (a description, a type that coerces the same)
//     checks nothing;
//   - an edit inside an export evaluates the exports;
//   - then, round by round, the users of every resource whose evaluated
//     value changed are evaluated and checked, and so on (an edit of a
//     description changes nothing downstream).
//
// A reference to a resource that may have changed reads it evaluated
// afresh; any other reads the memo's instances. Anything else (another
// section, a resource added, removed or renamed, an edit across
// definitions, the settings' plan inputs, the project config) runs
// everything again. What the memo holds per resource sits in one slice
// in source order, updated in place for what an edit changed: an edit
// copies nothing per resource.
type ruleMemo struct {
	mu      sync.Mutex
	seq     uint64 // the snapshot last computed
	diags   []source.Diagnostic
	content source.Text // the text last checked
	has     bool        // content has been checked
	key     any         // its rules config and inputs
	defs    []memoDef
	byName  map[string]int // index in defs; nil when names repeat (always run everything)
	others  []memoSpan     // its variables, values and exports, in that order
	fps     map[string][]byte
	global  []source.Diagnostic // findings outside any resource (exports)
	vars    []*eval.Named
	checked int // resource instances the last update evaluated and checked
	// reach is every resource whose references reach the definition
	// reachOf names ("resources.x", "values.x", "variables.x"), kept while
	// the edits stay inside it: an edit inside a definition changes what
	// it reads, never who reads it.
	reachOf string
	reach   map[string]bool
}

// memoDef is one resource: its text in content, its evaluated instances
// and their fingerprint (what its users read), and its findings, in the
// offsets of the text where the resource started at base.
type memoDef struct {
	name       string
	start, end int
	fp         []byte
	inst       []*eval.Resource
	diags      []source.Diagnostic
	base       int
	// per counts diags by severity (findingsCap's levels), so that the
	// capped output finds what it shows without visiting every finding.
	per severityCounts
}

// memoSpan is a variable, value or export: its namespace, name and text.
type memoSpan struct {
	ns, name   string
	start, end int
}

// edit is where an edit lies: the window of bytes it changed (the text
// between the common prefix and suffix of the two versions) and the one
// definition holding it (res, a resource's index, or other, an index in
// the spans; -1 for none: nothing changed).
type edit struct {
	at, oldEnd, newEnd int
	res, other         int
	spans              []memoSpan // the new version's variables, values and exports
}

// updateCapped returns the findings for content, capped to limit
// (capFindings; 0: all) and picked from the memo without listing every
// finding first, re-running only the rules whose inputs changed since
// the memo's version, and makes content the memo's version. The memo
// stays as it was when ctx is cancelled.
func (m *ruleMemo) updateCapped(ctx context.Context, res *analysis.Result, content source.Text, key any, cfg *rules.Config, in eval.Inputs, reg *registry.Registry, limit int) []source.Diagnostic {
	ok := false
	if e, located := m.locate(res, content, key); located {
		ok = m.partial(ctx, res, content, e, cfg, in, reg)
	}
	if !ok && ctx.Err() == nil {
		ok = m.full(ctx, res, content, key, cfg, in, reg)
	}
	if !ok {
		return nil
	}
	return m.output(limit)
}

// full evaluates and checks everything; false when ctx is cancelled.
func (m *ruleMemo) full(ctx context.Context, res *analysis.Result, content source.Text, key any, cfg *rules.Config, in eval.Inputs, reg *registry.Registry) bool {
	bp, err := eval.Eval(ctx, res, in, eval.Options{Registry: reg})
	if err != nil {
		return false
	}
	found := rules.Run(ctx, bp, rules.Options{Config: cfg, Registry: reg})
	if ctx.Err() != nil {
		return false // the memo stays what the last complete run left
	}
	items := res.Blueprint.Resources.Items()
	defs := make([]memoDef, len(items))
	byName := make(map[string]int, len(items))
	for i, d := range items {
		r := defRange(&d.Def)
		defs[i] = memoDef{name: d.Name, start: r.Start, end: r.End, base: r.Start}
		byName[d.Name] = i
	}
	if len(byName) != len(items) {
		byName = nil
	}
	k := 0
	for _, r := range bp.Resources {
		for k < len(defs) && defs[k].name != r.Template {
			k++
		}
		if k == len(defs) {
			break
		}
		defs[k].inst = append(defs[k].inst, r)
	}
	for i := range defs {
		defs[i].fp = fingerprint(defs[i].inst)
	}
	m.global = m.place(defs, found, nil)
	m.content, m.has, m.key, m.defs, m.byName = content, true, key, defs, byName
	m.others, m.fps, m.vars = spansOf(res.Blueprint), definitionPrints(bp), bp.Variables
	m.reachOf, m.reach = "", nil
	m.checked = len(bp.Resources)
	return true
}

// locate finds the one definition an edit from the memo's text to
// content lies in; false when the edit must run everything.
func (m *ruleMemo) locate(res *analysis.Result, content source.Text, key any) (edit, bool) {
	// The resources are read one at a time (At): Items would join the
	// typed view's list, every resource of a large blueprint, per edit.
	items := &res.Blueprint.Resources
	if !m.has || m.key != key || m.byName == nil || items.Len() != len(m.defs) {
		return edit{}, false
	}
	old := m.content
	p := source.CommonPrefix(old, content)
	s := source.CommonSuffix(old, content, min(old.Len(), content.Len())-p)
	e := edit{at: p, oldEnd: old.Len() - s, newEnd: content.Len() - s, res: -1, other: -1, spans: spansOf(res.Blueprint)}
	if len(e.spans) != len(m.others) {
		return edit{}, false
	}
	delta := content.Len() - old.Len()
	// Every definition but the edited one keeps its name and its text,
	// moved by delta when it follows the edit.
	moved := func(oldStart, oldEnd, newStart, newEnd int) bool {
		if oldEnd <= e.at {
			return newStart == oldStart && newEnd == oldEnd
		}
		return oldStart >= e.oldEnd && newStart == oldStart+delta && newEnd == oldEnd+delta
	}
	holds := func(oldStart, oldEnd, newStart, newEnd int) bool {
		return oldStart <= e.at && e.oldEnd <= withSlack(old, oldEnd) && newStart <= e.at && e.newEnd <= withSlack(content, newEnd)
	}
	if p == old.Len() && p == content.Len() {
		return e, true // the same text
	}
	// The resource holding the edit, if one does, and its neighbours.
	i := sort.Search(len(m.defs), func(i int) bool { return m.defs[i].start > e.at }) - 1
	if i >= 0 {
		r := defRange(&items.At(i).Def)
		if items.At(i).Name == m.defs[i].name && holds(m.defs[i].start, m.defs[i].end, r.Start, r.End) {
			for _, j := range []int{i - 1, i + 1} {
				if j < 0 || j >= items.Len() {
					continue
				}
				rj := defRange(&items.At(j).Def)
				if items.At(j).Name != m.defs[j].name || !moved(m.defs[j].start, m.defs[j].end, rj.Start, rj.End) {
					return edit{}, false
				}
			}
			e.res = i
		}
	}
	if e.res < 0 {
		// The resources around the edit did not move.
		k := sort.Search(len(m.defs), func(i int) bool { return m.defs[i].start >= e.oldEnd })
		for _, j := range []int{k - 1, k} {
			if j < 0 || j >= items.Len() {
				continue
			}
			rj := defRange(&items.At(j).Def)
			if items.At(j).Name != m.defs[j].name || !moved(m.defs[j].start, m.defs[j].end, rj.Start, rj.End) {
				return edit{}, false
			}
		}
	}
	for j, sp := range e.spans {
		o := m.others[j]
		if sp.ns != o.ns || sp.name != o.name {
			return edit{}, false
		}
		if e.res < 0 && e.other < 0 && holds(o.start, o.end, sp.start, sp.end) {
			e.other = j
			continue
		}
		if !moved(o.start, o.end, sp.start, sp.end) {
			return edit{}, false
		}
	}
	return e, e.res >= 0 || e.other >= 0
}

// partial runs what edit e can change (ruleMemo). It reports false when
// it cannot tell (the analysis does not know who reads a definition) or
// ctx is cancelled.
func (m *ruleMemo) partial(ctx context.Context, res *analysis.Result, content source.Text, e edit, cfg *rules.Config, in eval.Inputs, reg *registry.Registry) bool {
	items := &res.Blueprint.Resources
	// users lists the resources that read sym directly, and, with deep,
	// through values; false when the analysis cannot say.
	users := func(sym *analysis.Symbol, deep bool, out map[string]bool) bool {
		queue := []*analysis.Symbol{sym}
		seen := map[*analysis.Symbol]bool{sym: true}
		for len(queue) > 0 {
			us, ok := res.Users(queue[0])
			if !ok {
				return false
			}
			queue = queue[1:]
			for _, u := range us {
				if seen[u] {
					continue
				}
				seen[u] = true
				switch u.Kind {
				case analysis.ResourceSymbol:
					out[u.Name] = true
					if deep {
						queue = append(queue, u)
					}
				case analysis.ValueSymbol:
					if deep {
						queue = append(queue, u)
					}
				}
			}
		}
		return true
	}
	// maybe holds every resource the edit can change: a reference to
	// one reads it evaluated afresh, never from the memo.
	var maybe, frontier map[string]bool
	var sym *analysis.Symbol
	reachOf := ""
	switch {
	case e.res >= 0:
		name := items.At(e.res).Name
		frontier = map[string]bool{name: true}
		sym, reachOf = res.Lookup(analysis.ResourceSymbol, name), "resources."+name
	case e.other >= 0 && e.spans[e.other].ns != "exports":
		kind := analysis.VariableSymbol
		if e.spans[e.other].ns == "values" {
			kind = analysis.ValueSymbol
		}
		sym, reachOf = res.Lookup(kind, e.spans[e.other].name), e.spans[e.other].ns+"."+e.spans[e.other].name
	}
	switch {
	case sym == nil:
	case reachOf == m.reachOf:
		maybe = m.reach
	default:
		maybe = map[string]bool{}
		if !users(sym, true, maybe) {
			return false
		}
	}
	if e.res >= 0 && !maybe[items.At(e.res).Name] {
		maybe = maps.Clone(maybe)
		maybe[items.At(e.res).Name] = true
	}
	fresh := map[string][]*eval.Resource{} // the resources evaluated by this update
	known := func(name string) ([]*eval.Resource, bool) {
		if rs, ok := fresh[name]; ok {
			return rs, true
		}
		i, ok := m.byName[name]
		if !ok || maybe[name] {
			return nil, false
		}
		return m.defs[i].inst, true
	}
	var instances []*eval.Resource
	var first *eval.Blueprint
	prints := map[string][]byte{}
	for (first == nil || len(frontier) > 0) && ctx.Err() == nil {
		round := frontier
		bp, err := eval.Eval(ctx, res, in, eval.Options{Registry: reg, Partial: true, Resources: m.inOrder(round), Known: known, Values: first == nil})
		if err != nil {
			return false
		}
		frontier = map[string]bool{}
		if first == nil {
			// The variables and values whose evaluated value changed:
			// their readers are checked again.
			first = bp
			prints = definitionPrints(bp)
			for _, n := range bp.Variables {
				if !bytes.Equal(prints["variables."+n.Name], m.fps["variables."+n.Name]) && !users(res.Lookup(analysis.VariableSymbol, n.Name), false, frontier) {
					return false
				}
			}
			for _, n := range bp.Values {
				if !bytes.Equal(prints["values."+n.Name], m.fps["values."+n.Name]) && !users(res.Lookup(analysis.ValueSymbol, n.Name), false, frontier) {
					return false
				}
			}
		}
		instances = append(instances, bp.Resources...)
		byTemplate := map[string][]*eval.Resource{}
		for _, r := range bp.Resources {
			byTemplate[r.Template] = append(byTemplate[r.Template], r)
		}
		for name := range round {
			rs := byTemplate[name]
			fresh[name] = rs
			if i := m.byName[name]; !bytes.Equal(fingerprint(rs), m.defs[i].fp) && !users(res.Lookup(analysis.ResourceSymbol, name), false, frontier) {
				return false
			}
		}
		for name := range frontier {
			if _, done := fresh[name]; done {
				delete(frontier, name)
			}
		}
	}
	if ctx.Err() != nil {
		return false
	}
	// Every resource not evaluated again is as it was: the exports read
	// the memo's, not a chain of resources evaluated afresh.
	reach := maybe
	maybe = nil
	last, err := eval.Eval(ctx, res, in, eval.Options{Registry: reg, Partial: true, Known: known, Exports: true})
	if err != nil {
		return false
	}
	whole := &eval.Blueprint{Path: res.Path, Result: res, Variables: first.Variables, Values: first.Values, Exports: last.Exports, Resources: instances}
	found := rules.Run(ctx, whole, rules.Options{Config: cfg, Registry: reg})
	if ctx.Err() != nil {
		return false
	}

	// Commit: the text moves, the checked resources take their new
	// instances and findings, the others keep theirs.
	if delta := content.Len() - m.content.Len(); delta != 0 {
		for i := range m.defs {
			if d := &m.defs[i]; d.start >= e.oldEnd {
				d.start, d.end = d.start+delta, d.end+delta
			}
		}
	}
	if e.res >= 0 {
		r := defRange(&items.At(e.res).Def)
		m.defs[e.res].start, m.defs[e.res].end = r.Start, r.End
	}
	for name, rs := range fresh {
		d := &m.defs[m.byName[name]]
		d.inst, d.fp, d.diags, d.base, d.per = rs, fingerprint(rs), nil, d.start, severityCounts{}
	}
	m.global = m.place(m.defs, found, fresh)
	m.content, m.others, m.fps, m.vars = content, e.spans, prints, first.Variables
	m.reachOf, m.reach = reachOf, reach
	m.checked = len(instances)
	return true
}

// inOrder returns the names of set (resources the memo knows) in source
// order: a partial evaluation lists them in the order given.
func (m *ruleMemo) inOrder(set map[string]bool) []string {
	names := make([]string, 0, len(set))
	for name := range set {
		names = append(names, name)
	}
	sort.Slice(names, func(i, j int) bool { return m.byName[names[i]] < m.byName[names[j]] })
	return names
}

// place gives each finding to the resource whose text holds it (only to
// those in only, when set) and returns the findings outside every
// resource.
func (m *ruleMemo) place(defs []memoDef, found []source.Diagnostic, only map[string][]*eval.Resource) []source.Diagnostic {
	var global []source.Diagnostic
	for _, d := range found {
		i := sort.Search(len(defs), func(i int) bool { return defs[i].end > d.Range.Start })
		if i == len(defs) || defs[i].start > d.Range.Start {
			global = append(global, d)
			continue
		}
		if only != nil {
			if _, ok := only[defs[i].name]; !ok {
				continue // a blueprint-level rule's finding on a resource not checked: it keeps its own
			}
		}
		defs[i].diags = append(defs[i].diags, d)
		defs[i].per[severityLevel(d)]++
	}
	return global
}

// output lists every finding in source order, capped to limit
// (capFindings; 0: all). A resource's findings are kept where they were
// found (base) and moved to where its text is now as they are listed.
// Capped, it visits the findings of only the resources that hold one it
// keeps: an edit to one resource of a large blueprint does not walk the
// others' findings.
func (m *ruleMemo) output(limit int) []source.Diagnostic {
	var c findingsCap
	for _, d := range m.global {
		c.count(d)
	}
	for i := range m.defs {
		c.add(&m.defs[i].per)
	}
	if limit > 0 && c.n > limit {
		// The resources' findings are in source order already, and the
		// few outside them (sorted) go between them by position: a
		// finding outside every resource starts before a resource or
		// after its text. So they are kept in the order capFindings
		// visits them, and listed sorted.
		global := m.global
		if !source.DiagnosticsSorted(global) {
			global = slices.Clone(global)
			source.SortDiagnostics(global)
		}
		out := c.start(limit)
		keep := func(x source.Diagnostic) {
			if c.kept(x) {
				out = append(out, x)
			}
		}
		for i := range m.defs {
			d := &m.defs[i]
			for len(global) > 0 && global[0].Range.Start < d.start {
				keep(global[0])
				global = global[1:]
			}
			if !c.wants(&d.per) {
				continue
			}
			delta := d.start - d.base
			for _, x := range d.diags {
				if c.kept(x) {
					out = append(out, x.Moved(delta))
				}
			}
		}
		for _, x := range global {
			keep(x)
		}
		return out
	}
	out := make([]source.Diagnostic, 0, c.n)
	for i := range m.defs {
		d := &m.defs[i]
		for _, x := range d.diags {
			out = append(out, x.Moved(d.start-d.base))
		}
	}
	if len(m.global) > 0 {
		out = append(out, m.global...)
		source.SortDiagnostics(out) // the resources' run, then the few outside them
	}
	if limit > 0 {
		return capFindings(out, limit)
	}
	return out
}

// defRange is a definition's text: its key to the end of its value.
func defRange(d *schema.Def) source.Range {
	if d.Entry == nil || d.Entry.Key == nil || d.Entry.Value == nil {
		return d.NameRange()
	}
	return source.R(d.Entry.Key.Rng.Start, d.Entry.Value.Range().End)
}

// spansOf lists the variables, values and exports of bp with their text.
func spansOf(bp *schema.Blueprint) []memoSpan {
	var out []memoSpan
	add := func(ns string, d *schema.Def) {
		r := defRange(d)
		out = append(out, memoSpan{ns: ns, name: d.Name, start: r.Start, end: r.End})
	}
	for _, v := range bp.Variables.Items() {
		add("variables", &v.Def)
	}
	for _, v := range bp.Values.Items() {
		add("values", &v.Def)
	}
	for _, x := range bp.Exports.Items() {
		add("exports", &x.Def)
	}
	return out
}

// definitionPrints renders each variable's and value's evaluated value,
// by "variables.name" and "values.name".
func definitionPrints(bp *eval.Blueprint) map[string][]byte {
	out := make(map[string][]byte, len(bp.Variables)+len(bp.Values))
	add := func(ns string, n *eval.Named) {
		b := eval.JSONUnmasked(n.Value)
		if n.Value.Sensitive() {
			b = append(b, 's')
		}
		out[ns+n.Name] = b
	}
	for _, n := range bp.Variables {
		add("variables.", n)
	}
	for _, n := range bp.Values {
		add("values.", n)
	}
	return out
}

// fingerprint renders a resource's evaluated instances (type, presence,
// spec, metadata): what its users read.
func fingerprint(rs []*eval.Resource) []byte {
	var b []byte
	for _, r := range rs {
		b = append(b, r.Name...)
		b = append(b, 0)
		b = append(b, r.Type...)
		b = append(b, byte(r.Condition))
		if r.Spec.Sensitive() || r.Metadata.Sensitive() {
			b = append(b, 's') // a secret flows in: secret-in-plain-field reads it
		}
		b = append(b, eval.JSONUnmasked(r.Spec)...)
		b = append(b, eval.JSONUnmasked(r.Metadata)...)
	}
	return b
}

// withSlack is end moved over the white space after it: an edit there
// (padding taken, a line typed at the end of a definition) belongs to
// the definition before it.
func withSlack(text source.Text, end int) int {
	for end < text.Len() && (text.At(end) == ' ' || text.At(end) == '\t' || text.At(end) == '\n' || text.At(end) == '\r') {
		end++
	}
	return end
}
