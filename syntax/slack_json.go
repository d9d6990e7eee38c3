package syntax

import "github.com/blueprint-ls/blueprint-ls/source"

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

// BlockComments returns, in order, the ranges of the block comments
// (`/* ... */`, to the end of the text when one does not end) of a JSON
// or JSONC text, as the parser's tokenizing finds them: not inside a
// string (which ends at its line's end when it is not closed) or a line
// comment. The language server takes padding out of them (lsp/slack.go).
func BlockComments(content []byte) []source.Range {
	var out []source.Range
	for i := 0; i < len(content); {
		switch content[i] {
		case '"':
			j := i + 1
			for j < len(content) && content[j] != '"' && content[j] != '\n' && content[j] != '\r' {
				if content[j] == '\\' && j+1 < len(content) && content[j+1] != '\n' && content[j+1] != '\r' {
					j++
				}
				j++
			}
			i = j + 1
		case '/':
			end := skipComment(content, i)
			switch {
			case i+1 < len(content) && content[i+1] == '*':
				if end < 0 {
					end = len(content)
				}
				out = append(out, source.R(i, end))
			case end < 0:
				end = i + 1
			}
			i = end
		default:
			i++
		}
	}
	return out
}

// skipComment returns the offset after the comment starting at i (at
// its '/'), or -1 when none starts there or it does not end. A line
// comment ends before its line break (which may be a lone '\r').
func skipComment(b []byte, i int) int {
	if i+1 >= len(b) {
		return -1
	}
	switch b[i+1] {
	case '/':
		for i < len(b) && b[i] != '\n' && b[i] != '\r' {
			i++
		}
		return i
	case '*':
		for j := i + 2; j+1 < len(b); j++ {
			if b[j] == '*' && b[j+1] == '/' {
				return j + 2
			}
		}
	}
	return -1
}
