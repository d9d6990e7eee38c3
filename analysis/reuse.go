package analysis

import (
	"bytes"
	"context"
	"regexp"
	"slices"
	"sort"

	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/internal/chunked"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/subst"
	"github.com/blueprint-ls/blueprint-ls/types"
)

// AnalyzeIncremental is Analyze for the next version of prev's document:
// the result is the one Analyze gives, but the definitions whose results
// cannot have changed are not checked again. Their types, references,
// calls and own diagnostics are carried over from prev, moved by how far
// the edit moved their text. A definition is carried over when its text
// is unchanged, every definition it depends on (directly or through
// others) is unchanged too, it neither is nor uses an include, and its
// diagnostics name no position outside it. When any namespace's names
// changed (a definition added, removed or renamed), the options differ,
// or either version had syntax errors, everything is checked again.
// Document-wide checks (unused names, cycles, links, data source order)
// run over the carried-over references, or take the previous version's
// answer where the changed definitions cannot have changed it (wide.go).
func AnalyzeIncremental(ctx context.Context, prev *Result, f *schema.File, opts Options) *Result {
	opts.prev = prev
	return Analyze(ctx, f, opts)
}

// carried is a definition whose results come from the previous version.
type carried struct {
	prev  *Symbol
	delta int  // how far its text moved
	ok    bool // it is carried over
	// share: it did not move and its symbol and every symbol its records
	// name are the previous version's own, so its records are shared;
	// early: its records were made again before any site was checked
	// (replayUnits). Either way its unit is settled.
	share, early bool
}

// reuseState is what the analyzer knows of the previous version while
// carrying definitions over.
type reuseState struct {
	prev *Result
	// at holds every unit's carried, by symbol index (this version's and
	// prev's agree). In window mode (window.go) it is nil and changed
	// holds the units that are not carried over as they were (shared,
	// not moved); every other unit is.
	at      []carried
	changed map[int32]carried
	count   int         // how many units are carried over
	moved   subst.Mover // carves the moved templates from slabs
}

// get returns unit i's carried.
func (rs *reuseState) get(i int) carried {
	if rs.at != nil {
		return rs.at[i]
	}
	if c, ok := rs.changed[int32(i)]; ok {
		return c
	}
	p := rs.prev.syms.At(i)
	if p.Kind == DataSourceFieldSymbol {
		return carried{}
	}
	return carried{prev: p, ok: true, share: true}
}

// set records unit i's carried.
func (rs *reuseState) set(i int, c carried) {
	if rs.at != nil {
		rs.at[i] = c
		return
	}
	rs.changed[int32(i)] = c
}

// prevRecs returns the previous version's records of the carried-over
// unit c.
func (rs *reuseState) prevRecs(c carried) *unitRecs {
	if u := rs.prev.units.At(c.prev.index); u != nil {
		return u
	}
	return &unitRecs{}
}

// documentWide are the codes of the checks that look at the whole
// document (unused names, cycles, links, includes, the order data sources
// resolve in, duplicate keys): they run over indexes on every version and
// are never carried over.
var documentWide = map[string]bool{
	codeUnusedVariable.ID: true, codeUnusedValue.ID: true, codeUnusedDataSource.ID: true,
	codeCycle.ID: true, codeDataSourceDependency.ID: true,
	codeLinkNoMatch.ID: true, codeLinkUnsupported.ID: true, codeLinkAnnotation.ID: true,
	codeLinkCardinality.ID: true, codeLinkCapability.ID: true,
	codeIncludeBroken.ID: true, codeIncludeCycle.ID: true, codeIncludeMissing.ID: true,
	codeIncludeMissingVariable.ID: true, codeIncludeNotChecked.ID: true,
	codeIncludeOutside.ID: true, codeIncludeVariableType.ID: true,
	"spec-duplicate-key": true,
}

// positionInMessage matches a line:column a message names ("started at
// 84:52"): such a message is not carried over to a unit that moved lines.
var positionInMessage = regexp.MustCompile(`\b\d+:\d+\b`)

