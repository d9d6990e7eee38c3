package analysis

import (
	"bytes"
	"slices"
	"sort"

	"github.com/blueprint-ls/blueprint-ls/internal/chunked"
	"github.com/blueprint-ls/blueprint-ls/internal/slab"
	"github.com/blueprint-ls/blueprint-ls/providers/registry"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/types"
)

// unitRecs are the records of one unit: its sites in ordinal order and
// what checking them made, grouped by site ordinal (edgeSite holds the
// ordinal of each edge's site). A Result's flat lists (Sites, References,
// Calls, NameRefs, Edges) are its units' lists joined in symbol order,
// the document level's last, before the document-wide checks add theirs.
//
// A unit carried over from the previous version without moving, whose
// symbol and every symbol its records name are the previous version's
// own (or predecessors of backdated values, read through current),
// shares the previous version's unitRecs: nothing of it is made
// again (see share). Records are never changed once their version is
// returned.
type unitRecs struct {
	sites    []*Site
	refs     []*Reference
	calls    []*Call
	names    []*NameRef // link("name") arguments
	edges    []*Edge    // its references' and link() names' edges
	edgeSite []int32
	// targets are the symbols the records name, each once (planSharing
	// asks them whether the next version may share the records).
	targets []*Symbol
}

// clip caps u's lists of records at their lengths, an empty one nil as
// if never reserved: appending to the records of a unit a later version
// shares then copies them rather than write into the room
// reserveRecords left.
func (u *unitRecs) clip() {
	u.refs = clipped(u.refs)
	u.edges = clipped(u.edges)
	u.edgeSite = clipped(u.edgeSite)
}

func clipped[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return slices.Clip(s)
}

// noteTargets lists the symbols u's records name, each once, in an
// array of their number carved from runs: found on the stack first
// rather than grown append by append (issue 36: 17,000 allocations in a
// whole analysis of 5,000 resources).
func (u *unitRecs) noteTargets(runs *slab.Of[*Symbol]) {
	var buf [16]*Symbol
	found := buf[:0]
	note := func(t *Symbol) {
		if t != nil && !slices.Contains(found, t) {
			found = append(found, t)
		}
	}
	for _, r := range u.refs {
		note(r.Target)
		note(r.Field)
	}
	for _, n := range u.names {
		note(n.Target)
	}
	for _, e := range u.edges {
		note(e.To)
	}
	u.targets = nil
	if len(found) > 0 {
		u.targets = append(runs.Many(len(found)), found...)
	}
}

// def returns the definition s was declared from.
func (s *Symbol) def() *schema.Def {
	var d *schema.Def
	switch s.Kind {
	case VariableSymbol:
		d = &s.Variable.Def
	case ValueSymbol:
		d = &s.Value.Def
	case DataSourceSymbol:
		d = &s.DataSource.Def
	case DataSourceFieldSymbol:
		d = &s.Field.Def
	case ResourceSymbol:
		d = &s.Resource.Def
	case ChildSymbol:
		d = &s.Include.Def
	case ExportSymbol:
		d = &s.Export.Def
	default:
		d = &schema.Def{}
	}
	return d
}

// reusable returns the previous version's result when this version may
// take things over from it: it was complete and made with the same
// options, and neither version had syntax errors or includes (children
// are never carried over).
func (a *analyzer) reusable() *Result {
	prev := a.opts.prev
	if prev == nil || !prev.complete || prev.Blueprint == nil || prev.Repaired != nil || prev.File == nil ||
		prev.reg != a.reg || prev.funcs != a.opts.Funcs || prev.Path != a.opts.Path || len(prev.Children) > 0 ||
		prev.order == nil || prev.users == nil || a.bp.Include.Len() > 0 {
		return nil
	}
	return prev
}

