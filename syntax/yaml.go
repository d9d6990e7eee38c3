package syntax

import (
	"bytes"
	"errors"
	"io"
	"sort"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// ParseYAML parses a YAML document. yaml.v3 supplies the structure, the
// decoded values and start positions; the exact ranges and the
// decoded→source maps come from re-scanning the source text from each
// node's start, and every reconstructed value is checked against yaml.v3's
// (a disagreement degrades the map to a coarse one, never a wrong one).
// When the text does not parse, Root is nil and the error is reported at
// its real position. Anchors, aliases, explicit tags and further documents
// are reported; the first document's tree is still built. The File keeps
// content (its Text, and the values of its scalars): content must not
// change afterwards.
func ParseYAML(content []byte) *File { return parseYAML(content, true) }

// parseYAML is ParseYAML; fast says to try fastDecode before yaml.v3
// (the tests compare the two).
func parseYAML(content []byte, fast bool) *File { return parseYAMLSplit(content, nil, fast, splitMin) }

// parseYAMLSplit is parseYAML, reading a text of at least split bytes
// in two halves when it can (fastParseSplit; the tests compare), with
// content's mapper m when it is made already (nil: made here).
func parseYAMLSplit(content []byte, m *source.Mapper, fast bool, split int) (f *File) {
	f = &File{Format: YAML, Mapper: mapperOf(m, content)}
	f.Text = f.Mapper.Text()
	defer f.noteSyntax()
	defer recoverInto(f, codeYAMLSyntax)
	if bytes.HasPrefix(content, []byte{0xFF, 0xFE}) || bytes.HasPrefix(content, []byte{0xFE, 0xFF}) {
		f.Diagnostics = append(f.Diagnostics, codeYAMLSyntax.New(source.R(0, 2), "the document must be UTF-8, not UTF-16"))
		return f
	}
	if fast {
		// The fast parser reads only printable ASCII and line breaks
		// (fastText), in which the reader refuses nothing: a text it
		// reads needs no scan for the reader's problems (issue 36: the
		// scan was a tenth of the parse, on its critical path).
		if root, diags, ok := fastParseSplit(content, f.Mapper, split); ok {
			// Read in two halves, which need no builder: the mapper's
			// lines are not flattened for one (issue 36: a pass and 8
			// bytes a line, kept as long as the mapper).
			f.Root = root
			f.Diagnostics = append(f.Diagnostics, diags...)
			return f
		}
	}
	b := newYAMLBuilder(content, f.Mapper)
	if fast {
		if root, ok := fastParse(b, content); ok {
			f.Root = root
			f.Diagnostics = append(f.Diagnostics, b.diags...)
			return f
		}
		b = newYAMLBuilder(content, f.Mapper) // what the fast path left
	}
	if off, problem, ok := readerProblem(content); ok && scanForReader {
		// The reader's refusal goes first wherever it lies (see
		// readerProblem); the document has no tree, as on any error.
		b.diags = append(b.diags, b.explain(problem, off))
		f.Diagnostics = append(f.Diagnostics, b.diags...)
		return f
	}
	r := &countingReader{r: bytes.NewReader(content)}
	dec := yaml.NewDecoder(r)
	var doc yaml.Node
	err := dec.Decode(&doc)
	switch {
	case errors.Is(err, io.EOF):
		// No document at all: nothing to build, nothing wrong with the syntax.
	case err != nil:
		b.reach = r.n
		b.diags = append(b.diags, b.syntaxError(err))
	default:
		if len(doc.Content) > 0 {
			f.Root = b.node(doc.Content[0], -1, false)
		}
		var next yaml.Node
		if err := dec.Decode(&next); !errors.Is(err, io.EOF) {
			b.diags = append(b.diags, codeYAMLMultipleDocuments.New(b.secondDocument(f.Root, &next),
				"a blueprint file must hold a single YAML document; this starts a second one"))
			if err != nil {
				b.diags = append(b.diags, b.syntaxError(err))
			}
		}
	}
	source.SortDiagnostics(b.diags)
	f.Diagnostics = append(f.Diagnostics, b.diags...)
	return f
}

// yamlBuilder converts yaml.v3 nodes to position-exact nodes.
type yamlBuilder struct {
	src   []byte
	lines []int // offset of each line start, breaking lines as yaml.v3 does
	diags []source.Diagnostic
	mb    mapBuilder
	// reach is how much of src yaml.v3 read before failing, 0 when
	// unknown (see locate).
	reach int

	// The last position converted: nodes come in document order, so most
	// conversions continue along the same line.
	cLine, cCol, cOff int

	nodeSlabs // node memory, carved from blocks (see slab)
}

// unicodeBreaks are the line breaks yaml.v3 knows and source.Mapper does
// not (NEL, LS, PS).
var unicodeBreaks = [][]byte{[]byte("\u0085"), []byte("\u2028"), []byte("\u2029")}

// newYAMLBuilder indexes src's lines. m, when not nil, is the document's
// mapper: unless a byte order mark or a Unicode line break makes yaml.v3
// count lines differently, its line table is the same and is shared.
func newYAMLBuilder(src []byte, m *source.Mapper) *yamlBuilder {
	b := &yamlBuilder{src: src}
	if m != nil && !bytes.HasPrefix(src, utf8BOM) && (m.ASCII() || !hasAny(src, unicodeBreaks)) {
		b.lines = m.LineStarts()
		return b
	}
	b.lines = make([]int, 1, 64)
	if bytes.HasPrefix(src, utf8BOM) {
		b.lines[0] = len(utf8BOM)
	}
	for i := b.lines[0]; i < len(src); {
		if n := breakLen(src, i); n > 0 {
			i += n
			b.lines = append(b.lines, i)
			continue
		}
		i++
	}
	return b
}

func hasAny(src []byte, seps [][]byte) bool {
	for _, sep := range seps {
		if bytes.Contains(src, sep) {
			return true
		}
	}
	return false
}

// identity is source.Identity, with the segment of a long string carved
// from a slab.
func (b *yamlBuilder) identity(src, n int) source.OffsetMap {
	if n == 0 {
		return source.OffsetMap{Base: src}
	}
	if segs := source.SharedIdentity(n); segs != nil {
		return source.OffsetMap{Base: src, Segments: segs}
	}
	segs := b.segs.Many(1)
	segs = append(segs, source.Segment{Dec: 0, DecLen: n, Src: 0, SrcLen: n})
	return source.OffsetMap{Base: src, Segments: segs}
}

// breakLen returns the length of the line break at i, or 0. Like yaml.v3,
// it knows CRLF, CR, LF, NEL, LS and PS.
func breakLen(src []byte, i int) int {
	if i >= len(src) {
		return 0
	}
	switch src[i] {
	case '\n':
		return 1
	case '\r':
		if i+1 < len(src) && src[i+1] == '\n' {
			return 2
		}
		return 1
	case 0xC2:
		if i+1 < len(src) && src[i+1] == 0x85 {
			return 2
		}
	case 0xE2:
		if i+2 < len(src) && src[i+1] == 0x80 && (src[i+2] == 0xA8 || src[i+2] == 0xA9) {
			return 3
		}
	}
	return 0
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' }

// offset converts yaml.v3's 1-based line and code-point column to a byte
// offset.
func (b *yamlBuilder) offset(line, col int) int {
	if line < 1 {
		return 0
	}
	if line > len(b.lines) {
		return len(b.src)
	}
	off, c := b.lines[line-1], 1
	if b.cLine == line && b.cCol <= col {
		off, c = b.cOff, b.cCol
	}
	for ; c < col && off < len(b.src); c++ {
		if b.src[off] < utf8.RuneSelf {
			off++
		} else {
			_, size := utf8.DecodeRune(b.src[off:])
			off += size
		}
	}
	b.cLine, b.cCol, b.cOff = line, c, off
	return off
}

// column returns the code-point column (0-based) of off.
func (b *yamlBuilder) column(off int) int {
	i := sort.Search(len(b.lines), func(i int) bool { return b.lines[i] > off }) - 1
	if i < 0 {
		return 0
	}
	return utf8.RuneCount(b.src[b.lines[i]:off])
}

// node builds n. indent is the column of the enclosing block collection
// (-1 at the top), which block scalars with an explicit indentation
// indicator count from; flow says n sits inside a flow collection.
func (b *yamlBuilder) node(n *yaml.Node, indent int, flow bool) Node {
	off := b.offset(n.Line, n.Column)
	if n.Kind == yaml.AliasNode {
		return b.alias(n, off)
	}
	propsEnd, start := b.props(n, off)
	switch n.Kind {
	case yaml.MappingNode:
		return b.mapping(n, start, flow)
	case yaml.SequenceNode:
		return b.sequence(n, start, flow)
	case yaml.ScalarNode:
		return b.scalar(n, propsEnd, start, indent, flow)
	}
	// A nested document node cannot occur; keep an empty scalar rather
	// than fail.
	return &Scalar{Rng: source.R(start, start), Tag: NullTag} // ValueRange is Rng
}

func (b *yamlBuilder) alias(n *yaml.Node, off int) *Scalar {
	end := b.tokenEnd(off)
	r := source.R(off, end)
	b.diags = append(b.diags, codeYAMLAnchor.New(r, "YAML aliases are not allowed in blueprints (alias %q); repeat the value instead", "*"+n.Value))
	s := &Scalar{Rng: r, Value: string(b.src[off:end]), Tag: StringTag} // ValueRange is Rng
	s.setMap(source.Identity(off, end-off), &b.maps)
	return s
}

// tokenEnd returns the end of an anchor, alias or tag token starting at i.
func (b *yamlBuilder) tokenEnd(i int) int {
	j := i + 1
	if j < len(b.src) && b.src[i] == '!' && b.src[j] == '<' {
		for j < len(b.src) && b.src[j] != '>' && breakLen(b.src, j) == 0 {
			j++
		}
		return min(j+1, len(b.src))
	}
	anchor := b.src[i] == '&' || b.src[i] == '*'
	for j < len(b.src) {
		c := b.src[j]
		if isBlank(c) || breakLen(b.src, j) > 0 || c == ',' || c == '[' || c == ']' || c == '{' || c == '}' {
			break
		}
		if anchor && !isAnchorByte(c) {
			break // yaml.v3 ends an anchor or alias name there ("&a:b" is "&a")
		}
		j++
	}
	return j
}

// isAnchorByte reports whether c may be part of an anchor or alias name
// as yaml.v3 reads them: letters, digits, '_' and '-'.
func isAnchorByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '-'
}

// props reports the anchor and tag in front of a node and returns the end
// of the last property and the start of the node's content.
func (b *yamlBuilder) props(n *yaml.Node, off int) (propsEnd, start int) {
	if n.Anchor == "" && n.Style&yaml.TaggedStyle == 0 {
		return off, off
	}
	i, propsEnd := off, off
	for k := 0; k < 2 && i < len(b.src); k++ {
		c := b.src[i]
		if c != '&' && c != '!' {
			break
		}
		end := b.tokenEnd(i)
		r := source.R(i, end)
		if c == '&' {
			b.diags = append(b.diags, codeYAMLAnchor.New(r, "YAML anchors are not allowed in blueprints (anchor %q)", string(b.src[i:end])))
		} else {
			b.diags = append(b.diags, codeYAMLTag.New(r, "explicit YAML tags are not allowed in blueprints (%s)", string(b.src[i:end])))
		}
		propsEnd = end
		i = b.skipSpace(end)
	}
	return propsEnd, i
}

// skipSpace skips blanks, line breaks and comments.
func (b *yamlBuilder) skipSpace(i int) int {
	for i < len(b.src) {
		if isBlank(b.src[i]) {
			i++
		} else if n := breakLen(b.src, i); n > 0 {
			i += n
		} else if b.src[i] == '#' {
			for i < len(b.src) && breakLen(b.src, i) == 0 {
				i++
			}
		} else {
			break
		}
	}
	return i
}

// closeFlow finds the closing bracket of a flow collection whose content
// ends at i (skipping space, comments and a trailing comma) and returns the
// offset after it, or i when it is not there.
func (b *yamlBuilder) closeFlow(i int, closer byte) int {
	for j := i; j < len(b.src); {
		j = b.skipSpace(j)
		if j < len(b.src) && b.src[j] == ',' {
			j++
			continue
		}
		if j < len(b.src) && b.src[j] == closer {
			return j + 1
		}
		break
	}
	return i
}

func (b *yamlBuilder) mapping(n *yaml.Node, start int, flow bool) *Mapping {
	bracketed := start < len(b.src) && b.src[start] == '{'
	m := b.mappings.One()
	m.Flow, m.Rng = n.Style&yaml.FlowStyle != 0 || bracketed, source.R(start, start)
	if bracketed {
		m.Rng.End = start + 1
	}
	indent := b.columnOf(n, start)
	m.Entries = b.entryPs.Many(len(n.Content) / 2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		e := b.entries.One()
		e.Key = b.key(n.Content[i], indent, flow || m.Flow)
		e.Value = b.node(n.Content[i+1], indent, flow || m.Flow)
		m.Entries = append(m.Entries, e)
		m.Rng = m.Rng.Union(e.Key.Rng).Union(e.Value.Range())
	}
	if bracketed {
		m.Rng.End = b.closeFlow(m.Rng.End, '}')
	}
	return m
}

func (b *yamlBuilder) sequence(n *yaml.Node, start int, flow bool) *Sequence {
	bracketed := start < len(b.src) && b.src[start] == '['
	s := b.seqs.One()
	s.Flow, s.Rng = n.Style&yaml.FlowStyle != 0 || bracketed, source.R(start, start)
	if bracketed {
		s.Rng.End = start + 1
	}
	indent := b.columnOf(n, start)
	s.Items = b.items.Many(len(n.Content))
	for _, c := range n.Content {
		item := b.node(c, indent, flow || s.Flow)
		s.Items = append(s.Items, item)
		s.Rng = s.Rng.Union(item.Range())
	}
	if bracketed {
		s.Rng.End = b.closeFlow(s.Rng.End, ']')
	}
	return s
}

// columnOf returns the column of a collection starting at start.
func (b *yamlBuilder) columnOf(n *yaml.Node, start int) int {
	if n.Anchor == "" && n.Style&yaml.TaggedStyle == 0 {
		return n.Column - 1
	}
	return b.column(start)
}

// key builds a mapping key. A complex key (a collection) is not something a
// blueprint uses; it becomes a string scalar of its source text.
func (b *yamlBuilder) key(n *yaml.Node, indent int, flow bool) *Scalar {
	k := b.node(n, indent, flow)
	if s, ok := k.(*Scalar); ok {
		return s
	}
	r := k.Range()
	s := &Scalar{Rng: r, Value: string(b.src[r.Start:r.End]), Tag: StringTag} // ValueRange is Rng
	s.setMap(source.Identity(r.Start, r.Len()), &b.maps)
	return s
}

// secondDocument returns the range of the marker that starts a second
// document: the first "---" line after the first document's content.
func (b *yamlBuilder) secondDocument(root Node, next *yaml.Node) source.Range {
	from := 0
	if root != nil {
		from = root.Range().End
	}
	seen := root != nil
	for _, ls := range b.lines {
		if ls < from || ls+3 > len(b.src) || string(b.src[ls:ls+3]) != "---" {
			continue
		}
		if ls+3 < len(b.src) && !isBlank(b.src[ls+3]) && breakLen(b.src, ls+3) == 0 {
			continue
		}
		if !seen {
			// The first document's own (explicit) start marker.
			seen = true
			continue
		}
		return source.R(ls, ls+3)
	}
	if next != nil && next.Line > 0 {
		off := b.offset(next.Line, next.Column)
		return source.R(off, off)
	}
	return source.R(from, from)
}
