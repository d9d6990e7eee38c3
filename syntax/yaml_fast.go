package syntax

import (
	"bytes"
	"encoding/binary"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// fastParse builds the tree of the common shape of a blueprint written in
// YAML straight from the text, at a fraction of yaml.v3's cost (issue 36:
// yaml.v3's scanner, parser and composer were half of `check`, and the
// yaml.v3 nodes a third of the bytes it allocated). It knows a
// conservative subset: ASCII text with LF line breaks and no tabs; block
// mappings and sequences; single-line plain, single- and double-quoted
// scalars; literal block scalars (`|`, `|-`) without blank lines holding
// spaces; comments. Anything else (flow collections, anchors, tags,
// folded or multi-line scalars, empty values, document markers,
// directives, any error) makes it give up (ok false), and the caller
// parses with yaml.v3 and a fresh builder. The scalars' ranges and maps
// come from the builder's own scanners (yaml_scalar.go), given the value
// yaml.v3 would decode. TestFastParseAgrees holds the tree to the one
// built from yaml.v3's nodes, on every YAML file of the repository and on
// random edits of them.
func fastParse(b *yamlBuilder, src []byte) (root Node, ok bool) {
	if !fastText(src) {
		return nil, false
	}
	// The text as a string (not a copy), whose substrings are the values of the
	// scalars that need no decoding: no allocation per scalar.
	d := &fastDecoder{src: src, str: textString(src), b: b}
	defer func() {
		if r := recover(); r != nil {
			if _, bail := r.(fastBail); !bail {
				panic(r)
			}
			root, ok = nil, false
		}
	}()
	if !d.nextContent() {
		return nil, false
	}
	// The root may be indented: the splice parses one definition's
	// lines alone, at the column of its section's keys.
	root = d.mapping(d.indent())
	if d.pos < len(src) {
		return nil, false
	}
	return root, true
}

// fastText reports whether src is text fastParse reads: printable ASCII
// and line feeds, eight bytes at a time (fastText8).
func fastText(src []byte) bool {
	i := 0
	for ; i+8 <= len(src); i += 8 {
		if !fastText8(binary.LittleEndian.Uint64(src[i:])) {
			return false
		}
	}
	for _, c := range src[i:] {
		if c >= 0x80 || c < ' ' && c != '\n' || c == 0x7F {
			return false
		}
	}
	return true
}

// fastText8 reports whether the eight bytes of w are all printable ASCII
// or line feeds. Once no byte has its high bit set, each test below is
// exact per byte (no carry crosses a byte): b+0x60 has it set when b is
// at least 0x20, and x+0x7F when x is not zero, for x the byte xor a
// line feed or a DEL.
func fastText8(w uint64) bool {
	if w&highs != 0 {
		return false
	}
	printable := (w + 0x60*ones) & highs
	lf := ^((w ^ 0x0A*ones) + 0x7F*ones) & highs
	del := ^((w ^ 0x7F*ones) + 0x7F*ones) & highs
	return printable|lf == highs && del == 0
}

// fastBail is the panic that unwinds fastDecode when the text leaves the
// subset.
type fastBail struct{}

func bail() { panic(fastBail{}) }

type fastDecoder struct {
	src []byte
	str string // src as a string
	b   *yamlBuilder
	// pos is the current offset; lineStart the offset of its line's
	// first byte.
	pos, lineStart int
	depth          int
	// The entries and items of the collections being read, innermost
	// last.
	entries []*Entry
	items   []Node
}

// indent is the column (0-based) of pos on its line.
func (d *fastDecoder) indent() int { return d.pos - d.lineStart }

// nextContent moves to the first byte of the next line holding content
// (not blank, not only a comment), from pos at a line start or at the end
// of a line's content; false at the end of the text.
func (d *fastDecoder) nextContent() bool {
	src := d.src
	for {
		for d.pos < len(src) && src[d.pos] == ' ' {
			d.pos++
		}
		if d.pos < len(src) && src[d.pos] == '#' {
			for d.pos < len(src) && src[d.pos] != '\n' {
				d.pos++
			}
		}
		if d.pos >= len(src) {
			return false
		}
		if src[d.pos] != '\n' {
			if d.pos == d.lineStart && d.lineMarker() {
				bail()
			}
			return true
		}
		d.pos++
		d.lineStart = d.pos
	}
}

// lineMarker reports a document marker or directive at a line start.
func (d *fastDecoder) lineMarker() bool {
	rest := d.src[d.pos:]
	if rest[0] == '%' {
		return true
	}
	return len(rest) >= 3 && (string(rest[:3]) == "---" || string(rest[:3]) == "...")
}

// endLine accepts only blanks and a comment up to the end of the line.
func (d *fastDecoder) endLine() {
	src := d.src
	for d.pos < len(src) && src[d.pos] == ' ' {
		d.pos++
	}
	if d.pos < len(src) && src[d.pos] == '#' {
		if src[d.pos-1] != ' ' {
			bail() // yaml.v3 and YAML disagree there; leave it to yaml.v3
		}
		for d.pos < len(src) && src[d.pos] != '\n' {
			d.pos++
		}
	}
	if d.pos < len(src) && src[d.pos] != '\n' {
		bail()
	}
}

// mapping reads a block mapping whose first key is at pos, at column col.
func (d *fastDecoder) mapping(col int) *Mapping {
	d.depth++
	if d.depth > 64 {
		bail()
	}
	m := d.b.mappings.One()
	m.Rng = source.R(d.pos, d.pos)
	mark := len(d.entries)
	for {
		e := d.b.entries.One()
		e.Key = d.key()
		d.pos++ // the colon
		for d.pos < len(d.src) && d.src[d.pos] == ' ' {
			d.pos++
		}
		if d.pos >= len(d.src) || d.src[d.pos] == '\n' || d.src[d.pos] == '#' {
			d.endLine()
			if !d.nextContent() {
				bail() // an empty value
			}
			switch in := d.indent(); {
			case in > col:
				e.Value = d.block(in)
			case in == col && d.isItem():
				e.Value = d.sequence(col)
			default:
				bail() // an empty value
			}
		} else {
			e.Value = d.inline(col)
		}
		d.entries = append(d.entries, e)
		m.Rng = m.Rng.Union(e.Key.Rng).Union(e.Value.Range())
		if !d.nextContent() {
			break
		}
		in := d.indent()
		if in > col {
			bail()
		}
		if in < col || d.isItem() {
			break
		}
	}
	m.Entries = d.b.entryPs.CopyOf(d.entries[mark:])
	clear(d.entries[mark:])
	d.entries = d.entries[:mark]
	d.depth--
	return m
}

// isItem reports a sequence item's dash at pos.
func (d *fastDecoder) isItem() bool {
	src := d.src
	return src[d.pos] == '-' && (d.pos+1 >= len(src) || src[d.pos+1] == ' ' || src[d.pos+1] == '\n')
}

// block reads the node that starts a line at column in (a mapping or a
// sequence: a scalar alone on its line gives up).
func (d *fastDecoder) block(in int) Node {
	if d.isItem() {
		return d.sequence(in)
	}
	if !d.keyAhead() {
		bail()
	}
	return d.mapping(in)
}

// keyAhead reports whether a key and its colon start at pos.
func (d *fastDecoder) keyAhead() bool {
	save := d.pos
	defer func() { d.pos = save }()
	switch d.src[d.pos] {
	case '"', '\'':
		d.quotedEnd()
	default:
		if !d.plainStart() {
			return false
		}
		d.plainEnd()
	}
	for d.pos < len(d.src) && d.src[d.pos] == ' ' {
		d.pos++
	}
	return d.colonAt()
}

// colonAt reports a mapping value's colon at pos.
func (d *fastDecoder) colonAt() bool {
	src := d.src
	return d.pos < len(src) && src[d.pos] == ':' && (d.pos+1 >= len(src) || src[d.pos+1] == ' ' || src[d.pos+1] == '\n')
}

// key reads a key and leaves pos at its colon.
func (d *fastDecoder) key() *Scalar {
	start := d.pos
	var k *Scalar
	switch d.src[d.pos] {
	case '"', '\'':
		k = d.quoted()
	default:
		if !d.plainStart() {
			bail()
		}
		k = d.plain(start, d.plainEnd())
	}
	if d.pos-start > 1000 {
		bail() // yaml.v3 limits simple keys to 1024 characters
	}
	for d.pos < len(d.src) && d.src[d.pos] == ' ' {
		d.pos++
	}
	if !d.colonAt() {
		bail()
	}
	return k
}

// plain makes the plain scalar src[start:end], on one line.
func (d *fastDecoder) plain(start, end int) *Scalar {
	s := d.b.scalars.One()
	s.Value, s.Style = d.str[start:end], Plain
	s.SetRanges(source.R(start, end), source.R(start, end))
	if !s.identityDerived() {
		s.setMap(d.b.identity(start, end-start), &d.b.maps)
	}
	s.Tag = resolvePlain(s.Value)
	return s
}

// sequence reads a block sequence whose first dash is at pos, at column
// col.
func (d *fastDecoder) sequence(col int) *Sequence {
	d.depth++
	if d.depth > 64 {
		bail()
	}
	s := d.b.seqs.One()
	s.Rng = source.R(d.pos, d.pos)
	mark := len(d.items)
	for {
		d.pos++ // the dash
		for d.pos < len(d.src) && d.src[d.pos] == ' ' {
			d.pos++
		}
		if d.pos >= len(d.src) || d.src[d.pos] == '\n' || d.src[d.pos] == '#' || d.isItem() {
			bail()
		}
		var item Node
		if d.keyAhead() {
			item = d.mapping(d.indent())
		} else {
			item = d.inline(col)
			if d.nextContent() && d.indent() > col {
				bail()
			}
		}
		d.items = append(d.items, item)
		s.Rng = s.Rng.Union(item.Range())
		if d.pos >= len(d.src) {
			break
		}
		if d.indent() != col || !d.isItem() {
			if d.indent() > col {
				bail()
			}
			break
		}
	}
	s.Items = d.b.items.CopyOf(d.items[mark:])
	clear(d.items[mark:])
	d.items = d.items[:mark]
	d.depth--
	return s
}

// inline reads a scalar that starts at pos, after a key's colon or an
// item's dash, in a collection at column col. pos ends at the end of its
// line, or for a block scalar at the end of its last line; a plain or
// quoted scalar must not continue on the next line (the callers check
// that the next content is not more indented).
func (d *fastDecoder) inline(col int) *Scalar {
	switch d.src[d.pos] {
	case '"', '\'':
		s := d.quoted()
		d.endLine()
		return s
	case '|':
		return d.literal(col)
	}
	if !d.plainStart() {
		bail()
	}
	start := d.pos
	s := d.plain(start, d.plainEnd())
	if d.colonAt() {
		bail()
	}
	d.endLine()
	return s
}

// plainStart reports whether a plain scalar may start at pos.
func (d *fastDecoder) plainStart() bool {
	src := d.src
	switch c := src[d.pos]; c {
	case '-', '?', ':':
		return d.pos+1 < len(src) && src[d.pos+1] != ' ' && src[d.pos+1] != '\n'
	case ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
		return false
	}
	return true
}

// plainEnd scans a plain scalar from pos to its end on the line (before
// a colon and blank, a blank and '#', or the line's end), trailing blanks
// excluded; pos stops after the blanks.
func (d *fastDecoder) plainEnd() int {
	src := d.src
	end, j := d.pos, d.pos
scan:
	for j < len(src) {
		if !plainStop[src[j]] {
			j++
			end = j
			continue
		}
		switch src[j] {
		case '\n':
			break scan
		case ':':
			if j+1 >= len(src) || src[j+1] == ' ' || src[j+1] == '\n' {
				break scan
			}
		case '#':
			if src[j-1] == ' ' {
				break scan
			}
		case ' ':
			j++
			continue
		}
		j++
		end = j
	}
	d.pos = j
	return end
}

// plainStop marks the bytes plainEnd looks at; any other byte is part
// of the scalar.
var plainStop = [256]bool{'\n': true, ':': true, '#': true, ' ': true}

// quotedEnd moves pos after the closing quote of the quoted scalar at
// pos, on the same line, giving up when there is none.
func (d *fastDecoder) quotedEnd() {
	src := d.src
	q := src[d.pos]
	for i := d.pos + 1; i < len(src); i++ {
		switch src[i] {
		case '\n':
			bail()
		case '\\':
			if q == '"' {
				i++
			}
		case q:
			if q == '\'' && i+1 < len(src) && src[i+1] == '\'' {
				i++
				continue
			}
			d.pos = i + 1
			return
		}
	}
	bail()
}

// quoted reads a single-line quoted scalar at pos.
func (d *fastDecoder) quoted() *Scalar {
	src := d.src
	start := d.pos
	q := src[start]
	d.quotedEnd()
	raw := src[start+1 : d.pos-1]
	s := d.b.scalars.One()
	s.Style = SingleQuoted
	if q == '"' {
		s.Style = DoubleQuoted
	}
	v, escaped := fastUnquote(raw, q)
	if !escaped {
		// The value is the text between the quotes, on one line: its map
		// is the identity there, what the builder's scan would find.
		s.Value = d.str[start+1 : d.pos-1] // the same bytes, not copied
		s.SetRanges(source.R(start, d.pos), source.R(start+1, d.pos-1))
		if !s.identityDerived() {
			s.setMap(d.b.identity(start+1, len(raw)), &d.b.maps)
		}
		return s
	}
	s.Value = v
	d.b.quoted(s, start, q)
	return s
}

// fastUnquote decodes the text between the quotes of a single-line
// quoted scalar; escaped is false (and the value not made) when there is
// nothing to decode: the value is the text.
func fastUnquote(raw []byte, q byte) (value string, escaped bool) {
	plain := true
	for _, c := range raw {
		if c == '\\' && q == '"' || c == '\'' && q == '\'' {
			plain = false
			break
		}
	}
	if plain {
		return "", false
	}
	buf := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case c == '\'' && q == '\'':
			i++ // '' is one quote
		case c == '\\' && q == '"':
			i++
			e, ok := fastEscapes[raw[i]]
			if !ok {
				bail()
			}
			c = e
		}
		buf = append(buf, c)
	}
	return string(buf), true
}

