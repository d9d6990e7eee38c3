package syntax

import (
	"bytes"
	"errors"
	"io"

	"go.yaml.in/yaml/v3"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// maxRecoveries bounds the lines a YAML recovery blanks after the first
// error's: each costs one more decode.
const maxRecoveries = 8

// recovered is a File's recovered tree and the regions it leaves out.
type recovered struct {
	root   Node
	broken []source.Range
}

// Tree returns a tree of every well-formed part of the text, never nil,
// and the broken regions it leaves out: whole lines, sorted, inside the
// document, empty when the text parses (Tree is then Root itself).
//
// JSON's parser recovers by itself: its tree is Root, and the broken
// regions are the lines of its errors. YAML that does not parse is read
// again with the line of its syntax error blanked (every byte but the
// line breaks turned into a space, so every offset stays), and again
// with the line of the next error, up to maxRecoveries lines; the tree of
// the first text that parses keeps every other line's nodes at their
// exact ranges. A document with nothing in it, or nothing readable, is
// an empty mapping at offset 0. The tree is built on first use and then
// shared; it is safe for concurrent use.
func (f *File) Tree() (Node, []source.Range) {
	if r := f.tree.Load(); r != nil {
		return r.root, r.broken
	}
	f.tree.CompareAndSwap(nil, f.recover())
	r := f.tree.Load()
	return r.root, r.broken
}

func (f *File) recover() (r *recovered) {
	whole := []source.Range{source.R(0, len(f.Content()))}
	defer func() {
		if p := recover(); p != nil {
			r = &recovered{root: emptyTree(), broken: whole}
		}
	}()
	if !f.HasSyntaxErrors() {
		if f.Root != nil {
			return &recovered{root: f.Root}
		}
		return &recovered{root: emptyTree()}
	}
	m := f.Mapper
	if m == nil {
		m = source.NewMapper(f.Content())
	}
	var broken []source.Range
	for _, d := range f.syntax {
		broken = append(broken, lineRange(m, d.Range.Start))
	}
	root := f.Root
	if root == nil && f.Format == YAML {
		root, broken = recoverYAML(f.Content(), m, broken)
	}
	if root == nil {
		return &recovered{root: emptyTree(), broken: whole}
	}
	return &recovered{root: root, broken: source.MergeRanges(broken)}
}

// emptyTree is the tree of a document with nothing readable in it.
func emptyTree() Node { return &Mapping{Rng: source.R(0, 0)} }

// lineRange is the whole line holding off, its line break included; an
// offset on the empty last line (an error at the end of the input) gives
// the line before it.
func lineRange(m *source.Mapper, off int) source.Range {
	n := len(m.Content())
	off = min(max(off, 0), n)
	l := m.Line(off)
	if l > 0 && m.LineStart(l) == n {
		l--
	}
	end := n
	if l+1 < m.LineCount() {
		end = m.LineStart(l + 1)
	}
	return source.R(m.LineStart(l), end)
}

// recoverYAML blanks the broken lines of content until it parses; the
// tree's nodes lie outside every blanked line.
func recoverYAML(content []byte, m *source.Mapper, broken []source.Range) (Node, []source.Range) {
	if bytes.HasPrefix(content, []byte{0xFF, 0xFE}) || bytes.HasPrefix(content, []byte{0xFE, 0xFF}) {
		return nil, broken // UTF-16: nothing is readable
	}
	work := bytes.Clone(content)
	for _, r := range broken {
		blank(work, r)
	}
	for range maxRecoveries + 1 {
		b := newYAMLBuilder(work, nil)
		var d source.Diagnostic
		if off, problem, ok := readerProblem(work); ok && scanForReader {
			d = b.explain(problem, off) // first, as ParseYAML reports it
		} else {
			var doc yaml.Node
			cr := &countingReader{r: bytes.NewReader(work)}
			err := yaml.NewDecoder(cr).Decode(&doc)
			if err == nil || errors.Is(err, io.EOF) {
				if err != nil || len(doc.Content) == 0 {
					return nil, broken
				}
				return b.node(doc.Content[0], -1, false), broken
			}
			// Locate the error as the diagnostic does: yaml.v3's line is
			// where it gave up, often lines after the mistake.
			b.reach = cr.n
			d = b.syntaxError(err)
		}
		r, ok := nextBroken(m, work, m.Line(min(d.Range.Start, len(work))), broken)
		if !ok {
			return nil, broken
		}
		blank(work, r)
		broken = append(broken, r)
	}
	return nil, broken
}

// nextBroken picks the line to blank next: the line yaml.v3 names (0-based
// here), or, when that one is blank already (the error shows where the
// reader gave up, not where it went wrong), the first non-blank line after
// the last blanked one.
func nextBroken(m *source.Mapper, work []byte, line int, broken []source.Range) (source.Range, bool) {
	if line >= 0 && line < m.LineCount() {
		r := lineRange(m, m.LineStart(line))
		if !isBlankLine(work[r.Start:r.End]) {
			return r, true
		}
	}
	from := 0
	for _, r := range broken {
		from = max(from, r.End)
	}
	for off := from; off < len(work); {
		r := lineRange(m, off)
		if !isBlankLine(work[r.Start:r.End]) {
			return r, true
		}
		if r.End <= off {
			break
		}
		off = r.End
	}
	return source.Range{}, false
}

// blank turns every byte of r but line breaks into a space.
func blank(work []byte, r source.Range) {
	for i := r.Start; i < r.End && i < len(work); i++ {
		if work[i] != '\n' && work[i] != '\r' {
			work[i] = ' '
		}
	}
}

func isBlankLine(b []byte) bool {
	return len(bytes.TrimSpace(b)) == 0
}
