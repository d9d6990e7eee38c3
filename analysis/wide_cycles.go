package analysis

import (
	"bytes"
	"slices"

	"github.com/blueprint-ls/blueprint-ls/internal/chunked"
)

// The cycles of one version taken over by the next (see wide.go).

// cycleUnits returns the units r reported a reference cycle in (by
// symbol index, some more than once): every unit of a cycle has a
// reference inside it.
func (r *Result) cycleUnits() []int {
	if r.wide == nil {
		return nil
	}
	out := make([]int, len(r.wide.cycles))
	for i, w := range r.wide.cycles {
		out[i] = w.unit
	}
	return out
}

// carryCycles reports the previous version's cycles again when the dirty
// units cannot have changed them (cyclesKept).
func (a *analyzer) carryCycles() bool {
	if a.wide.prev == nil || !a.cyclesKept() {
		return false
	}
	w := a.res.wide
	w.cyclesCarried = true
	w.cycles = make([]wideDiag, 0, len(a.wide.prev.cycles))
	for _, pw := range a.wide.prev.cycles {
		cw := a.carriedDiag(pw)
		a.report(cw.d)
		w.cycles = append(w.cycles, cw)
	}
	return true
}

// edgeKey is an edge by its ends' symbol indexes.
type edgeKey struct {
	from, to int
	kind     EdgeKind
}

// cyclesKept reports whether the previous version's cycles are this
// one's: no unit whose text changed took part in one, and the dirty units depend on
// the same definitions, in the same ways, as before, or on more, none of
// which reaches back to the dependent (an added edge closes no cycle;
// a removed one, outside every cycle, opens none). It reads the dirty
// units' own records and, for an added edge, what its target reaches.
func (a *analyzer) cyclesKept() bool {
	for _, w := range a.wide.prev.cycles {
		// A unit of a cycle is checked again (planReuse), but when its
		// text is the same, so are its edges and where they are in it.
		if !a.carriedAt(w.unit) && !a.sameText(w.unit) {
			return false
		}
	}
	prev := a.reuse.prev
	var cur, old []edgeKey
	for _, i := range a.uncarried() {
		cur = a.unitEdges(cur, a.res.syms, a.recs, i)
		old = a.unitEdges(old, prev.syms, prev.units, i)
	}
	order := func(x, y edgeKey) int {
		if x.from != y.from {
			return x.from - y.from
		}
		if x.to != y.to {
			return x.to - y.to
		}
		return int(x.kind - y.kind)
	}
	slices.SortFunc(cur, order)
	slices.SortFunc(old, order)
	if slices.Equal(cur, old) {
		return true
	}
	syms := a.res.syms
	for _, k := range cur {
		// Whether a data source's reference to a value takes part in
		// cycles depends on what the value reaches (cycleEdge).
		if syms.At(k.from).Kind == DataSourceSymbol && syms.At(k.to).Kind == ValueSymbol {
			return false
		}
	}
	var seen []bool
	for _, k := range added(cur, old, order) {
		if k.from == k.to {
			return false
		}
		if !cycleKind(syms.At(k.from).Kind) || !cycleKind(syms.At(k.to).Kind) {
			continue
		}
		if seen == nil {
			seen = make([]bool, syms.Len())
		} else {
			clear(seen)
		}
		if a.reaches(k.to, k.from, seen) {
			return false
		}
	}
	return true
}

// sameText reports whether unit i has the text it had in the previous
// version.
func (a *analyzer) sameText(i int) bool {
	p, s := a.prevSymbol(i), a.res.syms.At(i)
	return bytes.Equal(a.reuse.prev.File.Text.Slice(p.Range.Start, p.Range.End), a.res.File.Text.Slice(s.Range.Start, s.Range.End))
}

// added returns the keys of cur (sorted) that old (sorted) does not
// hold, counting repeats.
func added(cur, old []edgeKey, order func(x, y edgeKey) int) []edgeKey {
	var out []edgeKey
	j := 0
	for _, k := range cur {
		for j < len(old) && order(old[j], k) < 0 {
			j++
		}
		if j < len(old) && old[j] == k {
			j++
			continue
		}
		out = append(out, k)
	}
	return out
}

// reaches reports whether unit goal can be reached from unit from along
// this version's edges that may take part in a cycle (a data source's
// reference to a value counts, whatever the value reaches), marking the
// units it visits in seen.
func (a *analyzer) reaches(from, goal int, seen []bool) bool {
	syms := a.res.syms
	stack := []int{from}
	seen[from] = true
	var next []edgeKey
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if i == goal {
			return true
		}
		next = a.unitEdges(next[:0], syms, a.recs, i)
		for _, k := range next {
			t := syms.At(k.to)
			if seen[k.to] || !cycleKind(t.Kind) || syms.At(i).Kind == DataSourceSymbol && (t.Kind == ResourceSymbol || t.Kind == ChildSymbol) {
				continue
			}
			seen[k.to] = true
			stack = append(stack, k.to)
		}
	}
	return false
}

// unitEdges appends the edges from unit i of the version whose symbols
// and records are syms and recs: its references' and link() names'
// (its records) and its dependsOn names' (a name has the same index in
// both versions).
func (a *analyzer) unitEdges(out []edgeKey, syms chunked.Vec[*Symbol], recs chunked.Vec[*unitRecs], i int) []edgeKey {
	if u := recs.At(i); u != nil {
		for _, e := range u.edges {
			if e.From == nil || e.To == nil {
				continue
			}
			f, t := e.From.index, e.To.index
			if f >= syms.Len() || syms.At(f) != e.From || t >= syms.Len() || syms.At(t) != e.To {
				continue
			}
			out = append(out, edgeKey{f, t, e.Kind})
		}
	}
	if r := syms.At(i).Resource; r != nil {
		for _, sc := range r.DependsOnRefs {
			if t := a.lookup(ResourceSymbol, sc.Value); t != nil && t.index != i {
				out = append(out, edgeKey{i, t.index, EdgeDependsOn})
			}
		}
	}
	return out
}