// fastEscapes are the double-quoted escapes fastDecode decodes (one byte
// each); any other gives up.
var fastEscapes = map[byte]byte{
	'"': '"', '\\': '\\', '\'': '\'', 'n': '\n', 't': '\t', 'r': '\r', '0': 0,
	'a': '\a', 'b': '\b', 'e': 0x1b, 'f': '\f', 'v': '\v', ' ': ' ',
}

// literal reads a literal block scalar (`|` or `|-`, nothing else on the
// line) whose indicator is at pos, in a collection at column col; pos
// ends at the start of the first line after it (or the end of the text).
func (d *fastDecoder) literal(col int) *Scalar {
	src := d.src
	start := d.pos
	d.pos++
	strip := false
	if d.pos < len(src) && src[d.pos] == '-' {
		strip = true
		d.pos++
	}
	if d.pos >= len(src) || src[d.pos] != '\n' {
		bail()
	}
	d.pos++
	d.lineStart = d.pos
	var buf []byte
	ci := -1      // the content's indentation
	breaks := 0   // line breaks not yet written
	lastEnd := -1 // where the last content line ended
	for d.pos < len(src) {
		i := d.pos
		for i < len(src) && src[i] == ' ' {
			i++
		}
		if i >= len(src) || src[i] == '\n' {
			if i > d.pos {
				bail() // a blank line holding spaces
			}
			if i >= len(src) {
				break
			}
			breaks++
			d.pos = i + 1
			d.lineStart = d.pos
			continue
		}
		in := i - d.pos
		if ci < 0 {
			if in <= col || breaks > 0 {
				bail()
			}
			ci = in
		}
		if in < ci {
			break
		}
		for ; breaks > 0; breaks-- {
			buf = append(buf, '\n')
		}
		if lastEnd >= 0 {
			buf = append(buf, '\n')
		}
		e := i
		for e < len(src) && src[e] != '\n' {
			e++
		}
		buf = append(buf, src[d.pos+ci:e]...)
		lastEnd = e
		if e >= len(src) {
			d.pos = e
			break
		}
		d.pos = e + 1
		d.lineStart = d.pos
	}
	if ci < 0 {
		bail()
	}
	if !strip && lastEnd < len(src) {
		buf = append(buf, '\n')
	}
	// pos is at a line start (or the end): back to the end of the last
	// line read, for the caller's nextContent.
	if d.pos > 0 && d.pos == d.lineStart {
		d.pos--
		d.lineStart = lineStartOf(src, d.pos)
	}
	s := d.b.scalars.One()
	s.Value, s.Style = string(buf), Literal
	d.b.block(s, start, col, false)
	return s
}

// lineStartOf returns the start of the line holding offset i.
func lineStartOf(src []byte, i int) int { return bytes.LastIndexByte(src[:i], '\n') + 1 }
