package format

import (
	"bytes"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/schema"
)

// coll is a block mapping or sequence being re-indented: its original
// column, the column it gets, and its parent in the tree of collections.
type coll struct {
	oc, tc int
	parent int // -1 for the root
}

func (c coll) delta() int { return c.tc - c.oc }

// lineRole says how a line may be changed.
type lineRole uint8

const (
	roleNormal  lineRole = iota // a key, a dash, a comment, a blank line
	roleCont                    // inside a multi-line plain or quoted scalar or flow collection
	roleBlock                   // block scalar content: every character is content
	roleQuoted                  // like roleCont, and its line break is inside a quoted scalar
	roleBlockWS                 // a whitespace-only line after a block scalar's content
)

// yamlFormatter computes the edits of one YAML document. It works on lines:
// each line gets the delta of the innermost block collection that covers it,
// so everything inside an entry moves with the entry's key.
type yamlFormatter struct {
	f     *schema.File
	c     []byte
	width int
	colls []coll
	owner []int      // per line: innermost covering collection, -1 for none
	role  []lineRole // per line
	// blockIndent is, per block scalar content line, the content
	// indentation of its scalar (-1 when unknown).
	blockIndent []int
	// blockShift is, per block scalar content line, how far it moves.
	blockShift []int
	// headers are the lines holding a block scalar's indicator (`|`, `>`).
	headers map[int]bool
	// gaps are the spacing edits after dashes and colons.
	gaps   []kedit
	failed bool // the structure is not one the re-indenter understands
}

func formatYAML(f *schema.File, opts Options) []kedit {
	m := f.Mapper
	n := m.LineCount()
	y := &yamlFormatter{
		f: f, c: f.Content(), width: opts.width(),
		owner: make([]int, n), role: make([]lineRole, n), blockIndent: make([]int, n),
		blockShift: make([]int, n), headers: map[int]bool{},
	}
	for i := range y.owner {
		y.owner[i] = -1
		y.blockIndent[i] = -1
	}
	// Anchors, tags and further documents are reported by the parser and
	// break the column assumptions below: leave indentation alone there.
	if len(f.Diagnostics) > 0 {
		y.failed = true
	}
	y.walk(f.Root, 0, -1, false)
	return y.edits(opts)
}

func (y *yamlFormatter) line(off int) int { return y.f.Mapper.Line(off) }

// col returns the column of off in bytes from its line's start; columns
// are only compared where the prefix is ASCII indentation or "- ".
func (y *yamlFormatter) col(off int) int { return off - y.f.Mapper.LineStart(y.line(off)) }

// indentOf returns the number of spaces starting line l.
func (y *yamlFormatter) indentOf(l int) int {
	s := y.f.Mapper.LineStart(l)
	e := lineEnd(y.f.Mapper, l)
	i := s
	for i < e && y.c[i] == ' ' {
		i++
	}
	return i - s
}

// walk assigns the block collection n (target column tc) to its lines and
// recurses. compact says n starts on its parent sequence item's dash line.
func (y *yamlFormatter) walk(n schema.Node, tc, parent int, compact bool) {
	switch n := n.(type) {
	case *schema.Mapping:
		if n.Flow {
			y.markFlow(n, parent)
			return
		}
		if len(n.Entries) == 0 {
			return
		}
		idx := y.add(n, y.col(n.Entries[0].Key.Rng.Start), tc, parent, compact)
		oc := y.colls[idx].oc
		for i, e := range n.Entries {
			k := e.Key.Rng.Start
			kl := y.line(k)
			if y.col(k) != oc || (y.indentOf(kl) != oc && !(i == 0 && compact)) {
				y.failed = true
			}
			if e.Value == nil {
				y.failed = true
				continue
			}
			if isBlockColl(e.Value) {
				if y.line(e.Value.Range().Start) <= kl {
					y.failed = true
				}
				y.walk(e.Value, tc+y.width, idx, false)
				continue
			}
			y.colonGap(e)
			y.markLeaf(e.Value, idx)
		}
	case *schema.Sequence:
		if n.Flow {
			y.markFlow(n, parent)
			return
		}
		if len(n.Items) == 0 {
			return
		}
		idx := y.add(n, y.col(n.Rng.Start), tc, parent, compact)
		oc := y.colls[idx].oc
		from := n.Rng.Start
		for i, it := range n.Items {
			dash := y.skipToDash(from)
			if dash < 0 || y.col(dash) != oc || (y.indentOf(y.line(dash)) != oc && !(i == 0 && compact)) {
				y.failed = true
				return
			}
			r := it.Range()
			from = r.End
			if from <= dash {
				from = dash + 1
			}
			sameLine := y.line(r.Start) == y.line(dash) && r.Start > dash
			gap := r.Start - dash // the column the item takes after the dash
			if sameLine && r.Len() > 0 && onlySpace(y.c[dash+1:r.Start]) && !strings.Contains(string(y.c[dash+1:r.Start]), "\t") {
				y.addGap(dash+1, r.Start, " ")
				gap = 2
			}
			if !isBlockColl(it) {
				y.markLeaf(it, idx)
				continue
			}
			if sameLine {
				y.walk(it, tc+gap, idx, true)
			} else {
				y.walk(it, tc+y.width, idx, false)
			}
		}
	default:
		y.markLeaf(n, parent)
	}
}

