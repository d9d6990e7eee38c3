package ide

import (
	"bytes"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// structCtx is where the cursor is in the document's structure, read from
// the current text (which need not parse): the path of keys above it and
// whether a key or a value is being typed.
type structCtx struct {
	path    []string // the mapping holding the key; for a value, ends with its key (or "*")
	key     bool     // typing a key
	item    bool     // a YAML "- " item whose text is ambiguous (key or value)
	replace source.Range
	quoted  bool // inside JSON quotes (insert bare text)
	json    bool
	present map[string]bool // keys already in the mapping (key context)
	prefix  string          // text typed before the cursor in the key or value
}

func isSpaceByte(c byte) bool { return c == ' ' || c == '\t' }

// yamlPair is a key or a "- " item on a line, at its column.
type yamlPair struct {
	col      int
	seg      string
	hasValue bool
	keyEnd   int // column after the key (keys only)
}

// yamlLinePairs reads the items and key of one YAML line.
func yamlLinePairs(line string) []yamlPair {
	i := 0
	for i < len(line) && line[i] == ' ' {
		i++
	}
	if i >= len(line) || line[i] == '#' || strings.HasPrefix(line[i:], "---") {
		return nil
	}
	var out []yamlPair
	for i < len(line) && line[i] == '-' && (i+1 == len(line) || line[i+1] == ' ') {
		out = append(out, yamlPair{col: i, seg: "*"})
		i++
		for i < len(line) && line[i] == ' ' {
			i++
		}
	}
	if i >= len(line) {
		return out
	}
	key, kend, ok := yamlKey(line, i)
	if !ok {
		if len(out) > 0 {
			out[len(out)-1].hasValue = true
		}
		return out
	}
	rest := strings.TrimSpace(line[kend+1:])
	out = append(out, yamlPair{col: i, seg: key, hasValue: rest != "" && rest[0] != '#', keyEnd: kend})
	return out
}

// yamlKey reads a key starting at i: plain or quoted, followed by ':' and
// a space or the end of the line. kend is the offset of the ':'.
func yamlKey(line string, i int) (key string, kend int, ok bool) {
	if i < len(line) && (line[i] == '"' || line[i] == '\'') {
		q := line[i]
		j := strings.IndexByte(line[i+1:], q)
		if j < 0 {
			return "", 0, false
		}
		k := i + 1 + j + 1
		if k < len(line) && line[k] == ':' && (k+1 == len(line) || line[k+1] == ' ') {
			return line[i+1 : i+1+j], k, true
		}
		return "", 0, false
	}
	if i < len(line) && strings.ContainsRune("{[\"'|>&*!", rune(line[i])) {
		return "", 0, false
	}
	for j := i; j < len(line); j++ {
		if line[j] == ':' && (j+1 == len(line) || line[j+1] == ' ' || line[j+1] == '\t') {
			return strings.TrimRight(line[i:j], " "), j, true
		}
		if line[j] == ' ' && j+1 < len(line) && line[j+1] == '#' {
			return "", 0, false
		}
	}
	return "", 0, false
}

// textLine returns the bounds of the line holding off in t: its end is
// before a CRLF's "\r".
func textLine(t source.Text, off int) (int, int) {
	start := t.LastIndexAny(off, "\n") + 1
	end := t.IndexAny(off, "\n")
	if end < 0 {
		end = t.Len()
	}
	if end > start && t.At(end-1) == '\r' {
		end--
	}
	return start, end
}

// yamlContext reads the structure around off from YAML text. It reads t
// a line at a time, never joined: the lines of the cursor's definition
// and, through hop, the key of its section (yamlHop).
func yamlContext(t source.Text, off int, hop yamlHop) structCtx {
	ls, le := textLine(t, off)
	line := t.String(ls, le)
	cur := off - ls
	before := line[:min(cur, len(line))]
	var c structCtx
	// Pairs on the current line before the cursor.
	i := 0
	for i < len(before) && before[i] == ' ' {
		i++
	}
	first := i
	var here []string
	for i < len(before) && before[i] == '-' && (i+1 == len(line) || line[i+1] == ' ') {
		here = append(here, "*")
		i++
		for i < len(line) && line[i] == ' ' {
			i++
		}
	}
	if i > len(before) {
		i = len(before)
	}
	parents := yamlParents(t, ls, first, len(here) > 0, hop)
	c.path = append(parents, here...)
	if key, kend, ok := yamlKey(line, i); ok && kend < cur {
		// Value context: after "key:".
		v := kend + 1
		for v < len(line) && line[v] == ' ' {
			v++
		}
		end := len(line)
		if h := strings.Index(line[v:], " #"); h >= 0 {
			end = v + h
		}
		for end > v && line[end-1] == ' ' {
			end--
		}
		if v < len(line) && (line[v] == '"' || line[v] == '\'') {
			v++
			if end > v && line[end-1] == line[v-1] {
				end--
			}
		}
		if cur < v {
			v = cur
		}
		if end < cur {
			end = cur
		}
		c.path = append(c.path, key)
		c.replace = source.R(ls+v, ls+end)
		c.prefix = line[v:cur]
		return c
	}
	// Key context (or an item's value after "- ").
	end := i
	for end < len(line) && line[end] != ':' && !(line[end] == ' ' && end >= cur) {
		end++
	}
	if end < cur {
		end = cur
	}
	c.key = true
	c.item = len(here) > 0
	c.replace = source.R(ls+i, ls+end)
	c.prefix = line[i:cur]
	c.present = yamlSiblings(t, ls, i, len(here) > 0)
	return c
}

// yamlHop lets yamlParents pass over the definitions of a section that
// come before the cursor's, which it would otherwise walk back through
// line by line (most of a large document) only to skip every one: at
// the line start at, the key line of the cursor's definition (or of one
// before it), a walk looking for a key left of column col, with no dash
// in play, goes on from to, the line after the section's key. The lines
// it passes over belong to the section's block mapping, whose keys are
// at col: YAML indents every line of its content at least that far but
// blank and comment lines, and the walk skips all of those unread. (A
// line of a multi-line quoted or flow scalar may be indented less and
// still parse, yaml.v3 being lenient there: a walk through it read it as
// a key, the hop passes over it as the tree does; see
// TestKeyCompletionPastUnderIndentedScalar.) The zero hop does nothing.
type yamlHop struct {
	at, to, col int
}

// yamlParents walks up from the line starting at ls to find the keys
// enclosing a line whose first token is at column col.
func yamlParents(t source.Text, ls, col int, dashed bool, hop yamlHop) []string {
	var rev []string
	limit := col
	lastDash := false
	for ls > 0 {
		if ls == hop.at && limit == hop.col && !dashed && !lastDash {
			ls = hop.to
		}
		ps := t.LastIndexAny(ls-1, "\n") + 1
		b := t.Slice(ps, ls-1)
		// Skip deeper lines without reading them (most of a document).
		ind := 0
		for ind < len(b) && b[ind] == ' ' {
			ind++
		}
		if ind > limit || ind == len(b) || b[ind] == '#' || b[ind] == '\r' || (ind == limit && !(dashed || lastDash)) {
			ls = ps
			continue
		}
		line := strings.TrimRight(string(b), "\r")
		ls = ps
		pairs := yamlLinePairs(line)
		if len(pairs) == 0 {
			continue
		}
		if pairs[0].col > limit {
			continue
		}
		if pairs[0].col == limit && !(dashed || lastDash) {
			continue
		}
		for j := len(pairs) - 1; j >= 0; j-- {
			p := pairs[j]
			switch {
			case p.col < limit:
			case p.col == limit && (dashed || lastDash) && p.seg != "*" && !p.hasValue:
				// "key:" followed by items at the key's own column.
			default:
				continue
			}
			rev = append(rev, p.seg)
			limit = p.col
			lastDash = p.seg == "*"
			dashed = false
		}
		if limit == 0 && !lastDash {
			break
		}
	}
	out := make([]string, len(rev))
	for i, s := range rev {
		out[len(rev)-1-i] = s
	}
	return out
}

// yamlSiblings collects the keys at column col in the block around the
// line starting at ls (stopping at a line indented less). Below column
// 0 that block lies within the definition holding the line, whose key
// line stops the walk up and the next key line at its column or left
// of it the walk down.
func yamlSiblings(t source.Text, ls, col int, dashed bool) map[string]bool {
	out := map[string]bool{}
	scan := func(line string, up bool) bool {
		pairs := yamlLinePairs(line)
		if len(pairs) == 0 {
			return true
		}
		outside := pairs[0].col < col
		if outside && !up {
			return false
		}
		for _, p := range pairs {
			if p.col == col && p.seg != "*" {
				out[p.seg] = true
			}
		}
		// Going up, the line that starts the mapping ("- key:" or the
		// parent key) ends it.
		return !outside
	}
	// Up.
	for p := ls; p > 0; {
		ps := t.LastIndexAny(p-1, "\n") + 1
		if !scan(strings.TrimRight(t.String(ps, p-1), "\r"), true) {
			break
		}
		p = ps
	}
	// Down. A line's bounds end before a CRLF's "\r": the next line
	// starts after the "\n" at or past them.
	next := func(end int) int {
		if i := t.IndexAny(end, "\n"); i >= 0 {
			return i + 1
		}
		return t.Len() + 1
	}
	_, le := textLine(t, ls)
	for p := next(le); p < t.Len(); {
		_, e := textLine(t, p)
		if !scan(t.String(p, e), false) {
			break
		}
		p = next(e)
	}
	return out
}

// jsonFrame is one open object or array while scanning JSON.
type jsonFrame struct {
	obj       bool
	key       string
	expectKey bool
	keys      map[string]bool
}

// jsonContext reads the structure around off from JSON(C) text with a
// tolerant scanner, from the offset from: the document's start, or a
// definition's opening brace with stack the frames open there (the
// root's and the section's). It reads t up to the end of the cursor's
// line, and after the cursor the keys of its object (jsonKeysAfter).
// ok is false when the scan closes one of stack's frames: what follows
// then depends on the text before from.
func jsonContext(t source.Text, from, off int, stack []*jsonFrame) (c structCtx, ok bool) {
	end := t.IndexAny(off, "\n")
	if end < 0 {
		end = t.Len()
	}
	text, base := t.Slice(from, end), from
	c.json = true
	depth := len(stack)
	rel := off - base
	inStr, strStart, strIsKey := false, 0, false
	i := 0
	for ; i < rel && i < len(text); i++ {
		ch := text[i]
		if inStr {
			switch ch {
			case '\\':
				i++
			case '"':
				inStr = false
				if strIsKey && len(stack) > 0 {
					top := stack[len(stack)-1]
					top.key = string(text[strStart+1 : i])
					top.keys[top.key] = true
					top.expectKey = false
				}
			case '\n':
				inStr = false
			}
			continue
		}
		switch ch {
		case '"':
			inStr, strStart = true, i
			strIsKey = len(stack) > 0 && stack[len(stack)-1].obj && stack[len(stack)-1].expectKey
		case '{':
			stack = append(stack, &jsonFrame{obj: true, expectKey: true, keys: map[string]bool{}})
		case '[':
			stack = append(stack, &jsonFrame{})
		case '}', ']':
			if len(stack) <= depth && depth > 0 {
				return c, false
			}
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case ',':
			if len(stack) > 0 && stack[len(stack)-1].obj {
				stack[len(stack)-1].expectKey = true
			}
		case ':':
			if len(stack) > 0 {
				stack[len(stack)-1].expectKey = false
			}
		case '/':
			if i+1 < len(text) && text[i+1] == '/' {
				for i < len(text) && text[i] != '\n' {
					i++
				}
			} else if i+1 < len(text) && text[i+1] == '*' {
				if j := bytes.Index(text[i+2:], []byte("*/")); j >= 0 && i+2+j+2 <= rel {
					i += 2 + j + 1
				}
			}
		}
	}
	path := func(n int) []string {
		var out []string
		for _, f := range stack[:n] {
			if f.obj {
				out = append(out, f.key)
			} else {
				out = append(out, "*")
			}
		}
		return out
	}
	if len(stack) == 0 {
		return structCtx{json: true, path: nil, key: true, replace: source.R(off, off), present: map[string]bool{}}, true
	}
	top := stack[len(stack)-1]
	wordEnd := func(from int) int {
		j := from
		for j < len(text) && text[j] != '"' && text[j] != '\n' {
			j++
		}
		return j
	}
	if inStr {
		c.quoted = true
		c.replace = source.R(base+strStart+1, base+wordEnd(rel))
		c.prefix = string(text[strStart+1 : rel])
	} else {
		s := rel
		for s > 0 && isWordByte(text[s-1]) {
			s--
		}
		e := rel
		for e < len(text) && isWordByte(text[e]) {
			e++
		}
		c.replace = source.R(base+s, base+e)
		c.prefix = string(text[s:rel])
	}
	if top.obj && (top.expectKey || (inStr && strIsKey)) {
		c.key = true
		c.path = path(len(stack) - 1)
		c.present = top.keys
		jsonKeysAfter(t, off, top.keys)
		return c, true
	}
	if top.obj {
		c.path = append(path(len(stack)-1), top.key)
	} else {
		c.path = path(len(stack))
	}
	return c, true
}

// jsonKeysAfter adds the keys of the object open at off that follow it.
// It reads t a chunk at a time (textBytes), never joined, as far as it
// goes: to the object's end, mostly a few lines on.
func jsonKeysAfter(t source.Text, off int, keys map[string]bool) {
	text := textBytes{t: t}
	depth, inStr, start, expectKey := 0, false, 0, false
	// Skip to the end of a string the cursor is in.
	for i := off; i < t.Len(); i++ {
		ch := text.at(i)
		if inStr {
			switch ch {
			case '\\':
				i++
			case '"':
				inStr = false
				if depth == 0 && expectKey {
					j := i + 1
					for j < t.Len() && isSpaceByte(text.at(j)) {
						j++
					}
					if j < t.Len() && text.at(j) == ':' {
						keys[t.String(start+1, i)] = true
					}
				}
			}
			continue
		}
		switch ch {
		case '"':
			inStr, start = true, i
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return
			}
			depth--
		case ',':
			if depth == 0 {
				expectKey = true
			}
		case ':':
			if depth == 0 {
				expectKey = false
			}
		}
	}
}

// textBytes reads the bytes of a Text in order, a chunk at a time.
type textBytes struct {
	t     source.Text
	at0   int
	chunk []byte
}

// textChunk is how many bytes textBytes reads at once.
const textChunk = 4 << 10

// at returns the byte at i (0 <= i < Len).
func (r *textBytes) at(i int) byte {
	if i < r.at0 || i >= r.at0+len(r.chunk) {
		r.at0, r.chunk = i, r.t.Slice(i, i+textChunk)
	}
	return r.chunk[i-r.at0]
}

func isWordByte(c byte) bool {
	return c == '_' || c == '-' || c == '/' || c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
