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
	groups []group // in order; none empty
	mu     sync.Mutex
	flat   atomic.Pointer[[]byte] // the pieces joined, once made
}

// group is a run of pieces that the versions of a text share: an edit
// copies the group it touches and the list of groups, not the list of
// every piece. A text made of many short pieces (a padded parse's
// text, TextOf: the client's bytes between two runs of spaces, and the
// runs) would otherwise copy thousands of pieces an edit (issue 36).
type group struct {
	pieces []piece // in order, none empty; their ends are relative to the group's start
	end    int     // where the group ends in the text
}

// piece is a run of a text's bytes (capacity clipped) and the offset
// where it ends (in its group).
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

// groupSize is how many pieces a group holds when it is made; an edit
// splits a group grown past twice that.
const groupSize = 64

// pos is a piece of a text: piece k of group g.
type pos struct{ g, k int }

// NewText returns the Text of b, which it keeps (no copy): b must not
// change afterwards.
func NewText(b []byte) Text {
	if len(b) == 0 {
		return Text{}
	}
	pieces := make([]piece, 0, (len(b)+maxPiece-1)/maxPiece)
	for at := 0; at < len(b); at += maxPiece {
		end := min(at+maxPiece, len(b))
		pieces = append(pieces, piece{b[at:end:end], end})
	}
	x := textOf(pieces)
	whole := b[:len(b):len(b)]
	x.t.flat.Store(&whole)
	return x
}

// TextOf returns the Text of parts joined, which it keeps (no copy):
// they must not change afterwards. A text that is mostly another's
// bytes (a padded parse's: the client's bytes with runs of spaces put
// in) holds no copy of them until Bytes is called.
func TextOf(parts ...[]byte) Text {
	pieces := make([]piece, 0, len(parts))
	end := 0
	for _, p := range parts {
		if len(p) > 0 {
			end += len(p)
			pieces = append(pieces, piece{p[:len(p):len(p)], end})
		}
	}
	return textOf(pieces)
}

// textOf returns the text of pieces (their ends from the text's start).
func textOf(pieces []piece) Text {
	if len(pieces) == 0 {
		return Text{}
	}
	return Text{&text{groups: appendGroups(nil, 0, pieces)}}
}

// appendGroups appends pieces, whose ends are relative to start, to
// groups, in groups of groupSize pieces.
func appendGroups(groups []group, start int, pieces []piece) []group {
	base := 0 // where the group being made starts, from start
	for len(pieces) > 0 {
		n := min(groupSize, len(pieces))
		ps := make([]piece, n)
		for i, p := range pieces[:n] {
			ps[i] = piece{p.b, p.end - base}
		}
		base = pieces[n-1].end
		groups = append(groups, group{ps, start + base})
		pieces = pieces[n:]
	}
	return groups
}

