package analysis

import (
	"maps"
	"slices"

	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// The document-wide checks (link selections, cycles, unused names) look at
// every definition, but an edit changes few of them. Each version keeps,
// in Result.wide, what those checks found keyed by symbol index (the
// place in Result.Symbols, which is the same in two versions that declare
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
	// links holds each resource's link selection (in declaration order)
	// and the diagnostics it made; selected counts their selections.
	links    []linkRecord
	selected int
	// cycles holds the reference cycle diagnostics.
	cycles []wideDiag
	// uses counts the references naming each symbol.
	uses []int32
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
	// links is the link selections' memory (see block).
	links block[LinkSelection]
}

// startWide decides what the previous version's document-wide answers
// can be taken from; it runs before the first document-wide check.
func (a *analyzer) startWide() {
	a.res.wide = &wideIndex{}
	if a.reuse != nil && a.reuse.prev.wide != nil && len(a.reuse.prev.Symbols) == len(a.res.Symbols) {
		a.wide.prev = a.reuse.prev.wide
	}
}

// carriedAt reports whether the unit with symbol index i is carried over
// (only while carrying over: a.wide.prev is set).
func (a *analyzer) carriedAt(i int) bool { return a.reuse.at[i].ok }

// prevSymbol returns the previous version's symbol at this version's
// index i (only while carrying over).
func (a *analyzer) prevSymbol(i int) *Symbol { return a.reuse.prev.Symbols[i] }

// carriedDiag returns w, made by the previous version, for this one: its
// range moved with its unit, its related places at their definitions'
// names now.
func (a *analyzer) carriedDiag(w wideDiag) wideDiag {
	delta := a.res.Symbols[w.unit].Range.Start - a.prevSymbol(w.unit).Range.Start
	d := w.d
	d.Range = d.Range.Moved(delta)
	if len(d.Related) > 0 {
		rel := make([]source.Related, len(d.Related))
		for i, r := range d.Related {
			if i < len(w.related) {
				r.Range = a.res.Symbols[w.related[i]].NameRange
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
	for i, s := range a.res.Symbols {
		if s.Kind != ResourceSymbol || a.carriedAt(i) {
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
	for i, s := range a.res.Symbols {
		if s.Kind == ResourceSymbol && !a.carriedAt(i) {
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
			for _, e := range labelEntries(a.res.Symbols[i].Resource) {
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
func (a *analyzer) useCounts() []int32 {
	syms := a.res.Symbols
	uses := make([]int32, len(syms))
	a.res.wide.uses = uses
	count := func(refs []*Reference, syms []*Symbol, add int32) {
		for _, r := range refs {
			if t := r.Target; t != nil && t.index < len(syms) && syms[t.index] == t {
				uses[t.index] += add
			}
		}
	}
	if a.wide.prev == nil || len(a.wide.prev.uses) != len(syms) {
		count(a.res.References, syms, 1)
		return uses
	}
	prev := a.reuse.prev
	copy(uses, a.wide.prev.uses)
	for i, s := range syms {
		if s.Kind == DataSourceFieldSymbol || a.carriedAt(i) {
			continue
		}
		if i < len(prev.units) && prev.units[i] != nil {
			count(prev.units[i].refs, prev.Symbols, -1)
		}
		if a.recs[i] != nil {
			count(a.recs[i].refs, syms, 1)
		}
	}
	if prev.doc != nil {
		count(prev.doc.refs, prev.Symbols, -1)
	}
	count(a.docRecs.refs, syms, 1)
	return uses
}

// checkedRefs returns the references whose own diagnostics this version
// makes: the dirty units' when units are carried over (mergeCarried
// takes the others' from the previous version), every one otherwise.
func (a *analyzer) checkedRefs() [][]*Reference {
	if a.wide.prev == nil {
		return [][]*Reference{a.res.References}
	}
	var out [][]*Reference
	for i, u := range a.recs {
		if u != nil && !a.carriedAt(i) {
			out = append(out, u.refs)
		}
	}
	return out
}

// carryLink gives resource s, carried over, the selection and the
// diagnostics rec recorded for it in the previous version.
func (a *analyzer) carryLink(s *Symbol, rec linkRecord, backing *[]*Symbol) {
	start := len(*backing)
	for _, i := range rec.selected {
		*backing = append(*backing, a.res.Symbols[i])
	}
	sel := (*backing)[start:len(*backing):len(*backing)]
	ls := a.wide.links.one()
	*ls = LinkSelection{From: s, Selected: sel}
	a.res.Links = append(a.res.Links, ls)
	if len(rec.diags) > 0 {
		diags := make([]wideDiag, len(rec.diags))
		for i, pw := range rec.diags {
			diags[i] = a.carriedDiag(pw)
			a.report(diags[i].d)
		}
		rec.diags = diags
	}
	w := a.res.wide
	w.links = append(w.links, rec)
	w.selected += len(rec.selected)
}