// planReuse decides which definitions are carried over and which of
// those share their records; it runs after declare, before any site is
// collected.
func (a *analyzer) planReuse() {
	prev := a.base
	defer a.freshValues(prev)
	if prev == nil || !a.namesFromPrev {
		return
	}
	syms := a.res.syms
	old, cur := prev.File.Text, a.res.File.Text
	oldMap, curMap := prev.File.Mapper, a.res.File.Mapper
	// dirty units (by symbol index) are checked again; their dependents
	// are too, except those of a resource whose edit stayed inside a spec
	// its registry type fixes or inside its description (what a dependent
	// reads of it, its type, each and metadata, did not change).
	dirty, spread := map[int]bool{}, map[int]bool{}
	var queue []int
	mark := func(i int, spreads bool) {
		dirty[i] = true
		if spreads && !spread[i] {
			spread[i] = true
			queue = append(queue, i)
		}
	}
	// again marks a unit because of what it depends on: with the cutoff
	// (cutoff.go) it does not spread, and what it offers is verified.
	verified := map[int]bool{}
	again := func(i int) {
		switch {
		case a.opts.transitive:
			mark(i, true)
		case spread[i]:
			// its dependents are checked again anyway
		case !verified[i]:
			// Even one whose own edit does not spread (privateEdit):
			// what it offers may follow from what changed.
			mark(i, false)
			verified[i] = true
			a.verify = append(a.verify, i)
		}
	}
	moved := a.moved
	a.visit(func(i int) {
		s, p := syms.At(i), prev.syms.At(i)
		if s.Kind == DataSourceFieldSymbol || s == p {
			return // the same typed view: the same text at the same place
		}
		if len(moved) > 0 && moved[0] == int32(i) {
			moved = moved[1:]
			return // declare compared the texts (movedTwin)
		}
		if s.Kind == ChildSymbol || !bytes.Equal(old.Slice(p.Range.Start, p.Range.End), cur.Slice(s.Range.Start, s.Range.End)) {
			backdate := valueOnlyEdit(p, s, old, cur)
			if backdate {
				if a.backdated == nil {
					a.backdated = map[int]bool{}
				}
				a.backdated[i] = true
			}
			mark(i, !backdate && !a.privateEdit(p, s, old, cur))
		}
	})
	// A unit whose diagnostics name a position moves them with it only
	// when it keeps its lines; one with a related place or an edit
	// outside itself cannot be moved by its own delta.
	for _, d := range prev.own {
		p := prev.unitAt(d.Range)
		if p == nil || documentWide[d.Code] || dirty[p.index] {
			continue
		}
		if !movable(d, p.Range) {
			again(p.index)
		} else if positionInMessage.MatchString(d.Message) && oldMap.Line(p.Range.Start) != curMap.Line(syms.At(p.index).Range.Start) {
			again(p.index)
		}
	}
	// A unit that references a child is checked again (children are
	// never carried over).
	for _, i := range prev.childUsers {
		mark(int(i), true)
	}
	// So is a unit in a reference cycle: the types inferred around a
	// cycle depend on where inference entered it (wide_cycles.go).
	// Its dependents, transitively, are checked again too: where
	// inference enters the cycle counts.
	chain := map[int]bool{}
	for _, i := range prev.cycleUnits() {
		mark(i, true)
		chain[i] = true
	}
	// Dependents of a changed unit may change: the units whose records
	// or names named it, or one of its fields, in the previous version
	// (when a change spreads: an edit inside a spec its type fixes, or
	// inside a description, does not).
	for len(queue) > 0 {
		i := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		spreadTo := func(u int) {
			if chain[i] {
				chain[u] = true
				mark(u, true)
				return
			}
			again(u)
		}
		for _, u := range prev.users.of(i) {
			spreadTo(int(u))
		}
		if syms.At(i).Kind == DataSourceSymbol {
			for f := i - 1; f >= 0 && syms.At(f).Kind == DataSourceFieldSymbol && syms.At(f).Parent == syms.At(i); f-- {
				for _, u := range prev.users.of(f) {
					spreadTo(int(u))
				}
			}
		}
	}
	rs := &reuseState{prev: prev}
	carry := func(i int) {
		p := prev.syms.At(i)
		rs.set(i, carried{prev: p, delta: syms.At(i).Range.Start - p.Range.Start, ok: true, share: syms.At(i) == p})
	}
	if a.window != nil {
		rs.changed = make(map[int32]carried, len(a.window)+len(dirty))
		for i := range dirty {
			rs.set(i, carried{})
		}
		for _, i := range a.window {
			if !dirty[int(i)] {
				carry(int(i))
			}
		}
		rs.count = len(a.order) - len(dirty)
	} else {
		rs.at = make([]carried, syms.Len())
		for i := range syms.Len() {
			if syms.At(i).Kind != DataSourceFieldSymbol && !dirty[i] {
				carry(i)
				rs.count++
			}
		}
	}
	if rs.count == 0 {
		return
	}
	a.reuse = rs
	a.planSharing()
	for unit, names := range prev.suggestedBy {
		s := a.lookup(unit.Kind, unit.Name)
		if s == nil || !rs.get(s.index).ok {
			continue
		}
		for _, name := range names {
			if t := a.lookup(name.Kind, name.Name); t != nil {
				a.suggested[t] = true
			}
		}
		a.suggestedBy[unit] = names
	}
}

