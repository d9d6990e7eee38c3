package analysis

import (
	"maps"
	"slices"

	"github.com/blueprint-ls/blueprint-ls/internal/chunked"

	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// The document-wide checks (link selections, cycles, unused names) look at
// every definition, but an edit changes few of them. Each version keeps,
// in Result.wide, what those checks found keyed by symbol index (the
// place in Result.Symbols(), which is the same in two versions that declare
// the same names; AnalyzeIncremental carries nothing over otherwise), so
// that the next version can take the answer over for whatever the dirty
// units (those not carried over) cannot have changed, moving ranges by
// the owning unit's delta, and recompute the rest.

// wideIndex is what one version's document-wide checks leave for the
// next. It is never changed once made: the next version shares its
// slices and maps.
type wideIndex struct {
	// labels finds resources by label key and value, in declaration
	// order; shared between versions whose resources carry the same
	// labels.
	labels map[[2]string][]int
	// linked lists the resources with a selection (their declRecs hold
	// its record), noisy those whose selection made diagnostics, by
	// symbol index in order.
	linked, noisy []int32
	// cycles holds the reference cycle diagnostics.
	cycles []wideDiag
	// uses counts the references naming each symbol.
	uses chunked.Vec[int32]
	// linksCarried and cyclesCarried say whether the selections and the
	// cycles were taken from the previous version, and relinked how many
	// carried-over resources' selections were resolved again (for tests).
	linksCarried, cyclesCarried bool
	relinked                    int
}

// linkRecord is one resource's linkSelector resolved.
type linkRecord struct {
	from     int
	selected []int
	diags    []wideDiag
	// reads are the label pairs the selector asks for.
	reads [][2]string
}

// wideDiag is a document-wide diagnostic reported inside one unit (by
// symbol index), whose related places are the names of definitions
// (related[i] is the symbol whose NameRange Related[i] is).
type wideDiag struct {
	d       source.Diagnostic
	unit    int
	related []int
}

// wideRun is the analyzer's state for the document-wide checks.
type wideRun struct {
	// prev is the previous version's index when units are carried over.
	prev *wideIndex
}

// startWide decides what the previous version's document-wide answers
// can be taken from; it runs before the first document-wide check.
func (a *analyzer) startWide() {
	a.res.wide = &wideIndex{}
	if a.reuse != nil && a.reuse.prev.wide != nil && a.reuse.prev.syms.Len() == a.res.syms.Len() {
		a.wide.prev = a.reuse.prev.wide
	}
}

// carriedAt reports whether the unit with symbol index i is carried over
// (only while carrying over: a.wide.prev is set).
func (a *analyzer) carriedAt(i int) bool { return a.reuse.get(i).ok }

// prevSymbol returns the previous version's symbol at this version's
// index i (only while carrying over).
func (a *analyzer) prevSymbol(i int) *Symbol { return a.reuse.prev.syms.At(i) }

// carriedDiag returns w, made by the previous version, for this one: its
// range moved with its unit, its related places at their definitions'
// names now.
func (a *analyzer) carriedDiag(w wideDiag) wideDiag {
	delta := a.res.syms.At(w.unit).Range.Start - a.prevSymbol(w.unit).Range.Start
	d := w.d
	d.Range = d.Range.Moved(delta)
	if len(d.Related) > 0 {
		rel := make([]source.Related, len(d.Related))
		for i, r := range d.Related {
			if i < len(w.related) {
				r.Range = a.res.syms.At(w.related[i]).NameRange
			} else {
				r.Range = r.Range.Moved(delta)
			}
			rel[i] = r
		}
		d.Related = rel
	}
	w.d = d
	return w
}

// touchedLabels returns the label pairs (key and value) of the dirty
// resources whose labels or type changed, as they were and as they are:
// only a selector reading one of them can select otherwise, or say
// otherwise of the types it selects. Nil when there are none.
func (a *analyzer) touchedLabels() map[[2]string]bool {
	var touched map[[2]string]bool
	for _, i := range a.uncarried() {
		s := a.res.syms.At(i)
		if s.Kind != ResourceSymbol {
			continue
		}
		p := a.prevSymbol(i)
		pt, pok := resourceTypeName(p)
		st, sok := resourceTypeName(s)
		if sameLabels(p.Resource, s.Resource) && pt == st && pok == sok {
			continue
		}
		if touched == nil {
			touched = map[[2]string]bool{}
		}
		for _, r := range []*schema.Resource{p.Resource, s.Resource} {
			for _, e := range labelEntries(r) {
				if e.Key != nil {
					touched[[2]string{e.Key.Value, scalarText(e.Value)}] = true
				}
			}
		}
	}
	return touched
}

// patchLabelIndex returns the previous version's label index (which it
// leaves as it is) with the dirty resources' labels as they are now: the
// lists of the touched pairs are made again, the others shared.
func (a *analyzer) patchLabelIndex(prev map[[2]string][]int, touched map[[2]string]bool) map[[2]string][]int {
	index := maps.Clone(prev)
	var changed []int // the dirty resources whose labels count
	for _, i := range a.uncarried() {
		if a.res.syms.At(i).Kind == ResourceSymbol {
			changed = append(changed, i)
		}
	}
	for k := range touched {
		// The previous list without the dirty resources, then each dirty
		// resource once per entry it has now, in index order.
		l := slices.Clone(prev[k])
		for _, i := range changed {
			at, _ := slices.BinarySearch(l, i)
			end := at
			for end < len(l) && l[end] == i {
				end++
			}
			l = slices.Delete(l, at, end)
		}
		for _, i := range changed {
			for _, e := range labelEntries(a.res.syms.At(i).Resource) {
				if e.Key != nil && e.Key.Value == k[0] && scalarText(e.Value) == k[1] {
					at, _ := slices.BinarySearch(l, i)
					l = slices.Insert(l, at, i)
				}
			}
		}
		if len(l) > 0 {
			index[k] = l
		} else {
			delete(index, k)
		}
	}
	return index
}

// readsTouched reports whether the selector rec records reads one of the
// touched label pairs. An edit touches a few: a scan of them costs less
// than hashing each selector's pairs.
func readsTouched(rec linkRecord, touched map[[2]string]bool) bool {
	if len(touched) == 0 {
		return false
	}
	for _, p := range rec.reads {
		if len(touched) > 8 {
			if touched[p] {
				return true
			}
			continue
		}
		for k := range touched {
			if k == p {
				return true
			}
		}
	}
	return false
}

// labelEntries returns the entries of a resource's labels mapping.
func labelEntries(r *schema.Resource) []*schema.Entry {
	if r == nil || r.Metadata == nil {
		return nil
	}
	if m := r.Metadata.Labels.Mapping(); m != nil {
		return m.Entries
	}
	return nil
}

// sameLabels reports whether two resources carry the same labels in the
// same order (as the label index sees them: entries with a key).
func sameLabels(p, s *schema.Resource) bool {
	pe, se := labelEntries(p), labelEntries(s)
	i, j := 0, 0
	for {
		for i < len(pe) && pe[i].Key == nil {
			i++
		}
		for j < len(se) && se[j].Key == nil {
			j++
		}
		if i == len(pe) || j == len(se) {
			return i == len(pe) && j == len(se)
		}
		if pe[i].Key.Value != se[j].Key.Value || scalarText(pe[i].Value) != scalarText(se[j].Value) {
			return false
		}
		i++
		j++
	}
}

// resourceTypeName returns the type a resource names, if it names one.
func resourceTypeName(s *Symbol) (string, bool) {
	if s.Resource == nil || s.Resource.Type == nil {
		return "", false
	}
	return s.Resource.Type.Text(), true
}

// useCounts counts the references naming each symbol, by symbol index:
// the previous version's counts with the dirty units' references (and
// the document level's) counted again when units are carried over,
// every reference otherwise. They are kept for the next version.
func (a *analyzer) useCounts() chunked.Vec[int32] {
	syms := a.res.syms
	var uses chunked.Vec[int32]
	count := func(u *unitRecs, syms chunked.Vec[*Symbol], add int32) {
		if u == nil {
			return
		}
		for _, r := range u.refs {
			if t := current(syms, r.Target); t != nil {
				uses.Set(t.index, uses.At(t.index)+add)
			}
		}
	}
	defer func() { a.res.wide.uses = uses }()
	if a.wide.prev == nil || a.wide.prev.uses.Len() != syms.Len() {
		uses = chunked.Make[int32](syms.Len())
		for i := range a.recs.Len() {
			count(a.recs.At(i), syms, 1)
		}
		count(a.docRecs, syms, 1)
		return uses
	}
	prev := a.reuse.prev
	uses = a.wide.prev.uses.Edit()
	for _, i := range a.uncarried() {
		count(prev.units.At(i), prev.syms, -1)
		count(a.recs.At(i), syms, 1)
	}
	count(prev.doc, prev.syms, -1)
	count(a.docRecs, syms, 1)
	return uses
}

// checkedRefs returns the references whose own diagnostics this version
// makes: the dirty units' when units are carried over (mergeCarried
// takes the others' from the previous version), every one otherwise.
func (a *analyzer) checkedRefs() [][]*Reference {
	var out [][]*Reference
	if a.wide.prev == nil {
		for i := range a.recs.Len() {
			if u := a.recs.At(i); u != nil {
				out = append(out, u.refs)
			}
		}
		return append(out, a.docRecs.refs)
	}
	for _, i := range a.uncarried() {
		if u := a.recs.At(i); u != nil {
			out = append(out, u.refs)
		}
	}
	return out
}

// uncarried returns, in index order, the units (not data source fields)
// that are not carried over, while units are.
func (a *analyzer) uncarried() []int {
	if a.dirty != nil {
		return a.dirty
	}
	a.dirty = []int{}
	if a.reuse.at != nil {
		for i := range a.res.syms.Len() {
			if a.res.syms.At(i).Kind != DataSourceFieldSymbol && !a.reuse.at[i].ok {
				a.dirty = append(a.dirty, i)
			}
		}
		return a.dirty
	}
	for i, c := range a.reuse.changed {
		if !c.ok && a.res.syms.At(int(i)).Kind != DataSourceFieldSymbol {
			a.dirty = append(a.dirty, int(i))
		}
	}
	slices.Sort(a.dirty)
	return a.dirty
}

// sortedKeys returns m's keys in order.
func sortedKeys(m map[int]bool) []int {
	out := make([]int, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
