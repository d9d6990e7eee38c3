package syntax

import (
	"encoding/binary"
	"math/bits"
)

// PadPoints returns, in order, where the key line of every Open
// definition of the YAML text content ends (before its line break):
// every offset p at which DefinitionAt(Parse(content), p, p) gives an
// Open definition whose KeyLineEnd is p. It reads the text alone, in one
// pass and without a parse, so that a language server can pad every
// definition of a document it has just been sent before anything is
// parsed (see lsp/slack.go).
//
// It is sound: every offset it returns is such a p when the text parses
// clean, and spaces inserted at any of them (at all at once) change no
// value, so the padded text parses to the same tree but for offsets.
// That holds because it tokenizes as yaml.v3's scanner does (block
// indentation levels, simple keys, flow levels; quoted scalars across
// lines, plain scalars continued on deeper lines, block scalars by their
// content indentation), so a line it takes for a key line is one: never
// a line inside a block scalar (which keeps trailing spaces), a quoted
// scalar, a flow collection or a plain scalar's continuation. A key line
// is a key (plain or quoted), first on its line, directly in the block
// mapping that is the value of a top-level key whose own line holds
// nothing after its ':' but a comment; after the key only spaces, ':',
// spaces and "\n" or "\r\n". Its definition is Open when the next token
// lies deeper than the key, or is a '-' beside it (a sequence indented
// no deeper than its key).
//
// Where the text is something the scan does not model, it returns nil:
// anchors, aliases and tags (a blueprint may not hold them), directives,
// a second document, explicit keys ('?') and values with no key, a
// collection as a key, a byte order mark inside the text, a tab where
// yaml.v3 refuses one, a key of more than 1024 bytes, and any text
// yaml.v3 would reject on the way (a scalar where a key must be, an
// unclosed quote or bracket ...). A "..." document end ends the scan.
// What it returns for a text that does not parse clean means nothing.
func PadPoints(content []byte) []int {
	s := padScan{src: content, pending: -1, sectionKey: -1, simpleOK: true, fresh: true}
	s.stack = s.levels[:0]
	if len(content) >= 3 && content[0] == 0xEF && content[1] == 0xBB && content[2] == 0xBF {
		s.i, s.line = 3, 3 // the reader drops a leading byte order mark
	}
	if !s.run() {
		return nil
	}
	return s.out
}

// padLevel is one block indentation level (yaml.v3's indent stack): the
// column of a block mapping or sequence, and whether it is the mapping
// that is a top-level key's value (a section).
type padLevel struct {
	col     int
	seq     bool
	section bool
}

// padKey is the simple key yaml.v3 would keep at flow level 0: a
// scalar or flow collection that becomes a key if a ':' follows on its
// line.
type padKey struct {
	start, end int // its text ([start, end): the quotes in, trailing blanks out)
	line       int // where its line starts
	ok         bool
	flow       bool // a flow collection, not a scalar
	// required says it starts at the column of the block collection it
	// is in: it must be a key (a ':' follows on its line), or the text
	// does not parse.
	required bool
}

type padScan struct {
	src      []byte
	i        int  // the scan position
	line     int  // where the line holding i starts
	fresh    bool // no token yet on that line
	flow     int  // the flow level
	simpleOK bool // yaml.v3's simple_key_allowed
	started  bool // a token was seen (a "---" now starts a second document)
	stack    []padLevel
	levels   [16]padLevel
	key      padKey

	// expectSection is set by a top-level key's ':' until the next
	// token; sectionKey is where that token starts when it may be the
	// first key of the section's mapping.
	expectSection bool
	sectionKey    int
	// pending is the end of a key line whose definition is Open if the
	// next token is deeper than pendingCol (or a '-' there).
	pending, pendingCol int
	out                 []int
}

func (s *padScan) top() int {
	if len(s.stack) == 0 {
		return -1
	}
	return s.stack[len(s.stack)-1].col
}

