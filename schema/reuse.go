package schema

import (
	"github.com/blueprint-ls/blueprint-ls/internal/chunked"

	"slices"

	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// loaded is what Load made of one entry of the resources section; the
// next version's LoadFrom takes it over when its entry at the same index
// is the same node, or a moved copy of it (syntax.Splice), loaded under
// the same spec version.
type loaded struct {
	entry *Entry
	res   *Resource           // nil for an entry with no key
	keys  []source.Diagnostic // walkKeys' under the entry's value
	diags []source.Diagnostic // loadResource's
}

// resourcesSection returns the resources section mapping of root, or nil.
func resourcesSection(root Node) *Mapping {
	m, ok := root.(*Mapping)
	if !ok {
		return nil
	}
	if e := m.Entry(dialect.Resources.Key()); e != nil {
		if sec, ok := e.Value.(*Mapping); ok {
			return sec
		}
	}
	return nil
}

// planReuse finds this version's resources section and keeps prev's
// loads when there is something to take over. The spec version is
// compared once it is known (reusable).
func (l *loader) planReuse(prev *Blueprint) {
	l.resources = resourcesSection(l.file.Root)
	if l.resources == nil {
		return
	}
	l.bp.resources = chunked.Make[*loaded](len(l.resources.Entries))
	if prev == nil || prev.File == nil || prev.File.Format != l.file.Format {
		return
	}
	l.prevBP, l.prev = prev, prev.resources
	l.prevVersion, l.prevVersionNode = prev.SpecVersion, prev.Version.Scalar()
	if sp, ok := l.file.Spliced(prev.File); ok && l.prev.Len() == len(l.resources.Entries) {
		// The entries of the resources section that started before
		// sp.Start are prev's own, those at or after sp.End moved
		// copies of prev's at the same index.
		l.splice = &sp
		if sp.Delta != 0 {
			l.movedFrom = make([]*loaded, len(l.resources.Entries))
		}
	}
}

// prevOf returns prev's load of entry i of the resources section when e
// is the node it was made of, or a moved copy of it; moved says which.
func (l *loader) prevOf(i int, e *Entry) (p *loaded, moved bool) {
	p = l.prev.At(i)
	if p == nil {
		return nil, false
	}
	if p.entry == e {
		return p, false
	}
	if l.splice == nil || l.splice.Delta == 0 || p.entry == nil || e.Key == nil || p.entry.Key == nil || p.entry.Key.Rng.Start < l.splice.End ||
		e.Key.Value != p.entry.Key.Value || e.Key.Rng.Start != p.entry.Key.Rng.Start+l.splice.Delta {
		return nil, false
	}
	return p, true
}

// versionAsBefore reports whether prev's loads were made under this
// version, declared by the same node or a moved copy of it (a
// suggestion to change the version edits its place).
func (l *loader) versionAsBefore() bool {
	cur, old := l.bp.Version.Scalar(), l.prevVersionNode
	if l.prevVersion != l.version || (cur == nil) != (old == nil) {
		return false
	}
	if cur == old {
		return true
	}
	return l.splice != nil && cur.Value == old.Value && cur.Rng == l.movedRange(old.Rng) && cur.ValueRange() == l.movedRange(old.ValueRange())
}

func (l *loader) movedRange(r source.Range) source.Range {
	return source.Range{Start: l.splice.Moved(r.Start), End: l.splice.Moved(r.End)}
}

// keysAsBefore reports whether the resources section has prev's keys,
// in order, and prev's were plain (none repeated another or held a
// substitution): then so are these.
func (l *loader) keysAsBefore() bool {
	if l.prevBP == nil || !l.prevBP.resourceKeysPlain || l.prev.Len() != len(l.resources.Entries) {
		return false
	}
	if l.splice != nil {
		// Only the entries the splice re-parsed can have other keys:
		// the rest are prev's or moved copies of them.
		from, to := l.edited()
		return l.sameKeys(l.resources.Entries[from:to], from)
	}
	return l.sameKeys(l.resources.Entries, 0)
}

// sameKeys reports whether entries, those of the resources section from
// index from on, have prev's keys, and then records that the section's
// keys are plain.
func (l *loader) sameKeys(entries []*Entry, from int) bool {
	for k, e := range entries {
		i := from + k
		if l.prev.At(i) == nil {
			return false
		}
		p := l.prev.At(i).entry
		if e.Key == nil || p == nil || p.Key == nil || e.Key.Value != p.Key.Value {
			return false
		}
	}
	l.bp.resourceKeysPlain = true
	return true
}

// walkEntryKeys walks the value of e, entry i of mapping m, for walkKeys;
// under the resources section it records (or takes over) the result.
func (l *loader) walkEntryKeys(m *Mapping, i int, e *Entry) {
	if m != l.resources || l.resources == nil {
		l.walkKeys(e.Value)
		return
	}
	// The version is not known yet: keep the diagnostics either way and
	// let loadResourceEntry check it (a different version reloads). The
	// same entry shares prev's record until then.
	p, moved := l.prevOf(i, e)
	switch {
	case p != nil && !moved:
		l.bp.resources.Set(i, p)
		l.diags = append(l.diags, p.keys...)
	case p != nil:
		rec := &loaded{entry: e, keys: movedDiags(p.keys, l.splice.Moved)}
		l.bp.resources.Set(i, rec)
		l.movedFrom[i] = p
		l.diags = append(l.diags, rec.keys...)
	default:
		start := len(l.diags)
		l.walkKeys(e.Value)
		keys := since(l.diags, start)
		if rec := l.bp.resources.At(i); rec != nil {
			rec.keys = keys // made by walkKeysBeside
		} else {
			l.bp.resources.Set(i, &loaded{entry: e, keys: keys})
		}
	}
}

// loadResourceEntry loads entry e of the resources section (or takes
// prev's load of it over) and records the result.
func (l *loader) loadResourceEntry(e *Entry) {
	i := l.resourceIndex
	l.resourceIndex++
	if l.resources == nil || i >= len(l.resources.Entries) || l.resources.Entries[i] != e || l.bp.resources.At(i) == nil {
		l.loadResource(e) // not the section planReuse found (a duplicate key)
		return
	}
	// walkEntryKeys found prev's record: the same, or moved from.
	rec := l.bp.resources.At(i)
	var p *loaded
	moved := false
	switch {
	case rec == l.prev.At(i):
		p = rec
	case i < len(l.movedFrom) && l.movedFrom[i] != nil:
		p, moved = l.movedFrom[i], true
	}
	if p != nil && l.versionAsBefore() {
		res, diags := p.res, p.diags
		if l.splice != nil {
			diags = movedDiags(diags, l.splice.Moved)
		}
		if moved && res != nil {
			res = l.twins.resource(res, p.entry, e)
		}
		if !l.twins.failed {
			if moved {
				l.bp.movedOver++
			} else {
				l.bp.takenOver++
			}
			l.diags = append(l.diags, diags...)
			if res != nil {
				l.bp.Resources.add(res.Name, res)
			}
			if rec == p && len(diags) > 0 && &diags[0] != &p.diags[0] {
				rec = &loaded{entry: e, keys: p.keys}
				l.bp.resources.Set(i, rec)
			}
			if rec != p {
				rec.res, rec.diags = res, diags
			}
			return
		}
		l.twins.failed = false
	}
	if rec == p {
		rec = &loaded{entry: e, keys: p.keys} // prev's, shared until now
		l.bp.resources.Set(i, rec)
	}
	start := len(l.diags)
	rec.res = l.loadResource(e)
	rec.diags = since(l.diags, start)
}

// since copies the diagnostics reported from start on (Load sorts its
// list in place), nil for none.
func since(diags []source.Diagnostic, start int) []source.Diagnostic {
	if start == len(diags) {
		return nil
	}
	return slices.Clone(diags[start:])
}