// planSharing decides which carried-over units share their records with
// the previous version: those whose symbol is the previous version's own
// (it did not move) and whose records name only symbols that are too, or
// the predecessors of backdated values (a value edited only inside its
// value field offers what it offered before: the records naming its
// predecessor stand for it, read through current). A
// value's symbol is written while its unit is checked, so one taken from
// the previous version that does not share is made anew (freshValue),
// and what names it stops sharing in turn. The units that name a symbol
// made anew are the previous version's users of its index.
func (a *analyzer) planSharing() {
	rs, prev, syms := a.reuse, a.reuse.prev, a.res.syms
	var queue []int // symbols made anew, whose users stop sharing
	a.visit(func(i int) {
		if syms.At(i) != prev.syms.At(i) && !a.backdated[i] {
			queue = append(queue, i)
		}
	})
	values := a.blocks[ValueSymbol]
	for i := values.lo; i < values.hi; i++ {
		if syms.At(i) == prev.syms.At(i) && !rs.get(i).share {
			a.freshValue(i)
			queue = append(queue, i)
		}
	}
	for len(queue) > 0 {
		t := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		for _, u := range prev.users.of(t) {
			c := rs.get(int(u))
			if !c.share {
				continue
			}
			c.share = false
			rs.set(int(u), c)
			if syms.At(int(u)).Kind == ValueSymbol && syms.At(int(u)) == prev.syms.At(int(u)) {
				a.freshValue(int(u))
				queue = append(queue, int(u))
			}
		}
	}
}

// freshValues makes anew each value symbol declare took from prev
// (used when nothing is carried over: checking a value writes its type).
func (a *analyzer) freshValues(prev *Result) {
	if prev == nil || a.reuse != nil {
		return
	}
	values := a.blocks[ValueSymbol]
	for i := values.lo; i < values.hi && i < prev.syms.Len(); i++ {
		if a.res.syms.At(i) == prev.syms.At(i) {
			a.freshValue(i)
		}
	}
}

// freshValue makes value symbol i anew.
func (a *analyzer) freshValue(i int) {
	fresh := a.newValueSymbol(a.res.syms.At(i).Value)
	fresh.index = i
	a.res.syms.Set(i, fresh)
}

// unitAt returns the unit whose text holds rng, or nil.
func (r *Result) unitAt(rng source.Range) *Symbol {
	order, syms := r.order, r.syms
	k := sort.Search(len(order), func(k int) bool { return syms.At(int(order[k])).Range.Start > rng.Start }) - 1
	if k < 0 {
		return nil
	}
	u := syms.At(int(order[k]))
	if u.Range.ContainsRange(rng) {
		return u
	}
	// A check of the unit's text may end past it, across white space
	// only: "found end of input" at the end of a block scalar's last line
	// break, the line after the unit, or a template's error that runs to
	// the end of the block scalar holding it. It is the unit's all the
	// same (otherwise carrying the unit over would drop it).
	if rng.End > u.Range.End && rng.End >= rng.Start && rng.End <= r.File.Text.Len() &&
		len(bytes.TrimLeft(r.File.Text.Slice(u.Range.End, rng.End), " \t\r\n")) == 0 {
		return u
	}
	return nil
}

// privateEdit reports whether resource s differs from its previous
// version p only where its dependents read nothing: inside its spec when
// its type is one the registry knows (its spec type is then the
// registry's whatever the spec says), or inside a description that names
// no definition (descriptionOnlyEdit).
func (a *analyzer) privateEdit(p, s *Symbol, old, cur source.Text) bool {
	if s.Kind != ResourceSymbol || p.Resource == nil || s.Resource == nil {
		return false
	}
	if descriptionOnlyEdit(p, s, old, cur) {
		return true
	}
	if rt := a.resourceType(s); rt == nil || rt.Err != nil {
		return false
	}
	return onlyInside(p, s, p.Resource.Spec.Node(), s.Resource.Spec.Node(), old, cur)
}