// run scans the whole text; false means it met something it does not
// model.
func (s *padScan) run() bool {
	src := s.src
	for {
		if i := s.i; i >= len(src) || src[i] <= ' ' || src[i] == '#' || src[i] >= 0xC2 {
			if !s.skipToToken() {
				return false
			}
		}
		if s.i >= len(src) {
			// An unclosed flow collection or a key with no ':' does not
			// parse: nothing is padded (cheap to tell, and a language
			// server would otherwise pad a text it must then unpad).
			return s.flow == 0 && !(s.key.ok && s.key.required)
		}
		i := s.i
		col := i - s.line
		c := src[i]
		if s.flow == 0 {
			for len(s.stack) > 0 && s.top() > col {
				s.stack = s.stack[:len(s.stack)-1]
			}
			if s.key.ok && s.key.required && (c != ':' || s.line != s.key.line || !s.blankz(i+1)) {
				return false // yaml.v3: "could not find expected ':'"
			}
		}
		if col == 0 {
			switch {
			case c == '%':
				return false // a directive
			case s.marker(i, '-'):
				if s.started || s.flow > 0 {
					return false // a second document
				}
				s.started, s.simpleOK, s.key.ok, s.fresh = true, false, false, false
				s.i += 3
				continue
			case s.marker(i, '.'):
				// The document ends; nothing after it is padded.
				return s.flow == 0
			}
		}
		s.started = true
		if s.pending >= 0 {
			if col > s.pendingCol || col == s.pendingCol && c == '-' && s.blankz(i+1) {
				s.out = append(s.out, s.pending)
			}
			s.pending = -1
		}
		if s.expectSection {
			s.sectionKey = -1
			if s.fresh && s.flow == 0 {
				s.sectionKey = i
			}
			s.expectSection = false
		}
		s.fresh = false
		if !s.token(c, i, col) {
			return false
		}
	}
}

// token scans the token starting with c at i, in column col.
func (s *padScan) token(c byte, i, col int) bool {
	switch {
	case plainStart[c]:
		s.saveKey(i, false)
		end, ok := s.plain()
		if !ok {
			return false
		}
		s.keyEnd(i, end)
	case c == '[' || c == '{':
		s.saveKey(i, true)
		s.flow++
		s.simpleOK = true
		s.i++
	case c == ']' || c == '}':
		if s.flow == 0 {
			return false
		}
		s.flow--
		s.simpleOK = false
		s.i++
	case c == ',':
		if s.flow == 0 {
			return false
		}
		s.simpleOK = true
		s.i++
	case c == '-' && s.blankz(i+1):
		if s.flow > 0 || !s.simpleOK {
			return false
		}
		s.roll(col, true)
		s.key.ok = false
		s.simpleOK = true
		s.i++
	case c == '?' && (s.flow > 0 || s.blankz(i+1)):
		return false // an explicit key
	case c == ':' && (s.flow > 0 || s.blankz(i+1)):
		return s.value(i)
	case c == '*' || c == '&' || c == '!' || c == '%' || c == '@' || c == '`':
		return false // anchors, aliases and tags are not allowed; the rest starts no token
	case c == '|' || c == '>':
		if s.flow > 0 {
			return false
		}
		s.key.ok = false
		return s.block()
	case c == '\'' || c == '"':
		s.saveKey(i, false)
		if !s.quoted(c) {
			return false
		}
		s.keyEnd(i, s.i)
		s.simpleOK = false
	case c == '-' && !s.blank(i+1) || s.flow == 0 && (c == '?' || c == ':') && !s.blankz(i+1):
		s.saveKey(i, false)
		end, ok := s.plain()
		if !ok {
			return false
		}
		s.keyEnd(i, end)
	default:
		return false // a tab, or an indicator yaml.v3 rejects here
	}
	return true
}

// plainStart holds the bytes that start a plain scalar whatever
// follows them (a line break's first byte among them is no matter: the
// scan is past line breaks when it reads a token).
var plainStart = func() (t [256]bool) {
	for c := range t {
		t[c] = true
	}
	for _, c := range []byte(" \t\n\r-?:,[]{}#&*!|>'\"%@`") {
		t[c] = false
	}
	return t
}()

// saveKey notes a possible simple key at flow level 0.
func (s *padScan) saveKey(i int, flow bool) {
	if s.flow == 0 && s.simpleOK {
		// Field by field: a struct literal is built on the stack and
		// copied, a wide load of narrow stores the CPU stalls on.
		k := &s.key
		k.start, k.end, k.line, k.ok, k.flow = i, i, s.line, true, flow
		k.required = i-s.line == s.top()
	}
}

