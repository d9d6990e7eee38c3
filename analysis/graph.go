package analysis

import (
	"fmt"
	"slices"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// resolveLinks matches each linkSelector against the labels of the other
// resources and adds dependsOn edges. Selections are kept in Result.Links
// only, not as edges: a selector that matches every resource is common,
// and one edge per pair would make Edges quadratic in the resources. When
// units are carried over, the label index is the previous version's with
// the dirty resources' labels patched in, and a carried-over resource
// keeps its previous selection and diagnostics unless its selector reads
// a label pair of a dirty resource whose labels or type changed (wide.go).
func (a *analyzer) resolveLinks() {
	a.startWide()
	w, prev := a.res.wide, a.wide.prev
	var records []linkRecord // the previous version's, still to be passed
	var backing []*Symbol    // the carried-over selections
	var touched map[[2]string]bool
	if prev != nil {
		w.linksCarried, records = true, prev.links
		w.labels = prev.labels
		if touched = a.touchedLabels(); touched != nil {
			w.labels = a.patchLabelIndex(prev.labels, touched)
		}
		w.links = make([]linkRecord, 0, len(prev.links))
		backing = make([]*Symbol, 0, prev.selected)
	} else {
		w.labels = a.labelIndex()
	}
	for _, s := range a.res.Symbols {
		if s.Kind != ResourceSymbol {
			continue
		}
		a.nameRefs(s)
		if prev != nil && a.carriedAt(s.index) {
			for len(records) > 0 && records[0].from < s.index {
				records = records[1:]
			}
			if len(records) == 0 || records[0].from != s.index {
				continue // it had no selection, and its selector is the same
			}
			if !readsTouched(records[0], touched) {
				a.carryLink(s, records[0], &backing)
				continue
			}
			w.relinked++
		}
		a.selectLinks(s)
	}
}

// labelIndex indexes the resources by label key=value, in declaration
// order.
func (a *analyzer) labelIndex() map[[2]string][]int {
	byLabel := map[[2]string][]int{}
	for _, s := range a.res.Symbols {
		if s.Kind != ResourceSymbol {
			continue
		}
		for _, e := range labelEntries(s.Resource) {
			if e.Key != nil {
				k := [2]string{e.Key.Value, scalarText(e.Value)}
				byLabel[k] = append(byLabel[k], s.index)
			}
		}
	}
	return byLabel
}

// nameRefs records the resources s names in dependsOn (as edges too) and
// in its linkSelector's exclude.
func (a *analyzer) nameRefs(s *Symbol) {
	r := s.Resource
	// dependsOn edges (2025-11-02); unknown names are reported by schema.
	for _, sc := range r.DependsOnRefs {
		t := a.lookup(ResourceSymbol, sc.Value)
		if t == nil {
			continue
		}
		a.res.NameRefs = append(a.res.NameRefs, &NameRef{Range: sc.ValueRange, Target: t, Kind: NameRefDependsOn})
		if t != s {
			a.res.Edges = append(a.res.Edges, &Edge{From: s, To: t, Range: sc.Rng, Kind: EdgeDependsOn})
		}
	}
	if r.LinkSelector == nil {
		return
	}
	for _, sc := range literalNames(r.LinkSelector.Exclude) {
		if t := a.lookup(ResourceSymbol, sc.Value); t != nil {
			a.res.NameRefs = append(a.res.NameRefs, &NameRef{Range: sc.ValueRange, Target: t, Kind: NameRefExclude})
		}
	}
}

// selectLinks resolves the linkSelector of resource s against the label
// index and records the selection and its diagnostics.
func (a *analyzer) selectLinks(s *Symbol) {
	r := s.Resource
	if r.LinkSelector == nil {
		return
	}
	sel := r.LinkSelector.ByLabel.Mapping()
	if sel == nil || len(sel.Entries) == 0 {
		return
	}
	var excluded map[string]bool
	if seq := r.LinkSelector.Exclude.Sequence(); seq != nil {
		excluded = make(map[string]bool, len(seq.Items))
		for _, it := range seq.Items {
			excluded[scalarText(it)] = true
		}
	}
	w := a.res.wide
	rec := linkRecord{from: s.index, selected: a.selectByLabels(sel, w.labels, s, excluded)}
	rec.reads = make([][2]string, 0, len(sel.Entries))
	for _, e := range sel.Entries {
		if e.Key != nil {
			rec.reads = append(rec.reads, [2]string{e.Key.Value, scalarText(e.Value)})
		}
	}
	ls := a.wide.links.one()
	*ls = LinkSelection{From: s, Selected: make([]*Symbol, len(rec.selected))}
	for i, t := range rec.selected {
		ls.Selected[i] = a.res.Symbols[t]
	}
	a.res.Links = append(a.res.Links, ls)
	if len(ls.Selected) == 0 {
		d := codeLinkNoMatch.New(r.LinkSelector.ByLabel.KeyRange(), "linkSelector of %q selects no resource: no other resource has all the labels %s", s.Name, describeLabels(sel))
		rec.diags = []wideDiag{{d: d, unit: s.index}}
	} else {
		rec.diags = a.checkLinkTypes(s, ls.Selected)
	}
	for _, d := range rec.diags {
		a.report(d.d)
	}
	w.links = append(w.links, rec)
	w.selected += len(rec.selected)
}

// literalNames returns the string scalars of a field holding one name or
// a list of names (linkSelector.exclude); schema reports other shapes.
func literalNames(f *schema.Field) []*schema.Scalar {
	var items []schema.Node
	switch n := f.Node().(type) {
	case *schema.Scalar:
		items = []schema.Node{n}
	case *schema.Sequence:
		items = n.Items
	}
	var out []*schema.Scalar
	for _, it := range items {
		if sc, ok := it.(*schema.Scalar); ok && sc.Tag != schema.NullTag {
			out = append(out, sc)
		}
	}
	return out
}

// selectByLabels returns the resources other than self and the excluded
// ones that carry every label of sel, in declaration order, by symbol
// index.
func (a *analyzer) selectByLabels(sel *schema.Mapping, byLabel map[[2]string][]int, self *Symbol, excluded map[string]bool) []int {
	lists := make([][]int, 0, len(sel.Entries))
	for _, e := range sel.Entries {
		if e.Key == nil {
			return nil
		}
		l := byLabel[[2]string{e.Key.Value, scalarText(e.Value)}]
		if len(l) == 0 {
			return nil
		}
		lists = append(lists, l)
	}
	// Walk the shortest list, keeping what every other list holds (each
	// is sorted: declaration order is index order).
	shortest := 0
	for i, l := range lists {
		if len(l) < len(lists[shortest]) {
			shortest = i
		}
	}
	out := make([]int, 0, len(lists[shortest]))
next:
	for _, t := range lists[shortest] {
		if t == self.index || excluded[a.res.Symbols[t].Name] {
			continue
		}
		for i, l := range lists {
			if _, found := slices.BinarySearch(l, t); i != shortest && !found {
				continue next
			}
		}
		out = append(out, t)
	}
	return out
}

// checkLinkTypes reports, once per resource type, selected resources the
// provider can not link with when it defines links for the selector's
// resource type.
func (a *analyzer) checkLinkTypes(s *Symbol, selected []*Symbol) []wideDiag {
	r := s.Resource
	from, ok := resourceTypeName(s)
	if !ok || len(a.reg.LinksFrom(from)) == 0 {
		return nil
	}
	// The first few selected resources of each unsupported type, and how
	// many there are.
	type group struct {
		first []*Symbol
		n     int
	}
	unsupported := map[string]*group{}
	supported := map[string]bool{}
	var order []string
	for _, t := range selected {
		to, ok := resourceTypeName(t)
		if !ok || supported[to] {
			continue
		}
		g := unsupported[to]
		if g == nil {
			if a.linkable(from, to) {
				supported[to] = true
				continue
			}
			g = &group{}
			unsupported[to] = g
			order = append(order, to)
		}
		g.n++
		if len(g.first) < 5 {
			g.first = append(g.first, t)
		}
	}
	var out []wideDiag
	for _, to := range order {
		g := unsupported[to]
		ts := g.first
		what := quote(ts[0].Name)
		if g.n > 1 {
			what = fmt.Sprintf("%d resources of type %s (%s, ...)", g.n, to, quote(ts[0].Name))
		}
		w := wideDiag{unit: s.index, d: codeLinkUnsupported.New(r.LinkSelector.ByLabel.KeyRange(), "linkSelector of %q selects %s, but the provider has no link between %s and %s", s.Name, what, from, to)}
		for _, t := range ts {
			w.d.Related = append(w.d.Related, source.Related{Range: t.NameRange, Message: "selected resource of type " + to})
			w.related = append(w.related, t.index)
		}
		out = append(out, w)
	}
	return out
}

// linkable reports whether the provider links the two types, in either
// direction.
func (a *analyzer) linkable(from, to string) bool {
	if _, ok := a.reg.Link(from, to); ok {
		return true
	}
	_, ok := a.reg.Link(to, from)
	return ok
}

func describeLabels(m *schema.Mapping) string {
	var parts []string
	for _, e := range m.Entries {
		if e.Key != nil {
			parts = append(parts, e.Key.Value+"="+scalarText(e.Value))
		}
	}
	return strings.Join(parts, ", ")
}

// checkHygiene reports unused definitions and secrets flowing out. Uses
// are counted by symbol index (useCounts, wide.go).
func (a *analyzer) checkHygiene() {
	uses := a.useCounts()
	for i, s := range a.res.Symbols {
		if uses[i] > 0 {
			continue
		}
		var code = codeUnusedVariable
		switch s.Kind {
		case VariableSymbol:
		case ValueSymbol:
			code = codeUnusedValue
		case DataSourceSymbol:
			code = codeUnusedDataSource
		default:
			continue
		}
		if a.suggested[s] {
			continue
		}
		d := code.New(s.NameRange, "%s %q is never referenced", s.Kind, s.Name)
		d.Tags = []source.Tag{source.Unnecessary}
		d.Suggestions = []source.Suggestion{{Title: fmt.Sprintf("Remove unused %s %q", s.Kind, s.Name), Edits: []source.Edit{{Range: a.lineSpan(s.Range), NewText: ""}}}}
		a.report(d)
	}
	for _, refs := range a.checkedRefs() {
		for _, ref := range refs {
			t := ref.Target
			if t == nil || !t.Secret || ref.Site == nil || ref.Site.Owner == nil {
				continue
			}
			owner := ref.Site.Owner
			switch {
			case owner.Kind == ExportSymbol:
				a.report(codeSecretLeak.New(ref.Expr.Rng, "secret %s %q is exported by %q, which makes it readable outside the blueprint", t.Kind, t.Name, owner.Name))
			case owner.Kind == ValueSymbol && !owner.Secret && ref.Site.Kind == SiteValue:
				d := codeSecretLeak.New(ref.Expr.Rng, "secret %s %q flows into value %q, which is not secret; mark it secret: true", t.Kind, t.Name, owner.Name)
				a.report(d)
			}
		}
	}
}

// lineSpan widens r to whole lines (for removal edits).
func (a *analyzer) lineSpan(r source.Range) source.Range {
	m := a.res.File.Mapper
	start := m.LineStart(m.Line(r.Start))
	endLine := m.Line(r.End)
	end := m.LineStart(endLine + 1)
	if end < r.End {
		end = r.End
	}
	return source.Range{Start: start, End: end}
}

// scalarText returns a scalar node's text ("" for collections).
func scalarText(n schema.Node) string {
	if sc, ok := n.(*schema.Scalar); ok {
		return sc.Value
	}
	return ""
}