// descriptionOnlyEdit reports whether resource s differs from its
// previous version p only inside its description, and neither version of
// it names a definition. No reference reads a resource's description (a
// resource offers its spec, state and metadata: resourceObjectType), and
// a description that names no definition makes or breaks no edge, so no
// reference cycle: what the resource's dependents read is what they read
// before. Typing in a description is then checked like typing in a spec.
func descriptionOnlyEdit(p, s *Symbol, old, cur source.Text) bool {
	pd, sd := p.Resource.Description.Node(), s.Resource.Description.Node()
	if !onlyInside(p, s, pd, sd, old, cur) {
		return false
	}
	pr, sr := pd.Range(), sd.Range()
	return !namesDefinitions(old.Slice(pr.Start, pr.End)) && !namesDefinitions(cur.Slice(sr.Start, sr.End))
}

// onlyInside reports whether definition s's text (cur) differs from its
// previous version p's (old) only inside pn and sn, the two versions of
// one of its nodes (and in the padding of its first line).
func onlyInside(p, s *Symbol, pn, sn schema.Node, old, cur source.Text) bool {
	if pn == nil || sn == nil {
		return false
	}
	pr, sr := pn.Range(), sn.Range()
	return sameButPadding(old.Slice(p.Range.Start, pr.Start), cur.Slice(s.Range.Start, sr.Start)) &&
		bytes.Equal(old.Slice(pr.End, p.Range.End), cur.Slice(sr.End, s.Range.End))
}

// valueOnlyEdit reports whether value s differs from its previous version
// p only inside its value field, and its declared type is a scalar one:
// what its dependents read of it (its kind, name, type and secrecy: the
// reuse key, unitkey_test.go) is then the same whatever the value's
// expression says, so a recomputed value backdates, as salsa would say,
// and its dependents are not checked again. A general declared type
// (array, object) takes the value's inferred type (valueType), and an
// unknown one its site's: those spread.
func valueOnlyEdit(p, s *Symbol, old, cur source.Text) bool {
	if s.Kind != ValueSymbol || p.Value == nil || s.Value == nil || p.Value.Value == nil || s.Value.Value == nil {
		return false
	}
	switch declaredType(s.Value.Type) {
	case types.String, types.Integer, types.Float, types.Boolean:
	default:
		return false
	}
	pv, sv := p.Value.Value.Node(), s.Value.Value.Node()
	if !onlyInside(p, s, pv, sv, old, cur) {
		return false
	}
	pr, sr := pv.Range(), sv.Range()
	return !namesDefinitions(old.Slice(pr.Start, pr.End)) && !namesDefinitions(cur.Slice(sr.Start, sr.End))
}

// namesDefinitions reports whether text may reference a definition that
// can reference back (a value, data source, resource or child, by a
// reference or through link()): a value whose text does either way may
// make or break a reference cycle, and a value in a cycle reads as
// unknown to its dependents. The test is on the words alone, so it errs
// towards spreading.
func namesDefinitions(text []byte) bool {
	if bytes.Contains(text, []byte("link")) {
		return true
	}
	for _, s := range [...]dialect.Section{dialect.Values, dialect.DataSources, dialect.Resources, dialect.Include} {
		if bytes.Contains(text, []byte(s.Namespace())) {
			return true
		}
	}
	return false
}

// sameButPadding reports whether a and b, the text of a definition from
// its key on (in the blueprint language, from its statement's keyword),
// are the same but for spaces at the end of that first line, where the
// language server's parse keeps padding (lsp/padding.go). Spaces before a line
// break mean nothing there: a YAML key's line is never inside a block
// scalar, and a statement's first line never inside a string (a """
// string's opener ends its line, and the spaces after it are not its
// text).
func sameButPadding(a, b []byte) bool {
	ea, _ := source.LineEnd(a, 0)
	eb, _ := source.LineEnd(b, 0)
	return bytes.Equal(bytes.TrimRight(a[:ea], " "), bytes.TrimRight(b[:eb], " ")) && bytes.Equal(a[ea:], b[eb:])
}

