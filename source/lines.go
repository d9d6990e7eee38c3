package source

import (
	"bytes"
	"sort"
	"sync"
)

// chunkLines is how many lines a chunk of a line table holds at most (a
// variable so that tests can make chunks small).
var chunkLines = 1024

// lineTable is where each line of a text starts, kept in chunks whose
// offsets are relative to the chunk's own start. An edit rebuilds the
// chunks around it and moves the rest by changing their starts alone,
// sharing their offsets with the table before the edit: a keystroke in
// a long document costs a copy of the chunk list, not of every line.
type lineTable struct {
	chunks []lineChunk
	count  int
	flat   *flatLines // every line start, built on first use (starts)
}

// lineChunk is a run of lines: the first is line first of the text and
// starts at byte base; rel[i] is where line first+i starts minus base
// (rel[0] is 0). rel is never changed once built. Its offsets are
// 32-bit (half the memory of the table, issue 36): a run of lines
// spans far less than 4 GiB of text.
type lineChunk struct {
	first, base int
	rel         []uint32
}

type flatLines struct {
	once  sync.Once
	lines []int
}

// newLineTable splits starts, the line starts of a whole text (the
// first being 0), into chunks.
func newLineTable(starts []int) lineTable {
	t := lineTable{count: len(starts), flat: &flatLines{}}
	t.chunks = make([]lineChunk, 0, (len(starts)+chunkLines-1)/chunkLines)
	t.chunks = appendChunks(t.chunks, 0, starts)
	// The chunks' offsets are relative and 32-bit, so the absolute
	// slice is not kept; starts() builds it again when asked.
	return t
}

// lineBuilder builds the line table of a text whose line starts it is
// given one at a time, in order, at most as many as it was made for:
// straight into the table's chunks, with no slice of every start to
// copy from (issue 36: that slice, 8 bytes a line, was made and dropped
// by every NewMapper and Padded of a large open).
type lineBuilder struct {
	t   lineTable
	all []uint32 // the chunks' offsets, one array
}

// newLineBuilder returns a builder of a table of at most n lines.
func newLineBuilder(n int) *lineBuilder {
	b := &lineBuilder{all: make([]uint32, n)}
	b.t = lineTable{chunks: make([]lineChunk, 0, (n+chunkLines-1)/chunkLines), flat: &flatLines{}}
	return b
}

// add adds the next line, which starts at start.
func (b *lineBuilder) add(start int) {
	if b.t.count%chunkLines == 0 {
		i := b.t.count
		j := min(i+chunkLines, len(b.all))
		b.t.chunks = append(b.t.chunks, lineChunk{first: i, base: start, rel: b.all[i:i:j]})
	}
	c := &b.t.chunks[len(b.t.chunks)-1]
	c.rel = append(c.rel, uint32(start-c.base))
	b.t.count++
}

// appendChunks appends the lines starts (absolute, the first being line
// first) to chunks, chunkLines at a time, made relative in one new
// array.
func appendChunks(chunks []lineChunk, first int, starts []int) []lineChunk {
	all := make([]uint32, len(starts))
	for i := 0; i < len(starts); i += chunkLines {
		j := min(i+chunkLines, len(starts))
		rel := all[i:j:j]
		base := starts[i]
		for k, s := range starts[i:j] {
			rel[k] = uint32(s - base)
		}
		chunks = append(chunks, lineChunk{first: first + i, base: base, rel: rel})
	}
	return chunks
}

// start returns where line (0 <= line < count) starts.
func (t lineTable) start(line int) int {
	c := t.chunkOfLine(line)
	return c.base + int(c.rel[line-c.first])
}

func (t lineTable) chunkOfLine(line int) *lineChunk {
	i := sort.Search(len(t.chunks), func(i int) bool { return t.chunks[i].first > line }) - 1
	return &t.chunks[i]
}

// lineOf returns the line holding off (0 <= off).
func (t lineTable) lineOf(off int) int {
	i := sort.Search(len(t.chunks), func(i int) bool { return t.chunks[i].base > off }) - 1
	c := &t.chunks[i]
	rel := off - c.base
	return c.first + sort.Search(len(c.rel), func(j int) bool { return int(c.rel[j]) > rel }) - 1
}

