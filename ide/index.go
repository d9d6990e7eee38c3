package ide

import (
	"runtime"
	"sort"
	"sync"
	"weak"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/subst"
)

// Index holds the look-up tables features need about one Result, built
// once on first use. Results are immutable, so an Index never goes stale;
// it does not point at its Result, so the entry is dropped (by a cleanup)
// once the Result is no longer reachable.
type Index struct {
	once sync.Once

	sites    []*analysis.Site      // by scalar start
	refs     []*analysis.Reference // by expression start
	calls    []*analysis.Call      // with Expr, by name start
	refsTo   map[*analysis.Symbol][]*analysis.Reference
	siteOf   map[*schema.Scalar]*analysis.Site
	nameRefs []*analysis.NameRef // by range start
	// nameRefsTo indexes NameRefs by the resource they name.
	nameRefsTo map[*analysis.Symbol][]*analysis.NameRef
	names      []*analysis.Symbol // by name start
	dataFlds   map[*analysis.Symbol][]*analysis.Symbol
	// labels maps each label key written in metadata.labels or a
	// linkSelector.byLabel to the values seen for it.
	labels map[string][]string
}

var indexes sync.Map // weak.Pointer[analysis.Result] → *Index

// indexFor returns the Index of res, building it on first use.
func indexFor(res *analysis.Result) *Index {
	key := weak.Make(res)
	if ix, ok := indexes.Load(key); ok {
		x := ix.(*Index)
		x.once.Do(func() { x.build(res) })
		return x
	}
	ix, loaded := indexes.LoadOrStore(key, &Index{})
	if !loaded {
		runtime.AddCleanup(res, func(k weak.Pointer[analysis.Result]) { indexes.Delete(k) }, key)
	}
	x := ix.(*Index)
	x.once.Do(func() { x.build(res) })
	return x
}

func (x *Index) build(res *analysis.Result) {
	x.sites = append([]*analysis.Site(nil), res.Sites()...)
	sort.SliceStable(x.sites, func(i, j int) bool { return x.sites[i].Scalar.Rng.Start < x.sites[j].Scalar.Rng.Start })
	x.siteOf = make(map[*schema.Scalar]*analysis.Site, len(res.Sites()))
	for _, s := range res.Sites() {
		x.siteOf[s.Scalar] = s
	}
	x.refs = append([]*analysis.Reference(nil), res.References()...)
	sort.SliceStable(x.refs, func(i, j int) bool { return x.refs[i].Expr.Rng.Start < x.refs[j].Expr.Rng.Start })
	x.refsTo = map[*analysis.Symbol][]*analysis.Reference{}
	for _, r := range x.refs {
		if r.Target != nil {
			x.refsTo[r.Target] = append(x.refsTo[r.Target], r)
		}
		if r.Field != nil && r.Field != r.Target {
			x.refsTo[r.Field] = append(x.refsTo[r.Field], r)
		}
	}
	x.nameRefs = append([]*analysis.NameRef(nil), res.NameRefs()...)
	sort.SliceStable(x.nameRefs, func(i, j int) bool { return x.nameRefs[i].Range.Start < x.nameRefs[j].Range.Start })
	x.nameRefsTo = map[*analysis.Symbol][]*analysis.NameRef{}
	for _, n := range x.nameRefs {
		x.nameRefsTo[n.Target] = append(x.nameRefsTo[n.Target], n)
	}
	for _, c := range res.Calls() {
		if c.Expr != nil {
			x.calls = append(x.calls, c)
		}
	}
	sort.SliceStable(x.calls, func(i, j int) bool { return x.calls[i].Expr.NameRange.Start < x.calls[j].Expr.NameRange.Start })
	x.names = append([]*analysis.Symbol(nil), res.Symbols()...)
	sort.SliceStable(x.names, func(i, j int) bool { return x.names[i].NameRange.Start < x.names[j].NameRange.Start })
	x.dataFlds = map[*analysis.Symbol][]*analysis.Symbol{}
	for _, s := range res.Symbols() {
		if s.Kind == analysis.DataSourceFieldSymbol && s.Parent != nil {
			x.dataFlds[s.Parent] = append(x.dataFlds[s.Parent], s)
		}
	}
	x.labels = map[string][]string{}
	seen := map[[2]string]bool{}
	addLabels := func(m *schema.Mapping) {
		for _, e := range m.Entries {
			sc, _ := e.Value.(*schema.Scalar)
			if e.Key == nil || sc == nil {
				continue
			}
			k := [2]string{e.Key.Value, sc.Value}
			if !seen[k] {
				seen[k] = true
				x.labels[k[0]] = append(x.labels[k[0]], k[1])
			}
		}
	}
	if res.Blueprint != nil {
		for _, r := range res.Blueprint.Resources.Items() {
			if r.Metadata != nil {
				if m := r.Metadata.Labels.Mapping(); m != nil {
					addLabels(m)
				}
			}
			if r.LinkSelector != nil {
				if m := r.LinkSelector.ByLabel.Mapping(); m != nil {
					addLabels(m)
				}
			}
		}
	}
}

