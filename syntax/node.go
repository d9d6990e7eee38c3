package syntax

import (
	"math"
	"sync/atomic"

	"github.com/blueprint-ls/blueprint-ls/internal/slab"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// Format is the syntax a document was written in.
type Format int

const (
	YAML Format = iota
	JSON
	JSONC
	// BP is the blueprint language (.bp, .blueprint): package bplang
	// parses it into this same tree (see Assemble).
	BP
)

func (f Format) String() string {
	switch f {
	case JSON:
		return "json"
	case JSONC:
		return "jsonc"
	case BP:
		return "bp"
	}
	return "yaml"
}

// Kind says which of the three node shapes a Node is.
type Kind int

const (
	MappingKind Kind = iota
	SequenceKind
	ScalarKind
)

// Node is a position-exact node of a parsed document: *Mapping, *Sequence
// or *Scalar. Range covers the node's whole source text (for a block scalar
// from its indicator to the end of its content; for a flow or JSON
// collection from the opening to the closing bracket; for a block
// collection from its first key or dash to the end of its last value).
type Node interface {
	Kind() Kind
	Range() source.Range
	node()
}

// Mapping is a mapping (YAML block or flow mapping, JSON object). Entries
// keep source order, duplicates included: structural rules report them.
type Mapping struct {
	Rng     source.Range
	Entries []*Entry
	Flow    bool // YAML flow style or JSON
}

// Entry is one key/value pair. Key is always a scalar; Value is nil when
// the YAML value is absent (`key:` with nothing after it is a null scalar,
// not nil: Value is nil only when the parser recovered from an error).
type Entry struct {
	Key   *Scalar
	Value Node
}

// Sequence is a YAML sequence or JSON array.
type Sequence struct {
	Rng   source.Range
	Items []Node
	Flow  bool
}

// ScalarTag is the resolved type of a scalar, following YAML 1.2 core
// schema resolution for plain scalars, except that dates and timestamps
// stay strings (`version: 2023-04-20` is the string it is). Quoted and
// block scalars are always strings.
type ScalarTag uint8

const (
	StringTag ScalarTag = iota
	IntTag
	FloatTag
	BoolTag
	NullTag
)

func (t ScalarTag) String() string {
	switch t {
	case IntTag:
		return "integer"
	case FloatTag:
		return "float"
	case BoolTag:
		return "boolean"
	case NullTag:
		return "null"
	}
	return "string"
}

// Style is how a scalar was written.
type Style uint8

const (
	Plain Style = iota
	SingleQuoted
	DoubleQuoted
	Literal // YAML `|`
	Folded  // YAML `>`
	JSONString
	JSONLiteral // JSON number, true, false, null
)

// Scalar is a leaf. Value is the decoded text (for strings, after escapes,
// folding and indentation stripping; for numbers and booleans, the source
// text). OffsetMap carries decoded offsets of Value back to document
// offsets. ValueRange is the range of the content without quotes or block
// indicators (for an empty value, an empty range where it would start).
type Scalar struct {
	Rng   source.Range
	Value string
	// omap is Value's offset map, or nil when it is the identity from
	// ValueRange.Start over Value (what most scalars of a blueprint have:
	// plain and simply quoted ones; issue 36: a map in every scalar was a
	// third of its 88 bytes). A template parsed from the value keeps no
	// identity map either (subst.Template).
	omap *scalarMap
	// from and to place ValueRange in Rng: it starts from bytes after
	// Rng.Start and ends to bytes before Rng.End (a quote, a block
	// header: a few bytes). Two ranges were 32 of a scalar's 64 bytes;
	// these make it 48 (issue 36). to is wideRange when they do not
	// fit, and ValueRange is then omap.vr.
	from  int32
	to    int16
	Tag   ScalarTag
	Style Style
}

// wideRange in Scalar.to: the value range is kept in the scalar's map.
const wideRange = math.MinInt16

// scalarMap is a scalar's kept offset map, and its value range when the
// scalar cannot place it in Rng.
type scalarMap struct {
	m  source.OffsetMap
	vr source.Range
}

// ValueRange is the range of the content without quotes or block
// indicators (for an empty value, an empty range where it would start).
func (s *Scalar) ValueRange() source.Range {
	if s.to == wideRange {
		return s.omap.vr
	}
	return source.R(s.Rng.Start+int(s.from), s.Rng.End-int(s.to))
}

// SetRanges sets Rng and ValueRange. A builder sets them before the
// offset map; a scalar's Rng is never set alone afterwards, since
// ValueRange is kept relative to it.
func (s *Scalar) SetRanges(rng, value source.Range) {
	s.Rng = rng
	from, to := value.Start-rng.Start, rng.End-value.End
	if from == int(int32(from)) && to == int(int16(to)) && to != wideRange {
		s.from, s.to = int32(from), int16(to)
		return
	}
	// Rare (a block header or a closing run longer than 32 KB): the range
	// goes in the map, kept even when the identity would be derivable
	// (the identity until the builder sets the map).
	if s.to != wideRange {
		s.omap = &scalarMap{m: source.Identity(value.Start, len(s.Value))}
	}
	s.from, s.to = 0, wideRange
	s.omap.vr = value
}

// SetValueRange sets ValueRange, Rng being set already.
func (s *Scalar) SetValueRange(value source.Range) { s.SetRanges(s.Rng, value) }

// OffsetMap returns the map of Value's offsets to the document's.
// Callers must not write through it. For a value whose map is not the
// identity it is the same map on every call; otherwise it may be a
// fresh copy of the identity.
func (s *Scalar) OffsetMap() *source.OffsetMap {
	if s.omap != nil {
		return &s.omap.m
	}
	return &source.OffsetMap{Base: s.ValueRange().Start, Segments: source.SharedIdentity(len(s.Value))}
}

// SetOffsetMap sets the map of Value's offsets to the document's. A
// builder calls it once Value and the ranges are set.
func (s *Scalar) SetOffsetMap(m source.OffsetMap) { s.setMap(m, nil) }

// setMap is SetOffsetMap, the kept map carved from maps when not nil.
func (s *Scalar) setMap(m source.OffsetMap, maps *slab.Of[scalarMap]) {
	if s.to == wideRange {
		s.omap.m = m
		return
	}
	if s.derivable(m) {
		s.omap = nil
		return
	}
	var p *scalarMap
	if maps != nil {
		p = maps.One()
	} else {
		p = new(scalarMap)
	}
	p.m = m
	s.omap = p
}

// derivable reports whether OffsetMap makes m from s's other fields.
func (s *Scalar) derivable(m source.OffsetMap) bool {
	if m.Base != s.ValueRange().Start {
		return false
	}
	n := len(s.Value)
	if n == 0 {
		return len(m.Segments) == 0
	}
	return source.SharedIdentity(n) != nil && source.IsIdentity(m.Segments, n)
}

// identityDerived reports whether OffsetMap derives the identity from
// ValueRange.Start over Value: what setMap of that identity would note,
// without making it, for a new scalar (whose map is still nil) whose
// value is its text at ValueRange.Start.
func (s *Scalar) identityDerived() bool {
	n := len(s.Value)
	return s.to != wideRange && (n == 0 || source.SharedIdentity(n) != nil)
}

// moveMap gives s, a copy of n moved by d (its ranges set), n's map
// moved by d (a kept map's copy carved from maps).
func (s *Scalar) moveMap(n *Scalar, d int, maps *slab.Of[scalarMap]) {
	if n.omap == nil {
		return
	}
	p := maps.One()
	*p = *n.omap
	p.m.Base += d // the segments are relative to it: shared
	if n.to == wideRange {
		p.vr = p.vr.Moved(d)
	}
	s.omap = p
}

// moveBy moves s, a scalar nothing else holds yet, by d in place
// (PadParsed): its range, and its map when it has one.
func (s *Scalar) moveBy(d int) {
	s.Rng = s.Rng.Moved(d)
	if s.omap != nil {
		s.omap.m.Base += d
		if s.to == wideRange {
			s.omap.vr = s.omap.vr.Moved(d)
		}
	}
}

func (*Mapping) Kind() Kind  { return MappingKind }
func (*Sequence) Kind() Kind { return SequenceKind }
func (*Scalar) Kind() Kind   { return ScalarKind }

func (n *Mapping) Range() source.Range  { return n.Rng }
func (n *Sequence) Range() source.Range { return n.Rng }
func (n *Scalar) Range() source.Range   { return n.Rng }

func (*Mapping) node()  {}
func (*Sequence) node() {}
func (*Scalar) node()   {}

// Get returns the value of the first entry with key name, or nil.
func (m *Mapping) Get(name string) Node {
	if e := m.Entry(name); e != nil {
		return e.Value
	}
	return nil
}

// Entry returns the first entry with key name, or nil.
func (m *Mapping) Entry(name string) *Entry {
	if m == nil {
		return nil
	}
	for _, e := range m.Entries {
		if e.Key != nil && e.Key.Value == name {
			return e
		}
	}
	return nil
}

// IsString reports whether s is a string scalar.
func (s *Scalar) IsString() bool { return s.Tag == StringTag }

// File is the result of parsing one document. Root is the parser's tree:
// for YAML nil when the text does not parse, for JSON whatever the
// recovering parser built. Tree is never nil: every well-formed part of
// any text. Diagnostics hold the syntax problems (codes prefixed yaml- or
// json-), each at its real position.
type File struct {
	URI    string
	Format Format
	// Text is the document's text; Content gives it whole.
	Text        source.Text
	Mapper      *source.Mapper
	Root        Node
	Diagnostics []source.Diagnostic

	// syntax are the diagnostics that say the text is malformed (a
	// subset of Diagnostics; anchors, tags and second documents are
	// not syntax errors: the tree is whole).
	syntax []source.Diagnostic
	// tree is the recovered tree, built on first use (see Tree).
	tree atomic.Pointer[recovered]
	// id names the File for a later version's splice (ID); spliced
	// says how Splice built this one (Spliced).
	id      atomic.Uint64
	spliced Splicing
}

// Content returns the document's text whole (joined on first use on a
// text an edit made: source.Text.Bytes). Readers of a small part of a
// large text ask Text.Slice instead.
func (f *File) Content() []byte { return f.Text.Bytes() }

// fileIDs hands out File IDs.
var fileIDs atomic.Uint64

// ID returns a number that names f among the Files of this process,
// given on first use.
func (f *File) ID() uint64 {
	if id := f.id.Load(); id != 0 {
		return id
	}
	f.id.CompareAndSwap(0, fileIDs.Add(1))
	return f.id.Load()
}

// Splicing says how a splice (Splice, or a front end's through
// RecordSplice) built a File from the previous version's: it re-parsed
// one definition, whose text was the previous text's bytes [Start, End)
// and is the new text's [Start, End+Delta). Every node of the previous
// tree that starts at or after End has a copy in the new tree, at the
// same place (the same index of the same mapping or sequence), with
// every offset moved by Delta; the nodes before Start are the previous
// tree's own (shared, as every node is when Delta is 0).
type Splicing struct {
	From       uint64 // the previous version's File's ID
	Start, End int
	Delta      int
}

// Spliced returns how Splice built f from prev, false when it did not
// (f was parsed whole, or spliced from another version).
func (f *File) Spliced(prev *File) (Splicing, bool) {
	if f == nil || prev == nil || f.spliced.From == 0 || f.spliced.From != prev.id.Load() {
		return Splicing{}, false
	}
	return f.spliced, true
}

// Moved returns where offset x of the previous version's text is in
// the new one, for an offset outside the re-parsed entry's lines.
func (s Splicing) Moved(x int) int {
	if x >= s.End {
		return x + s.Delta
	}
	return x
}

// SyntaxErrors returns the diagnostics that say the text is malformed.
func (f *File) SyntaxErrors() []source.Diagnostic { return f.syntax }

// HasSyntaxErrors reports whether the text is malformed: Root, when not
// nil, is then a repair, and rules over it would only repeat the syntax
// error in other words.
func (f *File) HasSyntaxErrors() bool { return len(f.syntax) > 0 }
