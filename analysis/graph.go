package analysis

import (
	"fmt"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// resolveLinks matches each linkSelector against the labels of the other
// resources and adds dependsOn edges. Selections are kept in Result.Links
// only, not as edges: a selector that matches every resource is common,
// and one edge per pair would make Edges quadratic in the resources.
func (a *analyzer) resolveLinks() {
	// Resources by label key=value, in declaration order.
	byLabel := map[[2]string][]*Symbol{}
	var resources []*Symbol
	for _, s := range a.res.Symbols {
		if s.Kind != ResourceSymbol {
			continue
		}
		resources = append(resources, s)
		if s.Resource.Type != nil {
			a.typeNames[s] = s.Resource.Type.Text()
		}
		if s.Resource.Metadata == nil {
			continue
		}
		if m := s.Resource.Metadata.Labels.Mapping(); m != nil {
			for _, e := range m.Entries {
				if e.Key != nil {
					k := [2]string{e.Key.Value, scalarText(e.Value)}
					byLabel[k] = append(byLabel[k], s)
				}
			}
		}
	}
	for _, s := range resources {
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
			continue
		}
		for _, sc := range literalNames(r.LinkSelector.Exclude) {
			if t := a.lookup(ResourceSymbol, sc.Value); t != nil {
				a.res.NameRefs = append(a.res.NameRefs, &NameRef{Range: sc.ValueRange, Target: t, Kind: NameRefExclude})
			}
		}
		sel := r.LinkSelector.ByLabel.Mapping()
		if sel == nil || len(sel.Entries) == 0 {
			continue
		}
		excluded := map[string]bool{}
		if seq := r.LinkSelector.Exclude.Sequence(); seq != nil {
			for _, it := range seq.Items {
				excluded[scalarText(it)] = true
			}
		}
		ls := &LinkSelection{From: s, Selected: selectByLabels(sel, byLabel, s, excluded)}
		a.res.Links = append(a.res.Links, ls)
		if len(ls.Selected) == 0 {
			a.report(codeLinkNoMatch.New(r.LinkSelector.ByLabel.KeyRange(), "linkSelector of %q selects no resource: no other resource has all the labels %s", s.Name, describeLabels(sel)))
			continue
		}
		a.checkLinkTypes(s, ls.Selected)
	}
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
// ones that carry every label of sel, in declaration order.
func selectByLabels(sel *schema.Mapping, byLabel map[[2]string][]*Symbol, self *Symbol, excluded map[string]bool) []*Symbol {
	var lists [][]*Symbol
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
	// Walk the shortest list, keeping what every other list holds.
	shortest := 0
	for i, l := range lists {
		if len(l) < len(lists[shortest]) {
			shortest = i
		}
	}
	var sets []map[*Symbol]bool
	for i, l := range lists {
		if i == shortest {
			continue
		}
		set := make(map[*Symbol]bool, len(l))
		for _, t := range l {
			set[t] = true
		}
		sets = append(sets, set)
	}
	out := make([]*Symbol, 0, len(lists[shortest]))
next:
	for _, t := range lists[shortest] {
		if t == self || excluded[t.Name] {
			continue
		}
		for _, set := range sets {
			if !set[t] {
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
func (a *analyzer) checkLinkTypes(s *Symbol, selected []*Symbol) {
	r := s.Resource
	from, ok := a.typeNames[s]
	if !ok || len(a.reg.LinksFrom(from)) == 0 {
		return
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
		to, ok := a.typeNames[t]
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
	for _, to := range order {
		g := unsupported[to]
		ts := g.first
		what := quote(ts[0].Name)
		if g.n > 1 {
			what = fmt.Sprintf("%d resources of type %s (%s, ...)", g.n, to, quote(ts[0].Name))
		}
		d := codeLinkUnsupported.New(r.LinkSelector.ByLabel.KeyRange(), "linkSelector of %q selects %s, but the provider has no link between %s and %s", s.Name, what, from, to)
		for _, t := range ts {
			d.Related = append(d.Related, source.Related{Range: t.NameRange, Message: "selected resource of type " + to})
		}
		a.report(d)
	}
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

// checkHygiene reports unused definitions and secrets flowing out.
func (a *analyzer) checkHygiene() {
	used := map[*Symbol]bool{}
	for _, ref := range a.res.References {
		if ref.Target != nil {
			used[ref.Target] = true
		}
	}
	for _, s := range a.res.Symbols {
		if used[s] || a.suggested[s] {
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
		d := code.New(s.NameRange, "%s %q is never referenced", s.Kind, s.Name)
		d.Tags = []source.Tag{source.Unnecessary}
		d.Suggestions = []source.Suggestion{{Title: fmt.Sprintf("Remove unused %s %q", s.Kind, s.Name), Edits: []source.Edit{{Range: a.lineSpan(s.Range), NewText: ""}}}}
		a.report(d)
	}
	for _, ref := range a.res.References {
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
