package source

import (
	"bytes"
	"sort"
	"sync"
	"sync/atomic"
)

// Text is an immutable document text that the versions of a document
// share by pieces: an edit makes a new Text that copies only the pieces
// it touches (a few tens of KiB), not the whole text, so typing into a
// large document allocates what it changed and no more (issue 32).
//
// The zero Text is empty. Slice hands out a piece's own bytes when the
// range lies in one piece, so a reader of a small range costs nothing;
// Bytes joins the pieces once per Text, on first use, for the readers
// that want the whole text at once (formatting, a whole parse).
type Text struct{ t *text }

// text is what a Text shares with its copies.
type text struct {
	pieces []piece // in order; none empty
	mu     sync.Mutex
	flat   atomic.Pointer[[]byte] // the pieces joined, once made
}

// piece is a run of a text's bytes (capacity clipped) and the offset
// where it ends.
type piece struct {
	b   []byte
	end int
}

// A piece is at most maxPiece bytes when the text is cut (NewText), and
// a piece an edit makes is merged with its neighbours while it is
// shorter than minPiece, so the number of pieces stays near len/maxPiece
// and an edit copies at most a few pieces' bytes.
const (
	maxPiece = 16 << 10
	minPiece = 4 << 10
)

// NewText returns the Text of b, which it keeps (no copy): b must not
// change afterwards.
func NewText(b []byte) Text {
	if len(b) == 0 {
		return Text{}
	}
	t := &text{}
	whole := b[:len(b):len(b)]
	t.flat.Store(&whole)
	for at := 0; at < len(b); at += maxPiece {
		end := min(at+maxPiece, len(b))
		t.pieces = append(t.pieces, piece{b[at:end:end], end})
	}
	return Text{t}
}

// Len returns the text's length in bytes.
func (x Text) Len() int {
	if x.t == nil {
		return 0
	}
	return x.t.pieces[len(x.t.pieces)-1].end
}

// Same reports whether x and y are the same text, not merely equal
// bytes: made by one NewText or Edit, or joined into the same bytes (a
// parse of x.Bytes() holds the Text of those bytes).
func (x Text) Same(y Text) bool {
	if x.t == y.t {
		return true
	}
	if x.t == nil || y.t == nil {
		return false
	}
	fx, fy := x.t.flat.Load(), y.t.flat.Load()
	return fx != nil && fy != nil && len(*fx) == len(*fy) && &(*fx)[0] == &(*fy)[0]
}

// piece returns the index of the piece holding offset off (0 <= off <
// Len).
func (t *text) piece(off int) int {
	return sort.Search(len(t.pieces), func(i int) bool { return t.pieces[i].end > off })
}

// start returns where piece i begins.
func (t *text) start(i int) int {
	if i == 0 {
		return 0
	}
	return t.pieces[i-1].end
}

