package analysis

import (
	"fmt"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// checkCycles finds strongly connected components among values,
// resources, children and data sources and reports every reference inside
// one, spelling the cycle out from the reference's owner. Edges cross
// kinds: a value reading resources.queue.state.arn that queue's spec
// uses can never be resolved. A data source's reference to a resource or
// child (directly or through a value) is left out: checkDataSourceDependencies
// reports it, and it is the one mistake. When the dirty units' edges are
// the previous version's, so are the cycles (carryCycles, wide.go).
func (a *analyzer) checkCycles() {
	if a.carryCycles() {
		return
	}
	w := a.res.wide
	edges := a.allEdges()
	adj := adjacency(edges, a.cycleEdge)
	comp := scc(a.symbolList(0, a.res.syms.Len()), adj)
	var sizes map[int]int // members per component, for long cycles
	reported := map[*Edge]bool{}
	for _, e := range edges {
		if reported[e] || comp[e.From] == 0 || comp[e.From] != comp[e.To] || !a.cycleEdge(e) {
			continue
		}
		path := shortestPath(e.To, e.From, adj, comp, maxCyclePath)
		cycle := append([]*Symbol{e.From}, path...)
		if e.From == e.To {
			cycle = append(cycle, e.From)
		}
		rng := e.Range
		if e.Ref != nil {
			rng = e.Ref.Expr.Rng
		}
		text := cycleText(cycle)
		if path == nil && e.From != e.To {
			// A long cycle: spelling it out for each of its references
			// would take time and text quadratic in its length.
			if sizes == nil {
				sizes = map[int]int{}
				for _, c := range comp {
					sizes[c]++
				}
			}
			cycle = []*Symbol{e.From, e.To, e.From}
			text = cycleText(cycle)
			cut := strings.LastIndex(text, " -> ")
			text = fmt.Sprintf("%s -> ...%s (%d definitions depend on each other)", text[:cut], text[cut:], sizes[comp[e.From]])
		}
		d := codeCycle.New(rng, "reference cycle %s", text)
		cw := wideDiag{unit: e.From.index}
		if len(cycle) > 2 {
			d.Related = []source.Related{{Range: e.To.NameRange, Message: fmt.Sprintf("%s %q is defined here", e.To.Kind, e.To.Name)}}
			cw.related = []int{e.To.index}
		}
		reported[e] = true
		a.report(d)
		cw.d = d
		w.cycles = append(w.cycles, cw)
	}
}

// cycleEdge reports whether e takes part in cycle detection.
func (a *analyzer) cycleEdge(e *Edge) bool {
	if e.From == nil || e.To == nil || !cycleKind(e.From.Kind) || !cycleKind(e.To.Kind) {
		return false
	}
	if e.From.Kind == DataSourceSymbol {
		switch e.To.Kind {
		case ResourceSymbol, ChildSymbol:
			return false
		case ValueSymbol:
			return a.deployDependency(e.To) == nil
		}
	}
	return true
}

func cycleKind(k SymbolKind) bool {
	switch k {
	case ValueSymbol, ResourceSymbol, ChildSymbol, DataSourceSymbol:
		return true
	}
	return false
}

// cycleText spells a cycle out: bare names when every member is of one
// kind (a -> b -> a), namespaced names when it crosses kinds
// (values.arn -> resources.queue -> values.arn).
func cycleText(cycle []*Symbol) string {
	mixed := false
	for _, s := range cycle {
		if s.Kind != cycle[0].Kind {
			mixed = true
		}
	}
	names := make([]string, len(cycle))
	for i, s := range cycle {
		names[i] = s.Name
		if mixed {
			names[i] = s.Kind.Namespace() + "." + s.Name
		}
	}
	return strings.Join(names, " -> ")
}

// scc labels the nodes in non-trivial strongly connected components (or
// with a self edge) with a component number > 0 (Tarjan's algorithm).
// adjacency groups the edges keep accepts by the symbol they leave, in
// their order: one array for all of them, not a growing list per symbol.
func adjacency(edges []*Edge, keep func(*Edge) bool) map[*Symbol][]*Edge {
	count := map[*Symbol]int{} // edges per symbol
	var order []*Symbol        // the symbols in the order they first leave an edge
	n := 0
	for _, e := range edges {
		if keep(e) {
			if count[e.From] == 0 {
				order = append(order, e.From)
			}
			count[e.From]++
			n++
		}
	}
	adj := make(map[*Symbol][]*Edge, len(order))
	all := make([]*Edge, n)
	at := 0
	for _, from := range order {
		k := count[from]
		adj[from] = all[at : at : at+k]
		at += k
	}
	for _, e := range edges {
		if keep(e) {
			adj[e.From] = append(adj[e.From], e)
		}
	}
	return adj
}

func scc(nodes []*Symbol, adj map[*Symbol][]*Edge) map[*Symbol]int {
	index := make(map[*Symbol]int, len(nodes))
	low := make(map[*Symbol]int, len(nodes))
	on := make(map[*Symbol]bool, len(adj))
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

// maxCyclePath is how many definitions shortestPath visits at most: a
// cycle it cannot spell out within them is reported shortened.
const maxCyclePath = 64

// shortestPath returns the nodes from start to goal (both included) within
// one component, by breadth-first search visiting at most limit nodes
// (nil when goal is not among them).
func shortestPath(start, goal *Symbol, adj map[*Symbol][]*Edge, comp map[*Symbol]int, limit int) []*Symbol {
	prev := map[*Symbol]*Symbol{start: nil}
	queue := []*Symbol{start}
	for len(queue) > 0 && len(prev) <= limit {
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
	for _, e := range a.dataSourceEdges() {
		if e.From == nil || e.From.Kind != DataSourceSymbol || e.To == nil || e.Ref == nil {
			continue
		}
		switch e.To.Kind {
		case ResourceSymbol, ChildSymbol:
			a.report(codeDataSourceDependency.New(e.Ref.Expr.Rng, "data source %q references %s %q, but data sources are resolved before resources and child blueprints", e.From.Name, e.To.Kind, e.To.Name))
		case ValueSymbol:
			if via := a.deployDependency(e.To); via != nil {
				a.report(codeDataSourceDependency.New(e.Ref.Expr.Rng, "data source %q references value %q, which depends on %s %q; data sources are resolved before resources and child blueprints", e.From.Name, e.To.Name, via.To.Kind, via.To.Name))
			}
		}
	}
}

// dataSourceEdges returns the edges that may start at a data source: its
// records' (a data source's edges are its references').
func (a *analyzer) dataSourceEdges() []*Edge {
	var out []*Edge
	for i := a.blocks[DataSourceSymbol].lo; i < a.blocks[DataSourceSymbol].hi; i++ {
		if u := a.recs.At(i); a.res.syms.At(i).Kind == DataSourceSymbol && u != nil {
			for _, e := range u.edges {
				out = append(out, currentEdge(a.res.syms, e))
			}
		}
	}
	return out
}

// allEdges returns every edge of this version, in the order of
// Result.Edges (which is not joined until the result is returned).
func (a *analyzer) allEdges() []*Edge { return joinEdges(a.res.syms, a.recs, a.docRecs, a.decl) }

// deployDependency returns the edge through which value v (transitively,
// through other values) depends on a resource or child, or nil.
func (a *analyzer) deployDependency(v *Symbol) *Edge {
	if a.valueDeps == nil {
		a.valueDeps = map[*Symbol][]*Edge{}
		for i := a.blocks[ValueSymbol].lo; i < a.blocks[ValueSymbol].hi; i++ {
			if a.recs.At(i) == nil {
				continue
			}
			for _, e := range a.recs.At(i).edges {
				if e = currentEdge(a.res.syms, e); e.From != nil && e.From.Kind == ValueSymbol && e.To != nil {
					a.valueDeps[e.From] = append(a.valueDeps[e.From], e)
				}
			}
		}
		a.deployVia = map[*Symbol]*Edge{}
	}
	return a.reachesDeploy(v, map[*Symbol]bool{})
}

func (a *analyzer) reachesDeploy(s *Symbol, seen map[*Symbol]bool) *Edge {
	if e, ok := a.deployVia[s]; ok {
		return e
	}
	if seen[s] {
		return nil
	}
	seen[s] = true
	var found *Edge
	for _, e := range a.valueDeps[s] {
		switch e.To.Kind {
		case ResourceSymbol, ChildSymbol:
			found = e
		case ValueSymbol:
			if a.reachesDeploy(e.To, seen) != nil {
				found = e
			}
		}
		if found != nil {
			break
		}
	}
	a.deployVia[s] = found
	return found
}
