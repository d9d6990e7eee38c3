package bplang

import (
	"github.com/blueprint-ls/blueprint-ls/source"
)

// expr is an expression as written: literals, references, calls, array
// and object literals, and the operators, each with its exact range.
type expr interface{ rng() source.Range }

type (
	// litExpr is a number, true, false, none, or a string token.
	litExpr struct{ tok token }
	// refExpr is a reference with its accessors
	// (variables.x, resources.a.spec.b[0]["c.d"], elem.name, i, a bare
	// name), kept as written: it is the substitution language's own text.
	refExpr  struct{ r source.Range }
	callExpr struct {
		name   token
		lparen token
		args   []callArg
		rparen token
		path   source.Range // accessors after the call, as written (empty when none)
	}
	callArg struct {
		name  token // kind tEOF when positional
		eq    token
		value expr
	}
	arrayExpr struct {
		open, close token
		elems       []expr
	}
	objectExpr struct {
		open, close token
		fields      []objectField
	}
	objectField struct {
		key   token // an identifier or a string
		eq    token
		value expr
	}
	// binExpr is a binary operator; fn is the core function it stands for.
	binExpr struct {
		op   token
		l, r expr
	}
	notExpr struct {
		op token
		x  expr
	}
	groupExpr struct {
		open, close token
		x           expr
	}
)

func (e *litExpr) rng() source.Range  { return e.tok.rng() }
func (e *refExpr) rng() source.Range  { return e.r }
func (e *callExpr) rng() source.Range { return source.R(e.name.start, max(e.rparen.end, e.path.End)) }
func (e *arrayExpr) rng() source.Range {
	return source.R(e.open.start, e.close.end)
}
func (e *objectExpr) rng() source.Range {
	return source.R(e.open.start, e.close.end)
}
func (e *binExpr) rng() source.Range   { return source.R(e.l.rng().Start, e.r.rng().End) }
func (e *notExpr) rng() source.Range   { return source.R(e.op.start, e.x.rng().End) }
func (e *groupExpr) rng() source.Range { return source.R(e.open.start, e.close.end) }

// operatorFuncs are the core functions the binary operators stand for
// (`!=` is not(eq(..)), as in the official language).
var operatorFuncs = map[string]string{
	"||": "or", "&&": "and", "==": "eq",
	"<": "lt", "<=": "le", ">": "gt", ">=": "ge",
}

// precedence levels, loosest first.
var precedence = [][]string{{"||"}, {"&&"}, {"==", "!="}, {"<", "<=", ">", ">="}}

// expression parses an expression. An operator at the start of the next
// line continues it; one at the end of a line continues on the next.
func (p *parser) expression() expr {
	p.enter()
	defer p.leave()
	return p.binary(0)
}

// binary parses the operands and operators of precedence level and
// tighter, left to right: the tree of one descent per level, the
// operator ahead looked up once per operand rather than once per level.
func (p *parser) binary(level int) expr {
	l := p.unary()
	for {
		op, at := p.operatorAhead()
		if at < level {
			return l
		}
		p.skipNewlines()
		p.next()
		p.skipNewlines()
		r := p.binary(at + 1)
		b := p.exprs.bins.one()
		*b = binExpr{op: op, l: l, r: r}
		l = b
	}
}

// operatorAhead is the next token past line breaks and, when it is a
// binary operator, its precedence level (else -1).
func (p *parser) operatorAhead() (token, int) {
	t := p.peekPast()
	if t.kind != tPunct {
		return t, -1
	}
	return t, operatorLevel(p.tx(t))
}

// operatorLevel is the precedence level of a binary operator, -1 for
// anything else.
func operatorLevel(op string) int {
	switch op {
	case "||":
		return 0
	case "&&":
		return 1
	case "==", "!=":
		return 2
	case "<", "<=", ">", ">=":
		return 3
	}
	return -1
}

func (p *parser) unary() expr {
	if t := p.peek(); p.is(t, "!") {
		p.next()
		p.enter()
		defer p.leave()
		n := p.exprs.nots.one()
		n.op = t
		n.x = p.unary()
		return n
	}
	return p.primary()
}

func (p *parser) primary() expr {
	t := p.peek()
	switch t.kind {
	case tInt, tFloat, tString, tMultiline:
		p.next()
		return p.lit(t)
	case tIdent:
		switch p.tx(t) {
		case "true", "false", "none":
			p.next()
			return p.lit(t)
		}
		if n := p.peekAt(1); p.is(n, "(") && n.start == t.end {
			return p.call()
		}
		return p.reference()
	case tPunct:
		switch p.tx(t) {
		case "[":
			return p.array()
		case "{":
			return p.object()
		case "(":
			p.next()
			p.grouping++
			defer func() { p.grouping-- }()
			p.skipNewlines()
			x := p.expression()
			p.skipNewlines()
			closeTok := p.expectClose(")", t)
			g := p.exprs.groups.one()
			*g = groupExpr{open: t, close: closeTok, x: x}
			return g
		}
	}
	p.fail(t.rng(), "expected an expression, found %s", p.describe(t))
	return nil
}

