package lsp

import (
	"bytes"
	"sort"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/internal/chunked"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// Padding: the coordinates of a Bluelink blueprint's parse.
//
// A snapshot holds the client's text exactly. Its parse (the syntax
// phase, Snapshot.File) places the tree in coordinates where each open
// definition's key line ("  ordersTable:", in JSON `"ordersTable": {`,
// in the blueprint language `resource ordersTable: aws/x {`) is followed
// by some spaces that are not in the client's text: the padding. The
// parse's Text is the client's text with those spaces in; its Mapper
// skips them (source.Mapper.WithSlack), so every position the server
// sends and reads is the client's. An edit inside a definition takes
// spaces from its padding or gives them back, so the definition keeps
// its length in these coordinates: everything after it keeps its
// offsets, and the splice and the incremental analysis share it
// unmoved instead of copying it with new offsets.
//
// The padding never decides how anything parses: a text that is parsed
// whole is the client's (schema.Parse), padded afterwards where the
// parse says an open definition's key line ends (schema.PadPoints,
// syntax.PadParsed moves the tree); a splice re-parses one definition,
// and its padding is kept only when the new tree still says its key
// line is open and ends where the padding does (spaces there lie where
// every grammar skips blanks), the client's text parsed whole
// otherwise. So a parse of the padded text is always the parse of the
// client's, moved.
const (
	slackSize   = 64   // the spaces an open definition is padded with
	slackRefill = 256  // and padded again with once typing used them up
	slackMax    = 1024 // padding grown past this by deletions is reset
	minSlack    = 4    // the least a run is padded with at a whole parse
)

// padBlock is how many runs padding.sums totals each.
const padBlock = 256

// padding is the padding of a parse: runs of spaces at the ends of key
// lines, in the parse's coordinates, sorted, in a vector that versions
// share by chunks (an edit that keeps the coordinates copies one chunk,
// not every definition's run). sums[k] totals the spaces of runs
// [k*padBlock, (k+1)*padBlock), so that a client offset finds its run
// without summing every run before it.
type padding struct {
	v    chunked.Vec[source.Slack]
	sums []int
}

// Len and At make a padding a source.Slacks; a nil one has no runs.
func (p *padding) Len() int {
	if p == nil {
		return 0
	}
	return p.v.Len()
}

func (p *padding) At(i int) source.Slack { return p.v.At(i) }

// newPadding returns the padding of runs (sorted, apart); nil when there
// are none.
func newPadding(runs []source.Slack) *padding {
	if len(runs) == 0 {
		return nil
	}
	p := &padding{v: chunked.Make[source.Slack](len(runs)), sums: make([]int, (len(runs)+padBlock-1)/padBlock)}
	for i, s := range runs {
		p.v.Set(i, s)
		p.sums[i/padBlock] += s.Len
	}
	return p
}

// paddingOf returns the padding of a parse's mapper (nil: none).
func paddingOf(m *source.Mapper) *padding {
	if m == nil {
		return nil
	}
	if p, ok := m.Slack().(*padding); ok {
		return p
	}
	return newPadding(source.SlackOf(m.Slack()))
}

// withMapper returns m knowing p.
func (p *padding) withMapper(m *source.Mapper) *source.Mapper {
	if p == nil {
		return m.WithSlack(nil)
	}
	return m.WithSlack(p)
}

// locate returns the index of the first run whose place in the client's
// text (the end of its key line there) is at or after c, and the spaces
// of the runs before it.
func (p *padding) locate(c int) (i, before int) {
	n := p.Len()
	k := 0
	for ; k < len(p.sums); k++ {
		last := min(n, (k+1)*padBlock) - 1
		s := p.At(last)
		// The client's place of the block's last run.
		if s.At-(before+p.sums[k]-s.Len) >= c {
			break
		}
		before += p.sums[k]
	}
	for i = k * padBlock; i < n; i++ {
		s := p.At(i)
		if s.At-before >= c {
			return i, before
		}
		before += s.Len
	}
	return n, before
}

// clientRuns returns p's runs in the client's coordinates: each At is
// where its key line ends in the client's text.
func (p *padding) clientRuns() []source.Slack {
	out := make([]source.Slack, 0, p.Len())
	before := 0
	for i := range p.Len() {
		s := p.At(i)
		out = append(out, source.Slack{At: s.At - before, Len: s.Len})
		before += s.Len
	}
	return out
}

// toClient returns where the padded offset v is in the client's text
// (an offset inside a run is where the run starts).
func (p *padding) toClient(v int) int {
	n := p.Len()
	j := sort.Search(n, func(i int) bool { return p.At(i).At >= v })
	before := 0
	for k := range j / padBlock {
		before += p.sums[k]
	}
	for i := j / padBlock * padBlock; i < j; i++ {
		before += p.At(i).Len
	}
	if j > 0 {
		if s := p.At(j - 1); v < s.At+s.Len {
			return s.At - (before - s.Len)
		}
	}
	return v - before
}

// padded is a client's edit put in a parse's coordinates.
type padded struct {
	text source.Text   // the padded text after the edit
	ch   schema.Change // where it differs from the padded text before
	pads *padding      // the padding after the edit
	// run is the index in pads of the run the edit resized or made,
	// -1 for none: the splice must still find it at the end of an open
	// key line (fits).
	run int
}

// padEdit puts the client's edit e (prev's client text changed into
// client, e narrowed to the bytes that differ) into prev's coordinates,
// prev being a padded parse: the padded text changed the same way, with
// the padding of the definition holding the edit taking or giving the
// length change, so that the text after it keeps its offsets. ok is
// false when the edit is not inside one definition.
func padEdit(prev *schema.File, pads *padding, client source.Text, e schema.Change) (out padded, ok bool) {
	ins := client.Slice(e.Start, e.NewEnd)
	i, before := pads.locate(e.Start)
	lo, first := e.Start+before, i // first: the first run the edit may swallow
	if i < pads.Len() && pads.At(i).At-before == e.Start && (e.OldEnd > e.Start || startsWithBreak(ins)) {
		// At a key line's end: a line break typed there, or the line
		// break deleted, goes after the padding, which stays on the key
		// line (typing anything else there goes before it).
		lo += pads.At(i).Len
		first++
	}
	j, beforeHi := pads.locate(e.OldEnd)
	hi := max(lo, e.OldEnd+beforeHi)
	if j > first {
		return padded{}, false // across a key line's end: parsed whole
	}
	def, ok := schema.DefinitionAt(prev, lo, hi)
	if !ok {
		return padded{}, false
	}
	delta := len(ins) - (hi - lo)
	k := sort.Search(pads.Len(), func(i int) bool { s := pads.At(i); return s.At+s.Len >= def.KeyLineEnd })
	found := k < pads.Len() && pads.At(k).At+pads.At(k).Len == def.KeyLineEnd
	at, old := def.KeyLineEnd, 0
	if found {
		at, old = pads.At(k).At, pads.At(k).Len
	} else if !def.Open || lo <= at {
		// A definition not open has no padding; one whose key line
		// is being typed gets it once it is open again (at a whole
		// parse).
		out = padded{text: prev.Text.Edit(lo, hi, ins), run: -1}
		out.ch = schema.Change{Start: lo, OldEnd: hi, NewEnd: hi + delta}
		out.pads = shifted(pads, k, delta)
		return out, true
	}
	size := old - delta
	switch {
	case found && size <= 0:
		// A definition being written: typing went past its padding,
		// and will again. Each refill moves everything after it, so
		// it gets more.
		size = slackRefill
	case size > slackMax || !found:
		size = slackSize
	}
	// The edit and the padding's change, the later one first so that
	// the earlier one's offsets still hold.
	text := prev.Text
	moved := at // where the run starts after the edit
	if lo >= at+old {
		text = text.Edit(lo, hi, ins).Edit(at, at+old, spaces[:size:size])
	} else {
		text = text.Edit(at, at+old, spaces[:size:size]).Edit(lo, hi, ins)
		moved += delta
	}
	total := delta + size - old
	start, end := min(lo, at), max(hi, at+old)
	out = padded{text: text, ch: schema.Change{Start: start, OldEnd: end, NewEnd: end + total}, run: k}
	run := source.Slack{At: moved, Len: size}
	if found && total == 0 {
		v := pads.v.Edit()
		v.Set(k, run)
		sums := append([]int(nil), pads.sums...)
		sums[k/padBlock] += size - old
		out.pads = &padding{v: v, sums: sums}
		return out, true
	}
	runs := make([]source.Slack, 0, pads.Len()+1)
	for i := range k {
		runs = append(runs, pads.At(i))
	}
	runs = append(runs, run)
	if found {
		k++
	}
	for i := k; i < pads.Len(); i++ {
		s := pads.At(i)
		runs = append(runs, source.Slack{At: s.At + total, Len: s.Len})
	}
	out.pads = newPadding(runs)
	return out, true
}

// shifted returns pads with the runs from k on moved by delta.
func shifted(pads *padding, k, delta int) *padding {
	if delta == 0 || k >= pads.Len() {
		return pads
	}
	runs := make([]source.Slack, 0, pads.Len())
	for i := range pads.Len() {
		s := pads.At(i)
		if i >= k {
			s.At += delta
		}
		runs = append(runs, s)
	}
	return newPadding(runs)
}

// fits reports whether run i of pads ends the key line of an open
// definition of f, a clean parse of the padded text: the spaces then lie
// where the grammar skips blanks.
func fits(f *schema.File, pads *padding, i int) bool {
	if i < 0 {
		return true
	}
	if i >= pads.Len() || len(f.Diagnostics) > 0 || f.HasSyntaxErrors() {
		return false
	}
	s := pads.At(i)
	d, ok := schema.DefinitionAt(f, s.At, s.At)
	return ok && d.Open && d.KeyLineEnd == s.At+s.Len
}

// padWhole pads f, a clean parse of the client's text that nothing else
// holds yet, at the end of every open definition's key line
// (schema.PadPoints): with the size of carry's run at the same place
// (runs in the client's coordinates, sorted), slackSize where it has
// none. It reports whether it padded.
func padWhole(f *schema.File, carry []source.Slack) bool {
	points := schema.PadPoints(f)
	if len(points) == 0 {
		return false
	}
	client := f.Text.Bytes()
	// A new run gets slackSize spaces, unless the definitions are so
	// small that the padding would outgrow the text (a hostile text of
	// tiny definitions would hold several times its size in spaces):
	// then new runs share about the text's length between them.
	size := slackSize
	if len(points)*slackSize > len(client) {
		size = max(minSlack, len(client)/len(points))
	}
	sizes := make([]int, len(points))
	j := 0
	for i, p := range points {
		for j < len(carry) && carry[j].At < p {
			j++
		}
		sizes[i] = size
		if j < len(carry) && carry[j].At == p {
			sizes[i] = carry[j].Len
		}
	}
	text, pads := padSized(client, points, sizes)
	m := pads.withMapper(f.Mapper.Padded(text, points, func(i int) int { return sizes[i] }))
	syntax.PadParsed(f, points, sizes, m.Text(), m)
	return true
}

// carried returns runs (a parse's padding in the client's coordinates)
// in the client's coordinates of a text the client's edit e made from
// that parse's: those before the edit keep their places, those after it
// move by its length change, those inside it go. The last run before the
// edit, that of the definition the edit is most likely in, takes the
// length change as padEdit would, so that the text after the edit keeps
// its coordinates through a whole parse, or several while the text does
// not parse (its padding then waits for the next clean parse).
func carried(runs []source.Slack, e schema.Change) []source.Slack {
	out := make([]source.Slack, 0, len(runs))
	for _, r := range runs {
		switch {
		case r.At < e.Start:
			out = append(out, r)
		case r.At >= e.OldEnd && (r.At > e.Start || e.OldEnd > e.Start):
			out = append(out, source.Slack{At: r.At + e.NewEnd - e.OldEnd, Len: r.Len})
		}
	}
	i := sort.Search(len(out), func(i int) bool { return out[i].At >= e.Start }) - 1
	if i >= 0 {
		switch size := out[i].Len - (e.NewEnd - e.OldEnd); {
		case size <= 0:
			out[i].Len = slackRefill
		case size > slackMax:
			out[i].Len = slackSize
		default:
			out[i].Len = size
		}
	}
	return out
}

// padSized returns text with sizes[i] spaces put at each of points
// (sorted offsets, each the end of a definition's key line), and that
// padding. The padded text holds text's bytes and the runs of spaces as
// pieces of its own, not a copy: the client's text is already held by
// the snapshot, and the parse's scalar values are substrings of it
// (issue 36: the copy was 3.3 MB of a 5,000-resource blueprint).
func padSized(text []byte, points, sizes []int) (source.Text, *padding) {
	parts := make([][]byte, 0, 2*len(points)+1)
	runs := make([]source.Slack, 0, len(points))
	prev, moved := 0, 0
	for i, p := range points {
		parts = append(parts, text[prev:p], spaces[:sizes[i]])
		runs = append(runs, source.Slack{At: p + moved, Len: sizes[i]})
		moved += sizes[i]
		prev = p
	}
	parts = append(parts, text[prev:])
	return source.TextOf(parts...), newPadding(runs)
}

// startsWithBreak reports whether text starts with a line break.
func startsWithBreak(text []byte) bool {
	return len(text) > 0 && (text[0] == '\n' || text[0] == '\r')
}

// spaces is what padding is made of.
var spaces = bytes.Repeat([]byte{' '}, slackMax)

// staleLimit returns where a stale Result (the document's last that
// parsed) stops describing the snapshot's text: the first byte, in the
// Result's coordinates, where its text, without its padding, and the
// client's differ.
func staleLimit(res *analysis.Result, snap *Snapshot) int {
	pads := paddingOf(res.File.Mapper)
	a, c := res.File.Text, snap.Text
	at, ct := 0, 0 // where the next stretch between runs starts in each
	for i := 0; i <= pads.Len(); i++ {
		end, skip := a.Len(), 0
		if i < pads.Len() {
			end, skip = pads.At(i).At, pads.At(i).Len
		}
		x, y := a.Slice(at, end), c.Slice(ct, min(ct+end-at, c.Len()))
		k := 0
		for k < len(x) && k < len(y) && x[k] == y[k] {
			k++
		}
		if k < len(x) {
			return at + k
		}
		at, ct = end+skip, ct+len(x)
	}
	return a.Len()
}