// sameNames reports whether two versions declare the same names in the
// same order (in window mode only the window's can differ).
func (a *analyzer) sameNames(x, y chunked.Vec[*Symbol]) bool {
	if x.Len() != y.Len() {
		return false
	}
	same := true
	a.visit(func(i int) {
		p, s := x.At(i), y.At(i)
		if p.Kind != s.Kind || p.Name != s.Name || (p.Parent == nil) != (s.Parent == nil) {
			same = false
		}
	})
	return same
}

// movable reports whether every place d names is inside unit.
func movable(d source.Diagnostic, unit source.Range) bool {
	for _, r := range d.Related {
		if r.URI != "" || !unit.ContainsRange(r.Range) {
			return false
		}
	}
	for _, s := range d.Suggestions {
		for _, e := range s.Edits {
			if !unit.ContainsRange(e.Range) {
				return false
			}
		}
	}
	return true
}

// carriedOver returns the previous version's definition s is carried
// over from, if it is.
func (a *analyzer) carriedOver(s *Symbol) (carried, bool) {
	if a.reuse == nil || s == nil || s.index >= a.res.syms.Len() || a.res.syms.At(s.index) != s {
		return carried{}, false
	}
	c := a.reuse.get(s.index)
	return c, c.ok
}

// sharedSites adds the sites of owner, a value, data source or resource
// whose entry is entry, without walking its tree, when it is carried
// over. When entry is the previous version's node itself (the splice
// shares every node before the edit, and nodes never change) the walk
// would find the previous version's scalars; otherwise entry holds the
// same text (a copy moved by the edit), which parses to the same tree
// moved by the unit's delta, and each of the previous version's sites is
// found as its scalar's twin in the copy (twinScalars), at its moved
// range. Either way the sites come in the walk's order. False means walk:
// a scalar was not where it should be.
func (a *analyzer) sharedSites(owner *Symbol, entry *schema.Entry) bool {
	c, ok := a.carriedOver(owner)
	if !ok || entry == nil {
		return false
	}
	prev, pe := a.reuse.prevRecs(c).sites, defEntry(c.prev)
	if c.delta == 0 && pe == entry {
		for _, ps := range prev {
			if ps.Template == nil || len(ps.Template.Diagnostics()) > 0 {
				a.scalarSite(ps.Scalar, ps.Kind, owner) // parsed again (carriedTemplate)
				continue
			}
			// What scalarSite would do, without looking the unit up
			// again: the same node shares its template.
			site := a.siteBlock.one()
			*site = Site{Kind: ps.Kind, Scalar: ps.Scalar, Template: ps.Template, Owner: owner}
			a.addSite(site)
		}
		return true
	}
	if entry.Value == nil || pe == nil || pe.Value == nil {
		return false
	}
	found := slices.Grow(a.found[:0], len(prev))[:len(prev)]
	clear(found)
	a.found = found
	if !twinScalars(pe.Value, entry.Value, prev, found) {
		return false
	}
	for i, ps := range prev {
		if sc := found[i]; sc == nil || !sc.IsString() || sc.Value != ps.Scalar.Value || sc.Rng != ps.Scalar.Rng.Moved(c.delta) {
			return false
		}
	}
	for i, ps := range prev {
		a.scalarSite(found[i], ps.Kind, owner)
	}
	return true
}

// twinScalars walks old, a value of the previous version, and cur, its
// moved copy, side by side (the same shape), and sets found[i] to the
// twin of sites[i]'s scalar; false when the shapes differ. Sites are few
// per unit and listed by kind, not in the walk's order.
func twinScalars(old, cur schema.Node, sites []*Site, found []*schema.Scalar) bool {
	t := twinWalk{sites: sites, found: found, left: len(sites)}
	return t.walk(old, cur) && t.left == 0
}

type twinWalk struct {
	sites []*Site
	found []*schema.Scalar
	left  int
}

func (t *twinWalk) walk(o, c schema.Node) bool {
	if t.left == 0 {
		return true
	}
	switch o := o.(type) {
	case *schema.Scalar:
		cs, ok := c.(*schema.Scalar)
		if !ok {
			return false
		}
		for i, s := range t.sites {
			if s.Scalar == o && t.found[i] == nil {
				t.found[i] = cs
				t.left--
				break
			}
		}
	case *schema.Mapping:
		cm, ok := c.(*schema.Mapping)
		if !ok || len(cm.Entries) != len(o.Entries) {
			return false
		}
		for k, e := range o.Entries {
			ce := cm.Entries[k]
			if (e.Value == nil) != (ce.Value == nil) || (e.Value != nil && !t.walk(e.Value, ce.Value)) {
				return false
			}
		}
	case *schema.Sequence:
		cq, ok := c.(*schema.Sequence)
		if !ok || len(cq.Items) != len(o.Items) {
			return false
		}
		for k, it := range o.Items {
			if !t.walk(it, cq.Items[k]) {
				return false
			}
		}
	}
	return true
}

