package registry

// scanTopLevel finds the first of keys among the top-level members of a
// JSON object and returns that key and its value when the value is a
// string. It skips everything else without decoding it, which is what
// makes indexing a directory of large schemas cheap.
func scanTopLevel(data []byte, keys ...string) (key, value string, ok bool) {
	depth := 0
	i := 0
	n := len(data)
	for i < n {
		c := data[i]
		switch c {
		case '{', '[':
			depth++
			i++
		case '}', ']':
			depth--
			i++
		case '"':
			end, valid := skipString(data, i)
			if !valid {
				return "", "", false
			}
			raw := data[i+1 : end-1]
			i = end
			if depth != 1 {
				continue
			}
			j := skipSpace(data, i)
			if j >= n || data[j] != ':' {
				continue // a value, not a key
			}
			for _, k := range keys {
				if string(raw) != k { // compiled without allocating
					continue
				}
				j = skipSpace(data, j+1)
				if j < n && data[j] == '"' {
					v, _, valid := scanString(data, j)
					if valid {
						return k, v, true
					}
				}
				return k, "", true
			}
		default:
			i++
		}
	}
	return "", "", false
}

// skipString returns the offset after the JSON string starting at
// data[start] == '"' and whether it was terminated.
func skipString(data []byte, start int) (int, bool) {
	for i := start + 1; i < len(data); i++ {
		switch data[i] {
		case '\\':
			i++
		case '"':
			return i + 1, true
		}
	}
	return len(data), false
}

// scanString reads the JSON string starting at data[start] == '"' and
// returns its content (escapes other than \" and \\ kept as written: keys
// and type names never need them), the offset after it, and whether it
// was terminated.
func scanString(data []byte, start int) (string, int, bool) {
	i := start + 1
	escaped := false
	for i < len(data) {
		switch data[i] {
		case '\\':
			escaped = true
			i += 2
			continue
		case '"':
			s := data[start+1 : i]
			if !escaped {
				return string(s), i + 1, true
			}
			out := make([]byte, 0, len(s))
			for k := 0; k < len(s); k++ {
				if s[k] == '\\' && k+1 < len(s) && (s[k+1] == '"' || s[k+1] == '\\' || s[k+1] == '/') {
					k++
				}
				out = append(out, s[k])
			}
			return string(out), i + 1, true
		}
		i++
	}
	return "", len(data), false
}

func skipSpace(data []byte, i int) int {
	for i < len(data) {
		switch data[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}
