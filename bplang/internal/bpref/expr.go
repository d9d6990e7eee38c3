package bpref

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

func (p *parser) binary(level int) expr {
	if level == len(precedence) {
		return p.unary()
	}
	l := p.binary(level + 1)
	for {
		op, ok := p.operatorAhead(precedence[level])
		if !ok {
			return l
		}
		p.skipNewlines()
		p.next()
		p.skipNewlines()
		r := p.binary(level + 1)
		l = &binExpr{op: op, l: l, r: r}
	}
}

// operatorAhead reports the next token past line breaks when it is one of
// ops.
func (p *parser) operatorAhead(ops []string) (token, bool) {
	t := p.peekPast()
	if t.kind != tPunct {
		return t, false
	}
	for _, op := range ops {
		if t.text == op {
			return t, true
		}
	}
	return t, false
}

func (p *parser) unary() expr {
	if t := p.peek(); t.is("!") {
		p.next()
		p.enter()
		defer p.leave()
		return &notExpr{op: t, x: p.unary()}
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
		switch t.text {
		case "true", "false", "none":
			p.next()
			return p.lit(t)
		}
		if n := p.peekAt(1); n.is("(") && n.start == t.end {
			return p.call()
		}
		return p.reference()
	case tPunct:
		switch t.text {
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
			return &groupExpr{open: t, close: closeTok, x: x}
		}
	}
	p.fail(t.rng(), "expected an expression, found %s", t.describe())
	return nil
}

// reference parses a name and its accessors: .field, [index], ["key"].
func (p *parser) reference() expr {
	first := p.next()
	end := p.accessors(first.end)
	r := p.refs.One()
	r.r = source.R(first.start, end)
	return r
}

// accessors consumes .name, [n] and ["key"] directly after end and
// returns where they end.
func (p *parser) accessors(end int) int {
	for {
		t := p.peek()
		switch {
		case t.is(".") && t.start == end:
			p.next()
			n := p.peek()
			if n.kind != tIdent || n.start != t.end {
				p.fail(n.rng(), "expected a field name after '.', found %s", n.describe())
			}
			p.next()
			end = n.end
		case t.is("[") && t.start == end:
			p.next()
			n := p.peek()
			if n.kind != tInt && n.kind != tString {
				p.fail(n.rng(), "expected an index or a quoted field name in '[..]', found %s", n.describe())
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
	c := &callExpr{name: p.next(), lparen: p.next()}
	p.grouping++
	defer func() { p.grouping-- }()
	for {
		p.skipNewlines()
		if t := p.peek(); t.is(")") {
			break
		}
		var a callArg
		if n, eq := p.peek(), p.peekAt(1); n.kind == tIdent && eq.is("=") {
			p.next()
			p.next()
			a.name, a.eq = n, eq
			p.skipNewlines()
		}
		a.value = p.expression()
		c.args = append(c.args, a)
		p.skipNewlines()
		if !p.peek().is(",") {
			break
		}
		p.next()
	}
	p.skipNewlines()
	c.rparen = p.expect(")", "to close the call of "+c.name.text)
	if end := p.accessors(c.rparen.end); end > c.rparen.end {
		c.path = source.R(c.rparen.end, end)
	}
	return c
}

func (p *parser) array() expr {
	p.enter()
	defer p.leave()
	a := p.arrays.One()
	a.open = p.next()
	p.grouping++
	defer func() { p.grouping-- }()
	for {
		p.skipNewlines()
		if p.peek().is("]") {
			break
		}
		a.elems = append(a.elems, p.expression())
		p.skipNewlines()
		if !p.peek().is(",") {
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
	o := p.objects.One()
	o.open = p.next()
	for {
		p.skipSeparators()
		if p.peek().is("}") {
			break
		}
		key := p.peek()
		if key.kind != tIdent && key.kind != tString {
			p.fail(key.rng(), "expected a field name, found %s", key.describe())
		}
		p.next()
		eq := p.expect("=", "after the field name "+key.text)
		p.skipNewlines()
		o.fields = append(o.fields, objectField{key: key, eq: eq, value: p.expression()})
		if t := p.peek(); !t.is(",") && t.kind != tNewline && !t.is("}") {
			p.fail(t.rng(), "expected ',', a line break or '}' after a field, found %s", t.describe())
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
	if next.is(",") || next.is("}") || next.kind == tEOF {
		return
	}
	at := p.lastEnd()
	d := codeSyntax.New(next.rng(), "expected ',' before %s: inside '[..]' or '(..)' the fields of an object are separated by commas, not line breaks", next.describe())
	d.Suggestions = []source.Suggestion{{Title: "Insert ','", Edits: []source.Edit{{Range: source.R(at, at), NewText: ","}}}}
	if n := len(p.diags); n == 0 || p.diags[n-1].Range.Start != d.Range.Start {
		p.diags = append(p.diags, d)
	}
}
