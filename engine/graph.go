package engine

import (
	"sort"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/eval"
	"github.com/blueprint-ls/blueprint-ls/providers/registry"
)

// dependencies returns, for every resource and child symbol, the resource
// and child symbols it must be deployed after: its references (directly
// or through values), dependsOn, and link selections in the direction
// the link's priority gives.
func dependencies(res *analysis.Result, reg *registry.Registry) map[*analysis.Symbol][]*analysis.Symbol {
	direct := map[*analysis.Symbol][]*analysis.Symbol{}
	add := func(from, to *analysis.Symbol) {
		if from != to {
			direct[from] = append(direct[from], to)
		}
	}
	for _, e := range res.Edges() {
		if e.From == nil || e.To == nil {
			continue
		}
		if e.Kind == analysis.EdgeLink && e.Ref == nil {
			switch linkPriority(reg, e.From, e.To) {
			case "from":
				add(e.To, e.From)
			case "to":
				add(e.From, e.To)
			}
			continue
		}
		add(e.From, e.To)
	}
	// The links of linkSelectors and activating references, in the
	// direction their link type's priority gives.
	for _, l := range res.LinkGraph() {
		switch l.Def.Priority {
		case "from":
			add(l.To, l.From)
		case "to":
			add(l.From, l.To)
		}
	}
	// Follow values (which may reference resources and children) down to
	// the deployable symbols they reach; each value is followed once.
	reach := map[*analysis.Symbol][]*analysis.Symbol{}
	busy := map[*analysis.Symbol]bool{}
	var follow func(s *analysis.Symbol) []*analysis.Symbol
	follow = func(s *analysis.Symbol) []*analysis.Symbol {
		var out []*analysis.Symbol
		for _, t := range direct[s] {
			switch t.Kind {
			case analysis.ResourceSymbol, analysis.ChildSymbol:
				out = append(out, t)
			case analysis.ValueSymbol:
				if r, ok := reach[t]; ok {
					out = append(out, r...)
				} else if !busy[t] { // a cycle of values is reported by analysis
					busy[t] = true
					r := dedupe(follow(t))
					reach[t] = r
					out = append(out, r...)
				}
			}
		}
		return out
	}
	deps := map[*analysis.Symbol][]*analysis.Symbol{}
	for _, s := range res.Symbols() {
		if s.Kind == analysis.ResourceSymbol || s.Kind == analysis.ChildSymbol {
			var ds []*analysis.Symbol
			for _, d := range dedupe(follow(s)) {
				if d != s {
					ds = append(ds, d)
				}
			}
			deps[s] = ds
		}
	}
	return deps
}

// linkPriority returns which end of a link between the resources a (with
// the linkSelector) and b is deployed first: "from" (a), "to" (b) or "".
func linkPriority(reg *registry.Registry, a, b *analysis.Symbol) string {
	if a.Resource == nil || b.Resource == nil {
		return ""
	}
	ta, tb := a.Resource.Type.Text(), b.Resource.Type.Text()
	if def, ok := reg.Link(ta, tb); ok {
		return def.Priority
	}
	if def, ok := reg.Link(tb, ta); ok {
		switch def.Priority { // the definition's from is b
		case "from":
			return "to"
		case "to":
			return "from"
		}
	}
	return ""
}

func dedupe(ss []*analysis.Symbol) []*analysis.Symbol {
	seen := map[*analysis.Symbol]bool{}
	out := ss[:0]
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// order assigns stages: a resource (or child) is one stage after the
// latest of its dependencies. Only what changes is listed; unchanged
// resources still order what depends on them.
func order(p *Plan, bp *eval.Blueprint, reg *registry.Registry) {
	res := bp.Result
	if res == nil {
		return
	}
	deps := dependencies(res, reg)
	for _, l := range res.LinkGraph() {
		via := "linkSelector"
		if l.Activated {
			via = "reference"
		}
		p.Links = append(p.Links, &PlannedLink{From: l.From.Name, To: l.To.Name, Type: l.Def.From + "::" + l.Def.To, Via: via})
	}
	instances := map[string][]string{} // template → instance names
	for _, r := range bp.Resources {
		if r.Condition != eval.Excluded {
			instances[r.Template] = append(instances[r.Template], r.Name)
		}
	}
	templateOf := map[string]string{}
	for _, r := range bp.Resources {
		templateOf[r.Name] = r.Template
	}
	nodeDeps := map[string][]string{}
	var nodes []string
	for _, s := range res.Symbols() {
		var names []string
		switch s.Kind {
		case analysis.ResourceSymbol:
			names = instances[s.Name]
		case analysis.ChildSymbol:
			names = []string{"children." + s.Name}
		default:
			continue
		}
		var ds []string
		for _, d := range deps[s] {
			if d.Kind == analysis.ChildSymbol {
				ds = append(ds, "children."+d.Name)
			} else {
				ds = append(ds, instances[d.Name]...)
			}
		}
		for _, n := range names {
			nodes = append(nodes, n)
			nodeDeps[n] = ds
		}
	}
	level := map[string]int{}
	var visit func(n string) int
	visit = func(n string) int {
		if l, ok := level[n]; ok {
			if l < 0 {
				return 0 // a cycle (reported by analysis)
			}
			return l
		}
		level[n] = -1
		l := 1
		for _, d := range nodeDeps[n] {
			l = max(l, visit(d)+1)
		}
		level[n] = l
		return l
	}
	changes := map[string]*ResourceChange{}
	for _, rc := range p.Resources {
		changes[rc.Name] = rc
	}
	byLevel := map[int][]string{}
	for _, n := range nodes {
		l := visit(n)
		rc := changes[n]
		if rc != nil {
			rc.DependsOn = templateNames(nodeDeps[n], templateOf)
		}
		if rc != nil && (rc.Action == NoOp || rc.Action == Delete || rc.Action == Retain) {
			continue
		}
		byLevel[l] = append(byLevel[l], n)
	}
	levels := make([]int, 0, len(byLevel))
	for l := range byLevel {
		levels = append(levels, l)
	}
	sort.Ints(levels)
	for i, l := range levels {
		p.Stages = append(p.Stages, byLevel[l])
		for _, n := range byLevel[l] {
			if rc := changes[n]; rc != nil {
				rc.Stage = i + 1
			}
		}
	}
}

// templateNames shortens instance names to their resources' names for
// DependsOn: buckets rather than buckets[0], buckets[1], ...
func templateNames(names []string, templateOf map[string]string) []string {
	seen := map[string]bool{}
	var out []string
	for _, n := range names {
		t := n
		if tt, ok := templateOf[n]; ok {
			t = tt
		}
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	sort.Strings(out)
	return out
}