// defEntry returns the entry that declares s (nil for a kind sharedSites
// does not take).
func defEntry(s *Symbol) *schema.Entry {
	switch {
	case s.Kind == ValueSymbol && s.Value != nil:
		return s.Value.Entry
	case s.Kind == DataSourceSymbol && s.DataSource != nil:
		return s.DataSource.Entry
	case s.Kind == ResourceSymbol && s.Resource != nil:
		return s.Resource.Entry
	}
	return nil
}

// carriedTemplate returns the template of sc, the next site of owner,
// moved from the previous version when owner is carried over: the same
// text parses to the same template (one with syntax errors is parsed
// again, since its messages may name positions). nil means parse it.
func (a *analyzer) carriedTemplate(owner *Symbol, sc *schema.Scalar) *subst.Template {
	c, ok := a.carriedOver(owner)
	if !ok {
		return nil
	}
	sites := a.reuse.prevRecs(c).sites
	k := len(a.recsOf(owner).sites)
	if k >= len(sites) || sites[k].Template == nil || sites[k].Scalar.Value != sc.Value || len(sites[k].Template.Diagnostics()) > 0 {
		return nil // a template's own messages may name positions: parse it
	}
	if c.delta == 0 && sites[k].Scalar == sc {
		return sites[k].Template // the same node (before the edit): share it
	}
	return a.reuse.moved.Move(sites[k].Template, c.delta, sc.OffsetMap())
}

// replayUnits gives every carried-over unit that does not share its
// records (it moved, or names a symbol made anew) the previous version's
// records, made again: each site its previous twin's type and expression
// types, and each reference, call, link name and edge moved by the unit's
// delta and pointing at this version's expressions and symbols. It runs
// once the sites are collected; their units are settled (checkSite passes
// them by).
func (a *analyzer) replayUnits() {
	if a.reuse == nil {
		return
	}
	for _, i := range a.made {
		if c := a.reuse.get(int(i)); c.ok && !c.share {
			a.replayUnit(int(i), c)
			c.early = true
			a.reuse.set(int(i), c)
		}
	}
}

func (a *analyzer) replayUnit(i int, c carried) {
	pu := a.reuse.prevRecs(c)
	u := a.recs.At(i)
	if u == nil {
		u = &unitRecs{}
		a.recs.Set(i, u)
	}
	if len(u.sites) != len(pu.sites) {
		panic("carried-over unit lost a site") // caught by Analyze
	}
	owner, d := a.res.syms.At(i), c.delta
	u.refs = make([]*Reference, 0, len(pu.refs))
	u.calls = make([]*Call, 0, len(pu.calls))
	u.names = make([]*NameRef, 0, len(pu.names))
	u.edges = make([]*Edge, 0, len(pu.edges))
	u.edgeSite = make([]int32, 0, len(pu.edges))
	var ri, ci, ni, ei int // cursors into pu's lists, grouped by ordinal
	for k, s := range u.sites {
		ps := pu.sites[k]
		s.Type, s.ExprTypes = ps.Type, ps.ExprTypes
		ord := int32(k)
		rEnd, cEnd := ri, ci
		for rEnd < len(pu.refs) && ordinal(pu.refs[rEnd].Site) == ord {
			rEnd++
		}
		for cEnd < len(pu.calls) && ordinal(pu.calls[cEnd].Site) == ord {
			cEnd++
		}
		refs, calls := pu.refs[ri:rEnd], pu.calls[ci:cEnd]
		ri, ci = rEnd, cEnd
		a.exprMap(ps.Template, s.Template, len(refs)+len(calls) > 0)
		made := len(u.refs)
		for _, r := range refs {
			ref := a.refBlock.one()
			*ref = Reference{Site: s, FieldName: r.FieldName, Type: r.Type}
			ref.Expr, _ = a.twin(r.Expr).(*subst.Ref)
			ref.Target = a.same(r.Target)
			ref.Field = a.same(r.Field)
			if r.FieldRange != (source.Range{}) {
				ref.FieldRange = r.FieldRange.Moved(d)
			}
			u.refs = append(u.refs, ref)
		}
		for _, pc := range calls {
			call := a.callBlock.one()
			*call = Call{Site: s, Func: pc.Func, Type: pc.Type}
			if pc.Expr != nil {
				call.Expr, _ = a.twin(pc.Expr).(*subst.Call)
			}
			if pc.Ref != nil {
				call.Ref, _ = a.twin(pc.Ref).(*subst.Ref)
			}
			u.calls = append(u.calls, call)
		}
		for ; ni < len(pu.names) && ordinal(pu.names[ni].Site) == ord; ni++ {
			n := pu.names[ni]
			u.names = append(u.names, &NameRef{Range: n.Range.Moved(d), Target: a.same(n.Target), Kind: n.Kind, Site: s})
		}
		for ; ei < len(pu.edges) && pu.edgeSite[ei] == ord; ei++ {
			e, edge := pu.edges[ei], a.edgeBlock.one()
			if e.Kind == EdgeReference && e.Ref != nil {
				// the edge of the reference at the same place among the site's
				for j, r := range refs {
					if r == e.Ref {
						ref := u.refs[made+j]
						*edge = Edge{From: owner, To: ref.Target, Ref: ref, Range: ref.Expr.Rng, Kind: EdgeReference}
					}
				}
			} else {
				*edge = Edge{From: owner, To: a.same(e.To), Range: e.Range.Moved(d), Kind: e.Kind}
			}
			u.edges = append(u.edges, edge)
			u.edgeSite = append(u.edgeSite, ord)
		}
	}
}

