package source

import "sort"

// LineCursor is LineCol for offsets that mostly fall on the line of the
// one before or a few lines after it (a sorted report's ranges): it
// keeps that line's place in the line table, so such an offset costs a
// comparison or a step to the next line instead of the table's binary
// searches (a large blueprint's report converts tens of thousands of
// offsets). Take one from Mapper.Cursor.
type LineCursor struct {
	m      *Mapper
	ci, li int // the line's chunk and its index in it
	line   int
	start  int    // where the line starts
	next   int    // where the line after it starts (past the text for the last)
	end    int    // the end of the line's content; -1 until needed
	flat   []byte // the text's bytes when it has them joined, else nil
}

// Cursor returns a LineCursor over m.
func (m *Mapper) Cursor() *LineCursor {
	c := &LineCursor{m: m, next: -1}
	if t := m.text.t; t != nil {
		if p := t.flat.Load(); p != nil {
			c.flat = *p
		}
	}
	return c
}

// forward is how many lines LineCol steps forward before searching: a
// token is mostly on its line or the next. A place further on (the next
// definition's, twenty lines down) is searched for, in its chunk when the
// cursor's chunk holds it: stepping line by line to it cost more than the
// search (a report's findings, one per definition).
const forward = 4

// lineEnd is m.lineEnd(c.line), reading the joined bytes when there
// are (Text.At finds the piece first).
func (c *LineCursor) lineEnd() int {
	m := c.m
	if c.flat == nil {
		return m.lineEnd(c.line)
	}
	end := min(c.next, len(c.flat))
	for end > c.start && (c.flat[end-1] == '\n' || c.flat[end-1] == '\r') {
		end--
	}
	return m.unpadded(end)
}

// LineCol is m.LineCol(off, enc).
func (c *LineCursor) LineCol(off int, enc Encoding) (line, col int) {
	m := c.m
	if !m.ascii && enc != UTF8 {
		return m.LineCol(off, enc) // columns are counted, not subtracted
	}
	off = m.clamp(off)
	if off < c.start || off >= c.next {
		c.seek(off)
	}
	// As OffsetPosition: an offset in the line terminator (or in
	// slack) is the line's end. The terminator is at most two bytes.
	if off+2 > c.next || m.slack != nil {
		if c.end < 0 {
			c.end = c.lineEnd()
		}
		off = min(off, c.end)
	}
	return c.line + 1, off - c.start + 1
}

// Line is m.Line(off): the zero-based line holding off.
func (c *LineCursor) Line(off int) int {
	off = c.m.clamp(off)
	if off < c.start || off >= c.next {
		c.seek(off)
	}
	return c.line
}

// seek moves the cursor to the line holding off: a few steps forward
// when it is just ahead, otherwise by searching the table.
func (c *LineCursor) seek(off int) {
	t := &c.m.lines
	if c.next >= 0 && off >= c.next {
		for range forward {
			if c.line+1 >= t.count {
				break
			}
			if c.li+1 < len(t.chunks[c.ci].rel) {
				c.at(c.ci, c.li+1)
			} else {
				c.at(c.ci+1, 0)
			}
			if off < c.next {
				return
			}
		}
	}
	ci := c.ci
	if c.next < 0 || off < c.start || (ci+1 < len(t.chunks) && off >= t.chunks[ci+1].base) {
		ci = sort.Search(len(t.chunks), func(i int) bool { return t.chunks[i].base > off }) - 1
	}
	ch := &t.chunks[ci]
	rel := off - ch.base
	c.at(ci, sort.Search(len(ch.rel), func(j int) bool { return int(ch.rel[j]) > rel })-1)
}

// at moves the cursor to line li of chunk ci.
func (c *LineCursor) at(ci, li int) {
	t := &c.m.lines
	ch := &t.chunks[ci]
	c.ci, c.li, c.line, c.end = ci, li, ch.first+li, -1
	c.start = ch.base + int(ch.rel[li])
	switch {
	case li+1 < len(ch.rel):
		c.next = ch.base + int(ch.rel[li+1])
	case ci+1 < len(t.chunks):
		c.next = t.chunks[ci+1].base
	default:
		c.next = c.m.text.Len() + 1
	}
}