// starts returns every line start; it must not be modified.
func (t lineTable) starts() []int {
	t.flat.once.Do(func() {
		lines := make([]int, 0, t.count)
		for _, c := range t.chunks {
			for _, r := range c.rel {
				lines = append(lines, c.base+int(r))
			}
		}
		t.flat.lines = lines
	})
	return t.flat.lines
}

// edited returns the table of content, the text of t with the bytes
// [start, oldEnd) replaced by content's [start, newEnd): the chunks
// from the line before start up to the first whose start, moved, lies
// past newEnd+2 are indexed again from content (a "\r" just before the
// edit may pair with a "\n" it inserts, and one just after it with a
// "\n" after that); the chunks after them are t's moved.
func (t lineTable) edited(text Text, start, oldEnd, newEnd int) lineTable {
	delta := newEnd - oldEnd
	line := max(t.lineOf(start)-1, 0)
	ci := sort.Search(len(t.chunks), func(i int) bool { return t.chunks[i].first > line }) - 1
	from := t.chunks[ci]
	stop := min(newEnd+2, text.Len())
	cj := sort.Search(len(t.chunks), func(i int) bool { return t.chunks[i].base+delta > stop })
	// Line starts before end are indexed again; the one at end (chunk
	// cj's, moved) and those after it are t's.
	end, last := text.Len()+1, cj == len(t.chunks)
	if !last {
		end = t.chunks[cj].base + delta
	}
	// The lines indexed again, read piece by piece (a range across
	// pieces is not joined); the byte after them may pair with a "\r".
	base := from.base
	starts := make([]int, 1, chunkLines)
	starts[0] = base
	next := base // the first offset not yet read
	text.Pieces(base, min(end, text.Len()), func(at int, p []byte) bool {
		if k := max(next-at, 0); bytes.IndexByte(p[k:], '\r') < 0 {
			// No "\r": every break is a "\n", found a word at a time.
			for {
				j := bytes.IndexByte(p[k:], '\n')
				if j < 0 {
					next = at + len(p)
					return true
				}
				i := at + k + j
				if i+1 >= end {
					return false
				}
				starts = append(starts, i+1)
				k += j + 1
			}
		}
		for k := max(next-at, 0); k < len(p); k++ {
			i := at + k
			if i+1 >= end {
				return false
			}
			switch p[k] {
			case '\r':
				if i+1 < text.Len() && text.At(i+1) == '\n' {
					// The pair is one line break, read as its "\n".
					i++
					k++
					if i+1 >= end {
						return false
					}
				}
				starts = append(starts, i+1)
			case '\n':
				starts = append(starts, i+1)
			}
			next = i + 1
		}
		return true
	})
	chunks := make([]lineChunk, 0, len(t.chunks)+len(starts)/chunkLines+1)
	chunks = append(chunks, t.chunks[:ci]...)
	chunks = appendChunks(chunks, from.first, starts)
	count := from.first + len(starts)
	if !last {
		lineDelta := count - t.chunks[cj].first
		for _, c := range t.chunks[cj:] {
			chunks = append(chunks, lineChunk{first: c.first + lineDelta, base: c.base + delta, rel: c.rel})
		}
		count = t.count + lineDelta
	}
	return lineTable{chunks: chunks, count: count, flat: &flatLines{}}
}

// LineEndText is LineEnd of a shared text: it reads the line from from
// to its end.
func LineEndText(t Text, from int) (end int, ok bool) {
	i := t.IndexAny(from, "\n")
	if i < 0 {
		return t.Len(), false
	}
	if i > from && t.At(i-1) == '\r' {
		i--
	}
	return i, true
}

// LineEnd returns where the line holding text[from] ends, before its
// line break ("\n" or "\r\n"); ok is false when no line break ends it
// (end is then the text's end).
func LineEnd(text []byte, from int) (end int, ok bool) {
	i := bytes.IndexByte(text[from:], '\n')
	if i < 0 {
		return len(text), false
	}
	end = from + i
	if end > from && text[end-1] == '\r' {
		end--
	}
	return end, true
}