// reference parses a name and its accessors: .field, [index], ["key"].
func (p *parser) reference() expr {
	first := p.next()
	end := p.accessors(first.end)
	r := p.exprs.refs.one()
	r.r = source.R(first.start, end)
	return r
}

// accessors consumes .name, [n] and ["key"] directly after end and
// returns where they end.
func (p *parser) accessors(end int) int {
	for {
		t := p.peek()
		switch {
		case p.is(t, ".") && t.start == end:
			p.next()
			n := p.peek()
			if n.kind != tIdent || n.start != t.end {
				p.fail(n.rng(), "expected a field name after '.', found %s", p.describe(n))
			}
			p.next()
			end = n.end
		case p.is(t, "[") && t.start == end:
			p.next()
			n := p.peek()
			if n.kind != tInt && n.kind != tString {
				p.fail(n.rng(), "expected an index or a quoted field name in '[..]', found %s", p.describe(n))
			}
			p.next()
			c := p.expectClose("]", t)
			end = c.end
		default:
			return end
		}
	}
}

func (p *parser) call() expr {
	p.enter() // before the '(': recovery then skips the call whole
	defer p.leave()
	c := p.exprs.calls.one()
	c.name = p.next()
	c.lparen = p.next()
	p.grouping++
	defer func() { p.grouping-- }()
	for {
		p.skipNewlines()
		if t := p.peek(); p.is(t, ")") {
			break
		}
		var a callArg
		if n, eq := p.peek(), p.peekAt(1); n.kind == tIdent && p.is(eq, "=") {
			p.next()
			p.next()
			a.name, a.eq = n, eq
			p.skipNewlines()
		}
		a.value = p.expression()
		c.args = appendPooled(&p.exprs.args, c.args, a)
		p.skipNewlines()
		if !p.is(p.peek(), ",") {
			break
		}
		p.next()
	}
	p.skipNewlines()
	c.rparen = p.expect(")", "to close the call of ", p.tx(c.name))
	if end := p.accessors(c.rparen.end); end > c.rparen.end {
		c.path = source.R(c.rparen.end, end)
	}
	return c
}

func (p *parser) array() expr {
	p.enter()
	defer p.leave()
	a := p.exprs.arrays.one()
	a.open = p.next()
	p.grouping++
	defer func() { p.grouping-- }()
	for {
		p.skipNewlines()
		if p.is(p.peek(), "]") {
			break
		}
		a.elems = appendPooled(&p.exprs.elems, a.elems, p.expression())
		p.skipNewlines()
		if !p.is(p.peek(), ",") {
			break
		}
		p.next()
	}
	p.skipNewlines()
	a.close = p.expectClose("]", a.open)
	return a
}

func (p *parser) object() expr {
	p.enter()
	defer p.leave()
	o := p.exprs.objects.one()
	o.open = p.next()
	for {
		p.skipSeparators()
		if p.is(p.peek(), "}") {
			break
		}
		key := p.peek()
		if key.kind != tIdent && key.kind != tString {
			p.fail(key.rng(), "expected a field name, found %s", p.describe(key))
		}
		p.next()
		eq := p.expect("=", "after the field name ", p.tx(key))
		p.skipNewlines()
		o.fields = appendPooled(&p.exprs.fields, o.fields, objectField{key: key, eq: eq, value: p.expression()})
		if t := p.peek(); !p.is(t, ",") && t.kind != tNewline && !p.is(t, "}") {
			p.fail(t.rng(), "expected ',', a line break or '}' after a field, found %s", p.describe(t))
		} else if t.kind == tNewline && p.grouping > 0 {
			p.commaBetweenFields()
		}
	}
	o.close = p.expectClose("}", o.open)
	return o
}

// commaBetweenFields reports a field of an object inside '[..]' or '(..)'
// followed by another on the next line with no comma between: there the
// official parser reads line breaks as white space, so only a comma
// separates fields (at the top of a block's value a line break does).
// The tree keeps both fields; the fix inserts the comma after the value.
func (p *parser) commaBetweenFields() {
	next := p.peekPast()
	if p.is(next, ",") || p.is(next, "}") || next.kind == tEOF {
		return
	}
	at := p.lastEnd
	d := codeSyntax.New(next.rng(), "expected ',' before %s: inside '[..]' or '(..)' the fields of an object are separated by commas, not line breaks", p.describe(next))
	d.Suggestions = []source.Suggestion{{Title: "Insert ','", Edits: []source.Edit{{Range: source.R(at, at), NewText: ","}}}}
	if n := len(p.diags); n == 0 || p.diags[n-1].Range.Start != d.Range.Start {
		p.diags = append(p.diags, d)
	}
}