// indexNames indexes the symbols by kind and name. When they declare
// prev's names in prev's order (prev has none twice), prev's index is
// this version's too. Otherwise a name declared twice keeps its first
// symbol (schema reports the duplicate key) and the later ones are
// dropped, except data source fields (reached through their data
// source); false when that would drop or move a symbol taken from prev.
func (a *analyzer) indexNames(prev *Result) bool {
	syms := a.res.syms
	if prev != nil && a.sameNames(prev.syms, syms) {
		a.res.nameIndex, a.namesFromPrev, a.uniqueNames = prev.nameIndex, true, true
		return true
	}
	index := map[SymbolKind]map[string]int32{}
	kept := make([]*Symbol, 0, syms.Len())
	rtypes := make([]*registry.ResourceType, 0, syms.Len())
	for i := range syms.Len() {
		s := syms.At(i)
		if s.Kind != DataSourceFieldSymbol {
			m := index[s.Kind]
			if m == nil {
				// At the size of the kind's block: grown one name at a
				// time, 5,000 resources' names were rehashed a dozen times.
				m = make(map[string]int32, a.blocks[s.Kind].hi-a.blocks[s.Kind].lo)
				index[s.Kind] = m
			}
			if _, dup := m[s.Name]; dup {
				if prev != nil {
					return false
				}
				continue
			}
			m[s.Name] = int32(len(kept))
		}
		if prev != nil && s.index != len(kept) {
			return false
		}
		if s.index != len(kept) {
			s.index = len(kept)
		}
		kept = append(kept, s)
		rtypes = append(rtypes, a.rtypes.At(i))
	}
	if len(kept) != syms.Len() {
		a.res.syms, a.rtypes = chunked.Make[*Symbol](len(kept)), chunked.Make[*registry.ResourceType](len(kept))
		for i, s := range kept {
			a.res.syms.Set(i, s)
			a.rtypes.Set(i, rtypes[i])
		}
	}
	a.res.nameIndex = index
	a.uniqueNames = len(kept) == syms.Len() // none dropped
	return true
}

// movedTwin returns prev's symbol at the next place when it is of kind,
// named name, and its text is the text at full in this version (an
// edit before it moved it), or nil.
func (a *analyzer) movedTwin(prev *Result, kind SymbolKind, name string, full source.Range) *Symbol {
	i := a.nsym
	if prev == nil || i >= prev.syms.Len() {
		return nil
	}
	p := prev.syms.At(i)
	if p.Kind != kind || p.Name != name || p.Range.Len() != full.Len() || p.Range.Start == full.Start {
		return nil
	}
	if !bytes.Equal(prev.File.Content()[p.Range.Start:p.Range.End], a.res.File.Content()[full.Start:full.End]) {
		return nil
	}
	return p
}

// owner returns the symbol of the k-th definition of kind (values,
// resources and exports are declared one after another), named name.
func (a *analyzer) owner(kind SymbolKind, k int, name string) *Symbol {
	if a.uniqueNames && a.firstOf[kind] > 0 {
		if i := a.firstOf[kind] - 1 + k; i < a.res.syms.Len() {
			if s := a.res.syms.At(i); s.Kind == kind && s.Name == name {
				return s
			}
		}
	}
	return a.lookup(kind, name)
}

// resourceType returns the registry entry of resource s (nil: unknown).
func (a *analyzer) resourceType(s *Symbol) *registry.ResourceType {
	if s == nil || s.Kind != ResourceSymbol || s.index >= a.res.syms.Len() || a.res.syms.At(s.index) != s {
		return nil
	}
	return a.rtypes.At(s.index)
}

// settled reports whether s belongs to a unit whose records are complete
// before any site is checked: shared, or made again from the previous
// version's (replayUnits).
func (a *analyzer) settled(s *Site) bool {
	if s.Owner == nil || a.reuse == nil {
		return false
	}
	c := a.reuse.get(s.Owner.index)
	return c.share || c.early
}

// recsOf returns the records of the unit that owner is (nil: the
// document level), made from a block when new (a whole analysis makes
// one per definition).
func (a *analyzer) recsOf(owner *Symbol) *unitRecs {
	if owner == nil {
		return a.docRecs
	}
	r := a.recs.At(owner.index)
	if r == nil {
		r = a.unitBlock.one()
		a.recs.Set(owner.index, r)
	}
	return r
}

// ordinal returns the ordinal of s, or -1 for none.
func ordinal(s *Site) int32 {
	if s == nil {
		return -1
	}
	return int32(s.Ordinal)
}

// addRef, addCall, addName and addEdge record what checking site s made.
func (a *analyzer) addRef(s *Site, r *Reference) {
	u := a.recsOf(ownerOf(s))
	u.refs = append(u.refs, r)
}

func (a *analyzer) addCall(s *Site, c *Call) {
	u := a.recsOf(ownerOf(s))
	u.calls = append(u.calls, c)
}

func (a *analyzer) addName(s *Site, n *NameRef) {
	u := a.recsOf(ownerOf(s))
	u.names = append(u.names, n)
}

func (a *analyzer) addEdge(s *Site, e *Edge) {
	u := a.recsOf(ownerOf(s))
	u.edges = append(u.edges, e)
	u.edgeSite = append(u.edgeSite, ordinal(s))
}

func ownerOf(s *Site) *Symbol {
	if s == nil {
		return nil
	}
	return s.Owner
}

