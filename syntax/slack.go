package syntax

import (
	"bytes"
	"sort"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// Definition is where one definition's text lies in a document: an entry
// of a top-level section (a resource, a variable, a value ...), from the
// start of its key's line to the start of the next key's line.
type Definition struct {
	// Start is where the key's line starts, End where the next key's
	// line starts (or the text ends).
	Start, End int
	// KeyLineEnd is where the key's line ends, before its line break.
	KeyLineEnd int
	// Open reports that the key's line holds the key and its colon
	// alone (then spaces): the value starts on a later line. In JSON,
	// that it holds the key, its colon and the '{' of its object value
	// (then spaces).
	Open bool
}

// DefinitionAt returns the definition whose lines hold the bytes [start,
// end) of f, when f is a clean YAML document whose top two levels are
// block mappings (what Splice asks) and one definition's lines hold them
// all; the key's line must end in a line break. For JSON and JSONC see
// definitionAtJSON (slack_json.go).
func DefinitionAt(f *File, start, end int) (Definition, bool) {
	if f.Format == JSON || f.Format == JSONC {
		return definitionAtJSON(f, start, end)
	}
	root, ok := f.Root.(*Mapping)
	if f.Format != YAML || !ok || root.Flow {
		return Definition{}, false
	}
	e, d, ok := entryLines(f, start, end, true)
	if !ok {
		return Definition{}, false
	}
	d.Open = openYAML(f, e, d)
	return d, true
}

// openYAML reports whether the key line of e, a definition d, holds the
// key and its colon alone.
func openYAML(f *File, e *Entry, d Definition) bool {
	rest := bytes.TrimRight(f.Text.Slice(e.Key.Rng.End, d.KeyLineEnd), " ")
	return string(bytes.TrimLeft(rest, " ")) == ":" && (e.Value == nil || e.Value.Range().Start > d.KeyLineEnd)
}

// OpenKeyLineEnds returns where the key line of every Open definition of
// f, a YAML, JSON or JSONC document, ends, in order: what DefinitionAt
// says of each, in one walk of the sections.
func OpenKeyLineEnds(f *File) []int {
	root, ok := f.Root.(*Mapping)
	json := f.Format == JSON || f.Format == JSONC
	if !ok || len(f.Diagnostics) > 0 || !json && (f.Format != YAML || root.Flow) {
		return nil
	}
	var out []int
	for sec, e := range root.Entries {
		section, ok := e.Value.(*Mapping)
		if !ok || !json && section.Flow {
			continue
		}
		for i, e := range section.Entries {
			d, ok := definitionOf(f, root, sec, i)
			if !ok {
				continue
			}
			if json && onlyBlanks(f.Text.Slice(d.Start, e.Key.Rng.Start)) && openJSON(f, e, d) || !json && openYAML(f, e, d) {
				out = append(out, d.KeyLineEnd)
			}
		}
	}
	return out
}

// entryLines returns the entry of a section of f, a clean parse whose
// root is a mapping, whose lines hold the bytes [start, end), and where
// those lines are (Start, End, KeyLineEnd: Definition); block says that
// only block mappings are sections. The key's line must end in a line
// break.
func entryLines(f *File, start, end int, block bool) (*Entry, Definition, bool) {
	root, ok := f.Root.(*Mapping)
	if len(f.Diagnostics) > 0 || !ok || start > end || end > f.Text.Len() {
		return nil, Definition{}, false
	}
	m := f.Mapper
	lineStart := func(off int) int { return m.LineStart(m.Line(off)) }
	for sec, e := range root.Entries {
		section, ok := e.Value.(*Mapping)
		if !ok || block && section.Flow || len(section.Entries) == 0 || start < lineStart(section.Entries[0].Key.Rng.Start) {
			continue
		}
		limit := f.Text.Len()
		if sec+1 < len(root.Entries) {
			limit = lineStart(root.Entries[sec+1].Key.Rng.Start)
		}
		if start >= limit {
			continue
		}
		i := sort.Search(len(section.Entries), func(i int) bool {
			return lineStart(section.Entries[i].Key.Rng.Start) > start
		}) - 1
		d, ok := definitionOf(f, root, sec, i)
		if !ok || end > d.End || (start == end && start == d.End) {
			return nil, Definition{}, false
		}
		return section.Entries[i], d, true
	}
	return nil, Definition{}, false
}

// definitionOf returns where entry i of section sec of root, f's root,
// lies; false when its key's line does not end in a line break.
func definitionOf(f *File, root *Mapping, sec, i int) (Definition, bool) {
	m := f.Mapper
	lineStart := func(off int) int { return m.LineStart(m.Line(off)) }
	entries := root.Entries[sec].Value.(*Mapping).Entries
	d := Definition{Start: lineStart(entries[i].Key.Rng.Start), End: f.Text.Len()}
	switch {
	case i+1 < len(entries):
		d.End = lineStart(entries[i+1].Key.Rng.Start)
	case sec+1 < len(root.Entries):
		d.End = lineStart(root.Entries[sec+1].Key.Rng.Start)
	}
	var broken bool
	d.KeyLineEnd, broken = source.LineEndText(f.Text, entries[i].Key.Rng.End)
	return d, broken
}