// addGap records a spacing edit inside a line.
func (y *yamlFormatter) addGap(start, end int, text string) {
	if e, ok := replace(y.c, start, end, text, kindIndent); ok {
		y.gaps = append(y.gaps, e)
	}
}

// colonGap normalises the spacing between a key's colon and a value on
// the same line to one space.
func (y *yamlFormatter) colonGap(e *schema.Entry) {
	v := e.Value.Range()
	if v.Len() == 0 {
		return
	}
	i := e.Key.Rng.End
	for i < v.Start && y.c[i] == ' ' {
		i++
	}
	if i >= v.Start || y.c[i] != ':' || y.line(i) != y.line(v.Start) {
		return
	}
	if g := y.c[i+1 : v.Start]; onlySpace(g) && !strings.ContainsAny(string(g), "\t\r\n") {
		y.addGap(i+1, v.Start, " ")
	}
}

// add registers a collection and makes it the owner of its lines.
func (y *yamlFormatter) add(n schema.Node, oc, tc, parent int, compact bool) int {
	idx := len(y.colls)
	y.colls = append(y.colls, coll{oc: oc, tc: tc, parent: parent})
	r := n.Range()
	first := y.line(r.Start)
	if compact {
		first++ // the dash line moves with the parent sequence
	}
	for l := first; l <= y.line(r.End); l++ {
		y.owner[l] = idx
	}
	return idx
}

// skipToDash returns the offset of the next '-' at or after off, skipping
// whitespace, line breaks and comments, or -1 when something else comes
// first.
func (y *yamlFormatter) skipToDash(off int) int {
	c := y.c
	for off < len(c) {
		switch c[off] {
		case ' ', '\t', '\r', '\n':
			off++
		case '#':
			for off < len(c) && c[off] != '\n' && c[off] != '\r' {
				off++
			}
		case '-':
			return off
		default:
			return -1
		}
	}
	return -1
}

func isBlockColl(n schema.Node) bool {
	switch n := n.(type) {
	case *schema.Mapping:
		return !n.Flow
	case *schema.Sequence:
		return !n.Flow
	}
	return false
}

// markFlow marks the lines after the first of a multi-line flow
// collection as continuation lines, and any quoted scalars inside.
func (y *yamlFormatter) markFlow(n schema.Node, parent int) {
	r := n.Range()
	for l := y.line(r.Start) + 1; l <= y.line(r.End); l++ {
		y.setRole(l, roleCont)
	}
	switch n := n.(type) {
	case *schema.Mapping:
		for _, e := range n.Entries {
			y.markLeaf(e.Key, parent)
			if e.Value != nil {
				y.markLeaf(e.Value, parent)
			}
		}
	case *schema.Sequence:
		for _, it := range n.Items {
			y.markLeaf(it, parent)
		}
	}
}

func (y *yamlFormatter) setRole(l int, r lineRole) {
	if r > y.role[l] || y.role[l] == roleBlockWS {
		y.role[l] = r
	}
}

