package syntax

import (
	"sort"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// definitionAtJSON is DefinitionAt for JSON and JSONC: a definition is a
// member of a section object (an object that is the value of a member of
// the root object) whose key is the first thing on its line, from that
// line's start to the start of the next member's key line (for a
// section's last member, the next top-level key's line, or the end of
// the text). It is Open when its key's line holds the key, its colon
// and the '{' its object value starts with, separated by spaces and
// followed by spaces alone: `    "r0": {`. Spaces there lie between
// tokens, outside any string (a JSON string never holds a line break)
// and any comment (the line holds none).
func definitionAtJSON(f *File, start, end int) (Definition, bool) {
	root, ok := f.Root.(*Mapping)
	if len(f.Diagnostics) > 0 || !ok || start > end || end > len(f.Content) {
		return Definition{}, false
	}
	m := f.Mapper
	lineStart := func(off int) int { return m.LineStart(m.Line(off)) }
	for sec, e := range root.Entries {
		section, ok := e.Value.(*Mapping)
		if !ok || len(section.Entries) == 0 || start < lineStart(section.Entries[0].Key.Rng.Start) {
			continue
		}
		limit := len(f.Content)
		if sec+1 < len(root.Entries) {
			limit = lineStart(root.Entries[sec+1].Key.Rng.Start)
		}
		if start >= limit {
			continue
		}
		i := sort.Search(len(section.Entries), func(i int) bool {
			return lineStart(section.Entries[i].Key.Rng.Start) > start
		}) - 1
		key := section.Entries[i].Key
		d := Definition{Start: lineStart(key.Rng.Start), End: limit}
		if i+1 < len(section.Entries) {
			d.End = lineStart(section.Entries[i+1].Key.Rng.Start)
		}
		if end > d.End || (start == end && start == d.End) || !onlyBlanks(f.Content[d.Start:key.Rng.Start]) {
			return Definition{}, false
		}
		var broken bool
		if d.KeyLineEnd, broken = source.LineEnd(f.Content, key.Rng.End); !broken {
			return Definition{}, false
		}
		v, _ := section.Entries[i].Value.(*Mapping)
		d.Open = v != nil && opensObject(f.Content[key.Rng.End:d.KeyLineEnd]) == v.Rng.Start-key.Rng.End
		return d, true
	}
	return Definition{}, false
}

// opensObject returns where the '{' is in rest, the text after a key to
// its line's end, when rest is spaces, a colon, spaces, a '{' and spaces;
// else -1.
func opensObject(rest []byte) int {
	i := skipSpaces(rest, 0)
	if i == len(rest) || rest[i] != ':' {
		return -1
	}
	i = skipSpaces(rest, i+1)
	if i == len(rest) || rest[i] != '{' || skipSpaces(rest, i+1) != len(rest) {
		return -1
	}
	return i
}

// onlyBlanks reports whether b holds spaces and tabs alone.
func onlyBlanks(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' {
			return false
		}
	}
	return true
}