// keyEnd records where the scalar that may be the simple key ends.
func (s *padScan) keyEnd(start, end int) {
	if s.key.ok && s.key.start == start {
		s.key.end = end
	}
}

// roll pushes a block level at col when it is deeper than the current
// one, and reports whether it did.
func (s *padScan) roll(col int, seq bool) bool {
	if s.flow > 0 || s.top() >= col {
		return false
	}
	s.stack = append(s.stack, padLevel{col: col, seq: seq})
	return true
}

// value handles the ':' at i. In block context it must end a simple key
// on its line, which makes (or continues) a block mapping at the key's
// column; a top-level key announces a section, a key of a section's
// mapping may hold an Open definition.
func (s *padScan) value(i int) bool {
	s.i = i + 1
	if s.flow > 0 {
		s.simpleOK = false
		return true
	}
	k := &s.key // not a copy: a wide load of narrow stores stalls
	if !k.ok || k.line != s.line || i-k.start > 1024 || k.flow {
		return false // a complex key or value, or an error
	}
	k.ok, s.simpleOK = false, false
	col := k.start - k.line
	pushed := s.roll(col, false)
	switch len(s.stack) {
	case 1:
		if !s.stack[0].seq && s.first(k) {
			s.expectSection = true
		}
	case 2:
		if pushed && k.start == s.sectionKey && !s.stack[0].seq {
			s.stack[1].section = true
		}
		if sec := s.stack[1]; sec.section && !sec.seq && col == sec.col && s.first(k) {
			if end, ok := s.keyLineEnd(k.end, i); ok {
				s.pending, s.pendingCol = end, col
			}
		}
	}
	return true
}

// first reports whether k is the first token on its line: only spaces
// lie before it (a tab there is no indentation yaml.v3 takes).
func (s *padScan) first(k *padKey) bool {
	for _, c := range s.src[k.line:k.start] {
		if c != ' ' {
			return false
		}
	}
	return true
}

// keyLineEnd reports where a key line ends when only spaces lie between
// the key's end and its ':' at colon and between that and "\n" or
// "\r\n".
func (s *padScan) keyLineEnd(keyEnd, colon int) (int, bool) {
	src := s.src
	for j := keyEnd; j < colon; j++ {
		if src[j] != ' ' {
			return 0, false
		}
	}
	j := colon + 1
	for j < len(src) && src[j] == ' ' {
		j++
	}
	switch {
	case j < len(src) && src[j] == '\n':
		return j, true
	case j+1 < len(src) && src[j] == '\r' && src[j+1] == '\n':
		return j, true
	}
	return 0, false
}

// skipToToken skips blanks, comments and line breaks to the next token
// as yaml.v3 does: a tab only where a simple key cannot start.
func (s *padScan) skipToToken() bool {
	src := s.src
	i := s.i
	tabs := s.flow > 0 || !s.simpleOK
	for {
		if i == s.line && i+2 < len(src) && src[i] == 0xEF && src[i+1] == 0xBB && src[i+2] == 0xBF {
			return false // yaml.v3 skips it and counts it as a column
		}
		for i < len(src) && (src[i] == ' ' || src[i] == '\t' && tabs) {
			i++
		}
		if i < len(src) && src[i] == '#' {
			i = s.lineEnd(i)
		}
		if i >= len(src) {
			break
		}
		n := 1
		if c := src[i]; c != '\n' {
			if c != '\r' && c < 0xC2 {
				break
			}
			if n = breakLen(src, i); n == 0 {
				break
			}
		}
		i += n
		s.line, s.fresh = i, true
		if s.flow == 0 {
			s.simpleOK, tabs = true, false
		}
	}
	s.i = i
	return true
}

// lineEnd returns where the line holding i ends: its line break, or the
// end of the text.
func (s *padScan) lineEnd(i int) int {
	src := s.src
	for i < len(src) {
		switch c := src[i]; {
		case c == '\n' || c == '\r':
			return i
		case c >= 0xC2 && breakLen(src, i) > 0:
			return i
		}
		i++
	}
	return i
}

func (s *padScan) blank(i int) bool { return i < len(s.src) && isBlank(s.src[i]) }