// markLeaf marks the lines a scalar or flow collection spans beyond its
// first line; parent is the block collection it is a value of.
func (y *yamlFormatter) markLeaf(n schema.Node, parent int) {
	s, ok := n.(*schema.Scalar)
	if !ok {
		y.markFlow(n, parent)
		return
	}
	first, last := y.line(s.Rng.Start), y.line(s.Rng.End)
	switch s.Style {
	case schema.Literal, schema.Folded:
		y.markBlock(s, first, last, parent)
	case schema.SingleQuoted, schema.DoubleQuoted:
		for l := first; l < last; l++ {
			y.setRole(l, roleQuoted)
		}
		if last > first {
			y.setRole(last, roleCont)
		}
	default:
		for l := first + 1; l <= last; l++ {
			y.setRole(l, roleCont)
		}
	}
}

// noContent is the content indentation of a block scalar whose lines are
// all blank and that has no indentation indicator: none is defined, and
// the spaces on those lines mean nothing (a block scalar ending the text
// with a line of spaces and no line break, "|\n ", held them as content
// on the first pass and dropped them on the second).
const noContent = -2

// markBlock marks a block scalar's content lines and the whitespace-only
// lines after them, and records the content indentation.
func (y *yamlFormatter) markBlock(s *schema.Scalar, first, last, parent int) {
	n := y.f.Mapper.LineCount()
	y.headers[first] = true
	ind := -1
	if m := explicitIndent(y.c, s.Rng.Start); m > 0 {
		if parent >= 0 {
			ind = y.colls[parent].oc + m
		}
	} else {
		for l := first + 1; l <= last; l++ {
			if !y.blankLine(l) {
				if i := y.indentOf(l); ind < 0 || i < ind {
					ind = i
				}
			}
		}
	}
	if ind < 0 && explicitIndent(y.c, s.Rng.Start) == 0 {
		// Blank lines alone: their spaces are indentation, not content.
		ind = noContent
	}
	// Content with detected indentation moves to one level inside its
	// parent; with an indicator it must keep its distance to the parent.
	shift := 0
	if parent >= 0 {
		shift = y.colls[parent].delta()
		if explicitIndent(y.c, s.Rng.Start) == 0 && ind > 0 {
			shift = y.colls[parent].tc + y.width - ind
		}
	}
	for l := first + 1; l <= last; l++ {
		y.role[l] = roleBlock
		y.blockIndent[l] = ind
		y.blockShift[l] = shift
	}
	for l := last + 1; l < n && y.blankLine(l); l++ {
		y.setRole(l, roleBlockWS)
		y.blockIndent[l] = ind
		y.blockShift[l] = shift
	}
}

// explicitIndent returns the indentation indicator of the block scalar
// header at off (`|2-`, `>+1`), or 0.
func explicitIndent(c []byte, off int) int {
	for i := off + 1; i < len(c) && i < off+3; i++ {
		if ch := c[i]; ch >= '1' && ch <= '9' {
			return int(ch - '0')
		} else if ch != '+' && ch != '-' {
			break
		}
	}
	return 0
}

// blankLine reports whether line l holds only spaces and tabs.
func (y *yamlFormatter) blankLine(l int) bool {
	s, e := y.f.Mapper.LineStart(l), lineEnd(y.f.Mapper, l)
	return onlySpace(y.c[s:e])
}

