package syntax

import (
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// scalar builds a scalar whose properties end at propsEnd and whose
// content starts at start.
func (b *yamlBuilder) scalar(n *yaml.Node, propsEnd, start, indent int, flow bool) *Scalar {
	s := b.scalars.One()
	s.Value, s.Tag = n.Value, StringTag
	switch {
	case n.Style&yaml.DoubleQuotedStyle != 0:
		s.Style = DoubleQuoted
		b.quoted(s, start, '"')
	case n.Style&yaml.SingleQuotedStyle != 0:
		s.Style = SingleQuoted
		b.quoted(s, start, '\'')
	case n.Style&yaml.LiteralStyle != 0:
		s.Style = Literal
		b.block(s, start, indent, false)
	case n.Style&yaml.FoldedStyle != 0:
		s.Style = Folded
		b.block(s, start, indent, true)
	default:
		s.Style = Plain
		if n.Value == "" {
			// An empty value sits right after its indicator (or properties).
			at := propsEnd
			if propsEnd == start {
				for at > 0 && at <= len(b.src) && isBlank(b.src[at-1]) {
					at--
				}
			}
			s.SetRanges(source.R(at, at), source.R(at, at))
			s.setMap(source.OffsetMap{Base: at}, &b.maps)
		} else {
			b.plain(s, start, flow)
		}
		s.Tag = resolvePlain(n.Value)
	}
	if n.Style&yaml.TaggedStyle != 0 {
		switch n.Tag {
		case "!!str":
			s.Tag = StringTag
		case "!!int":
			s.Tag = IntTag
		case "!!float":
			s.Tag = FloatTag
		case "!!bool":
			s.Tag = BoolTag
		case "!!null":
			s.Tag = NullTag
		}
	}
	return s
}

// finish installs the map just built if it reproduces yaml.v3's value, and
// a coarse one otherwise.
func (b *yamlBuilder) finish(s *Scalar) {
	if string(b.mb.buf) == s.Value {
		m := b.mb.Map()
		if shared := source.SharedIdentity(len(s.Value)); shared != nil && source.IsIdentity(m.Segments, len(s.Value)) {
			m.Segments = shared
		} else if len(m.Segments) > 0 {
			// The builder keeps its buffer for the next scalar.
			m.Segments = b.segs.CopyOf(m.Segments)
		}
		s.setMap(m, &b.maps)
		return
	}
	s.setMap(coarseMap(s.ValueRange(), len(s.Value)), &b.maps)
}

// plainLineEnd returns the end of the plain scalar text that starts at i on
// its line, trailing blanks excluded, and where scanning stopped.
func (b *yamlBuilder) plainLineEnd(i int, flow bool) (end, stop int) {
	src := b.src
	end = i
	j := i
scan:
	for j < len(src) {
		c := src[j]
		if c >= utf8.RuneSelf {
			if breakLen(src, j) > 0 { // NEL, LS, PS
				break
			}
			_, size := utf8.DecodeRune(src[j:])
			j += size
			end = j
			continue
		}
		// One switch per ASCII byte, most of them text.
		switch c {
		case '\n', '\r':
			break scan
		case ':':
			if j+1 >= len(src) || isBlank(src[j+1]) || breakLen(src, j+1) > 0 || flow && isFlowIndicator(src[j+1]) {
				break scan
			}
		case '#':
			if j > i && isBlank(src[j-1]) {
				break scan
			}
		case ',', '[', ']', '{', '}':
			if flow {
				break scan
			}
		case ' ', '\t':
			j++
			continue
		}
		j++
		end = j
	}
	return end, j
}

func isFlowIndicator(c byte) bool { return c == ',' || c == '[' || c == ']' || c == '{' || c == '}' }

func (b *yamlBuilder) plain(s *Scalar, start int, flow bool) {
	end, _ := b.plainLineEnd(start, flow)
	if string(b.src[start:end]) == s.Value {
		s.SetRanges(source.R(start, end), source.R(start, end))
		s.setMap(b.identity(start, end-start), &b.maps)
		return
	}
	// A multi-line plain scalar: lines are trimmed and folded. yaml.v3's
	// value says how many lines it took.
	mb := &b.mb
	mb.reset(start)
	mb.verbatim(b.src, start, end-start)
	pos := end
	for len(mb.buf) < len(s.Value) {
		foldStart := pos
		i, breaks := b.skipFold(pos)
		if breaks == 0 || i >= len(b.src) || b.src[i] == '#' {
			break
		}
		e, _ := b.plainLineEnd(i, flow)
		if e == i {
			break
		}
		mb.sub(foldText(breaks), foldStart, i-foldStart)
		mb.verbatim(b.src, i, e-i)
		pos = e
	}
	s.SetRanges(source.R(start, pos), source.R(start, pos))
	b.finish(s)
}

// skipFold skips blanks and line breaks from i and counts the breaks.
func (b *yamlBuilder) skipFold(i int) (int, int) {
	breaks := 0
	for i < len(b.src) {
		if isBlank(b.src[i]) {
			i++
		} else if n := breakLen(b.src, i); n > 0 {
			i += n
			breaks++
		} else {
			break
		}
	}
	return i, breaks
}

// foldText is what a run of line breaks folds to: a space for one, and
// one newline fewer than the breaks otherwise.
func foldText(breaks int) string {
	if breaks == 1 {
		return " "
	}
	return strings.Repeat("\n", breaks-1)
}

// quoted scans a single- or double-quoted scalar whose opening quote is at
// start, decoding escapes and folding lines as YAML does.
func (b *yamlBuilder) quoted(s *Scalar, start int, quote byte) {
	src := b.src
	mb := &b.mb
	mb.reset(start + 1)
	i := start + 1
	closed := false
	for i < len(src) {
		c := src[i]
		switch {
		case c == quote:
			if quote == '\'' && i+1 < len(src) && src[i+1] == '\'' {
				mb.sub("'", i, 2)
				i += 2
				continue
			}
			closed = true
		case c == '\\' && quote == '"':
			i = b.escape(i)
			continue
		case isBlank(c) || breakLen(src, i) > 0:
			ws := i
			for i < len(src) && isBlank(src[i]) {
				i++
			}
			if breakLen(src, i) == 0 {
				mb.verbatim(src, ws, i-ws) // inner white space is content
				continue
			}
			j, breaks := b.skipFold(i)
			mb.sub(foldText(breaks), ws, j-ws)
			i = j
			continue
		default:
			j := i + 1
			for j < len(src) {
				d := src[j]
				if d == quote || d == '\\' || isBlank(d) || d == '\n' || d == '\r' || breakLen(src, j) > 0 {
					break
				}
				j++
			}
			mb.verbatim(src, i, j-i)
			i = j
			continue
		}
		break
	}
	if closed {
		s.SetRanges(source.R(start, i+1), source.R(start+1, i))
	} else {
		s.SetRanges(source.R(start, i), source.R(start+1, i))
	}
	b.finish(s)
}

// escape decodes the double-quoted escape at i and returns the offset
// after it.
func (b *yamlBuilder) escape(i int) int {
	src, mb := b.src, &b.mb
	if i+1 >= len(src) {
		mb.sub("\\", i, 1)
		return i + 1
	}
	if n := breakLen(src, i+1); n > 0 {
		// An escaped line break: the break and the next line's indentation
		// vanish; further empty lines still count.
		j, breaks := b.skipFold(i + 1)
		mb.sub(strings.Repeat("\n", breaks-1), i, j-i)
		return j
	}
	var r rune
	size := 2
	switch e := src[i+1]; e {
	case '0':
		r = 0
	case 'a':
		r = '\a'
	case 'b':
		r = '\b'
	case 't', '\t':
		r = '\t'
	case 'n':
		r = '\n'
	case 'v':
		r = '\v'
	case 'f':
		r = '\f'
	case 'r':
		r = '\r'
	case 'e':
		r = 0x1B
	case ' ', '"', '/', '\\', '\'':
		r = rune(e)
	case 'N':
		r = 0x85
	case '_':
		r = 0xA0
	case 'L':
		r = 0x2028
	case 'P':
		r = 0x2029
	case 'x', 'u', 'U':
		digits := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
		size += digits
		if i+size > len(src) {
			size = len(src) - i
		}
		for _, h := range src[i+2 : i+size] {
			r = r<<4 | rune(max(hexVal(h), 0))
		}
	default:
		r = rune(e)
	}
	mb.escape(r, i, size)
	return i + size
}

// block scans a literal or folded block scalar whose indicator is at start.
func (b *yamlBuilder) block(s *Scalar, start, indent int, folded bool) {
	src, mb := b.src, &b.mb
	i := start + 1
	chomp, inc := byte(0), 0
	for k := 0; k < 2 && i < len(src); k++ {
		switch c := src[i]; {
		case c == '+' || c == '-':
			chomp = c
		case c >= '1' && c <= '9':
			inc = int(c - '0')
		default:
			k = 2
			continue
		}
		i++
	}
	headerEnd := i
	for i < len(src) && breakLen(src, i) == 0 {
		i++ // blanks and a comment
	}
	i += breakLen(src, i)

	// The content indentation: explicit, or that of the first non-empty
	// line (at least that of any leading empty line, and deeper than the
	// parent).
	ci := 0
	if inc > 0 {
		ci = inc
		if indent >= 0 {
			ci = indent + inc
		}
	} else {
		for j := i; j < len(src); {
			sp := 0
			for j+sp < len(src) && src[j+sp] == ' ' {
				sp++
			}
			ci = max(ci, sp)
			n := breakLen(src, j+sp)
			if n == 0 {
				break
			}
			j += sp + n
		}
		ci = max(ci, indent+1, 1)
	}

	mb.reset(headerEnd)
	contentStart, contentEnd := -1, -1
	prevBlank := false
	gap := i // start of the source run since the last content
	breaks := 0
	pos := i
	for pos < len(src) {
		sp := 0
		for sp < ci && pos+sp < len(src) && src[pos+sp] == ' ' {
			sp++
		}
		if n := breakLen(src, pos+sp); n > 0 {
			breaks++
			pos += sp + n
			continue
		}
		if sp < ci || pos+sp >= len(src) {
			break
		}
		line := pos + sp
		end := line
		for end < len(src) && breakLen(src, end) == 0 {
			end++
		}
		blank := isBlank(src[line])
		if contentStart < 0 {
			contentStart = line
			mb.base = line
			if breaks > 0 {
				mb.sub(strings.Repeat("\n", breaks), gap, line-gap)
			}
		} else {
			text := strings.Repeat("\n", breaks)
			if folded && !blank && !prevBlank {
				text = foldText(breaks)
			}
			mb.sub(text, gap, line-gap)
		}
		mb.verbatim(src, line, end-line)
		contentEnd, prevBlank = end, blank
		gap, breaks = end, 0
		pos = end
	}
	// Chomping: the break after the last line, and the empty lines after it.
	switch {
	case chomp == '-' || breaks == 0:
	case chomp == '+':
		mb.sub(strings.Repeat("\n", breaks), gap, b.breaksEnd(gap, breaks)-gap)
	case contentStart >= 0:
		mb.sub("\n", gap, breakLen(src, gap))
	}
	if contentStart < 0 {
		s.SetRanges(source.R(start, headerEnd), source.R(headerEnd, headerEnd))
	} else {
		s.SetRanges(source.R(start, contentEnd), source.R(contentStart, contentEnd))
	}
	b.finish(s)
}

// breaksEnd returns the offset after the n-th line break from i.
func (b *yamlBuilder) breaksEnd(i, n int) int {
	for i < len(b.src) && n > 0 {
		if k := breakLen(b.src, i); k > 0 {
			i += k
			n--
			continue
		}
		i++
	}
	return i
}

// resolvePlain resolves a plain scalar by the YAML 1.2 core schema, except
// that dates and timestamps stay strings.
func resolvePlain(v string) ScalarTag {
	switch v {
	case "", "~", "null", "Null", "NULL":
		return NullTag
	case "true", "True", "TRUE", "false", "False", "FALSE":
		return BoolTag
	case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF", ".nan", ".NaN", ".NAN":
		return FloatTag
	}
	if len(v) > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'o') {
		for _, c := range []byte(v[2:]) {
			if v[1] == 'x' && hexVal(c) < 0 || v[1] == 'o' && (c < '0' || c > '7') {
				return StringTag
			}
		}
		return IntTag
	}
	// [-+]? ( \. [0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?
	i := 0
	if i < len(v) && (v[i] == '-' || v[i] == '+') {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(v) && v[i] >= '0' && v[i] <= '9' {
			i++
			n++
		}
		return n
	}
	intDigits := digits()
	tag := IntTag
	if i < len(v) && v[i] == '.' {
		i++
		tag = FloatTag
		if digits() == 0 && intDigits == 0 {
			return StringTag
		}
	} else if intDigits == 0 {
		return StringTag
	}
	if i < len(v) && (v[i] == 'e' || v[i] == 'E') {
		i++
		tag = FloatTag
		if i < len(v) && (v[i] == '-' || v[i] == '+') {
			i++
		}
		if digits() == 0 {
			return StringTag
		}
	}
	if i != len(v) {
		return StringTag
	}
	return tag
}