// blankz reports a blank, a line break or the end of the text at i.
func (s *padScan) blankz(i int) bool {
	return i >= len(s.src) || isBlank(s.src[i]) || breakLen(s.src, i) > 0
}

// marker reports a document marker ("---" or "...", c thrice) at i,
// which starts a line.
func (s *padScan) marker(i int, c byte) bool {
	src := s.src
	return i+2 < len(src) && src[i] == c && src[i+1] == c && src[i+2] == c && s.blankz(i+3)
}

// quoted moves past the quoted scalar opening at s.i, across lines;
// false when it is never closed or a document marker interrupts it.
func (s *padScan) quoted(q byte) bool {
	src := s.src
	i, line := s.i+1, s.line
	for i < len(src) {
		if i == line && (s.marker(i, '-') || s.marker(i, '.')) {
			return false
		}
		switch c := src[i]; {
		case c == q:
			if q == '\'' && i+1 < len(src) && src[i+1] == '\'' {
				i += 2
				continue
			}
			s.i, s.line = i+1, line
			return true
		case c == '\\' && q == '"':
			if n := breakLen(src, i+1); n > 0 {
				i += 1 + n
				line = i
				continue
			}
			i += 2
		case c == '\n' || c == '\r' || c >= 0xC2:
			if n := breakLen(src, i); n > 0 {
				i += n
				line = i
				continue
			}
			i++
		default:
			i = quotedRun(src, i+1, q)
		}
	}
	return false
}

// plainStops are the bytes that may end a plain scalar's run of
// characters, or start a line break.
var plainStops = func() (t [256]bool) {
	for _, c := range []byte{' ', '\t', '\n', '\r', ':', ',', '?', '[', ']', '{', '}', 0xC2, 0xE2} {
		t[c] = true
	}
	return t
}()

// plain moves past the plain scalar starting at s.i as yaml.v3 does: on
// deeper lines it goes on (in a flow collection on any line), up to a
// ": ", a " #", in a flow collection a flow indicator, a document
// marker. It returns where its text ends; false when a tab breaks the
// indentation of a line it continues on.
func (s *padScan) plain() (int, bool) {
	src, flow := s.src, s.flow > 0
	indent := s.top() + 1
	i, line, end := s.i, s.line, s.i
	leading := false
	for {
		if i == line && (s.marker(i, '-') || s.marker(i, '.')) {
			break
		}
		if i < len(src) && src[i] == '#' {
			break
		}
		from := i
	text:
		for i < len(src) {
			if !flow {
				if i = plainRun(src, i); i >= len(src) {
					break
				}
			}
			c := src[i]
			if !plainStops[c] {
				i++
				continue
			}
			switch {
			case c == ' ' || c == '\t' || c == '\n' || c == '\r':
				break text
			case c == ':':
				if s.blankz(i + 1) {
					break text
				}
			case c >= 0xC2:
				if breakLen(src, i) > 0 {
					break text
				}
			default: // , ? [ ] { }
				if flow {
					break text
				}
			}
			i++
		}
		if i > from {
			end, leading = i, false
		}
		// Blanks and line breaks: the scalar goes on after them only on
		// a line deep enough (any line in a flow collection).
		from = i
	space:
		for i < len(src) {
			switch c := src[i]; {
			case c == ' ':
				i = skipSpaces(src, i+1)
			case c == '\n':
				i++
				line, leading = i, true
			case c == '\t':
				if leading && i-line < indent {
					return 0, false
				}
				i++
			case c == '\r' || c >= 0xC2:
				n := breakLen(src, i)
				if n == 0 {
					break space
				}
				i += n
				line, leading = i, true
			default:
				break space
			}
		}
		if i == from || !flow && i-line < indent {
			break
		}
	}
	s.i, s.line = i, line
	s.fresh, s.simpleOK = leading, leading
	return end, true
}

