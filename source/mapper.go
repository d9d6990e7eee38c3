package source

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"unicode/utf8"
)

// Encoding is the unit in which a Position's Character counts.
type Encoding int

const (
	UTF16 Encoding = iota // LSP default: UTF-16 code units
	UTF8                  // bytes
	UTF32                 // Unicode code points
)

func (e Encoding) String() string {
	switch e {
	case UTF8:
		return "utf-8"
	case UTF32:
		return "utf-32"
	default:
		return "utf-16"
	}
}

// Position is a zero-based line and character, the character counted in
// some Encoding.
type Position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

// Mapper converts between byte offsets and positions for one immutable
// document. Lines end at "\n"; a "\r" before it belongs to the line ending,
// as does a lone "\r" (LSP treats "\r\n", "\n" and "\r" as line breaks).
type Mapper struct {
	text  Text
	lines lineTable // where each line starts
	ascii bool      // content is pure ASCII: all encodings coincide
	slack Slacks    // nil: none
}

// NewMapper indexes content. It keeps a reference to content, which must
// not change afterwards.
func NewMapper(content []byte) *Mapper {
	// Sizing the table up front (one vectorised count) avoids regrowing
	// and re-clearing it line by line; a lone "\r" may still append.
	n := bytes.Count(content, []byte{'\n'}) + 1
	if bytes.IndexByte(content, '\r') < 0 && isASCII(content) {
		// The common text: the line starts are where IndexByte (vectorised)
		// finds the line feeds, with no byte-by-byte loop, and there are
		// exactly n.
		b := newLineBuilder(n)
		b.add(0)
		for i := 0; ; {
			j := bytes.IndexByte(content[i:], '\n')
			if j < 0 {
				break
			}
			i += j + 1
			b.add(i)
		}
		return &Mapper{text: NewText(content), lines: b.t, ascii: true}
	}
	lines := make([]int, 1, n)
	ascii := true
	for i := 0; i < len(content); i++ {
		c := content[i]
		if c >= utf8.RuneSelf {
			ascii = false
			continue
		}
		switch c {
		case '\n':
			lines = append(lines, i+1)
		case '\r':
			if i+1 < len(content) && content[i+1] == '\n' {
				i++
			}
			lines = append(lines, i+1)
		}
	}
	return &Mapper{text: NewText(content), lines: newLineTable(lines), ascii: ascii}
}

// Padded returns the mapper of text: m's text with size(i) spaces put
// before each of points (sorted offsets of m's text, each at a line
// break), m's line table moved instead of a new scan of text (the line
// starts after each point move by the spaces before them). It knows no
// padding (WithSlack), as NewMapper does not.
func (m *Mapper) Padded(text Text, points []int, size func(i int) int) *Mapper {
	b := newLineBuilder(m.lines.count)
	k, moved := 0, 0
	for _, c := range m.lines.chunks {
		for _, r := range c.rel {
			s := c.base + int(r)
			for k < len(points) && points[k] < s {
				moved += size(k)
				k++
			}
			b.add(s + moved)
		}
	}
	return &Mapper{text: text, lines: b.t, ascii: m.ascii}
}