// exprMap readies twin to map the expressions of old, a template of the
// previous version, to those of cur, the same text parsed or moved: the
// same text gives the same expressions in the same order, so an
// expression's ordinal names it in both (need false: nothing will be
// asked).
func (a *analyzer) exprMap(old, cur *subst.Template, need bool) {
	a.oldExprs, a.newExprs, a.sameTemplate = a.oldExprs[:0], a.newExprs[:0], old == cur
	if old == cur || !need || old == nil || cur == nil {
		return
	}
	subst.WalkTemplate(old, func(e subst.Expr) bool { a.oldExprs = append(a.oldExprs, e); return true })
	subst.WalkTemplate(cur, func(e subst.Expr) bool { a.newExprs = append(a.newExprs, e); return true })
}

// twin returns the expression of the current template that is e's twin
// (see exprMap), or nil.
func (a *analyzer) twin(e subst.Expr) subst.Expr {
	if a.sameTemplate {
		return e // a shared template: the same expressions
	}
	for i, o := range a.oldExprs {
		if o == e && i < len(a.newExprs) {
			return a.newExprs[i]
		}
	}
	return nil
}

// refineCarriedValues infers the type of every value something
// references, as checking the references would have: a value referenced
// only from carried-over sites is otherwise never asked. A unit that
// shares its records names only shared symbols, whose types are final:
// only the units this version made records for are asked.
func (a *analyzer) refineCarriedValues() {
	if a.reuse == nil {
		return
	}
	for _, i := range a.made {
		if u := a.recs.At(int(i)); u != nil {
			for _, r := range u.refs {
				if t := current(a.res.syms, r.Target); t != nil && t.Kind == ValueSymbol {
					a.valueType(t)
				}
			}
		}
	}
}

// same returns this version's symbol for one of the previous version's
// (they are at the same place in Symbols).
func (a *analyzer) same(p *Symbol) *Symbol {
	if p == nil || p.index >= a.res.syms.Len() {
		return nil
	}
	return a.res.syms.At(p.index)
}

// mergeCarried replaces the diagnostics of carried-over units with the
// previous version's, moved; document-wide ones are this version's.
func (a *analyzer) mergeCarried() {
	if a.reuse == nil {
		return
	}
	kept := a.diags[:0]
	for _, d := range a.diags {
		if documentWide[d.Code] {
			kept = append(kept, d)
			continue
		}
		if u := a.res.unitAt(d.Range); u == nil || !a.reuse.get(u.index).ok {
			kept = append(kept, d)
		}
	}
	a.diags = kept
	prev := a.reuse.prev
	for _, d := range prev.own {
		if documentWide[d.Code] {
			continue
		}
		p := prev.unitAt(d.Range)
		if p == nil {
			continue
		}
		if c := a.reuse.get(p.index); c.ok {
			a.diags = append(a.diags, d.Moved(c.delta))
		}
	}
}
