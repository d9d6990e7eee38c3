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
	// si is the first run of the mapper's slack that ends at or after
	// the line's start (its padding, if it has some: slackEnd).
	si int
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

// contentEnd is where the cursor's line's content ends, before its
// terminator: m.lineEnd(c.line) for a line without padding (LineCol
// asked padding first). It reads the joined bytes when there are
// (Text.At finds the piece first).
func (c *LineCursor) contentEnd() int {
	m := c.m
	end := c.next
	if end > m.text.Len() {
		end = m.text.Len()
	}
	for end > c.start {
		var b byte
		if c.flat != nil {
			b = c.flat[end-1]
		} else {
			b = m.text.At(end - 1)
		}
		if b != '\n' && b != '\r' {
			break
		}
		end--
	}
	return end
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
	// As OffsetPosition: an offset in the line's padding (slack) or its
	// terminator is the line's end. A padded line's content ends where
	// its padding starts; the terminator is at most two bytes.
	if m.slack != nil {
		if at, ok := c.padding(); ok {
			return c.line + 1, min(off, at) - c.start + 1
		}
	}
	if off+2 > c.next {
		if c.end < 0 {
			c.end = c.contentEnd()
		}
		off = min(off, c.end)
	}
	return c.line + 1, off - c.start + 1
}

// padding returns where the cursor's line's padding starts, when the
// line is padded. A line's padding is the run of slack that ends at the
// line's terminator (Slack: just before a line break), so the runs are
// met in line order: the cursor keeps its place among them (si) and
// moves it as it moves down, searching only when it moved back. Without
// it, every place of a padded document made the mapper find the line's
// end in the text and search the slack (lineEnd).
func (c *LineCursor) padding() (int, bool) {
	sl := c.m.slack
	n := sl.Len()
	if c.si > 0 && c.si <= n && sl.At(c.si-1).At+sl.At(c.si-1).Len >= c.start {
		c.si = sort.Search(n, func(i int) bool { s := sl.At(i); return s.At+s.Len >= c.start })
	}
	for c.si < n && sl.At(c.si).At+sl.At(c.si).Len < c.start {
		c.si++
	}
	if c.si == n {
		return 0, false
	}
	s := sl.At(c.si)
	// A run in the line ends where its terminator (one or two bytes, or
	// none on the last line) starts.
	if end := s.At + s.Len; s.Len == 0 || s.At < c.start || end > c.next || end < c.next-2 {
		return 0, false
	}
	return s.At, true
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
