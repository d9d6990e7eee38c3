package analysis

import (
	"fmt"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// resolveLinks matches each linkSelector against the labels of the other
// resources and adds dependsOn edges.
func (a *analyzer) resolveLinks() {
	labels := map[*Symbol]map[string]string{}
	for _, s := range a.res.Symbols {
		if s.Kind != ResourceSymbol || s.Resource.Metadata == nil {
			continue
		}
		if m := s.Resource.Metadata.Labels.Mapping(); m != nil {
			ls := map[string]string{}
			for _, e := range m.Entries {
				if e.Key != nil {
					ls[e.Key.Value] = scalarText(e.Value)
				}
			}
			labels[s] = ls
		}
	}
	for _, s := range a.res.Symbols {
		if s.Kind != ResourceSymbol {
			continue
		}
		r := s.Resource
		// dependsOn edges (2025-11-02); unknown names are reported by schema.
		for _, sc := range r.DependsOnRefs {
			if t := a.lookup(ResourceSymbol, sc.Value); t != nil && t != s {
				a.res.Edges = append(a.res.Edges, &Edge{From: s, To: t, Range: sc.Rng, Kind: EdgeDependsOn})
			}
		}
		if r.LinkSelector == nil {
			continue
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
		ls := &LinkSelection{From: s}
		for _, t := range a.res.Symbols {
			if t.Kind != ResourceSymbol || t == s || excluded[t.Name] {
				continue
			}
			tl := labels[t]
			match := tl != nil
			for _, e := range sel.Entries {
				if e.Key == nil || tl[e.Key.Value] != scalarText(e.Value) {
					match = false
					break
				}
				if _, ok := tl[e.Key.Value]; !ok {
					match = false
					break
				}
			}
			if match {
				ls.Selected = append(ls.Selected, t)
			}
		}
		a.res.Links = append(a.res.Links, ls)
		if len(ls.Selected) == 0 {
			a.report(codeLinkNoMatch.New(r.LinkSelector.ByLabel.KeyRange(), "linkSelector of %q selects no resource: no other resource has all the labels %s", s.Name, describeLabels(sel)))
			continue
		}
		from := r.Type.Text()
		defs := a.reg.LinksFrom(from)
		for _, t := range ls.Selected {
			to := t.Resource.Type.Text()
			if len(defs) > 0 {
				if _, ok := a.reg.Link(from, to); !ok {
					if _, rev := a.reg.Link(to, from); !rev {
						d := codeLinkUnsupported.New(r.LinkSelector.ByLabel.KeyRange(), "linkSelector of %q selects %q, but provider links from %s do not support %s", s.Name, t.Name, from, to)
						d.Related = []source.Related{{Range: t.NameRange, Message: "selected resource"}}
						a.report(d)
					}
				}
			}
			a.res.Edges = append(a.res.Edges, &Edge{From: s, To: t, Range: r.LinkSelector.ByLabel.KeyRange(), Kind: EdgeLink})
		}
	}
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

// checkCycles finds strongly connected components among values, resources
// and children and reports every reference inside one, spelling the cycle
// out from the reference's owner.
func (a *analyzer) checkCycles() {
	adj := map[*Symbol][]*Edge{}
	for _, e := range a.res.Edges {
		if e.From == nil || e.To == nil || e.From.Kind != e.To.Kind {
			continue
		}
		switch e.From.Kind {
		case ValueSymbol, ResourceSymbol, ChildSymbol, DataSourceSymbol:
		default:
			continue
		}
		if e.Kind == EdgeLink {
			continue // a link selection orders by priority; it is not a data cycle
		}
		adj[e.From] = append(adj[e.From], e)
	}
	comp := scc(a.res.Symbols, adj)
	reported := map[*Edge]bool{}
	for _, e := range a.res.Edges {
		if reported[e] || comp[e.From] == 0 || comp[e.From] != comp[e.To] {
			continue
		}
		if e.From.Kind != e.To.Kind || e.Kind == EdgeLink {
			continue
		}
		path := shortestPath(e.To, e.From, adj, comp)
		if path == nil && e.From != e.To {
			continue
		}
		names := []string{e.From.Name}
		for _, s := range path {
			names = append(names, s.Name)
		}
		if e.From == e.To {
			names = append(names, e.From.Name)
		}
		rng := e.Range
		if e.Ref != nil {
			rng = e.Ref.Expr.Rng
		}
		d := codeCycle.New(rng, "reference cycle %s", strings.Join(names, " -> "))
		if len(path) > 1 || e.From == e.To {
			d.Related = []source.Related{{Range: e.To.NameRange, Message: fmt.Sprintf("%s %q is defined here", e.To.Kind, e.To.Name)}}
		}
		reported[e] = true
		a.report(d)
	}
}

// scc labels the nodes in non-trivial strongly connected components (or
// with a self edge) with a component number > 0 (Tarjan's algorithm).
func scc(nodes []*Symbol, adj map[*Symbol][]*Edge) map[*Symbol]int {
	index := map[*Symbol]int{}
	low := map[*Symbol]int{}
	on := map[*Symbol]bool{}
	var stack []*Symbol
	comp := map[*Symbol]int{}
	next, ncomp := 1, 0
	var visit func(v *Symbol)
	visit = func(v *Symbol) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		on[v] = true
		for _, e := range adj[v] {
			w := e.To
			if index[w] == 0 {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if on[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			var members []*Symbol
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				on[w] = false
				members = append(members, w)
				if w == v {
					break
				}
			}
			self := false
			for _, e := range adj[v] {
				if e.To == v {
					self = true
				}
			}
			if len(members) > 1 || self {
				ncomp++
				for _, m := range members {
					comp[m] = ncomp
				}
			}
		}
	}
	for _, n := range nodes {
		if index[n] == 0 && len(adj[n]) > 0 {
			visit(n)
		}
	}
	return comp
}

// shortestPath returns the nodes from start to goal (both included) within
// one component, by breadth-first search.
func shortestPath(start, goal *Symbol, adj map[*Symbol][]*Edge, comp map[*Symbol]int) []*Symbol {
	prev := map[*Symbol]*Symbol{start: nil}
	queue := []*Symbol{start}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		if v == goal {
			var path []*Symbol
			for n := goal; n != nil; n = prev[n] {
				path = append(path, n)
			}
			for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
				path[i], path[j] = path[j], path[i]
			}
			return path
		}
		for _, e := range adj[v] {
			if _, seen := prev[e.To]; !seen && comp[e.To] == comp[start] {
				prev[e.To] = v
				queue = append(queue, e.To)
			}
		}
	}
	return nil
}

// checkDataSourceDependencies enforces decision 19: data sources are
// resolved before resources, so they may not reference resources or
// children, directly or through values.
func (a *analyzer) checkDataSourceDependencies() {
	// Which values (transitively) depend on resources or children.
	memo := map[*Symbol]*Edge{}
	var reaches func(s *Symbol, seen map[*Symbol]bool) *Edge
	reaches = func(s *Symbol, seen map[*Symbol]bool) *Edge {
		if e, ok := memo[s]; ok {
			return e
		}
		if seen[s] {
			return nil
		}
		seen[s] = true
		var found *Edge
		for _, e := range a.res.Edges {
			if e.From != s || e.To == nil {
				continue
			}
			switch e.To.Kind {
			case ResourceSymbol, ChildSymbol:
				found = e
			case ValueSymbol:
				if reaches(e.To, seen) != nil {
					found = e
				}
			}
			if found != nil {
				break
			}
		}
		memo[s] = found
		return found
	}
	for _, e := range a.res.Edges {
		if e.From == nil || e.From.Kind != DataSourceSymbol || e.To == nil || e.Ref == nil {
			continue
		}
		switch e.To.Kind {
		case ResourceSymbol, ChildSymbol:
			a.report(codeDataSourceDependency.New(e.Ref.Expr.Rng, "data source %q references %s %q, but data sources are resolved before resources and child blueprints", e.From.Name, e.To.Kind, e.To.Name))
		case ValueSymbol:
			if via := reaches(e.To, map[*Symbol]bool{}); via != nil {
				a.report(codeDataSourceDependency.New(e.Ref.Expr.Rng, "data source %q references value %q, which depends on %s %q; data sources are resolved before resources and child blueprints", e.From.Name, e.To.Name, via.To.Kind, via.To.Name))
			}
		}
	}
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
