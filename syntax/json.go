package syntax

import (
	"fmt"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/blueprint-ls/blueprint-ls/internal/slab"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// maxDepth bounds nesting so hostile input cannot exhaust the stack.
const maxDepth = 5000

// ParseJSON parses a JSON document, or a JSONC one (comments and trailing
// commas allowed) when jsonc is set. It reports every syntax error it can,
// recovering after each, and returns whatever tree it could build. The
// File keeps content (its Text, and the values of its scalars): content
// must not change afterwards.
func ParseJSON(content []byte, jsonc bool) *File {
	return parseJSONSplitting(content, nil, jsonc, splitMin)
}

// parseJSONSplitting is ParseJSON, reading a text of at least split
// bytes in two halves when it can (parseJSONSplit; the tests compare),
// with content's mapper m when it is made already (nil: made here).
func parseJSONSplitting(content []byte, m *source.Mapper, jsonc bool, split int) *File {
	if f := parseJSONSplit(content, m, jsonc, split); f != nil {
		return f
	}
	return parseJSONWhole(content, m, jsonc)
}

// parseJSONWhole is ParseJSON on one core, with content's mapper m when
// it is made already (nil: made here).
func parseJSONWhole(content []byte, m *source.Mapper, jsonc bool) *File {
	// A whole parse builds its nodes from slabs and takes the values of
	// strings without escapes, numbers and literals as substrings of the
	// text (issue 36: no allocation per token, and no copy of the text).
	p := &jsonParser{src: content, jsonc: jsonc, slabs: &nodeSlabs{}, text: textString(content), whole: true}
	return parseJSONMapped(content, p, mapperOf(m, content))
}

// parseJSONMapped is parseJSONWith given content's mapper (the first
// half of a split parse is given an empty one: nothing reads its lines).
func parseJSONMapped(content []byte, p *jsonParser, m *source.Mapper) (f *File) {
	jsonc := p.jsonc
	f = &File{Format: JSON, Mapper: m}
	f.Text = f.Mapper.Text()
	if jsonc {
		f.Format = JSONC
	}
	defer f.noteSyntax()
	defer recoverInto(f, codeJSONSyntax)
	if len(content) >= 3 && string(content[:3]) == string(utf8BOM) {
		p.pos = 3
	}
	p.skipSpace()
	if p.pos >= len(p.src) {
		p.errorf(source.R(p.pos, p.pos), "expected a JSON value, found end of input")
	} else {
		f.Root = p.value(0)
		p.skipSpace()
		if p.pos < len(p.src) {
			p.errorf(p.tokenRange(p.pos), "unexpected %s after the top-level value", p.describe(p.pos))
		}
	}
	source.SortDiagnostics(p.diags)
	f.Diagnostics = p.diags
	return f
}

type jsonParser struct {
	src   []byte
	pos   int
	jsonc bool
	diags []source.Diagnostic

	// whole is set for a whole parse: its nodes come from slabs and the
	// values of its scalars are substrings of text, a copy of src. A
	// splice's parser (reparse_json.go) allocates the few nodes it makes
	// one by one and copies their values (slabs then stays unused, but
	// never nil).
	whole bool
	slabs *nodeSlabs
	text  string
	// entries and items hold the members and elements of the objects
	// and arrays being read, innermost last; each collection takes its
	// own off the top when it ends.
	entries []*Entry
	items   []Node
	// mb builds the value and map of a string with escapes.
	mb mapBuilder
	// decodeAll sends every string through the decoding loop, the
	// shortcut's reference (TestJSONShortcutsAgree).
	decodeAll bool
}

// substr returns the text of src[start:end].
func (p *jsonParser) substr(start, end int) string {
	if p.whole {
		return p.text[start:end]
	}
	return string(p.src[start:end])
}

// carveNode returns a zero T, from slab in a whole parse.
func carveNode[T any](whole bool, slab *slab.Of[T]) *T {
	if whole {
		return slab.One()
	}
	return new(T)
}

// takeTop returns what *stack holds above mark, copied to its size (from
// slab in a whole parse; nil when nothing), and pops it.
func takeTop[T any](whole bool, slab *slab.Of[T], stack *[]T, mark int) []T {
	var out []T
	if top := (*stack)[mark:]; len(top) > 0 {
		if whole {
			out = slab.CopyOf(top)
		} else {
			out = append(make([]T, 0, len(top)), top...)
		}
	}
	clear((*stack)[mark:])
	*stack = (*stack)[:mark]
	return out
}

func (p *jsonParser) newScalar() *Scalar { return carveNode(p.whole, &p.slabs.scalars) }

// maps is the slab of the maps scalars keep, nil outside a whole parse.
func (p *jsonParser) maps() *slab.Of[scalarMap] {
	if p.whole {
		return &p.slabs.maps
	}
	return nil
}

// verbatim returns a scalar whose value is the text at r.
func (p *jsonParser) verbatim(r source.Range, tag ScalarTag, style Style) *Scalar {
	s := p.newScalar()
	// Field by field: the new scalar is zero, and a whole-struct store
	// costs a bulk write barrier while the collector runs.
	s.SetRanges(r, r)
	s.Tag, s.Style = tag, style
	s.Value = p.substr(r.Start, r.End)
	if !s.identityDerived() {
		s.setMap(source.Identity(r.Start, r.Len()), p.maps())
	}
	return s
}

func (p *jsonParser) newEntry(key *Scalar) *Entry {
	e := carveNode(p.whole, &p.slabs.entries)
	e.Key = key
	return e
}

func (p *jsonParser) errorf(r source.Range, format string, args ...any) {
	// One error per offset: recovery must not repeat itself.
	if n := len(p.diags); n > 0 && p.diags[n-1].Range.Start == r.Start {
		return
	}
	p.diags = append(p.diags, codeJSONSyntax.New(r, format, args...))
}

// skipSpace skips white space and comments; comments are errors in plain
// JSON but are skipped all the same.
func (p *jsonParser) skipSpace() {
	for p.pos < len(p.src) {
		switch c := p.src[p.pos]; c {
		case ' ', '\t', '\r', '\n':
			p.pos++
		case '/':
			start := p.pos
			if p.pos+1 >= len(p.src) || (p.src[p.pos+1] != '/' && p.src[p.pos+1] != '*') {
				return
			}
			if p.src[p.pos+1] == '/' {
				for p.pos < len(p.src) && p.src[p.pos] != '\n' && p.src[p.pos] != '\r' {
					p.pos++
				}
			} else {
				p.pos += 2
				closed := false
				for p.pos+1 < len(p.src) {
					if p.src[p.pos] == '*' && p.src[p.pos+1] == '/' {
						p.pos += 2
						closed = true
						break
					}
					p.pos++
				}
				if !closed {
					p.pos = len(p.src)
					p.errorf(source.R(start, start+2), "unterminated block comment: expected '*/'")
					continue
				}
			}
			if !p.jsonc {
				p.errorf(source.R(start, p.pos), "comments are not allowed in JSON (use a .jsonc file)")
			}
		default:
			return
		}
	}
}

// tokenRange returns the range of the token starting at off: a word for
// letters and digits, otherwise one character; empty at the end of input.
func (p *jsonParser) tokenRange(off int) source.Range {
	if off >= len(p.src) {
		return source.R(len(p.src), len(p.src))
	}
	end := off
	if p.src[off] == '"' {
		// A whole string, as far as its line goes.
		for end++; end < len(p.src) && p.src[end] != '"' && p.src[end] != '\n'; end++ {
			if p.src[end] == '\\' && end+1 < len(p.src) {
				end++
			}
		}
		return source.R(off, min(end+1, len(p.src)))
	}
	for end < len(p.src) && isWordByte(p.src[end]) {
		end++
	}
	if end == off {
		_, size := utf8.DecodeRune(p.src[off:])
		end = off + size
	}
	return source.R(off, end)
}

func isWordByte(c byte) bool {
	return c == '_' || c == '-' || c == '+' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func (p *jsonParser) describe(off int) string {
	if off >= len(p.src) {
		return "end of input"
	}
	r := p.tokenRange(off)
	return fmt.Sprintf("%q", p.src[r.Start:r.End])
}

// startsValue reports whether c can begin a JSON value (or a bare word the
// parser recovers as one).
func startsValue(c byte) bool {
	return c == '{' || c == '[' || c == '"' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func (p *jsonParser) value(depth int) Node {
	if depth > maxDepth {
		p.errorf(p.tokenRange(p.pos), "document nested too deeply")
		p.pos = len(p.src)
		return nil
	}
	if p.pos >= len(p.src) {
		p.errorf(source.R(p.pos, p.pos), "expected a JSON value, found end of input")
		return nil
	}
	switch c := p.src[p.pos]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		return p.str()
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		return p.literal()
	case c == '\'':
		// A single-quoted string: a common slip, read as a string.
		p.errorf(p.tokenRange(p.pos), "strings must use double quotes")
		return p.str()
	}
	p.errorf(p.tokenRange(p.pos), "expected a JSON value, found %s", p.describe(p.pos))
	return nil
}

func (p *jsonParser) object(depth int) *Mapping {
	m := carveNode(p.whole, &p.slabs.mappings)
	m.Flow, m.Rng = true, source.R(p.pos, p.pos+1)
	mark := len(p.entries)
	p.members(m, depth)
	m.Entries = takeTop(p.whole, &p.slabs.entryPs, &p.entries, mark)
	return m
}

// members reads the members of object m, from its '{' to its '}' or
// wherever it cannot go on, onto the entries stack.
func (p *jsonParser) members(m *Mapping, depth int) {
	p.pos++ // {
	for {
		p.skipSpace()
		if p.pos >= len(p.src) {
			p.errorf(source.R(p.pos, p.pos), "expected '}' to close the object, found end of input")
			return
		}
		c := p.src[p.pos]
		if c == '}' {
			p.pos++
			m.Rng.End = p.pos
			return
		}
		var key *Scalar
		switch {
		case c == '"':
			key = p.str()
		case c == '\'':
			p.errorf(p.tokenRange(p.pos), "strings must use double quotes")
			key = p.str()
		case isWordByte(c):
			r := p.tokenRange(p.pos)
			p.errorf(r, "object keys must be double-quoted strings")
			key = p.verbatim(r, 0, JSONString)
			p.pos = r.End
		default:
			p.errorf(p.tokenRange(p.pos), "expected a string key or '}' in object, found %s", p.describe(p.pos))
			if !p.recover('}') {
				m.Rng.End = p.pos
				return
			}
			continue
		}
		m.Rng.End = key.Rng.End
		e := p.newEntry(key)
		p.entries = append(p.entries, e)
		p.skipSpace()
		if p.pos < len(p.src) && p.src[p.pos] == ':' {
			p.pos++
			p.skipSpace()
		} else {
			p.errorf(p.tokenRange(p.pos), "expected ':' after object key, found %s", p.describe(p.pos))
			if p.pos >= len(p.src) || !startsValue(p.src[p.pos]) {
				if !p.recover('}') {
					return
				}
				continue
			}
		}
		if p.pos < len(p.src) && (p.src[p.pos] == ',' || p.src[p.pos] == '}') {
			p.errorf(p.tokenRange(p.pos), "expected a value after ':', found %s", p.describe(p.pos))
		} else {
			e.Value = p.value(depth + 1)
			if e.Value != nil {
				m.Rng.End = e.Value.Range().End
			}
		}
		p.skipSpace()
		if p.pos >= len(p.src) {
			p.errorf(source.R(p.pos, p.pos), "expected ',' or '}' after object member, found end of input")
			return
		}
		switch p.src[p.pos] {
		case ',':
			p.comma('}')
		case '}':
			p.pos++
			m.Rng.End = p.pos
			return
		default:
			p.errorf(p.tokenRange(p.pos), "expected ',' or '}' after object member, found %s", p.describe(p.pos))
			// A missing comma: carry on with the next member if one starts here.
			if p.src[p.pos] != '"' {
				if !p.recover('}') {
					return
				}
			}
		}
	}
}

// comma consumes a ',' between members or elements; in strict JSON one
// right before close is an error.
func (p *jsonParser) comma(close byte) {
	at := p.pos
	p.pos++
	p.skipSpace()
	if p.pos < len(p.src) && p.src[p.pos] == close && !p.jsonc {
		p.errorf(source.R(at, at+1), "trailing commas are not allowed in JSON (use a .jsonc file)")
	}
}

func (p *jsonParser) array(depth int) *Sequence {
	s := carveNode(p.whole, &p.slabs.seqs)
	s.Flow, s.Rng = true, source.R(p.pos, p.pos+1)
	mark := len(p.items)
	p.elements(s, depth)
	s.Items = takeTop(p.whole, &p.slabs.items, &p.items, mark)
	return s
}

// elements reads the elements of array s, from its '[' to its ']' or
// wherever it cannot go on, onto the items stack.
func (p *jsonParser) elements(s *Sequence, depth int) {
	p.pos++ // [
	for {
		p.skipSpace()
		if p.pos >= len(p.src) {
			p.errorf(source.R(p.pos, p.pos), "expected ']' to close the array, found end of input")
			return
		}
		if p.src[p.pos] == ']' {
			p.pos++
			s.Rng.End = p.pos
			return
		}
		if c := p.src[p.pos]; !startsValue(c) && c != '\'' {
			p.errorf(p.tokenRange(p.pos), "expected a value or ']' in array, found %s", p.describe(p.pos))
			if !p.recover(']') {
				s.Rng.End = p.pos
				return
			}
			continue
		}
		if v := p.value(depth + 1); v != nil {
			p.items = append(p.items, v)
			s.Rng.End = v.Range().End
		}
		p.skipSpace()
		if p.pos >= len(p.src) {
			p.errorf(source.R(p.pos, p.pos), "expected ',' or ']' after array element, found end of input")
			return
		}
		switch p.src[p.pos] {
		case ',':
			p.comma(']')
		case ']':
			p.pos++
			s.Rng.End = p.pos
			return
		default:
			p.errorf(p.tokenRange(p.pos), "expected ',' or ']' after array element, found %s", p.describe(p.pos))
			if !startsValue(p.src[p.pos]) {
				if !p.recover(']') {
					return
				}
			}
		}
	}
}

// recover skips a bad token and anything up to the next ',' (consumed) or
// the closing bracket (left in place). It reports false when the collection
// cannot continue: end of input, or a closing bracket of the other kind
// (left for an enclosing collection).
func (p *jsonParser) recover(closer byte) bool {
	for p.pos < len(p.src) {
		switch c := p.src[p.pos]; c {
		case ',':
			p.pos++
			return true
		case closer:
			return true
		case '}', ']':
			return false
		case '"':
			p.str()
			continue
		}
		p.pos++
	}
	return false
}

func (p *jsonParser) literal() Node {
	r := p.tokenRange(p.pos)
	p.pos = r.End
	s := p.verbatim(r, 0, JSONLiteral)
	word := s.Value
	switch word {
	case "true", "false":
		s.Tag = BoolTag
	case "null":
		s.Tag = NullTag
	default:
		p.errorf(r, "expected a JSON value, found %q (strings must be double-quoted)", word)
		s.Style = JSONString
	}
	return s
}

func (p *jsonParser) number() Node {
	start := p.pos
	end := start
	for end < len(p.src) && isWordByte(p.src[end]) {
		end++
	}
	p.pos = end
	text := p.src[start:end]
	tag, ok := jsonNumber(text)
	r := source.R(start, end)
	if !ok {
		p.errorf(r, "invalid number %q", text)
	}
	return p.verbatim(r, tag, JSONLiteral)
}

// jsonNumber validates a JSON number and says whether it is an integer.
func jsonNumber(b []byte) (ScalarTag, bool) {
	i := 0
	digits := func() int {
		n := 0
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(b) && b[i] == '-' {
		i++
	}
	if i < len(b) && b[i] == '0' {
		i++
	} else if digits() == 0 {
		return IntTag, false
	}
	tag := IntTag
	if i < len(b) && b[i] == '.' {
		i++
		tag = FloatTag
		if digits() == 0 {
			return tag, false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		tag = FloatTag
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if digits() == 0 {
			return tag, false
		}
	}
	return tag, i == len(b)
}

// str scans a string starting at the quote under p.pos, decoding escapes
// and building the decoded→source map. An unterminated string ends at the
// end of its line.
func (p *jsonParser) str() *Scalar {
	quote := p.src[p.pos]
	start := p.pos
	// Most strings hold no escape: their value is their text.
	run := start + 1
	if quote == '"' {
		for run < len(p.src) && !jsonStrStop[p.src[run]] {
			run++
		}
	} else {
		for run < len(p.src) {
			if c := p.src[run]; c == quote || c == '\\' || c < 0x20 {
				break
			}
			run++
		}
	}
	if run < len(p.src) && p.src[run] == quote && !p.decodeAll {
		p.pos = run + 1
		s := p.verbatim(source.R(start+1, run), StringTag, JSONString)
		s.SetRanges(source.R(start, run+1), source.R(start+1, run))
		return s
	}
	p.pos++
	mb := &p.mb
	mb.reset(p.pos)
	closed := false
	for {
		run := p.pos
		for run < len(p.src) {
			if c := p.src[run]; c == quote || c == '\\' || c < 0x20 {
				break
			}
			run++
		}
		mb.verbatim(p.src, p.pos, run-p.pos)
		p.pos = run
		if p.pos >= len(p.src) || p.src[p.pos] == '\n' || p.src[p.pos] == '\r' {
			p.errorf(source.R(start, start+1), "unterminated string: expected a closing '%c'", quote)
			break
		}
		c := p.src[p.pos]
		if c == quote {
			p.pos++
			closed = true
			break
		}
		if c < 0x20 {
			p.errorf(source.R(p.pos, p.pos+1), "control character %U must be escaped in a string", rune(c))
			mb.verbatim(p.src, p.pos, 1)
			p.pos++
			continue
		}
		esc := p.pos
		if p.pos+1 >= len(p.src) {
			p.pos++
			continue
		}
		e := p.src[p.pos+1]
		p.pos += 2
		var out rune = -1
		switch e {
		case '"', '\\', '/':
			out = rune(e)
		case 'b':
			out = '\b'
		case 'f':
			out = '\f'
		case 'n':
			out = '\n'
		case 'r':
			out = '\r'
		case 't':
			out = '\t'
		case 'u':
			r1, ok := p.hex4(p.pos)
			if !ok {
				p.errorf(source.R(esc, min(p.pos+4, len(p.src))), "invalid \\u escape: expected four hexadecimal digits")
				out = utf8.RuneError
				break
			}
			p.pos += 4
			out = r1
			if utf16.IsSurrogate(r1) {
				out = utf8.RuneError
				if r1 < 0xDC00 && p.pos+1 < len(p.src) && p.src[p.pos] == '\\' && p.src[p.pos+1] == 'u' {
					if r2, ok := p.hex4(p.pos + 2); ok {
						if r := utf16.DecodeRune(r1, r2); r != utf8.RuneError {
							out = r
							p.pos += 6
						}
					}
				}
			}
		default:
			if e == '\'' && quote == '\'' {
				out = '\''
				break
			}
			p.errorf(source.R(esc, p.pos), "invalid escape sequence '\\%c'", e)
			out = rune(e)
			if e >= utf8.RuneSelf {
				// Keep the bytes of a multi-byte character whole.
				r, size := utf8.DecodeRune(p.src[esc+1:])
				out = r
				p.pos = esc + 1 + size
			}
		}
		mb.escape(out, esc, p.pos-esc)
	}
	r := source.R(start, p.pos)
	vr := source.R(start+1, p.pos)
	if closed {
		vr.End--
	}
	s := p.newScalar()
	s.SetRanges(r, vr)
	s.Tag, s.Style = StringTag, JSONString
	s.Value = mb.String()
	m := mb.Map()
	// The builder's segments are its own, reused by the next string.
	if shared := source.SharedIdentity(len(s.Value)); shared != nil && source.IsIdentity(m.Segments, len(s.Value)) {
		m.Segments = shared
	}
	if segs := m.Segments; len(segs) > 0 && &segs[0] == &mb.segs[0] {
		m.Segments = takeTop(p.whole, &p.slabs.segs, &segs, 0)
	}
	s.setMap(m, p.maps())
	return s
}

// jsonStrStop marks the bytes that end a double-quoted string's run of
// text: the quote, a backslash and the control characters.
var jsonStrStop = func() (t [256]bool) {
	for c := range 0x20 {
		t[c] = true
	}
	t['"'], t['\\'] = true, true
	return t
}()

func (p *jsonParser) hex4(off int) (rune, bool) {
	if off+4 > len(p.src) {
		return 0, false
	}
	var r rune
	for _, c := range p.src[off : off+4] {
		d := hexVal(c)
		if d < 0 {
			return 0, false
		}
		r = r<<4 | rune(d)
	}
	return r, true
}

func hexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}
