package subst

import (
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/blueprint-ls/blueprint-ls/internal/slab"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// Options tunes parsing. The zero value is valid.
type Options struct {
	// Mapper, when set, is the document's mapper: messages then name the
	// positions they refer to as 1-based line:column (columns counted in
	// characters). Without it they name document offsets.
	Mapper *source.Mapper
	// Slabs, when set, is where the most common nodes are carved from
	// (see Mover): an analysis of a whole document parses thousands of
	// templates that live and die together (issue 36).
	Slabs *Mover
}

// carve returns a zero T from the slab of slabs that pick chooses, or a
// new one without slabs.
func carve[T any](slabs *Mover, pick func(*Mover) *slab.Of[T]) *T {
	if slabs == nil {
		return new(T)
	}
	return pick(slabs).One()
}

func pickTemplates(m *Mover) *slab.Of[Template]   { return &m.templates }
func pickLiterals(m *Mover) *slab.Of[Literal]     { return &m.literals }
func pickSubs(m *Mover) *slab.Of[Sub]             { return &m.subs }
func pickRefs(m *Mover) *slab.Of[Ref]             { return &m.refs }
func pickCalls(m *Mover) *slab.Of[Call]           { return &m.calls }
func pickArgs(m *Mover) *slab.Of[Arg]             { return &m.args }
func pickStrs(m *Mover) *slab.Of[StringLit]       { return &m.strs }
func pickFields(m *Mover) *slab.Of[FieldAccessor] { return &m.fields }

// parser parses the tokens of one substitution (or one export field). It
// works in decoded offsets and converts to document ranges through m as
// it builds nodes.
type parser struct {
	s      string
	m      *source.OffsetMap
	opts   Options
	toks   []tok // tokens of the current expression, without the closing }
	p      int
	end    int  // decoded offset where the expression space ends
	endTok *tok // the closing } when present
	// runaway is set when an unterminated string ran to the end of the
	// input: the missing closers after it are the same mistake.
	runaway bool
	diags   []source.Diagnostic
	// depth counts the expressions being parsed around the current one;
	// past MaxDepth the rest of the substitution is skipped (deep is set
	// once that is reported).
	depth int
	deep  bool
}

// MaxDepth bounds how deeply expressions nest (calls in calls, arrays in
// arrays): far beyond what a person writes, and low enough that parsing,
// checking and evaluating, which all recurse on the tree, stay fast and
// shallow (docs/security.md).
const MaxDepth = 200

func (p *parser) rng(start, end int) source.Range {
	if p.m == nil {
		return source.Range{Start: start, End: end}
	}
	return p.m.Range(start, end)
}

// where formats a decoded offset for a message.
func (p *parser) where(dec int) string {
	off := dec
	if p.m != nil {
		off = p.m.Source(dec)
	}
	if p.opts.Mapper != nil {
		l, c := p.opts.Mapper.LineCol(off, source.UTF32)
		return fmt.Sprintf("%d:%d", l, c)
	}
	return fmt.Sprintf("offset %d", off)
}

func (p *parser) peek() tok {
	if p.p < len(p.toks) {
		return p.toks[p.p]
	}
	return tok{kind: tokEOF, start: p.end, end: p.end}
}

func (p *parser) peekAt(n int) tok {
	if p.p+n < len(p.toks) {
		return p.toks[p.p+n]
	}
	return tok{kind: tokEOF, start: p.end, end: p.end}
}

func (p *parser) next() tok {
	t := p.peek()
	if p.p < len(p.toks) {
		p.p++
	}
	return t
}

func (p *parser) text(t tok) string { return p.s[t.start:t.end] }

// describe names a token for "found ..." in messages.
func (p *parser) describe(t tok) string {
	switch t.kind {
	case tokEOF:
		if p.endTok != nil {
			return "'}'"
		}
		return "end of input"
	case TokIdent:
		return fmt.Sprintf("name %q", p.text(t))
	case TokString:
		return "string " + p.text(t)
	case TokInt, TokFloat:
		return "number " + p.text(t)
	}
	return "'" + p.text(t) + "'"
}

// foundRange is the range a "found X" error points at: the token, or at
// the end of the expression the closing } (or an empty range at the end
// of the input).
func (p *parser) foundRange(t tok) source.Range {
	if t.kind == tokEOF {
		if p.endTok != nil {
			return p.rng(p.endTok.start, p.endTok.end)
		}
		return p.rng(p.end, p.end)
	}
	return p.rng(t.start, t.end)
}

func (p *parser) report(d source.Diagnostic) { p.diags = append(p.diags, d) }

func (p *parser) related(d source.Diagnostic, start, end int, msg string) source.Diagnostic {
	d.Related = append(d.Related, source.Related{Range: p.rng(start, end), Message: msg})
	return d
}

// expr parses one expression. It never returns nil: where no expression
// can start it reports why and returns a *BadExpr. Separators and closers
// are left for the caller.
func (p *parser) expr() Expr {
	t := p.peek()
	if p.depth >= MaxDepth {
		return p.tooDeep(t)
	}
	p.depth++
	defer func() { p.depth-- }()
	switch t.kind {
	case TokString:
		p.next()
		lit := carve(p.opts.Slabs, pickStrs)
		*lit = StringLit{Value: unquote(p.text(t)), Rng: p.rng(t.start, t.end)}
		switch {
		case t.bad:
			p.badString(t)
		case t.single:
			d := CodeSingleQuotedString.New(lit.Rng, "string literals are written in double quotes; single quotes are only for names in [..] accessors")
			d.Suggestions = []source.Suggestion{{Title: "Use double quotes", Edits: []source.Edit{{Range: lit.Rng, NewText: quote(lit.Value)}}}}
			p.report(d)
		}
		return lit
	case TokInt:
		p.next()
		text := p.text(t)
		v, err := strconv.ParseInt(text, 10, 64)
		if err != nil {
			p.report(CodeInvalidNumber.New(p.rng(t.start, t.end), "integer %s is out of range (64-bit)", text))
		}
		return &IntLit{Value: v, Text: text, Rng: p.rng(t.start, t.end)}
	case TokFloat:
		p.next()
		text := p.text(t)
		v, err := strconv.ParseFloat(text, 64)
		if err != nil {
			p.report(CodeInvalidNumber.New(p.rng(t.start, t.end), "float %s is out of range", text))
		}
		return &FloatLit{Value: v, Text: text, Rng: p.rng(t.start, t.end)}
	case TokLBrack:
		return p.array()
	case TokIdent:
		name := p.text(t)
		switch name {
		case "true", "false":
			p.next()
			return &BoolLit{Value: name == "true", Rng: p.rng(t.start, t.end)}
		case "none":
			p.next()
			return &NoneLit{Rng: p.rng(t.start, t.end)}
		}
		if p.peekAt(1).kind == TokLParen {
			return p.call()
		}
		if ns, ok := namespaceKeywords[name]; ok {
			return p.keywordRef(ns)
		}
		p.next()
		r := &Ref{Namespace: Resources, Bare: true, Name: name}
		end := p.accessors(&r.Path, t.end)
		r.setRanges(p.rng(t.start, end), p.rng(t.start, t.start), p.rng(t.start, t.end))
		return r
	case TokOpen:
		return p.nested()
	case TokInvalid:
		p.next()
		p.report(CodeInvalidChar.New(p.rng(t.start, t.end),
			"unexpected character %q: expected an expression", p.text(t)))
		return &BadExpr{Rng: p.rng(t.start, t.end)}
	case tokEOF, TokComma, TokRParen, TokRBrack:
		p.report(CodeUnexpectedToken.New(p.foundRange(t), "expected an expression, found %s", p.describe(t)))
		at := t.start
		if t.kind == tokEOF && p.p > 0 {
			at = p.toks[p.p-1].end // not past trailing space, so it nests
		}
		return &BadExpr{Rng: p.rng(at, at)}
	}
	p.next()
	p.report(CodeUnexpectedToken.New(p.rng(t.start, t.end), "expected an expression, found %s", p.describe(t)))
	return &BadExpr{Rng: p.rng(t.start, t.end)}
}

// tooDeep reports an expression nested past MaxDepth, at its first token,
// and consumes the rest of the substitution: the missing closers after it
// are the same mistake.
func (p *parser) tooDeep(t tok) Expr {
	if p.deep {
		return &BadExpr{Rng: p.rng(t.start, t.start)}
	}
	p.deep = true
	p.report(CodeTooDeep.New(p.rng(t.start, t.end), "the expression is nested more than %d levels deep; the rest of the substitution is not read", MaxDepth))
	p.p = len(p.toks)
	p.runaway = true
	return &BadExpr{Rng: p.rng(t.start, t.start)}
}

// badName consumes a name written right after a '.' at from that breaks the
// name grammar (a letter or '_', then letters, digits, '_' or '-'): a run
// of adjacent names, numbers and stray characters such as "9x" or "a$b"
// that is more than one name. It reports the first offending character
// once and returns the end of the run; ok is false (and nothing is
// consumed) when the name is valid or there is none.
func (p *parser) badName(from int, what string) (end int, ok bool) {
	k, end := 0, from
	for {
		t := p.peekAt(k)
		if t.start != end || (t.kind != TokIdent && t.kind != TokInt && t.kind != TokFloat && t.kind != TokInvalid) {
			break
		}
		end = t.end
		k++
	}
	if k == 0 || k == 1 && p.peek().kind == TokIdent {
		return 0, false
	}
	bad := p.peek().start // the first character, unless it starts a name
	if p.peek().kind == TokIdent {
		bad = p.peekAt(1).start
	}
	size := 1
	if c := p.s[bad]; c >= utf8.RuneSelf {
		_, size = utf8.DecodeRuneInString(p.s[bad:])
	}
	why := "cannot appear in a name"
	if bad == from {
		why = "cannot start a name"
	}
	p.report(CodeInvalidName.New(p.rng(bad, bad+size),
		"%q %s: a %s name is a letter or '_', then letters, digits, '_' or '-' (%q)", p.s[bad:bad+size], why, what, p.s[from:end]))
	for ; k > 0; k-- {
		p.next()
	}
	return end, true
}

// checkQuotedName reports the first character of a terminated string token
// that the spec's "name in quotes" grammar does not allow: only letters,
// digits, '_', '-' and '.'. The raw text is scanned, so an escape is
// reported at its backslash.
func (p *parser) checkQuotedName(t tok, what string) {
	raw := p.text(t)
	for i := 1; i < len(raw)-1; {
		c := raw[i]
		if isNameChar(c) || c == '.' {
			i++
			continue
		}
		size := 1
		if c >= utf8.RuneSelf {
			_, size = utf8.DecodeRuneInString(raw[i:])
		}
		r := p.rng(t.start+i, t.start+i+size)
		p.report(CodeInvalidQuotedName.New(r,
			"%q cannot appear in a quoted %s: use only letters, digits, '_', '-' and '.'", raw[i:i+size], what))
		return
	}
}

// badString reports an unterminated string token.
func (p *parser) badString(t tok) {
	p.runaway = true
	q := `"`
	if t.single {
		q = "'"
	}
	p.report(CodeUnterminatedString.New(p.rng(t.start, t.end),
		"unterminated string: expected '%s' to close the string started at %s", q, p.where(t.start)))
}

// nested parses a `${..}` inside a substitution, reporting it once and
// offering to remove the inner `${` and `}`.
func (p *parser) nested() Expr {
	open := p.next()
	inner := p.expr()
	d := CodeNested.New(p.rng(open.start, open.end),
		"substitutions do not nest: inside ${..} write the expression without '${' and '}'")
	if t := p.peek(); t.kind == TokClose {
		p.next()
		d.Range = p.rng(open.start, t.end)
		d.Suggestions = []source.Suggestion{{Title: "Remove the inner ${..}", Edits: []source.Edit{
			{Range: p.rng(open.start, open.end), NewText: ""}, {Range: p.rng(t.start, t.end), NewText: ""}}}}
	}
	p.report(d)
	return inner
}

// keywordRef parses a reference that starts with a namespace keyword.
func (p *parser) keywordRef(ns Namespace) Expr {
	kw := p.next()
	r := carve(p.opts.Slabs, pickRefs)
	*r = Ref{Namespace: ns}
	end, name := kw.end, p.rng(kw.end, kw.end)
	if ns.NeedsName() {
		end, name = p.refName(r, kw)
	}
	end = p.accessors(&r.Path, end)
	r.setRanges(p.rng(kw.start, end), p.rng(kw.start, kw.end), name)
	return r
}

// refName parses the name accessor right after a namespace keyword and
// returns the decoded offset after it and the name's range (where it
// belongs when it is missing).
func (p *parser) refName(r *Ref, kw tok) (int, source.Range) {
	kwText := p.text(kw)
	what := r.Namespace.what()
	switch t := p.peek(); t.kind {
	case TokDot:
		p.next()
		n := p.peek()
		if end, ok := p.badName(t.end, what); ok {
			r.Name = p.s[n.start:end]
			return end, p.rng(n.start, end)
		}
		if n.kind == TokIdent {
			p.next()
			r.Name = p.text(n)
			return n.end, p.rng(n.start, n.end)
		}
		p.report(CodeMissingName.New(p.foundRange(n),
			"expected the name of a %s after '%s.', found %s", what, kwText, p.describe(n)))
		return t.end, p.rng(t.end, t.end)
	case TokLBrack:
		n := p.peekAt(1)
		if n.kind != TokString {
			break
		}
		p.next()
		p.next()
		r.Name, r.NameQuoted, r.NameSingle = unquote(p.text(n)), true, n.single
		if n.bad {
			p.badString(n)
		} else if r.Name == "" {
			p.report(CodeInvalidAccessor.New(p.rng(n.start, n.end), "empty %s name", what))
		} else {
			p.checkQuotedName(n, what+" name")
		}
		return p.closeBracket(t, n.end), p.rng(n.start, n.end)
	}
	t := p.peek()
	if t.kind == TokLBrack {
		n := p.peekAt(1)
		p.report(CodeMissingName.New(p.foundRange(n),
			"expected a quoted %s name after '%s[', found %s: %s takes a name, not an index", what, kwText, p.describe(n), kwText))
		return kw.end, p.rng(kw.end, kw.end)
	}
	p.report(CodeMissingName.New(p.rng(kw.start, kw.end),
		"expected '.' or '[' after '%s' to name a %s ('%s.name' or '%s[\"name\"]'), found %s",
		kwText, what, kwText, kwText, p.describe(t)))
	return kw.end, p.rng(kw.end, kw.end)
}

// closeBracket expects the ] of an accessor opened by open, returning the
// offset after it (or after, the last part of the accessor when missing).
func (p *parser) closeBracket(open tok, after int) int {
	if t := p.peek(); t.kind == TokRBrack {
		p.next()
		return t.end
	}
	t := p.peek()
	d := CodeUnclosedBracket.New(p.foundRange(t),
		"expected ']' to close the '[' at %s, found %s", p.where(open.start), p.describe(t))
	p.report(p.related(d, open.start, open.end, "'[' opened here"))
	return after
}

// accessors parses a run of accessors into *path, returning the offset
// after the last one (or end when there are none). The run is gathered
// on the stack and copied once, at its length, from the slabs (issue
// 36: a path grown from nothing was an allocation per reference).
func (p *parser) accessors(path *[]Accessor, end int) int {
	var buf [4]Accessor
	run, end := p.accessorRun(buf[:0], end)
	switch {
	case len(run) == 0:
	case *path != nil || p.opts.Slabs == nil:
		*path = append(*path, run...)
	default:
		*path = p.opts.Slabs.accessors.CopyOf(run)
	}
	return end
}

// accessorRun is accessors appending to run as it parses.
func (p *parser) accessorRun(run []Accessor, end int) ([]Accessor, int) {
	for {
		t := p.peek()
		switch t.kind {
		case TokDot:
			p.next()
			n := p.peek()
			a := carve(p.opts.Slabs, pickFields)
			switch n.kind {
			case TokIdent:
				p.next()
				a.Name, a.NameRange, a.Rng = p.text(n), p.rng(n.start, n.end), p.rng(t.start, n.end)
				end = n.end
			case TokInt:
				p.next()
				a.NameRange, a.Rng = p.rng(n.start, n.end), p.rng(t.start, n.end)
				p.report(CodeInvalidAccessor.New(p.rng(t.start, n.end),
					"expected a field name after '.', found %s: use [%s] to index an array", p.describe(n), p.text(n)))
				end = n.end
			default:
				a.NameRange, a.Rng = p.rng(t.end, t.end), p.rng(t.start, t.end)
				p.report(CodeInvalidAccessor.New(p.foundRange(n),
					"expected a field name after '.', found %s", p.describe(n)))
				end = t.end
			}
			run = append(run, a)
		case TokLBrack:
			p.next()
			n := p.peek()
			switch n.kind {
			case TokRBrack:
				p.next()
				run = append(run, &FirstAccessor{Rng: p.rng(t.start, n.end)})
				end = n.end
				continue
			case TokString:
				p.next()
				a := &QuotedAccessor{Name: unquote(p.text(n)), Single: n.single, NameRange: p.rng(n.start, n.end)}
				if n.bad {
					p.badString(n)
				} else if a.Name == "" {
					p.report(CodeInvalidAccessor.New(p.rng(n.start, n.end), "empty field name in [%s]", p.text(n)))
				} else {
					p.checkQuotedName(n, "field name")
				}
				end = p.closeBracket(t, n.end)
				a.Rng = p.rng(t.start, end)
				run = append(run, a)
			case TokInt:
				p.next()
				a := &IndexAccessor{IndexRange: p.rng(n.start, n.end)}
				v, err := strconv.Atoi(p.text(n))
				switch {
				case err != nil:
					p.report(CodeInvalidNumber.New(p.rng(n.start, n.end), "index %s is out of range", p.text(n)))
				case v < 0:
					p.report(CodeInvalidAccessor.New(p.rng(n.start, n.end),
						"index %d is negative: indexes count from 0", v))
				default:
					a.Index = v
				}
				end = p.closeBracket(t, n.end)
				a.Rng = p.rng(t.start, end)
				run = append(run, a)
			default:
				// Skip to the ] (if it is there) and keep going.
				p.report(CodeInvalidAccessor.New(p.foundRange(n),
					"expected a quoted name, an index or ']' after '[', found %s", p.describe(n)))
				end = t.end
				for k := p.peek(); k.kind != tokEOF; k = p.peek() {
					if k.kind == TokComma || k.kind == TokRParen {
						break
					}
					p.next()
					end = k.end
					if k.kind == TokRBrack {
						break
					}
				}
				run = append(run, &BadAccessor{Rng: p.rng(t.start, end)})
			}
		default:
			return run, end
		}
	}
}

// call parses name(args) and the accessors after it.
func (p *parser) call() Expr {
	name, lp := p.next(), p.next()
	c := carve(p.opts.Slabs, pickCalls)
	*c = Call{Name: p.text(name), NameRange: p.rng(name.start, name.end), Lparen: p.rng(lp.start, lp.end)}
	end := p.list(lp, TokRParen, func() {
		c.Args = append(c.Args, p.arg())
	}, func(t tok) {
		c.Commas = append(c.Commas, p.rng(t.start, t.end))
	}, func(t tok) {
		d := CodeUnclosedCall.New(p.foundRange(t), "expected ')' to close the call to %s started at %s, found %s",
			c.Name, p.where(name.start), p.describe(t))
		p.report(p.related(d, lp.start, lp.end, "'(' opened here"))
	}, "argument", "the call to "+c.Name)
	if end.kind == TokRParen {
		c.Closed, c.Rparen = true, p.rng(end.start, end.end)
		c.Rng = p.rng(name.start, p.accessors(&c.Path, end.end))
	} else {
		c.Rparen = p.rng(end.end, end.end)
		c.Rng = p.rng(name.start, end.end)
	}
	return c
}

func (p *parser) arg() *Arg {
	t := p.peek()
	if t.kind == TokIdent && p.peekAt(1).kind == TokEquals {
		p.next()
		eq := p.next()
		a := &Arg{Name: p.text(t), NameRange: p.rng(t.start, t.end), Equals: p.rng(eq.start, eq.end)}
		a.Value = p.expr()
		a.Rng = a.NameRange.Union(a.Value.Range())
		return a
	}
	a := carve(p.opts.Slabs, pickArgs)
	a.Value = p.expr()
	a.Rng = a.Value.Range()
	return a
}

// array parses [a, b], warning that it is not portable.
func (p *parser) array() Expr {
	lb := p.next()
	a := &ArrayLit{Lbrack: p.rng(lb.start, lb.end)}
	end := p.list(lb, TokRBrack, func() {
		a.Elems = append(a.Elems, p.expr())
	}, func(tok) {}, func(t tok) {
		d := CodeUnclosedBracket.New(p.foundRange(t), "expected ']' to close the array started at %s, found %s",
			p.where(lb.start), p.describe(t))
		p.report(p.related(d, lb.start, lb.end, "'[' opened here"))
	}, "item", "the array")
	a.Rng = p.rng(lb.start, end.end)
	a.Rbrack = p.rng(end.end, end.end)
	d := CodeArrayLiteral.New(a.Rng, "array literals are not part of the substitution grammar and not portable: use list(..)")
	if end.kind == TokRBrack {
		a.Closed, a.Rbrack = true, p.rng(end.start, end.end)
		d.Suggestions = []source.Suggestion{{Title: "Use list(..)", Edits: []source.Edit{
			{Range: a.Lbrack, NewText: "list("}, {Range: a.Rbrack, NewText: ")"}}}}
	}
	p.report(d)
	return a
}

// list parses comma-separated items up to the closer after open. It
// returns the closer, or a token at the end of the items when it is
// missing (unclosed has then been called, unless a skipped stray token was
// already reported).
func (p *parser) list(open tok, closer TokenKind, item func(), comma func(tok), unclosed func(tok), what, in string) tok {
	if t := p.peek(); t.kind == closer {
		return p.next()
	}
	last := open.end
	for {
		if t := p.peek(); t.kind == tokEOF {
			// Nothing more was typed (`trim(` or `f(a, `): the missing
			// closer is the one problem.
			if !p.runaway {
				unclosed(t)
			}
			return tok{kind: tokEOF, start: last, end: last}
		}
		before := len(p.diags)
		item()
		itemOK := len(p.diags) == before
		if p.p > 0 {
			last = p.toks[p.p-1].end
		}
		t := p.peek()
		switch t.kind {
		case closer:
			return p.next()
		case TokComma:
			p.next()
			comma(t)
			last = t.end
			if n := p.peek(); n.kind == closer {
				if itemOK {
					p.report(CodeTrailingComma.New(p.rng(t.start, t.end), "unexpected ',' after the last %s of %s", what, in))
				}
				return p.next()
			}
			continue
		case tokEOF:
			if !p.runaway {
				unclosed(t)
			}
			return tok{kind: tokEOF, start: last, end: last}
		}
		// A stray token: report it, skip to the next separator at this
		// level and carry on.
		p.report(CodeUnexpectedToken.New(p.rng(t.start, t.end),
			"expected ',' or '%s' after the %s of %s, found %s", closer, what, in, p.describe(t)))
		depth := 0
	skip:
		for k := p.peek(); k.kind != tokEOF; k = p.peek() {
			switch k.kind {
			case TokLParen, TokLBrack:
				depth++
			case TokRParen, TokRBrack:
				if depth == 0 {
					if k.kind == closer {
						break skip
					}
				} else {
					depth--
				}
			case TokComma:
				if depth == 0 {
					break skip
				}
			}
			p.next()
			last = k.end
		}
		switch k := p.peek(); k.kind {
		case closer:
			return p.next()
		case TokComma:
			p.next()
			comma(k)
			last = k.end
		default:
			return tok{kind: tokEOF, start: last, end: last}
		}
	}
}

// what names the kind of item a namespace holds.
func (n Namespace) what() string {
	switch n {
	case Variables:
		return "variable"
	case Values:
		return "value"
	case DataSources:
		return "data source"
	case Resources:
		return "resource"
	case Children:
		return "child blueprint"
	}
	return "item"
}
