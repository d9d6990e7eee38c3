package subst

import (
	"strings"
	"sync"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// Template is a parsed string scalar: literal text and substitutions, in
// order, with every range in document offsets.
type Template struct {
	Parts []Part
	Rng   source.Range
	// diags are the diagnostics (Diagnostics), behind a pointer: most
	// templates have none, and a slice was 24 of 88 bytes (issue 36).
	diags *[]source.Diagnostic

	src string            // the decoded string, for Tokens
	m   *source.OffsetMap // its map (nil: the identity from Rng.Start, keptMap)
}

// keptMap is the map a template of the n-byte string s keeps for Tokens:
// nil for the identity, which Tokens makes again from where the template
// starts. Most values holding "${" are written verbatim, so their scalars
// need not keep an identity map for their templates (issue 36).
func keptMap(m *source.OffsetMap, n int) *source.OffsetMap {
	if m != nil && source.IsIdentity(m.Segments, n) {
		return nil
	}
	return m
}

// Tokens returns the lexical tokens of every substitution, `${` and `}`
// included, in document order (literal text has none), for semantic
// highlighting. They are lexed again on demand rather than kept, since
// most templates never need them; the OffsetMap passed to the parser must
// not have changed since.
func (t *Template) Tokens() []Token {
	p := &parser{s: t.src, m: t.m}
	if p.m == nil && t.Rng.Start != 0 {
		id := source.Identity(t.Rng.Start, len(t.src))
		p.m = &id
	}
	var out []Token
	var toks []tok
	for i := strings.Index(t.src, "${"); i >= 0; {
		var end int
		toks, end, _ = lexSub(t.src, i+2, toks[:0])
		out = append(out, Token{Kind: TokOpen, Range: p.rng(i, i+2)})
		for _, k := range toks {
			out = append(out, Token{Kind: k.kind, Range: p.rng(k.start, k.end)})
		}
		i = -1
		if j := strings.Index(t.src[end:], "${"); j >= 0 {
			i = end + j
		}
	}
	return out
}

// Range returns the range of the whole string.
func (t *Template) Range() source.Range { return t.Rng }

// Subs returns the substitutions in order.
func (t *Template) Subs() []*Sub {
	var out []*Sub
	for _, p := range t.Parts {
		if s, ok := p.(*Sub); ok {
			out = append(out, s)
		}
	}
	return out
}

// HasSubs reports whether the template has any substitution.
func (t *Template) HasSubs() bool {
	for _, p := range t.Parts {
		if _, ok := p.(*Sub); ok {
			return true
		}
	}
	return false
}

// Pure returns the template's only substitution when the template is pure:
// one substitution with nothing but whitespace around it (decision 9), so
// its value is the expression's value rather than an interpolated string.
func (t *Template) Pure() *Sub {
	if len(t.Parts) == 1 { // the common case, without the loop's type switch
		sub, _ := t.Parts[0].(*Sub)
		return sub
	}
	var sub *Sub
	for _, p := range t.Parts {
		switch p := p.(type) {
		case *Sub:
			if sub != nil {
				return nil
			}
			sub = p
		case *Literal:
			if strings.TrimSpace(p.Value) != "" {
				return nil
			}
		}
	}
	return sub
}

// IsPure reports whether Pure returns a substitution.
func (t *Template) IsPure() bool { return t.Pure() != nil }

// Diagnostics returns the template's diagnostics; callers must not
// change them.
func (t *Template) Diagnostics() []source.Diagnostic {
	if t.diags == nil {
		return nil
	}
	return *t.diags
}

// setDiagnostics sets the template's diagnostics. The pointer is made
// only for a template that has some: taking the parameter's address
// moved it to the heap on every call (issue 36: an allocation per
// template parsed, 20,000 per open of 5,000 resources).
func (t *Template) setDiagnostics(ds []source.Diagnostic) {
	t.diags = nil
	if ds != nil {
		p := new([]source.Diagnostic)
		*p = ds
		t.diags = p
	}
}

// HasErrors reports whether any diagnostic is an error.
func (t *Template) HasErrors() bool {
	for _, d := range t.Diagnostics() {
		if d.Severity == source.Error {
			return true
		}
	}
	return false
}

// ParseTemplate parses a decoded string value whose offsets m maps to the
// document (nil: the string is the document, at offset 0).
func ParseTemplate(s string, m *source.OffsetMap) *Template {
	return ParseTemplateWith(s, m, Options{})
}

// ParseTemplateWith is ParseTemplate with options.
func ParseTemplateWith(s string, m *source.OffsetMap, opts Options) *Template {
	p := &parser{s: s, m: m, opts: opts}
	t := carve(opts.Slabs, pickTemplates)
	*t = Template{Rng: p.rng(0, len(s)), src: s, m: keptMap(m, len(s))}
	first := strings.Index(s, "${")
	if first < 0 {
		l := carve(opts.Slabs, pickLiterals)
		*l = Literal{Value: s, Rng: t.Rng}
		t.Parts = partsOf(opts.Slabs, []Part{l})
		return t
	}
	// The parts are gathered here and copied once, to their exact size.
	var gathered [8]Part
	parts := gathered[:0]
	lit, i := 0, first
	bufp := tokPool.Get().(*[]tok)
	defer tokPool.Put(bufp)
	buf := *bufp
	defer func() { *bufp = buf[:0] }()
	for i >= 0 {
		if i > lit {
			l := carve(opts.Slabs, pickLiterals)
			*l = Literal{Value: s[lit:i], Rng: p.rng(lit, i)}
			parts = append(parts, l)
		}
		var end int
		var closed bool
		buf, end, closed = lexSub(s, i+2, buf[:0])
		parts = append(parts, p.sub(i, buf, end, closed))
		lit = end
		if j := strings.Index(s[end:], "${"); j >= 0 {
			i = end + j
		} else {
			i = -1
		}
	}
	if lit < len(s) {
		l := carve(opts.Slabs, pickLiterals)
		*l = Literal{Value: s[lit:], Rng: p.rng(lit, len(s))}
		parts = append(parts, l)
	}
	t.Parts = partsOf(opts.Slabs, parts)
	t.setDiagnostics(p.diags)
	return t
}

// partsOf returns a copy of parts, carved from slabs when given.
func partsOf(slabs *Mover, parts []Part) []Part {
	if slabs == nil {
		return append(make([]Part, 0, len(parts)), parts...)
	}
	return slabs.parts.CopyOf(parts)
}

// tokPool recycles the lexer's scratch token slices.
var tokPool = sync.Pool{New: func() any { b := make([]tok, 0, 64); return &b }}

// sub parses one substitution whose `${` is at open and whose tokens
// (ending with } when closed) are toks; end is the offset after it.
func (p *parser) sub(open int, toks []tok, end int, closed bool) *Sub {
	sub := carve(p.opts.Slabs, pickSubs)
	*sub = Sub{Closed: closed}
	p.toks, p.p, p.endTok, p.runaway, p.deep = toks, 0, nil, false, false
	p.end = end
	var closeAt source.Range
	if closed {
		p.endTok = &toks[len(toks)-1]
		p.toks = toks[:len(toks)-1]
		p.end = p.endTok.start
		closeAt = p.rng(p.endTok.start, p.endTok.end)
	} else {
		closeAt = p.rng(end, end)
	}
	sub.setRanges(p.rng(open, end), p.rng(open, open+2), closeAt)
	if len(p.toks) == 0 {
		sub.Expr = &BadExpr{Rng: p.rng(open+2, p.end)}
		if closed {
			p.report(CodeEmpty.New(sub.Rng, "empty substitution: expected an expression between '${' and '}'"))
		}
	} else {
		sub.Expr = p.expr()
		if _, bad := sub.Expr.(*BadExpr); !bad && p.p < len(p.toks) {
			k := p.peek()
			if closed {
				p.report(CodeUnexpectedToken.New(p.rng(k.start, p.end),
					"expected '}' to close the substitution started at %s, found %s", p.where(open), p.describe(k)))
			} else {
				p.report(CodeUnexpectedToken.New(p.rng(k.start, p.end),
					"unexpected %s after the expression", p.describe(k)))
			}
		}
	}
	if !closed && !p.runaway {
		d := CodeUnterminated.New(sub.Open(), "unterminated substitution: expected '}' to close the '${' at %s", p.where(open))
		p.report(d)
	}
	return sub
}

// ParseReference parses an export's `field`: a plain reference without
// `${..}` and without function calls (decision 20). It always returns an
// expression (a *BadExpr when there is none) with the diagnostics.
func ParseReference(s string, m *source.OffsetMap) (Expr, []source.Diagnostic) {
	return ParseReferenceWith(s, m, Options{})
}

// ParseReferenceWith is ParseReference with options.
func ParseReferenceWith(s string, m *source.OffsetMap, opts Options) (Expr, []source.Diagnostic) {
	p := &parser{s: s, m: m, opts: opts, end: len(s)}
	if strings.Contains(s, "${") {
		t := ParseTemplateWith(s, m, opts)
		diags := t.Diagnostics()
		if sub := t.Pure(); sub != nil && sub.Closed {
			d := CodeExportFieldSubstitution.New(sub.Rng, "an export field is a plain reference: remove '${' and '}'")
			d.Suggestions = []source.Suggestion{{Title: "Remove ${..}", Edits: []source.Edit{
				{Range: sub.Open(), NewText: ""}, {Range: sub.Close(), NewText: ""}}}}
			return sub.Expr, append(diags, d)
		}
		d := CodeExportFieldSubstitution.New(t.Rng, "an export field is a plain reference and cannot contain substitutions")
		return &BadExpr{Rng: t.Rng}, append(diags, d)
	}
	var toks []tok
	for pos := 0; pos < len(s); {
		toks, pos, _ = lexSub(s, pos, toks)
	}
	p.toks = toks
	if len(toks) == 0 {
		p.report(CodeExportFieldNotReference.New(p.rng(0, len(s)), "an export field must name a reference, such as resources.x.state.id"))
		return &BadExpr{Rng: p.rng(0, len(s))}, p.diags
	}
	e := p.expr()
	if p.p < len(p.toks) {
		k := p.peek()
		p.report(CodeUnexpectedToken.New(p.rng(k.start, len(s)), "unexpected %s after the reference", p.describe(k)))
	}
	switch e := e.(type) {
	case *Call:
		p.report(CodeExportFieldCall.New(e.Rng, "an export field is a plain reference: function calls such as %s(..) are only allowed inside ${..}", e.Name))
	case *Ref, *BadExpr:
	default:
		p.report(CodeExportFieldNotReference.New(e.Range(), "an export field must be a reference, not a literal"))
	}
	return e, p.diags
}
