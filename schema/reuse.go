package schema

import (
	"slices"

	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// loaded is what Load made of one entry of the resources section; the
// next version's LoadFrom takes it over when its entry at the same index
// is the same node, loaded under the same spec version.
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
	l.bp.resources = make([]loaded, len(l.resources.Entries))
	if prev != nil && prev.File != nil && prev.File.Format == l.file.Format {
		l.prev = prev.resources
		l.prevVersion, l.prevVersionNode = prev.SpecVersion, prev.Version.Scalar()
	}
}

// reusable returns prev's load of entry i of the resources section when
// e is the node it was made of, under the same spec version declared by
// the same node (a suggestion to change the version edits its place).
func (l *loader) reusable(i int, e *Entry) *loaded {
	if i >= len(l.prev) || l.prev[i].entry != e || l.prevVersion != l.version || l.prevVersionNode != l.bp.Version.Scalar() {
		return nil
	}
	return &l.prev[i]
}

// walkEntryKeys walks the value of e, entry i of mapping m, for walkKeys;
// under the resources section it records (or takes over) the result.
func (l *loader) walkEntryKeys(m *Mapping, i int, e *Entry) {
	if m != l.resources || l.resources == nil {
		l.walkKeys(e.Value)
		return
	}
	// The version is not known yet: keep the diagnostics either way and
	// let loadResourceEntry check it (a different version reloads).
	if p := l.reusableNode(i, e); p != nil {
		l.diags = append(l.diags, p.keys...)
		l.bp.resources[i].keys = p.keys
		return
	}
	start := len(l.diags)
	l.walkKeys(e.Value)
	l.bp.resources[i].keys = since(l.diags, start)
}

// reusableNode is reusable without the version (walkKeys does not read it).
func (l *loader) reusableNode(i int, e *Entry) *loaded {
	if i >= len(l.prev) || l.prev[i].entry != e {
		return nil
	}
	return &l.prev[i]
}

// loadResourceEntry loads entry e of the resources section (or takes
// prev's load of it over) and records the result.
func (l *loader) loadResourceEntry(e *Entry) {
	i := l.resourceIndex
	l.resourceIndex++
	if l.resources == nil || i >= len(l.resources.Entries) || l.resources.Entries[i] != e {
		l.loadResource(e) // not the section planReuse found (a duplicate key)
		return
	}
	rec := &l.bp.resources[i]
	rec.entry = e
	if p := l.reusable(i, e); p != nil {
		l.diags = append(l.diags, p.diags...)
		if p.res != nil {
			l.bp.Resources.add(p.res.Name, p.res)
		}
		rec.res, rec.diags = p.res, p.diags
		return
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