// siteAt returns the site whose scalar contains off.
func (x *Index) siteAt(off int) *analysis.Site {
	i := sort.Search(len(x.sites), func(i int) bool { return x.sites[i].Scalar.Rng.Start > off }) - 1
	for ; i >= 0; i-- {
		s := x.sites[i]
		if s.Scalar.Rng.Contains(off) {
			return s
		}
		if s.Scalar.Rng.End < off {
			// Scalars do not nest; one earlier start is enough unless
			// it ends before off.
			return nil
		}
	}
	return nil
}

// refAt returns the reference whose expression contains off.
func (x *Index) refAt(off int) *analysis.Reference {
	i := sort.Search(len(x.refs), func(i int) bool { return x.refs[i].Expr.Rng.Start > off }) - 1
	var best *analysis.Reference
	for j := i; j >= 0 && j >= i-2; j-- {
		r := x.refs[j]
		if r.Expr.Rng.Contains(off) && (best == nil || r.Expr.Rng.Len() < best.Expr.Rng.Len()) {
			best = r
		}
	}
	return best
}

// nameRefAt returns the resource name written as text (dependsOn,
// exclude, link("name")) whose range contains off.
func (x *Index) nameRefAt(off int) *analysis.NameRef {
	i := sort.Search(len(x.nameRefs), func(i int) bool { return x.nameRefs[i].Range.Start > off }) - 1
	if i >= 0 && x.nameRefs[i].Range.Contains(off) {
		return x.nameRefs[i]
	}
	return nil
}

// callNameAt returns the call whose function name contains off.
func (x *Index) callNameAt(off int) *analysis.Call {
	i := sort.Search(len(x.calls), func(i int) bool { return x.calls[i].Expr.NameRange.Start > off }) - 1
	if i >= 0 && x.calls[i].Expr.NameRange.Contains(off) {
		return x.calls[i]
	}
	return nil
}

// symbolAt returns the symbol whose name key contains off.
func (x *Index) symbolAt(off int) *analysis.Symbol {
	i := sort.Search(len(x.names), func(i int) bool { return x.names[i].NameRange.Start > off }) - 1
	for j := i; j >= 0 && j >= i-1; j-- {
		if x.names[j].NameRange.Contains(off) {
			return x.names[j]
		}
	}
	return nil
}

// funcRefAt returns the function passed by name (map(xs, to_upper)) at
// off, from the Result's calls.
func funcRefAt(res *analysis.Result, site *analysis.Site, off int) *analysis.Call {
	for _, c := range res.Calls() {
		if c.Ref != nil && c.Site == site && c.Ref.Rng.Contains(off) {
			return c
		}
	}
	return nil
}

// accessorIndex returns the index in path of the accessor containing off,
// or -1.
func accessorIndex(path []subst.Accessor, off int) int {
	for i, a := range path {
		if a.Range().Contains(off) {
			return i
		}
	}
	return -1
}
