package syntax

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
	e, d, ok := entryLines(f, start, end, false)
	if !ok || !onlyBlanks(f.Text.Slice(d.Start, e.Key.Rng.Start)) {
		return Definition{}, false
	}
	d.Open = openJSON(f, e, d)
	return d, true
}

// openJSON reports whether the key line of e, a definition d, holds the
// key, its colon and the '{' of its object value.
func openJSON(f *File, e *Entry, d Definition) bool {
	v, _ := e.Value.(*Mapping)
	return v != nil && opensObject(f.Text.Slice(e.Key.Rng.End, d.KeyLineEnd)) == v.Rng.Start-e.Key.Rng.End
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

// skipSpaces returns the first offset of b from i that is not a space.
func skipSpaces(b []byte, i int) int {
	for i < len(b) && b[i] == ' ' {
		i++
	}
	return i
}
