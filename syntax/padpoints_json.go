package syntax

import "github.com/blueprint-ls/blueprint-ls/source"

// PadPointsJSON is PadPoints for JSON and JSONC text: in order, where the
// key line of every Open definition (definitionAtJSON) ends, before its
// line break, read from the text alone. A key line is the line of a key
// of a member of a section object (an object that is a member's value
// in the root object), the key first on its line after spaces and tabs,
// and after the key only spaces, ':', spaces, '{', spaces and "\n" or
// "\r\n".
//
// It is sound: it tokenizes as the parser does (strings with their
// escapes, both kinds of comment, brackets), so a key it finds is one,
// and spaces inserted between a '{' and a line break lie between two
// tokens, outside any string (no JSON string holds a line break) and
// any comment (the key line holds none): they change no value. Where
// the text does not tokenize (an unterminated string or block comment,
// a raw line break in a string, unbalanced brackets, a single-quoted
// string) it returns nil; what it returns for a text that does not
// parse clean means nothing.
func PadPointsJSON(content []byte) []int {
	i := 0
	if len(content) >= 3 && string(content[:3]) == string(utf8BOM) {
		i = 3
	}
	var (
		out []int
		// open holds whether each enclosing bracket is an object's, up
		// to the depth the scan cares about (the third level); deeper
		// levels are counted alone.
		open  [3]bool
		depth int
		// prev is the last token: '{', '[', ',', ':', '}' or ']', or 'v'
		// for a value.
		prev byte
	)
	for i < len(content) {
		switch c := content[i]; c {
		case ' ', '\t', '\r', '\n':
			i++
		case '/':
			end := skipComment(content, i)
			if end < 0 {
				return nil
			}
			i = end
		case '{', '[':
			if depth < len(open) {
				open[depth] = c == '{'
			}
			depth++
			prev = c
			i++
		case '}', ']':
			if depth == 0 || depth <= len(open) && open[depth-1] != (c == '}') {
				return nil
			}
			depth--
			prev = c
			i++
		case ',', ':':
			prev = c
			i++
		case '"':
			end := stringEnd(content, i)
			if end < 0 {
				return nil
			}
			if depth == 2 && open[0] && open[1] && (prev == '{' || prev == ',') {
				if p := keyLineEnd(content, i, end); p >= 0 {
					out = append(out, p)
				}
			}
			prev = 'v'
			i = end
		case '\'':
			return nil
		default:
			start := i
			for i < len(content) && isWordByte(content[i]) {
				i++
			}
			if i == start || prev == 'v' || i < len(content) && !isJSONSeparator(content[i]) {
				return nil // not a token the parser takes
			}
			prev = 'v'
		}
	}
	return out
}

// isJSONSeparator reports whether c may follow a number or literal.
func isJSONSeparator(c byte) bool {
	switch c {
	case ' ', '\t', '\r', '\n', ',', ':', '}', ']', '/':
		return true
	}
	return false
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

// stringEnd returns the offset after the double-quoted string starting
// at i, or -1 when it holds a line break or does not end.
func stringEnd(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '"':
			return j + 1
		case '\\':
			j++
		case '\n', '\r':
			return -1
		}
	}
	return -1
}

// keyLineEnd returns where the line of the key [start, end) ends when the
// key is first on its line and the line holds after it only spaces, ':',
// spaces, '{' and spaces; else -1.
func keyLineEnd(b []byte, start, end int) int {
	ls := start
	for ls > 0 && (b[ls-1] == ' ' || b[ls-1] == '\t') {
		ls--
	}
	if ls > 0 && b[ls-1] != '\n' && b[ls-1] != '\r' {
		return -1
	}
	i := skipSpaces(b, end)
	if i == len(b) || b[i] != ':' {
		return -1
	}
	i = skipSpaces(b, i+1)
	if i == len(b) || b[i] != '{' {
		return -1
	}
	i = skipSpaces(b, i+1)
	switch {
	case i < len(b) && b[i] == '\n':
		return i
	case i+1 < len(b) && b[i] == '\r' && b[i+1] == '\n':
		return i
	}
	return -1
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