// edits turns the line roles and deltas into edits.
func (y *yamlFormatter) edits(opts Options) []kedit {
	m := y.f.Mapper
	c := y.c
	n := m.LineCount()
	var out []kedit
	add := func(start, end int, text string, kind editKind) {
		if e, ok := replace(c, start, end, text, kind); ok {
			out = append(out, e)
		}
	}

	// The final newline replaces everything after the last non-space
	// character, unless that ends a block scalar, whose trailing line
	// breaks and spaces are content.
	lastLine := n
	if fe, ok := finalNewline(c, opts); ok {
		// The line of the last character kept decides when it is a
		// header's (a block scalar with no content ends the text): the
		// edit's own start, trimmed to what differs, would depend on
		// whether spaces end that line ("| \n\n" and "|\n\n" alike).
		last := len(bytes.TrimRight(c, " \t\r\n"))
		if l := y.line(fe.Range.Start); y.role[l] != roleBlock && !y.blockHeader(l) && (last == 0 || !y.blockHeader(y.line(last-1))) {
			lastLine = l
			out = append(out, fe)
		}
	}

	for l := 0; l < n && l <= lastLine; l++ {
		ls, le := m.LineStart(l), lineEnd(m, l)
		text := c[ls:le]
		ind := y.indentOf(l)
		if onlySpace(text) {
			if l == lastLine {
				continue
			}
			switch {
			case (y.role[l] == roleBlock || y.role[l] == roleBlockWS) && y.blockIndent[l] >= 0 && len(text) > y.blockIndent[l]:
				// Spaces beyond the indentation are content: move them
				// with the scalar, unless tabs make that unclear.
				if !y.failed && !strings.Contains(string(text), "\t") {
					if d := y.deltaOf(l); len(text)+d >= 0 {
						add(ls, le, strings.Repeat(" ", len(text)+d), kindIndent)
					}
				}
			case y.role[l] == roleBlock || y.role[l] == roleBlockWS:
				if (y.blockIndent[l] >= 0 || y.blockIndent[l] == noContent) && opts.TrimTrailingWhitespace {
					add(ls, le, "", kindSpace)
				}
			case opts.TrimTrailingWhitespace:
				add(ls, le, "", kindSpace)
			}
			continue
		}
		if !y.failed {
			if want := y.newIndent(l, ind); want != ind {
				add(ls, ls+ind, strings.Repeat(" ", want), kindIndent)
			}
		}
		if opts.TrimTrailingWhitespace && l != lastLine && y.role[l] != roleBlock && y.role[l] != roleQuoted {
			e := le
			for e > ls+ind && (c[e-1] == ' ' || c[e-1] == '\t') {
				e--
			}
			if e < le {
				out = append(out, kedit{Edit: editDelete(e, le), kind: kindSpace})
			}
		}
	}
	if !y.failed {
		out = append(out, y.gaps...)
	}
	out = append(out, substEdits(y.f, opts)...)
	sortEdits(out)
	return out
}

// blockHeader reports whether line l holds a block scalar header (so the
// document may end with its indicator, and the line breaks after it are
// content). It asks the tree: a plain scalar that merely ends in `>` or `|`
// is no header.
func (y *yamlFormatter) blockHeader(l int) bool { return y.headers[l] }

// deltaOf returns the shift of line l: its block scalar's, else its
// owner's.
func (y *yamlFormatter) deltaOf(l int) int {
	if y.role[l] == roleBlock || y.role[l] == roleBlockWS {
		return y.blockShift[l]
	}
	if o := y.owner[l]; o >= 0 {
		return y.colls[o].delta()
	}
	return 0
}

// newIndent returns the indentation line l (now ind spaces) gets.
func (y *yamlFormatter) newIndent(l, ind int) int {
	m := y.f.Mapper
	first := y.c[m.LineStart(l)+ind]
	if y.role[l] == roleNormal && first == '#' {
		// A comment aligns with a collection it was aligned with before
		// (around it), else moves with the lines around it.
		for _, o := range []int{y.owner[y.contentLine(l, -1)], y.owner[y.contentLine(l, 1)]} {
			for ; o >= 0; o = y.colls[o].parent {
				if y.colls[o].oc == ind {
					return y.colls[o].tc
				}
			}
		}
	}
	if want := ind + y.deltaOf(l); want >= 0 {
		return want
	}
	return 0
}

// contentLine returns the nearest line before (dir -1) or after (dir 1) l
// that is neither blank nor a comment, clamped to the document.
func (y *yamlFormatter) contentLine(l, dir int) int {
	n := y.f.Mapper.LineCount()
	for i := l + dir; i >= 0 && i < n; i += dir {
		if y.role[i] != roleNormal {
			return i
		}
		ind := y.indentOf(i)
		s, e := y.f.Mapper.LineStart(i), lineEnd(y.f.Mapper, i)
		if s+ind < e && y.c[s+ind] != '#' && !onlySpace(y.c[s:e]) {
			return i
		}
	}
	return l
}
