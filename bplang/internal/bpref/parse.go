package bpref

import (
	"fmt"
	"github.com/blueprint-ls/blueprint-ls/internal/slab"

	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// Diagnostic codes owned by the front end, declared beside the function
// that words their messages (report).
// (Not registered: package bplang declares the code; this is its twin.)
var codeSyntax = &source.Code{ID: "bp-syntax", Severity: source.Error}

// MaxDepth bounds how deeply blocks and expressions nest, so hostile input
// cannot exhaust the stack.
const MaxDepth = 1000

// Parse parses a blueprint-language document into the tree the YAML and
// JSON front ends build for the same blueprint (see the package doc). It
// never panics; every syntax error is a bp-syntax diagnostic at its exact
// place, and the tree keeps every declaration and field around it.
func Parse(uri string, content []byte) *syntax.File {
	p := &parser{src: content, mapper: source.NewMapper(content)}
	root := p.run()
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
	src    []byte
	mapper *source.Mapper
	toks   []token
	i      int
	depth  int
	diags  []source.Diagnostic
	// grouping counts the '[', '(' and call parentheses the parser is in.
	grouping int

	root     *syntax.Mapping
	sections map[string]*syntax.Mapping

	// The tree's nodes and offset maps are carved from slabs: a parse
	// builds them at once and they live as long as the tree.
	scalars  slab.Of[syntax.Scalar]
	mappings slab.Of[syntax.Mapping]
	entries  slab.Of[syntax.Entry]
	seqs     slab.Of[syntax.Sequence]
	segs     slab.Of[source.Segment]
	// The expressions are dropped once rendered into the tree.
	lits    slab.Of[litExpr]
	refs    slab.Of[refExpr]
	arrays  slab.Of[arrayExpr]
	objects slab.Of[objectExpr]
}

func (p *parser) lit(t token) *litExpr { return carve(&p.lits, litExpr{tok: t}) }

// carve returns a copy of v carved from s.
func carve[T any](s *slab.Of[T], v T) *T {
	x := s.One()
	*x = v
	return x
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
	l := lex(p.src)
	p.toks = l.toks
	for _, e := range l.errs {
		p.report(e.r, "%s", e.msg)
	}
	for {
		p.skipSeparators()
		t := p.peek()
		if t.kind == tEOF {
			break
		}
		start := p.i
		p.guard(true, func() { p.topLevel() }, func() { p.syncTop() })
		if p.i == start { // nothing consumed: never loop
			p.next()
		}
	}
	return p.root
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

func (p *parser) peek() token { return p.toks[p.i] }

func (p *parser) peekAt(n int) token {
	if p.i+n < len(p.toks) {
		return p.toks[p.i+n]
	}
	return p.toks[len(p.toks)-1]
}

// peekPast is the next token past line breaks.
func (p *parser) peekPast() token {
	for j := p.i; j < len(p.toks); j++ {
		if p.toks[j].kind != tNewline {
			return p.toks[j]
		}
	}
	return p.toks[len(p.toks)-1]
}

func (p *parser) next() token {
	t := p.toks[p.i]
	if t.kind != tEOF {
		p.i++
	}
	return t
}

// lastEnd is where the last token consumed (not a line break) ends.
func (p *parser) lastEnd() int {
	for j := p.i - 1; j >= 0; j-- {
		if p.toks[j].kind != tNewline {
			return p.toks[j].end
		}
	}
	return 0
}

func (p *parser) skipNewlines() {
	for p.peek().kind == tNewline {
		p.next()
	}
}

func (p *parser) skipSeparators() {
	for t := p.peek(); t.kind == tNewline || t.is(","); t = p.peek() {
		p.next()
	}
}

// expect consumes s or fails saying what it was for.
func (p *parser) expect(s, why string) token {
	t := p.peek()
	if !t.is(s) {
		p.fail(t.rng(), "expected '%s' %s, found %s", s, why, t.describe())
	}
	return p.next()
}

// expectClose consumes the closer s of the bracket open or fails saying
// where that bracket is (the message is made only then).
func (p *parser) expectClose(s string, open token) token {
	t := p.peek()
	if !t.is(s) {
		p.fail(t.rng(), "expected '%s' to close the '%s' at %s, found %s", s, open.text, p.pos(open.start), t.describe())
	}
	return p.next()
}

// topKeywords start the top-level statements.
var topKeywords = map[string]bool{
	"version": true, "transform": true, "variable": true, "value": true, "data": true,
	"resource": true, "include": true, "export": true, "metadata": true,
}

// atTopStatement reports whether token j is a top-level keyword that
// starts its line in the first column: where a statement surely starts
// when a block above it was never closed.
func (p *parser) atTopStatement(j int) bool {
	t := p.toks[j]
	if t.kind != tIdent || !topKeywords[t.text] {
		return false
	}
	return t.start == 0 || p.src[t.start-1] == '\n'
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
		case t.kind == tIdent && topKeywords[t.text] && (p.i == 0 || p.toks[p.i-1].kind == tNewline) && depth <= 0:
			return
		case p.atTopStatement(p.i):
			return
		case t.is("{") || t.is("[") || t.is("("):
			depth++
		case t.is("}") || t.is("]") || t.is(")"):
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
		case p.atTopStatement(p.i) && p.i > 0:
			return false
		case (t.kind == tNewline || t.is(",")) && depth <= 0:
			return true
		case t.is("}") && depth <= 0:
			return true
		case t.is("{") || t.is("[") || t.is("("):
			depth++
		case t.is("}") || t.is("]") || t.is(")"):
			depth--
		}
		p.next()
	}
}
