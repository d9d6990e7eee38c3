package bplang

import (
	"fmt"
	"github.com/blueprint-ls/blueprint-ls/internal/slab"

	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// Diagnostic codes owned by the front end, declared beside the function
// that words their messages (report).
var codeSyntax = source.NewCode("bp-syntax", source.Error,
	"The document is not valid blueprint language.",
	"version \"2025-11-02\"\n\nresource bucket: aws/s3/bucket {\n    spec {\n        bucketName = \n    }\n}\n")

// MaxDepth bounds how deeply blocks and expressions nest, so hostile input
// cannot exhaust the stack.
const MaxDepth = 1000

// Parse parses a blueprint-language document into the tree the YAML and
// JSON front ends build for the same blueprint (see the package doc). It
// never panics; every syntax error is a bp-syntax diagnostic at its exact
// place, and the tree keeps every declaration and field around it.
func Parse(uri string, content []byte) *syntax.File { return parseMapped(uri, content, nil) }

// ParseMapped is Parse of m's text, m being its mapper, which the File
// keeps (syntax.ParseMapped).
func ParseMapped(uri string, m *source.Mapper) *syntax.File { return parseMapped(uri, m.Content(), m) }

// parseMapped is Parse with content's mapper when it is made already
// (nil: made here).
func parseMapped(uri string, content []byte, m *source.Mapper) *syntax.File {
	if m == nil {
		m = source.NewMapper(content)
	}
	if f := parseSplit(uri, content, m, splitMin); f != nil {
		return f
	}
	return parseWhole(uri, content, m)
}

// parseWhole is Parse on one core, m being content's mapper.
func parseWhole(uri string, content []byte, m *source.Mapper) *syntax.File {
	p := &parser{src: content, text: syntax.TextString(content), mapper: m}
	p.lx = lexer{src: content}
	p.lx.skipBOM()
	root := p.run()
	p.diags = p.withLexErrors()
	source.SortDiagnostics(p.diags)
	return syntax.Assemble(uri, syntax.BP, p.mapper.Text(), p.mapper, root, p.diags, p.diags)
}

// Comments returns the ranges of the # comments of content, in order.
func Comments(content []byte) []source.Range {
	l := lex(content)
	out := make([]source.Range, len(l.comments))
	for i, c := range l.comments {
		out[i] = source.R(c.start, c.end)
	}
	return out
}

type parser struct {
	src  []byte
	text string // src as a string, not a copy (syntax.TextString): names and values are slices of it
	// The tokens come from lx as the parser asks for them; la[head:] are
	// those read ahead and not yet consumed (a few: peekPast reads past
	// line breaks). A parser of a part of the text (interpolationExpr)
	// is given all its tokens in la.
	lx   lexer
	la   []token
	head int
	// consumed counts the tokens consumed; afterNewline says whether the
	// last one was a line break (true before the first); lastEnd is where
	// the last one that is not a line break ends.
	consumed     int
	afterNewline bool
	lastEnd      int

	mapper *source.Mapper
	depth  int
	diags  []source.Diagnostic
	// grouping counts the '[', '(' and call parentheses the parser is in.
	grouping int

	root     *syntax.Mapping
	sections map[string]*syntax.Mapping

	// The tree's nodes, their lists and offset maps are carved from
	// slabs: a parse builds them at once and they live as long as the
	// tree.
	scalars  slab.Of[syntax.Scalar]
	mappings slab.Of[syntax.Mapping]
	entries  slab.Of[syntax.Entry]
	seqs     slab.Of[syntax.Sequence]
	entryPs  slab.Of[*syntax.Entry]
	items    slab.Of[syntax.Node]
	segs     slab.Of[source.Segment]
	// scratch builds a value or an offset map before it is copied into
	// the tree (one at a time: see its users).
	scratch builder
	// The expressions live until their statement is rendered into the
	// tree; each top-level statement reuses the memory of the last.
	exprs exprPools
}

// text of a token: a slice of the source.
func (p *parser) tx(t token) string { return p.text[t.start:t.end] }

// is reports whether t is the punctuation or identifier s.
func (p *parser) is(t token, s string) bool {
	return (t.kind == tPunct || t.kind == tIdent) && t.end-t.start == len(s) && p.text[t.start:t.end] == s
}

func (p *parser) describe(t token) string { return t.describe(p.text) }

func (p *parser) lit(t token) *litExpr {
	x := p.exprs.lits.one()
	x.tok = t
	return x
}

// carve returns a copy of v carved from s.
func carve[T any](s *slab.Of[T], v T) *T {
	x := s.One()
	*x = v
	return x
}

// appendCarved appends x to xs, moving xs to a larger block of s when it
// is full: a list of the tree grows in slab memory (a list that stays
// empty stays nil, as append leaves it).
func appendCarved[T any](s *slab.Of[T], xs []T, x T) []T {
	if len(xs) == cap(xs) {
		xs = append(s.Many(max(2, 2*len(xs))), xs...)
	}
	return append(xs, x)
}

func (p *parser) newScalar(v syntax.Scalar) *syntax.Scalar       { return carve(&p.scalars, v) }
func (p *parser) newMapping(v syntax.Mapping) *syntax.Mapping    { return carve(&p.mappings, v) }
func (p *parser) newEntry(v syntax.Entry) *syntax.Entry          { return carve(&p.entries, v) }
func (p *parser) newSequence(v syntax.Sequence) *syntax.Sequence { return carve(&p.seqs, v) }

// identity is source.Identity with its segment shared (up to
// source.SharedIdentity's length, as the YAML and JSON parsers do) or
// carved from the slab.
func (p *parser) identity(src, n int) source.OffsetMap {
	if n == 0 {
		return source.OffsetMap{Base: src}
	}
	if shared := source.SharedIdentity(n); shared != nil {
		return source.OffsetMap{Base: src, Segments: shared}
	}
	return source.OffsetMap{Base: src, Segments: append(p.segs.Many(1), source.Segment{DecLen: n, SrcLen: n})}
}

// offsetMap is b's map with its segments copied into the slab (or
// shared, when they map the text verbatim).
func (p *parser) offsetMap(b *builder) source.OffsetMap {
	if len(b.segs) == 0 {
		return source.OffsetMap{Base: b.base}
	}
	if s := b.segs[0]; len(b.segs) == 1 && s.Dec == 0 && s.Src == b.base && s.DecLen == s.SrcLen && s.DecLen > 0 {
		return p.identity(b.base, s.DecLen)
	}
	return source.Relative(b.base, p.segs.CopyOf(b.segs))
}

// bailout unwinds a field or statement that cannot go on; guard recovers
// it. bailTop unwinds to the top level: a block was never closed.
type (
	bailout struct{}
	bailTop struct{}
)

func (p *parser) run() (root *syntax.Mapping) {
	p.root = p.newMapping(syntax.Mapping{Rng: source.R(0, len(p.src))})
	p.sections = map[string]*syntax.Mapping{}
	p.afterNewline = true
	defer func() {
		if r := recover(); r != nil {
			switch r.(type) {
			case bailout, bailTop:
			default:
				p.report(source.R(0, 0), "internal error while parsing (please report): %v", r)
			}
			root = p.root
		}
	}()
	for {
		p.skipSeparators()
		t := p.peek()
		if t.kind == tEOF {
			break
		}
		start := p.consumed
		p.exprs.reset()
		p.guard(true, func() { p.topLevel() }, func() { p.syncTop() })
		if p.consumed == start { // nothing consumed: never loop
			p.next()
		}
	}
	return p.root
}

// withLexErrors returns the lexer's errors, then the parser's
// diagnostics: the order (and so the one diagnostic per offset of report)
// of a parse that lexed the whole text before parsing it. The lexer is
// read to the end first (a parse cut short by an internal error may not
// have).
func (p *parser) withLexErrors() []source.Diagnostic {
	for p.lx.pos < len(p.lx.src) {
		p.lx.scan()
	}
	if len(p.lx.errs) == 0 {
		return p.diags
	}
	out := make([]source.Diagnostic, 0, len(p.lx.errs)+len(p.diags))
	for _, e := range p.lx.errs {
		if n := len(out); n > 0 && out[n-1].Range.Start == e.r.Start {
			continue
		}
		out = append(out, codeSyntax.New(e.r, "%s", e.msg))
	}
	// The parser's first diagnostic went after the last of the lexer's,
	// so one at the same offset was never made; each later one went after
	// the parser's own, as it does here.
	parsed := p.diags
	if len(parsed) > 0 && parsed[0].Range.Start == out[len(out)-1].Range.Start {
		parsed = parsed[1:]
	}
	return append(out, parsed...)
}

// report records a syntax error; one per offset, so recovery never
// repeats itself.
func (p *parser) report(r source.Range, format string, args ...any) {
	if n := len(p.diags); n > 0 && p.diags[n-1].Range.Start == r.Start {
		return
	}
	p.diags = append(p.diags, codeSyntax.New(r, format, args...))
}

// fail reports and abandons the current statement.
func (p *parser) fail(r source.Range, format string, args ...any) {
	p.report(r, format, args...)
	panic(bailout{})
}

// guard runs parse; when it bails out, sync runs to skip what is left of
// the field or statement. Only the top level (top) recovers a bailTop.
func (p *parser) guard(top bool, parse, sync func()) {
	depth := p.depth
	defer func() {
		if r := recover(); r != nil {
			switch r.(type) {
			case bailout:
			case bailTop:
				if !top {
					panic(r)
				}
			default:
				panic(r)
			}
			p.depth = depth
			sync()
		}
	}()
	parse()
}

func (p *parser) enter() {
	p.depth++
	if p.depth > MaxDepth {
		t := p.peek()
		p.fail(t.rng(), "nested more than %d levels deep", MaxDepth)
	}
}

func (p *parser) leave() { p.depth-- }

func (p *parser) pos(off int) string {
	pos := p.mapper.OffsetPosition(off, source.UTF8)
	return fmt.Sprintf("%d:%d", pos.Line+1, pos.Character+1)
}

// read appends the lexer's next token to the look-ahead.
func (p *parser) read() {
	if p.head == len(p.la) {
		p.la, p.head = p.la[:0], 0
	}
	k, start := p.lx.scan()
	p.la = append(p.la, token{kind: k, start: start, end: p.lx.pos})
}

func (p *parser) peek() token {
	if p.head == len(p.la) {
		p.read()
	}
	return p.la[p.head]
}

// peekAt is the token n (0 or 1) past the next one; the end of input
// past the end.
func (p *parser) peekAt(n int) token {
	for p.head+n >= len(p.la) {
		if len(p.la) > p.head && p.la[len(p.la)-1].kind == tEOF {
			return p.la[len(p.la)-1]
		}
		p.read()
	}
	return p.la[p.head+n]
}

// peekPast is the next token past line breaks.
func (p *parser) peekPast() token {
	p.peek()
	for j := p.head; ; j++ {
		if j == len(p.la) {
			p.read() // after a line break, never the end of input
		}
		if t := p.la[j]; t.kind != tNewline {
			return t
		}
	}
}

func (p *parser) next() token {
	t := p.peek()
	if t.kind != tEOF {
		p.head++
		p.consumed++
		p.afterNewline = t.kind == tNewline
		if t.kind != tNewline {
			p.lastEnd = t.end
		}
	}
	return t
}

func (p *parser) skipNewlines() {
	for p.peek().kind == tNewline {
		p.next()
	}
}

func (p *parser) skipSeparators() {
	for t := p.peek(); t.kind == tNewline || p.is(t, ","); t = p.peek() {
		p.next()
	}
}

// expect consumes s or fails saying what it was for: why followed by
// what (joined only then).
func (p *parser) expect(s, why, what string) token {
	t := p.peek()
	if !p.is(t, s) {
		p.fail(t.rng(), "expected '%s' %s%s, found %s", s, why, what, p.describe(t))
	}
	return p.next()
}

// expectClose consumes the closer s of the bracket open or fails saying
// where that bracket is (the message is made only then).
func (p *parser) expectClose(s string, open token) token {
	t := p.peek()
	if !p.is(t, s) {
		p.fail(t.rng(), "expected '%s' to close the '%s' at %s, found %s", s, p.tx(open), p.pos(open.start), p.describe(t))
	}
	return p.next()
}

// topKeywords start the top-level statements.
var topKeywords = map[string]bool{
	"version": true, "transform": true, "variable": true, "value": true, "data": true,
	"resource": true, "include": true, "export": true, "metadata": true,
}

// atTopStatement reports whether t is a top-level keyword that starts
// its line in the first column: where a statement surely starts when a
// block above it was never closed.
func atTopStatement(src []byte, t token) bool {
	return t.kind == tIdent && (t.start == 0 || src[t.start-1] == '\n') && topKeywords[string(src[t.start:t.end])]
}

// syncTop skips to the next top-level statement: a top-level keyword at
// the start of a line outside every bracket, or in the first column.
func (p *parser) syncTop() {
	depth := 0
	for {
		t := p.peek()
		switch {
		case t.kind == tEOF:
			return
		case t.kind == tIdent && topKeywords[p.tx(t)] && (p.consumed == 0 || p.afterNewline) && depth <= 0:
			return
		case atTopStatement(p.src, t):
			return
		case p.is(t, "{") || p.is(t, "[") || p.is(t, "("):
			depth++
		case p.is(t, "}") || p.is(t, "]") || p.is(t, ")"):
			depth--
		}
		p.next()
	}
}

// syncField skips the rest of a block entry: to the line break or comma
// that ends it outside brackets, or to the '}' that closes the block (not
// consumed). It reports whether the block goes on (false: a top-level
// statement or the end of input came first).
func (p *parser) syncField() bool {
	depth := 0
	for {
		t := p.peek()
		switch {
		case t.kind == tEOF:
			return false
		case atTopStatement(p.src, t) && p.consumed > 0:
			return false
		case (t.kind == tNewline || p.is(t, ",")) && depth <= 0:
			return true
		case p.is(t, "}") && depth <= 0:
			return true
		case p.is(t, "{") || p.is(t, "[") || p.is(t, "("):
			depth++
		case p.is(t, "}") || p.is(t, "]") || p.is(t, ")"):
			depth--
		}
		p.next()
	}
}
