package syntax

import (
	"sort"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// PadParsed turns f, a clean parse of old that nothing else holds yet,
// into the parse of text: old with sizes[i] spaces put before each of
// points (sorted offsets of old, each the end of an Open definition's
// key line, DefinitionAt). It moves every offset of f's tree in place,
// by the spaces of every point before it, instead of parsing text again: the
// spaces lie where the grammar skips blanks (after a key's colon, a
// JSON member's '{', a declaration's '{'), so the parse of text is this
// tree with those offsets (TestPadParsedEqualsParse holds it to one).
// Scalar values that are substrings of old stay so: the server's text
// is old's bytes with the runs of spaces between them (source.TextOf),
// not a copy (issue 36). m is text's mapper.
func PadParsed(f *File, points, sizes []int, text source.Text, m *source.Mapper) {
	cum := make([]int, len(points)+1)
	for i, s := range sizes {
		cum[i+1] = cum[i] + s
	}
	p := padder{points: points, cum: cum}
	if f.Root != nil {
		p.node(f.Root)
	}
	f.Text, f.Mapper = text, m
}

// padder moves a tree's offsets for the padding at points.
type padder struct {
	points []int
	cum    []int // cum[k]: the spaces put before points[k]
	// k counts the points at or before last, the last start moved: the
	// nodes start in order in a walk of the tree, so most starts move
	// the count on instead of searching for it.
	k, last int
}

// start moves an offset a node starts at: padding at its place goes
// before it.
func (p *padder) start(o int) int {
	if o < p.last {
		return o + p.cum[sort.SearchInts(p.points, o+1)]
	}
	for p.k < len(p.points) && p.points[p.k] <= o {
		p.k++
	}
	p.last = o
	return o + p.cum[p.k]
}

// end moves an offset a node ends at (exclusive): padding at its place
// goes after it.
func (p *padder) end(o int) int { return o + p.cum[sort.SearchInts(p.points, o)] }

func (p *padder) rng(r source.Range) source.Range {
	s, e := p.start(r.Start), p.end(r.End)
	return source.Range{Start: s, End: max(s, e)}
}

func (p *padder) node(n Node) {
	switch n := n.(type) {
	case *Mapping:
		n.Rng = p.rng(n.Rng)
		for _, e := range n.Entries {
			p.scalar(e.Key)
			if e.Value != nil {
				p.node(e.Value)
			}
		}
	case *Sequence:
		n.Rng = p.rng(n.Rng)
		for _, it := range n.Items {
			p.node(it)
		}
	case *Scalar:
		p.scalar(n)
	}
}

// scalar moves a scalar, which no padding is inside (a definition's key
// line holds no part of its value), by the padding before it.
func (p *padder) scalar(n *Scalar) {
	if n == nil {
		return
	}
	d := p.start(n.Rng.Start) - n.Rng.Start
	if d != 0 {
		n.moveBy(d)
	}
}
