// Package jsonscan skips over JSON text without decoding it: white
// space, strings and whole values, by offset. Dialect detection reads a
// document's top-level keys with it, and the language server finds the
// text of a didOpen in its message. It finds the ends of well-formed
// JSON; it need not refuse every malformed text (its callers hand what
// matters to a real decoder).
package jsonscan

// Space returns the offset of the first byte at or after i that is not
// JSON white space.
func Space(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// String returns the offset after the string starting at b[i] (a '"'),
// or -1 when it is not terminated on its line.
func String(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		case '\n':
			return -1
		}
	}
	return -1
}

// Value returns the offset after the value starting at b[i], or -1 when
// the text ends first. Scalars end at a delimiter; objects and arrays at
// their matching bracket, strings inside them skipped whole.
func Value(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return String(b, i)
	case '{', '[':
		depth := 0
		for ; i < len(b); i++ {
			switch b[i] {
			case '"':
				end := String(b, i)
				if end < 0 {
					return -1
				}
				i = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
		}
		return -1
	}
	for ; i < len(b); i++ {
		switch b[i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return i
		}
	}
	return -1
}
