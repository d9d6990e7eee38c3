package source

// LineCursor is LineCol for offsets that mostly fall on the line of the
// one before (a sorted report's ranges): it keeps that line's bounds, so
// such an offset costs a comparison instead of the line table's
// searches (a large blueprint's report converts tens of thousands of
// offsets). The zero value is not usable: take one from Mapper.Cursor.
type LineCursor struct {
	m                *Mapper
	line, start, end int // the last line: its start and its content's end
	next             int // where the line after it starts (past the text for the last)
}

// Cursor returns a LineCursor over m.
func (m *Mapper) Cursor() *LineCursor {
	return &LineCursor{m: m, next: -1}
}

// LineCol is m.LineCol(off, enc).
func (c *LineCursor) LineCol(off int, enc Encoding) (line, col int) {
	m := c.m
	if !m.ascii && enc != UTF8 {
		return m.LineCol(off, enc) // columns are counted, not subtracted
	}
	off = m.clamp(off)
	if off < c.start || off >= c.next {
		c.line = m.lines.lineOf(off)
		c.start, c.end = m.lines.start(c.line), m.lineEnd(c.line)
		c.next = m.text.Len() + 1
		if c.line+1 < m.lines.count {
			c.next = m.lines.start(c.line + 1)
		}
	}
	// As OffsetPosition: an offset in the line terminator is the
	// line's end.
	return c.line + 1, min(off, c.end) - c.start + 1
}
