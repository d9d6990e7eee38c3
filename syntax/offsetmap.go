package syntax

import (
	"unicode/utf8"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// mapBuilder accumulates a decoded string and its decoded→source map.
// Verbatim runs that continue each other are merged; substitutions (escapes,
// folds, stripped indentation) always stay separate atomic segments.
type mapBuilder struct {
	buf          []byte
	segs         []source.Segment
	base         int
	lastVerbatim bool
}

func (b *mapBuilder) reset(base int) {
	b.buf = b.buf[:0]
	b.segs = b.segs[:0]
	b.base = base
	b.lastVerbatim = false
}

// verbatim appends src[off:off+n], which maps byte for byte.
func (b *mapBuilder) verbatim(src []byte, off, n int) {
	if n <= 0 {
		return
	}
	dec := len(b.buf)
	b.buf = append(b.buf, src[off:off+n]...)
	if k := len(b.segs); k > 0 && b.lastVerbatim {
		last := &b.segs[k-1]
		if last.Src+last.SrcLen == off {
			last.DecLen += n
			last.SrcLen += n
			return
		}
	}
	b.segs = append(b.segs, source.Segment{Dec: dec, DecLen: n, Src: off, SrcLen: n})
	b.lastVerbatim = true
}

// sub appends decoded text produced by the source run [src, src+srcLen) as
// an atomic segment. A segment whose lengths happen to agree would read as
// verbatim, so one longer than a byte is split into two unequal ones; a
// one-byte substitution maps identically either way.
func (b *mapBuilder) sub(decoded string, src, srcLen int) {
	dec := len(b.buf)
	b.buf = append(b.buf, decoded...)
	n := len(decoded)
	if n == srcLen && n > 1 {
		b.segs = append(b.segs,
			source.Segment{Dec: dec, DecLen: n - 1, Src: src, SrcLen: srcLen},
			source.Segment{Dec: dec + n - 1, DecLen: 1, Src: src + srcLen, SrcLen: 0})
	} else {
		b.segs = append(b.segs, source.Segment{Dec: dec, DecLen: n, Src: src, SrcLen: srcLen})
	}
	b.lastVerbatim = false
}

// escape appends rune r produced by an escape sequence.
func (b *mapBuilder) escape(r rune, src, srcLen int) {
	var tmp [utf8.UTFMax]byte
	n := utf8.EncodeRune(tmp[:], r)
	b.sub(string(tmp[:n]), src, srcLen)
}

func (b *mapBuilder) String() string { return string(b.buf) }

// Map returns the map built, its segments made relative to the base in
// place: it ends the build (reset starts the next).
func (b *mapBuilder) Map() source.OffsetMap {
	if len(b.segs) == 0 {
		return source.OffsetMap{Base: b.base}
	}
	return source.Relative(b.base, b.segs)
}

// coarseMap maps every decoded offset of an n-byte value to the start of
// src and the end of the value to its end: the honest answer when the
// decoding could not be reproduced exactly.
func coarseMap(src source.Range, n int) source.OffsetMap {
	if n == 0 {
		return source.OffsetMap{Base: src.Start}
	}
	if n == src.Len() {
		return source.OffsetMap{Base: src.Start, Segments: []source.Segment{
			{Dec: 0, DecLen: 1, Src: 0, SrcLen: 0},
			{Dec: 1, DecLen: n - 1, Src: 0, SrcLen: src.Len()},
		}}
	}
	return source.OffsetMap{Base: src.Start, Segments: []source.Segment{{Dec: 0, DecLen: n, Src: 0, SrcLen: src.Len()}}}
}
