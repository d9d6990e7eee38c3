package syntax

import (
	"slices"
	"sort"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// Splicing is one procedure for every format: a clean previous tree, the
// edit found (EditOf), the definition around it parsed alone by the
// format's parser (a Reparser), and the tree rebuilt around the new
// definition (spliceEntry). YAML, JSON and JSONC (reparse.go,
// reparse_json.go) and the blueprint language (package bplang) differ
// only in their Reparser.

// Reparsed is a definition parsed alone from the new text: it replaces
// entry Child of the section that is the value of root entry Sec, and
// its text was the previous version's bytes [Start, End).
type Reparsed struct {
	Sec, Child int
	Entry      *Entry // at its place in the new text
	Start, End int
}

// A Reparser finds the definition of prev (a clean parse whose root is
// root) whose text holds the edit, and parses that definition's new text
// alone as the whole parse would read it there; false when there is none
// or the new text might read differently in the whole document.
type Reparser func(prev *File, root *Mapping, content source.Text, edit Change) (Reparsed, bool)

// Grammar is what a format tells SpliceWith.
type Grammar struct {
	Formats []Format // the formats of the trees it splices
	Reparse Reparser
	// Braced: a mapping's range runs to its closing brace, which moves
	// with the text after the edit (JSON); otherwise a mapping ends where
	// its last entry does.
	Braced bool
	// IsSection reports whether a top-level entry holds definitions
	// whose starts are StartOf (nil: every block mapping is a section,
	// and an entry starts at its key).
	IsSection func(*Entry) bool
	StartOf   func(*Entry) int
	// WholeText: the root's range is the whole text (the blueprint
	// language's), not its entries'.
	WholeText bool
}

// SpliceWith returns the File of content, the next version of prev's
// text (prev.Text and content differ only inside ch when ch is not nil),
// built from prev's tree by g, or nil when it cannot be: the caller
// parses whole. prev must be a clean parse in g's format whose root is a
// mapping. A File it returns is the one a whole parse would give; prev
// is not changed.
func SpliceWith(prev *File, content source.Text, ch *Change, g Grammar) (f *File) {
	defer func() {
		if recover() != nil {
			f = nil // a bug here costs a whole parse, never a wrong tree
		}
	}()
	if prev == nil || !slices.Contains(g.Formats, prev.Format) || len(prev.Diagnostics) > 0 || prev.HasSyntaxErrors() {
		return nil
	}
	// A name that does not say the format leaves it to the text, which
	// the edit may have changed (the blueprint language's names say it).
	if prev.Format != BP && parseFormat(prev.URI, content) != prev.Format {
		return nil
	}
	root, ok := prev.Root.(*Mapping)
	if !ok || root.Flow != g.Braced {
		return nil
	}
	old := prev.Text
	edit := EditOf(old, content, ch)
	delta := content.Len() - old.Len()
	next := Assemble(prev.URI, prev.Format, content, prev.Mapper.Edited(content, edit.Start, edit.OldEnd, edit.OldEnd+delta), root, nil, nil)
	if edit.Same() {
		return next // the same text
	}
	r, ok := g.Reparse(prev, root, content, edit)
	if !ok {
		return nil
	}
	spliced := g.spliceEntry(root, r, delta)
	if g.WholeText {
		spliced.Rng = source.R(0, content.Len())
	}
	next.Root = spliced
	RecordSplice(next, prev, r.Start, r.End, delta)
	return next
}

// spliceEntry returns root with the definition r replaced and every node
// from r.End on copied moved by delta; the nodes before r.Start are
// shared, and so is everything when delta is 0 (nodes never change). The
// sections may interleave in the text (the blueprint language's
// statements do): each keeps its entries before the edit, takes the new
// one or moved copies of the ones after, and is rebuilt only when one of
// its entries changed.
func (g Grammar) spliceEntry(root *Mapping, r Reparsed, delta int) *Mapping {
	isSection, startOf := g.IsSection, g.StartOf
	if isSection == nil {
		isSection = func(e *Entry) bool { m, ok := e.Value.(*Mapping); return ok && m.Flow == g.Braced }
		startOf = func(e *Entry) int { return e.Key.Rng.Start }
	}
	sh := &shifter{}
	top := make([]*Entry, len(root.Entries))
	for i, e := range root.Entries {
		if !isSection(e) {
			top[i] = e
			if e.Key.Rng.Start >= r.End {
				top[i] = sh.moved(e, delta)
			}
			continue
		}
		section := e.Value.(*Mapping)
		entries := section.Entries
		first := sort.Search(len(entries), func(i int) bool { return startOf(entries[i]) >= r.Start })
		switch {
		case i == r.Sec:
		case first == len(entries) || delta == 0:
			top[i] = e // wholly before the edit, or nothing of it moved
			continue
		case first == 0 && e.Key.Rng.Start >= r.End:
			top[i] = sh.moved(e, delta) // wholly after the edit
			continue
		}
		out := make([]*Entry, len(entries))
		copy(out, entries[:first])
		for j := first; j < len(entries); j++ {
			if i == r.Sec && j == r.Child {
				out[j] = r.Entry
			} else {
				out[j] = sh.moved(entries[j], delta)
			}
		}
		key, start := e.Key, section.Rng.Start
		if key.Rng.Start >= r.End && delta != 0 {
			key, start = sh.scalar(key, delta), start+delta
		}
		top[i] = &Entry{Key: key, Value: &Mapping{Rng: g.mappingRange(section, start, out, delta), Entries: out, Flow: section.Flow}}
	}
	return &Mapping{Rng: g.mappingRange(root, root.Rng.Start, top, delta), Entries: top, Flow: root.Flow}
}

// mappingRange is the range of m rebuilt from start with entries: to its
// closing brace moved by delta (Braced), or to the end of its last entry,
// which in a block mapping or a run of statements ends it (no walk over
// thousands of entries).
func (g Grammar) mappingRange(m *Mapping, start int, entries []*Entry, delta int) source.Range {
	if g.Braced {
		return source.R(start, m.Rng.End+delta)
	}
	r := source.R(start, start)
	if n := len(entries); n > 0 {
		e := entries[n-1]
		r = r.Union(e.Key.Rng)
		if e.Value != nil {
			r = r.Union(e.Value.Range())
		}
	}
	return r
}

// RecordSplice notes on f, a File just built by splicing the text of one
// definition into prev's tree, how it was built: prev's bytes [start,
// end) became f's [start, end+delta), and every node of prev's tree
// from end on was copied moved by delta (see Splicing). Call it before f
// is returned to anyone.
func RecordSplice(f, prev *File, start, end, delta int) {
	f.spliced = Splicing{From: prev.ID(), Start: start, End: end, Delta: delta}
}

// Shifter copies nodes with every offset (ranges, value ranges, offset
// maps) moved by a delta, carving the copies from slabs as the parsers
// do. The zero value is ready; one Shifter serves one new tree.
type Shifter struct{ sh shifter }

// Entry returns a copy of e, key and value, moved by d.
func (s *Shifter) Entry(e *Entry, d int) *Entry { return s.sh.entry(e, d) }