// plainRun returns the first offset from i holding a byte that may end a
// plain scalar's run of characters in block context: a blank, a line
// break's first byte, ':' or any byte past ASCII (the caller looks
// closer). Most of a blueprint's text is such runs.
func plainRun(src []byte, i int) int {
	for i+8 <= len(src) {
		x := binary.LittleEndian.Uint64(src[i:])
		colon := x ^ ones*':'
		// A byte below 0x21, a zero byte of colon, a high bit: the lowest
		// set high bit is the first such byte (a borrow only ever marks
		// bytes above it).
		stop := (x-ones*0x21)&^x&highs | (colon-ones)&^colon&highs | x&highs
		if stop != 0 {
			return i + bits.TrailingZeros64(stop)>>3
		}
		i += 8
	}
	for i < len(src) && src[i] > ' ' && src[i] != ':' && src[i] < 0x80 {
		i++
	}
	return i
}

// skipSpaces returns the first offset from i that does not hold a space
// (indentation, eight bytes at a time).
func skipSpaces(src []byte, i int) int {
	for i+8 <= len(src) {
		if x := binary.LittleEndian.Uint64(src[i:]) ^ ones*' '; x != 0 {
			return i + bits.TrailingZeros64(x)>>3
		}
		i += 8
	}
	for i < len(src) && src[i] == ' ' {
		i++
	}
	return i
}

// quotedRun returns the first offset from i holding q, a backslash, a
// control byte (line breaks among them) or a byte past ASCII.
func quotedRun(src []byte, i int, q byte) int {
	for i+8 <= len(src) {
		x := binary.LittleEndian.Uint64(src[i:])
		quote, slash := x^ones*uint64(q), x^ones*'\\'
		stop := (x-ones*0x20)&^x&highs | (quote-ones)&^quote&highs | (slash-ones)&^slash&highs | x&highs
		if stop != 0 {
			return i + bits.TrailingZeros64(stop)>>3
		}
		i += 8
	}
	for i < len(src) && src[i] >= ' ' && src[i] != q && src[i] != '\\' && src[i] < 0x80 {
		i++
	}
	return i
}

// block moves past the block scalar whose indicator is at s.i: its
// header, then every line that is empty or indented at least as deep as
// its content (explicit, or the first non-empty line's, and deeper than
// the enclosing level).
func (s *padScan) block() bool {
	src := s.src
	i := s.i + 1
	inc := 0
	digit := func() bool {
		if i < len(src) && src[i] >= '0' && src[i] <= '9' {
			if src[i] == '0' {
				return false
			}
			inc = int(src[i] - '0')
			i++
		}
		return true
	}
	if i < len(src) && (src[i] == '+' || src[i] == '-') {
		i++
		if !digit() {
			return false
		}
	} else {
		if !digit() {
			return false
		}
		if inc > 0 && i < len(src) && (src[i] == '+' || src[i] == '-') {
			i++
		}
	}
	for i < len(src) && isBlank(src[i]) {
		i++
	}
	if i < len(src) && src[i] == '#' {
		i = s.lineEnd(i)
	}
	line := s.line
	if i < len(src) {
		n := breakLen(src, i)
		if n == 0 {
			return false
		}
		i += n
		line = i
	}
	parent := s.top()
	indent := 0
	if inc > 0 {
		indent = max(parent, 0) + inc
	}
	var ok bool
	if i, line, indent, ok = s.blockBreaks(i, line, indent, parent); !ok {
		return false
	}
	for i-line == indent && i < len(src) {
		i = s.lineEnd(i)
		if n := breakLen(src, i); n > 0 {
			i += n
			line = i
		}
		if i, line, indent, ok = s.blockBreaks(i, line, indent, parent); !ok {
			return false
		}
	}
	s.i, s.line = i, line
	s.fresh, s.simpleOK = true, true
	return true
}

// blockBreaks skips a block scalar's indentation and empty lines from i
// (in the line starting at line), settling the content indentation when
// it is 0 (not yet known).
func (s *padScan) blockBreaks(i, line, indent, parent int) (int, int, int, bool) {
	src := s.src
	most := 0
	for {
		for (indent == 0 || i-line < indent) && i < len(src) && src[i] == ' ' {
			i++
		}
		most = max(most, i-line)
		if (indent == 0 || i-line < indent) && i < len(src) && src[i] == '\t' {
			return 0, 0, 0, false
		}
		n := breakLen(src, i)
		if n == 0 {
			break
		}
		i += n
		line = i
	}
	if indent == 0 {
		indent = max(most, parent+1, 1)
	}
	return i, line, indent, true
}
