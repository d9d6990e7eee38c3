package source

import "sort"

// Segment maps a run of decoded bytes to the source text that produced it.
// When DecLen == SrcLen the run is verbatim and maps byte for byte;
// otherwise (an escape sequence, a folded line break, a stripped
// indentation) the run is atomic: every decoded offset inside it maps to
// Src, and its end maps to Src+SrcLen.
type Segment struct {
	Dec    int // decoded offset where the run starts
	DecLen int
	Src    int // source offset where the run starts, relative to the map's Base
	SrcLen int
}

// OffsetMap carries offsets in a decoded string (a scalar's value) back to
// offsets in the document. The zero value maps nothing and returns offsets
// unchanged relative to Base.
type OffsetMap struct {
	// Base is the source offset the segments' offsets are relative to,
	// so that the map of a string moved elsewhere (a tree spliced after
	// an edit) is the same segments with another Base. When Segments is
	// empty (an empty scalar) Source returns Base for every offset.
	Base     int
	Segments []Segment // sorted by Dec, contiguous in decoded space
}

// Relative returns the map at base of segments whose Src are source
// offsets: they are made relative to base, in place.
func Relative(base int, segs []Segment) OffsetMap {
	for i := range segs {
		segs[i].Src -= base
	}
	return OffsetMap{Base: base, Segments: segs}
}

// Identity returns the map of a string that appears verbatim at src.
// Maps are never written after they are made, so the maps of strings up
// to identityMax bytes long share their one segment (most scalars of a
// document are verbatim: a segment each was a quarter of a parsed
// tree's memory).
func Identity(src, n int) OffsetMap {
	if n == 0 {
		return OffsetMap{Base: src}
	}
	if segs := SharedIdentity(n); segs != nil {
		return OffsetMap{Base: src, Segments: segs}
	}
	return OffsetMap{Base: src, Segments: []Segment{{Dec: 0, DecLen: n, Src: 0, SrcLen: n}}}
}

// SharedIdentity returns the shared segments of the map of a verbatim
// string of n bytes, or nil when n is 0 or over identityMax. Appending
// to them copies (their capacity is their length).
func SharedIdentity(n int) []Segment {
	if n <= 0 || n > identityMax {
		return nil
	}
	return identities[n-1 : n : n]
}

// IsIdentity reports whether segs map a string of n bytes verbatim from
// their base.
func IsIdentity(segs []Segment, n int) bool {
	return len(segs) == 1 && segs[0] == Segment{Dec: 0, DecLen: n, Src: 0, SrcLen: n}
}

// identityMax is the longest verbatim string whose map's segment is
// shared: identities[n-1] maps n bytes.
const identityMax = 1024

var identities = func() []Segment {
	segs := make([]Segment, identityMax)
	for i := range segs {
		segs[i] = Segment{Dec: 0, DecLen: i + 1, Src: 0, SrcLen: i + 1}
	}
	return segs
}()

// Source returns the document offset of decoded offset dec. An offset at
// the end of the decoded string maps to the end of the last run.
func (m *OffsetMap) Source(dec int) int { return m.source(dec, false) }

// SourceEnd returns the document offset for the end of a decoded range
// ending at dec: the end of the run holding the last decoded byte, so an
// escape sequence is covered whole.
func (m *OffsetMap) SourceEnd(dec int) int { return m.source(dec, true) }

// source finds the run holding decoded offset dec (with end, the run
// holding the byte before it) and maps dec into it. Inside an escape, whose
// decoded and source lengths differ, it gives the escape's start, or with
// end its end.
func (m *OffsetMap) source(dec int, end bool) int {
	segs := m.Segments
	if len(segs) == 0 {
		return m.Base
	}
	if dec <= 0 {
		return m.Base + segs[0].Src
	}
	i := sort.Search(len(segs), func(i int) bool {
		e := segs[i].Dec + segs[i].DecLen
		return e > dec || end && e == dec
	})
	if i == len(segs) {
		last := segs[len(segs)-1]
		return m.Base + last.Src + last.SrcLen
	}
	s := segs[i]
	switch {
	case s.DecLen == s.SrcLen:
		return m.Base + s.Src + (dec - s.Dec)
	case end:
		return m.Base + s.Src + s.SrcLen
	}
	return m.Base + s.Src
}

// Range maps the decoded range [start, end) to a document range.
func (m *OffsetMap) Range(start, end int) Range {
	if end <= start {
		o := m.Source(start)
		return Range{Start: o, End: o}
	}
	return Range{Start: m.Source(start), End: m.SourceEnd(end)}
}