// assemble readies the records this version made for the flat lists
// (lists.go): each made unit's are grouped by site ordinal, whatever
// order its sites were checked in, and its targets noted. The units
// carried over keep the previous version's, which are ready.
func (a *analyzer) assemble() {
	ready := func(u *unitRecs, sorted bool) {
		if u == nil {
			return
		}
		u.clip()
		if !sorted {
			u.sortBySite()
		}
		u.noteTargets(&a.targetRuns)
	}
	if a.reuse == nil {
		for i := range a.recs.Len() {
			ready(a.recs.At(i), false)
		}
	} else {
		for _, i := range a.made {
			ready(a.recs.At(int(i)), a.reuse.get(int(i)).early)
		}
	}
	ready(a.docRecs, false)
}

// sortBySite orders the records by their site's ordinal, keeping the
// order within a site (a site checked from another's inference made its
// records before those of the sites ahead of it).
func (u *unitRecs) sortBySite() {
	stableBySite(u.refs, func(r *Reference) int32 { return ordinal(r.Site) })
	stableBySite(u.calls, func(c *Call) int32 { return ordinal(c.Site) })
	stableBySite(u.names, func(n *NameRef) int32 { return ordinal(n.Site) })
	if !slices.IsSorted(u.edgeSite) {
		type edgeAt struct {
			edge *Edge
			site int32
		}
		pairs := make([]edgeAt, len(u.edges))
		for i, e := range u.edges {
			pairs[i] = edgeAt{e, u.edgeSite[i]}
		}
		stableBySite(pairs, func(p edgeAt) int32 { return p.site })
		u.edges, u.edgeSite = make([]*Edge, len(pairs)), make([]int32, len(pairs))
		for i, p := range pairs {
			u.edges[i], u.edgeSite[i] = p.edge, p.site
		}
	}
}

// stableBySite sorts items by their site's ordinal, stably, unless they
// are in order already (the common case).
func stableBySite[T any](items []T, site func(T) int32) {
	cmp := func(x, y T) int { return int(site(x) - site(y)) }
	if !slices.IsSortedFunc(items, cmp) {
		slices.SortStableFunc(items, cmp)
	}
}

// siteOf returns the site of scalar sc, or nil.
func (a *analyzer) siteOf(sc *schema.Scalar) *Site {
	if a.sitesByScalar != nil {
		return a.sitesByScalar[sc]
	}
	// Carrying units over: find the unit whose text holds sc, then the
	// site among its own (the document level's when none holds it).
	sites := a.docRecs.sites
	if u := a.res.unitAt(sc.Rng); u != nil {
		sites = nil
		if r := a.recs.At(u.index); r != nil {
			sites = r.sites
		}
	}
	for _, s := range sites {
		if s.Scalar == sc {
			return s
		}
	}
	return nil
}

// typeSoFar is site s's type if it has been checked, else nil: a settled
// site holds its type from the start, but a full analysis would not have
// reached it before the check passes its unit.
func (a *analyzer) typeSoFar(s *Site) types.Type {
	if a.settled(s) && s.Owner.index >= a.cursor && !a.touched[s] {
		return nil
	}
	return s.Type
}

// startsAsBefore reports whether every unit declare looked at (in
// window mode) starts where its previous version did.
func (a *analyzer) startsAsBefore(prev *Result) bool {
	for _, i := range a.window {
		if a.res.syms.At(int(i)).Range.Start != prev.syms.At(int(i)).Range.Start {
			return false
		}
	}
	return true
}

// unitOrder returns the units' symbol indexes sorted by where they start:
// prev's when the symbols are prev's names in prev's order (an edit inside
// one unit moves the ones after it together).
func (a *analyzer) unitOrder(prev *Result) []int32 {
	syms := a.res.syms
	if prev != nil && a.namesFromPrev && prev.order != nil {
		if a.window != nil && a.startsAsBefore(prev) {
			return prev.order // every other unit is prev's own
		}
		sorted := true
		for k := 1; k < len(prev.order) && sorted; k++ {
			sorted = syms.At(int(prev.order[k-1])).Range.Start < syms.At(int(prev.order[k])).Range.Start
		}
		if sorted {
			return prev.order
		}
	}
	var order []int32
	for i := range syms.Len() {
		if syms.At(i).Kind != DataSourceFieldSymbol {
			order = append(order, int32(i))
		}
	}
	sort.SliceStable(order, func(i, j int) bool { return syms.At(int(order[i])).Range.Start < syms.At(int(order[j])).Range.Start })
	return order
}