// Bytes returns the whole text. The first call on a Text made by Edit
// joins its pieces; later calls return the same slice, which must not be
// changed.
func (x Text) Bytes() []byte {
	if x.t == nil {
		return nil
	}
	t := x.t
	if b := t.flat.Load(); b != nil {
		return *b
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if b := t.flat.Load(); b != nil {
		return *b
	}
	b := t.appendRange(make([]byte, 0, x.Len()), 0, x.Len())
	t.flat.Store(&b)
	return b
}

// appendRange appends the bytes [a, b) to out.
func (t *text) appendRange(out []byte, a, b int) []byte {
	if a >= b {
		return out
	}
	for i := t.piece(a); i < len(t.pieces) && t.start(i) < b; i++ {
		s, p := t.start(i), t.pieces[i].b
		out = append(out, p[max(a-s, 0):min(b-s, len(p))]...)
	}
	return out
}

// Slice returns the bytes [a, b) (clamped to the text). A range inside
// one piece, or any range once the text is joined, is handed out without
// a copy; it must not be changed.
func (x Text) Slice(a, b int) []byte {
	n := x.Len()
	a, b = max(0, min(a, n)), max(0, min(b, n))
	if a >= b {
		return nil
	}
	t := x.t
	if flat := t.flat.Load(); flat != nil {
		return (*flat)[a:b:b]
	}
	i := t.piece(a)
	if s := t.start(i); b <= t.pieces[i].end {
		p := t.pieces[i].b
		return p[a-s : b-s : b-s]
	}
	return t.appendRange(make([]byte, 0, b-a), a, b)
}

// Pieces calls f with the bytes [a, b) (clamped), a piece at a time,
// each with the offset it starts at, until f returns false: a reader of
// a long range that needs no copy of it. The bytes must not be changed.
func (x Text) Pieces(a, b int, f func(at int, p []byte) bool) {
	n := x.Len()
	a, b = max(0, min(a, n)), max(0, min(b, n))
	if a >= b {
		return
	}
	t := x.t
	if flat := t.flat.Load(); flat != nil {
		f(a, (*flat)[a:b:b])
		return
	}
	for i := t.piece(a); i < len(t.pieces) && t.start(i) < b; i++ {
		s, p := t.start(i), t.pieces[i].b
		lo, hi := max(a-s, 0), min(b-s, len(p))
		if !f(s+lo, p[lo:hi:hi]) {
			return
		}
	}
}

// String returns the bytes [a, b) as a string (clamped).
func (x Text) String(a, b int) string { return string(x.Slice(a, b)) }

// At returns the byte at off (0 <= off < Len).
func (x Text) At(off int) byte {
	t := x.t
	i := t.piece(off)
	return t.pieces[i].b[off-t.start(i)]
}

// Edit returns the text with the bytes [a, b) replaced by repl (which it
// copies). The pieces before and after the edit are shared with x; the
// piece or pieces the edit touches are made again, merged with a
// neighbour while shorter than minPiece and cut when longer than twice
// maxPiece.
func (x Text) Edit(a, b int, repl []byte) Text {
	n := x.Len()
	if a < 0 || a > b || b > n {
		panic("source.Text.Edit: range out of the text")
	}
	if x.t == nil {
		return NewText(bytes.Clone(repl))
	}
	t := x.t
	// The pieces [i, j] are made again: those holding a and b-1 (for an
	// insertion, the one holding a, or the last at the text's end).
	i := len(t.pieces) - 1
	if a < n {
		i = t.piece(a)
	}
	j := i
	if b > a {
		j = t.piece(b - 1)
	}
	lo, hi := t.start(i), t.pieces[j].end
	size := func() int { return hi - lo + len(repl) - (b - a) }
	// Merge short neighbours in, so pieces do not shrink edit by edit.
	for size() < minPiece && (i > 0 || j+1 < len(t.pieces)) {
		if j+1 < len(t.pieces) {
			j++
			hi = t.pieces[j].end
		} else {
			i--
			lo = t.start(i)
		}
	}
	mid := make([]byte, 0, size())
	mid = t.appendRange(mid, lo, a)
	mid = append(mid, repl...)
	mid = t.appendRange(mid, b, hi)
	out := &text{pieces: make([]piece, 0, len(t.pieces)+len(mid)/maxPiece+1)}
	out.pieces = append(out.pieces, t.pieces[:i]...)
	end := lo
	for len(mid) > 2*maxPiece {
		end += maxPiece
		out.pieces = append(out.pieces, piece{mid[:maxPiece:maxPiece], end})
		mid = mid[maxPiece:]
	}
	if len(mid) > 0 {
		end += len(mid)
		out.pieces = append(out.pieces, piece{mid[:len(mid):len(mid)], end})
	}
	// The pieces after the edit are x's, moved by its length change.
	delta := len(repl) - (b - a)
	for _, p := range t.pieces[j+1:] {
		out.pieces = append(out.pieces, piece{p.b, p.end + delta})
	}
	if len(out.pieces) == 0 {
		return Text{}
	}
	return Text{out}
}

// IndexAny returns the offset of the first byte at or after from that is
// one of chars, or -1.
func (x Text) IndexAny(from int, chars string) int {
	if x.t == nil || from >= x.Len() {
		return -1
	}
	from = max(from, 0)
	if flat := x.t.flat.Load(); flat != nil {
		if i := bytes.IndexAny((*flat)[from:], chars); i >= 0 {
			return from + i
		}
		return -1
	}
	t := x.t
	for i := t.piece(from); i < len(t.pieces); i++ {
		s := t.start(i)
		if j := bytes.IndexAny(t.pieces[i].b[max(from-s, 0):], chars); j >= 0 {
			return max(from, s) + j
		}
	}
	return -1
}

// LastIndexAny returns the offset of the last byte before end that is
// one of chars, or -1.
func (x Text) LastIndexAny(end int, chars string) int {
	end = min(end, x.Len())
	if x.t == nil || end <= 0 {
		return -1
	}
	if flat := x.t.flat.Load(); flat != nil {
		return bytes.LastIndexAny((*flat)[:end], chars)
	}
	t := x.t
	for i := t.piece(end - 1); i >= 0; i-- {
		s := t.start(i)
		if j := bytes.LastIndexAny(t.pieces[i].b[:min(end-s, len(t.pieces[i].b))], chars); j >= 0 {
			return s + j
		}
	}
	return -1
}

// from returns the bytes from off (0 <= off < Len) to the end of the
// piece holding off, or of the text when it is joined.
func (x Text) from(off int) []byte {
	if flat := x.t.flat.Load(); flat != nil {
		return (*flat)[off:]
	}
	i := x.t.piece(off)
	return x.t.pieces[i].b[off-x.t.start(i):]
}

// CommonPrefix returns the length of the longest common prefix of a and
// b. Runs the two share (an edit's untouched pieces) are passed over
// without reading them.
func CommonPrefix(a, b Text) int {
	n := min(a.Len(), b.Len())
	i := 0
	for i < n {
		pa, pb := a.from(i), b.from(i)
		m := min(len(pa), len(pb), n-i)
		if &pa[0] == &pb[0] {
			i += m
			continue
		}
		k := samePrefix(pa[:m], pb[:m])
		i += k
		if k < m {
			break
		}
	}
	return i
}

// upTo returns the bytes up to end (0 < end <= Len) from the start of
// the piece holding end-1, or of the text when it is joined.
func (x Text) upTo(end int) []byte {
	if flat := x.t.flat.Load(); flat != nil {
		return (*flat)[:end]
	}
	i := x.t.piece(end - 1)
	return x.t.pieces[i].b[:end-x.t.start(i)]
}

// CommonSuffix returns the length of the longest common suffix of a and
// b, at most limit. Runs the two share are passed over without reading
// them.
func CommonSuffix(a, b Text, limit int) int {
	n := min(a.Len(), b.Len(), limit)
	i := 0
	for i < n {
		pa, pb := a.upTo(a.Len()-i), b.upTo(b.Len()-i)
		m := min(len(pa), len(pb), n-i)
		if &pa[len(pa)-1] == &pb[len(pb)-1] {
			i += m
			continue
		}
		k := sameSuffix(pa[len(pa)-m:], pb[len(pb)-m:])
		i += k
		if k < m {
			break
		}
	}
	return i
}

// compareBlock is how many bytes samePrefix and sameSuffix compare at
// once (bytes.Equal is vectorised) before going byte by byte.
const compareBlock = 512

// samePrefix returns how many leading bytes a and b, of one length,
// share.
func samePrefix(a, b []byte) int {
	i := 0
	for i+compareBlock <= len(a) && bytes.Equal(a[i:i+compareBlock], b[i:i+compareBlock]) {
		i += compareBlock
	}
	for i < len(a) && a[i] == b[i] {
		i++
	}
	return i
}

// sameSuffix returns how many trailing bytes a and b, of one length,
// share.
func sameSuffix(a, b []byte) int {
	n, i := len(a), 0
	for i+compareBlock <= n && bytes.Equal(a[n-i-compareBlock:n-i], b[n-i-compareBlock:n-i]) {
		i += compareBlock
	}
	for i < n && a[n-1-i] == b[n-1-i] {
		i++
	}
	return i
}