// isASCII reports whether b is pure ASCII, eight bytes at a time.
func isASCII(b []byte) bool {
	const hi = 0x8080808080808080
	i := 0
	for ; i+8 <= len(b); i += 8 {
		if binary.LittleEndian.Uint64(b[i:])&hi != 0 {
			return false
		}
	}
	for ; i < len(b); i++ {
		if b[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// NewMapperOf is NewMapper of t's text, keeping t.
func NewMapperOf(t Text) *Mapper {
	m := NewMapper(t.Bytes())
	m.text = t
	return m
}

// Edited returns the mapper of t, the text of m with the bytes [start,
// oldEnd) replaced by t's bytes [start, newEnd), reusing m's line table:
// the lines before the edit are kept, the edit is indexed, and the lines
// after it are m's moved by the length change. It gives what
// NewMapperOf(t) gives, at a fraction of its cost on a large text (it
// reads only the edited lines); like it, it knows no padding
// (WithSlack).
func (m *Mapper) Edited(t Text, start, oldEnd, newEnd int) *Mapper {
	if !m.ascii || start < 0 || start > oldEnd || oldEnd > m.text.Len() || newEnd-start > t.Len()-start ||
		t.Len()-newEnd != m.text.Len()-oldEnd {
		return NewMapperOf(t)
	}
	for _, c := range t.Slice(start, newEnd) {
		if c >= utf8.RuneSelf {
			return NewMapperOf(t)
		}
	}
	if newEnd == oldEnd && sameBreaks(m.text.Slice(start, oldEnd), t.Slice(start, newEnd)) {
		// Every line starts where it did: the line table is shared
		// (it is never changed once built).
		return &Mapper{text: t, lines: m.lines, ascii: true}
	}
	return &Mapper{text: t, lines: m.lines.edited(t, start, oldEnd, newEnd), ascii: true}
}

// sameBreaks reports whether a and b, of the same length, hold the same
// line break bytes at the same places.
func sameBreaks(a, b []byte) bool {
	for i, c := range a {
		if (c == '\n' || c == '\r' || b[i] == '\n' || b[i] == '\r') && c != b[i] {
			return false
		}
	}
	return true
}

// LineStarts returns the byte offset at which each line begins, the first
// being 0. The slice is shared (and built once per mapper), so parsers that break lines the same
// way need not index the text again; it must not be modified.
func (m *Mapper) LineStarts() []int { return m.lines.starts() }

// ASCII reports whether the content is pure ASCII, in which case every
// encoding counts characters as bytes.
func (m *Mapper) ASCII() bool { return m.ascii }

// Content returns the document text, joined on first use (Text.Bytes).
func (m *Mapper) Content() []byte { return m.text.Bytes() }

// Text returns the document text as the versions share it.
func (m *Mapper) Text() Text { return m.text }

// LineCount returns the number of lines (a trailing newline starts an empty
// last line).
func (m *Mapper) LineCount() int { return m.lines.count }

// LineStart returns the byte offset at which line (zero-based) begins,
// clamped to the document.
func (m *Mapper) LineStart(line int) int {
	if line < 0 {
		return 0
	}
	if line >= m.lines.count {
		return m.text.Len()
	}
	return m.lines.start(line)
}

// lineEnd returns the offset of the end of line's content, before its
// line terminator.
func (m *Mapper) lineEnd(line int) int {
	end, start := m.text.Len(), m.lines.start(line)
	if line+1 < m.lines.count {
		end = m.lines.start(line + 1)
	}
	for end > start && (m.text.At(end-1) == '\n' || m.text.At(end-1) == '\r') {
		end--
	}
	return m.unpadded(end)
}

// Line returns the zero-based line containing off (clamped).
func (m *Mapper) Line(off int) int {
	off = m.clamp(off)
	return m.lines.lineOf(off)
}

func (m *Mapper) clamp(off int) int {
	if off < 0 {
		return 0
	}
	if off > m.text.Len() {
		return m.text.Len()
	}
	return off
}

// OffsetPosition converts a byte offset to a position. Offsets inside a
// multi-byte character or a line terminator are moved back to the start of
// that character, and out-of-range offsets are clamped.
func (m *Mapper) OffsetPosition(off int, enc Encoding) Position {
	off = m.clamp(off)
	line := m.Line(off)
	start := m.lines.start(line)
	if end := m.lineEnd(line); off > end {
		off = end
	}
	if m.ascii || enc == UTF8 {
		// For UTF-8 a position inside a rune is still a byte count.
		return Position{Line: line, Character: off - start}
	}
	return Position{Line: line, Character: m.countUnits(start, off, enc)}
}

// countUnits counts the characters in enc from start up to off, both on
// one line. Characters are decoded exactly as PositionOffset decodes them
// (an invalid byte is one character, U+FFFD), so the two stay inverse; a
// character that off falls inside does not count.
func (m *Mapper) countUnits(start, off int, enc Encoding) int {
	n := 0
	base := start
	line := m.text.Slice(start, m.lineEnd(m.Line(start)))
	for start < off {
		r, size := utf8.DecodeRune(line[start-base:])
		if start+size > off {
			break
		}
		if enc == UTF16 && r >= 0x10000 {
			n += 2
		} else {
			n++
		}
		start += size
	}
	return n
}

// PositionOffset converts a position to a byte offset. A character past the
// end of the line maps to the line's end, a line past the end of the
// document to the document's end (LSP clients legitimately send both). A
// position inside a surrogate pair maps to the start of that character.
// Negative positions are an error.
func (m *Mapper) PositionOffset(p Position, enc Encoding) (int, error) {
	if p.Line < 0 || p.Character < 0 {
		return 0, fmt.Errorf("invalid position %d:%d", p.Line, p.Character)
	}
	if p.Line >= m.lines.count {
		return m.text.Len(), nil
	}
	start, end := m.lines.start(p.Line), m.lineEnd(p.Line)
	if m.ascii || enc == UTF8 {
		off := start + p.Character
		if off > end {
			off = end
		}
		return off, nil
	}
	off, units := start, 0
	line := m.text.Slice(start, end)
	for off < end {
		r, size := utf8.DecodeRune(line[off-start:])
		w := 1
		if enc == UTF16 && r >= 0x10000 {
			w = 2
		}
		if units+w > p.Character {
			break
		}
		units += w
		off += size
	}
	return off, nil
}

// LineCol returns the 1-based line and 1-based column of off, the column
// counted in enc; this is the form command-line output uses.
func (m *Mapper) LineCol(off int, enc Encoding) (line, col int) {
	p := m.OffsetPosition(off, enc)
	return p.Line + 1, p.Character + 1
}

// RangePositions converts r to start and end positions.
func (m *Mapper) RangePositions(r Range, enc Encoding) (Position, Position) {
	return m.OffsetPosition(r.Start, enc), m.OffsetPosition(r.End, enc)
}
