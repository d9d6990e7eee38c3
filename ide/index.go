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

// Index answers what features ask about one Result. What is at a place
// (a site, a reference, a call's name, a resource name, a symbol's key)
// the Result answers from the records of the unit there, so asking it of
// the version an edit just made builds nothing: a completion typed right
// after an edit no longer waits for tables over the whole document; nor
// does what names a symbol (analysis.Result.ReferencesTo and its kin read
// the records of the units naming it). The tables over the whole
// document (sites in order, data source fields, labels) are built once
// per Result, when a feature first needs one. Results are immutable, so
// neither goes stale.
type Index struct {
	res *analysis.Result
	t   *docTables
}

// docTables are a Result's look-up tables over the whole document. They do
// not point at their Result, so the entry is dropped (by a cleanup) once
// the Result is no longer reachable.
type docTables struct {
	once sync.Once

	sites    []*analysis.Site // by scalar start
	dataFlds map[*analysis.Symbol][]*analysis.Symbol
	// labels maps each label key written in metadata.labels or a
	// linkSelector.byLabel to the values seen for it.
	labels map[string][]string
}

var indexes sync.Map // weak.Pointer[analysis.Result] → *docTables

// indexFor returns the Index of res.
func indexFor(res *analysis.Result) *Index {
	key := weak.Make(res)
	if t, ok := indexes.Load(key); ok {
		return &Index{res: res, t: t.(*docTables)}
	}
	t, loaded := indexes.LoadOrStore(key, &docTables{})
	if !loaded {
		runtime.AddCleanup(res, func(k weak.Pointer[analysis.Result]) { indexes.Delete(k) }, key)
	}
	return &Index{res: res, t: t.(*docTables)}
}

// all returns the tables over the whole document, building them on
// first use.
func (x *Index) all() *docTables {
	x.t.once.Do(func() { x.t.build(x.res) })
	return x.t
}

func (x *docTables) build(res *analysis.Result) {
	x.sites = append([]*analysis.Site(nil), res.Sites()...)
	sort.SliceStable(x.sites, func(i, j int) bool { return x.sites[i].Scalar.Rng.Start < x.sites[j].Scalar.Rng.Start })
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
func (x *Index) siteAt(off int) *analysis.Site { return x.res.SiteAt(off) }

// siteOf returns the site of scalar sc, or nil.
func (x *Index) siteOf(sc *schema.Scalar) *analysis.Site { return x.res.SiteOf(sc) }

// refAt returns the reference whose expression contains off, the
// innermost.
func (x *Index) refAt(off int) *analysis.Reference { return x.res.ReferenceAt(off) }

// nameRefAt returns the resource name written as text (dependsOn,
// exclude, link("name")) whose range contains off.
func (x *Index) nameRefAt(off int) *analysis.NameRef { return x.res.NameRefAt(off) }

// callNameAt returns the call whose function name contains off.
func (x *Index) callNameAt(off int) *analysis.Call { return x.res.CallNameAt(off) }

// symbolAt returns the symbol whose name key contains off.
func (x *Index) symbolAt(off int) *analysis.Symbol { return x.res.SymbolAt(off) }

// funcRefAt returns the function passed by name (map(xs, to_upper)) at
// off, from the calls of site's unit.
func funcRefAt(res *analysis.Result, site *analysis.Site, off int) *analysis.Call {
	return res.FuncRefAt(site, off)
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