// Len returns the text's length in bytes.
func (x Text) Len() int {
	if x.t == nil {
		return 0
	}
	return x.t.groups[len(x.t.groups)-1].end
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

// find returns the piece holding offset off (0 <= off < Len).
func (t *text) find(off int) pos {
	g := sort.Search(len(t.groups), func(i int) bool { return t.groups[i].end > off })
	rel, ps := off-t.groupStart(g), t.groups[g].pieces
	return pos{g, sort.Search(len(ps), func(i int) bool { return ps[i].end > rel })}
}

// groupStart returns where group g begins.
func (t *text) groupStart(g int) int {
	if g == 0 {
		return 0
	}
	return t.groups[g-1].end
}

// span returns where piece p begins and its bytes.
func (t *text) span(p pos) (start int, b []byte) {
	start = t.groupStart(p.g)
	if p.k > 0 {
		start += t.groups[p.g].pieces[p.k-1].end
	}
	return start, t.groups[p.g].pieces[p.k].b
}

// next returns the piece after p; ok is false after the last.
func (t *text) next(p pos) (_ pos, ok bool) {
	if p.k+1 < len(t.groups[p.g].pieces) {
		return pos{p.g, p.k + 1}, true
	}
	if p.g+1 < len(t.groups) {
		return pos{p.g + 1, 0}, true
	}
	return p, false
}

// prev returns the piece before p; ok is false before the first.
func (t *text) prev(p pos) (_ pos, ok bool) {
	if p.k > 0 {
		return pos{p.g, p.k - 1}, true
	}
	if p.g > 0 {
		return pos{p.g - 1, len(t.groups[p.g-1].pieces) - 1}, true
	}
	return p, false
}

// last returns the text's last piece.
func (t *text) last() pos {
	g := len(t.groups) - 1
	return pos{g, len(t.groups[g].pieces) - 1}
}

// Bytes returns the whole text. The first call on a Text made by Edit
// or TextOf joins its pieces; later calls return the same slice, which
// must not be changed.
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
	for p, ok := t.find(a), true; ok; p, ok = t.next(p) {
		s, bs := t.span(p)
		if s >= b {
			break
		}
		out = append(out, bs[max(a-s, 0):min(b-s, len(bs))]...)
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
	if s, p := t.span(t.find(a)); b <= s+len(p) {
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
	for p, ok := t.find(a), true; ok; p, ok = t.next(p) {
		s, bs := t.span(p)
		if s >= b {
			return
		}
		lo, hi := max(a-s, 0), min(b-s, len(bs))
		if !f(s+lo, bs[lo:hi:hi]) {
			return
		}
	}
}

// String returns the bytes [a, b) as a string (clamped).
func (x Text) String(a, b int) string { return string(x.Slice(a, b)) }

// At returns the byte at off (0 <= off < Len).
func (x Text) At(off int) byte {
	s, p := x.t.span(x.t.find(off))
	return p[off-s]
}

// Edit returns the text with the bytes [a, b) replaced by repl (which it
// copies). The pieces before and after the edit are shared with x; the
// piece or pieces the edit touches are made again, merged with a
// neighbour while shorter than minPiece and cut when longer than twice
// maxPiece. The groups before and after it are shared too; the one or
// two it touches are made again, and cut when longer than twice
// groupSize.
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
	i := t.last()
	if a < n {
		i = t.find(a)
	}
	j := i
	if b > a {
		j = t.find(b - 1)
	}
	lo, _ := t.span(i)
	hi := pieceEnd(t, j)
	size := func() int { return hi - lo + len(repl) - (b - a) }
	// Merge short neighbours in, so pieces do not shrink edit by edit.
	for size() < minPiece {
		if nj, ok := t.next(j); ok {
			j, hi = nj, pieceEnd(t, nj)
		} else if ni, ok := t.prev(i); ok {
			i = ni
			lo, _ = t.span(ni)
		} else {
			break
		}
	}
	mid := make([]byte, 0, size())
	mid = t.appendRange(mid, lo, a)
	mid = append(mid, repl...)
	mid = t.appendRange(mid, b, hi)
	delta := len(repl) - (b - a)
	// The new pieces of groups i.g to j.g, ends relative to i.g's start.
	gs := t.groupStart(i.g)
	gi, gj := t.groups[i.g].pieces, t.groups[j.g].pieces
	made := make([]piece, 0, i.k+len(mid)/maxPiece+1+len(gj)-j.k)
	made = append(made, gi[:i.k]...)
	end := lo - gs
	for len(mid) > 2*maxPiece {
		end += maxPiece
		made = append(made, piece{mid[:maxPiece:maxPiece], end})
		mid = mid[maxPiece:]
	}
	if len(mid) > 0 {
		end += len(mid)
		made = append(made, piece{mid[:len(mid):len(mid)], end})
	}
	shift := t.groupStart(j.g) + delta - gs
	for _, p := range gj[j.k+1:] {
		made = append(made, piece{p.b, p.end + shift})
	}
	out := &text{groups: make([]group, 0, len(t.groups)+len(made)/groupSize)}
	out.groups = append(out.groups, t.groups[:i.g]...)
	if len(made) > 2*groupSize {
		out.groups = appendGroups(out.groups, gs, made)
	} else if len(made) > 0 {
		out.groups = append(out.groups, group{made, gs + made[len(made)-1].end})
	}
	// The groups after the edit are x's, moved by its length change.
	for _, g := range t.groups[j.g+1:] {
		out.groups = append(out.groups, group{g.pieces, g.end + delta})
	}
	if len(out.groups) == 0 {
		return Text{}
	}
	return Text{out}
}

// pieceEnd returns where piece p ends.
func pieceEnd(t *text, p pos) int {
	s, b := t.span(p)
	return s + len(b)
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
	for p, ok := t.find(from), true; ok; p, ok = t.next(p) {
		s, bs := t.span(p)
		if j := bytes.IndexAny(bs[max(from-s, 0):], chars); j >= 0 {
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
	for p, ok := t.find(end-1), true; ok; p, ok = t.prev(p) {
		s, bs := t.span(p)
		if j := bytes.LastIndexAny(bs[:min(end-s, len(bs))], chars); j >= 0 {
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
	s, b := x.t.span(x.t.find(off))
	return b[off-s:]
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
	s, b := x.t.span(x.t.find(end - 1))
	return b[:end-s]
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
