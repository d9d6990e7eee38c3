package bpref

import (
	"strings"

	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// value turns an expression in a value position into the node the YAML
// form of the blueprint has there: an array literal is a sequence, an
// object literal a mapping, a literal a scalar of its type, and any other
// expression a string scalar holding the ${..} substitution it means.
// With plainNames, a reference that is one bare name (a dependsOn or
// exclude entry, an export's field) is the plain string it names.
func (p *parser) value(e expr, plainNames bool) syntax.Node {
	switch e := e.(type) {
	case nil:
		return nil
	case *litExpr:
		return p.literal(e.tok)
	case *arrayExpr:
		s := p.newSequence(syntax.Sequence{Rng: e.rng(), Flow: true})
		for _, it := range e.elems {
			if n := p.value(it, plainNames); n != nil {
				s.Items = append(s.Items, n)
			}
		}
		return s
	case *objectExpr:
		m := p.newMapping(syntax.Mapping{Rng: e.rng(), Flow: true})
		for _, f := range e.fields {
			if v := p.value(f.value, false); v != nil {
				m.Entries = append(m.Entries, p.newEntry(syntax.Entry{Key: p.key(f.key), Value: v}))
			}
		}
		return m
	case *refExpr:
		if plainNames {
			r := e.r
			s := p.newScalar(syntax.Scalar{Rng: r, Value: string(p.src[r.Start:r.End]), Style: syntax.Plain} /* ValueRange is Rng */)
			s.SetOffsetMap(p.identity(r.Start, r.Len()))
			return s
		}
	}
	return p.substitution(e)
}

// literal is the scalar of a literal token.
func (p *parser) literal(t token) *syntax.Scalar {
	s := p.newScalar(syntax.Scalar{Rng: t.rng(), Value: t.text} /* ValueRange is Rng */)
	s.SetOffsetMap(p.identity(t.start, t.end-t.start))
	switch t.kind {
	case tInt:
		s.Tag, s.Style = syntax.IntTag, syntax.Plain
	case tFloat:
		s.Tag, s.Style = syntax.FloatTag, syntax.Plain
	case tString:
		s.Style = syntax.DoubleQuoted
		var m source.OffsetMap
		if v, r, ok := plainString(p.src, t); ok {
			s.Value, m = v, p.identity(r.Start, r.Len())
			s.SetValueRange(r)
		} else {
			var r source.Range
			s.Value, m, r = decodeString(p.src, t)
			s.SetValueRange(r)
		}
		s.Value, m = p.operatorInterpolations(s.Value, m)
		s.SetOffsetMap(m)
	case tMultiline:
		s.Style = syntax.Literal
		var bad *lexError
		var m source.OffsetMap
		var r source.Range
		s.Value, m, r, bad = decodeMultiline(p.src, t)
		s.SetValueRange(r)
		if bad != nil {
			p.report(bad.r, "%s", bad.msg)
		}
		s.Value, m = p.operatorInterpolations(s.Value, m)
		s.SetOffsetMap(m)
	default: // true, false, none
		s.Style = syntax.Plain
		s.Tag = syntax.BoolTag
		if t.text == "none" {
			s.Tag = syntax.NullTag
			s.Value = "null"
			b := builder{base: t.start}
			b.synth("null", t.rng())
			s.SetOffsetMap(p.offsetMap(&b))
		}
	}
	return s
}

// key is the scalar of a field name: an identifier or a quoted string.
func (p *parser) key(t token) *syntax.Scalar {
	if t.kind == tString {
		return p.literal(t)
	}
	return p.plain(t.text, t.rng())
}

// plain is a plain string scalar at r.
func (p *parser) plain(v string, r source.Range) *syntax.Scalar {
	m := p.identity(r.Start, r.Len())
	if len(v) != r.Len() || string(p.src[r.Start:r.End]) != v {
		var b builder
		b.base = r.Start
		b.synth(v, r)
		m = p.offsetMap(&b)
	}
	s := p.newScalar(syntax.Scalar{Rng: r, Value: v, Style: syntax.Plain} /* ValueRange is Rng */)
	s.SetOffsetMap(m)
	return s
}

// substitution is the string scalar "${..}" an expression means, mapped
// back to the expression's source.
func (p *parser) substitution(e expr) *syntax.Scalar {
	r := e.rng()
	b := builder{base: r.Start}
	b.synth("${", source.R(r.Start, r.Start))
	p.emit(&b, e)
	b.synth("}", source.R(r.End, r.End))
	s := p.newScalar(syntax.Scalar{Rng: r, Value: string(b.buf), Style: syntax.Plain} /* ValueRange is Rng */)
	s.SetOffsetMap(p.offsetMap(&b))
	return s
}

// emit writes e in the substitution language: references, literals and
// calls as written; an operator as the call of its core function, named
// at the operator; an object literal as object(..).
func (p *parser) emit(b *builder, e expr) {
	switch e := e.(type) {
	case *litExpr:
		if e.tok.kind == tMultiline {
			v, _, _, _ := decodeMultiline(p.src, e.tok)
			b.synth(quote(v), e.tok.rng())
			return
		}
		b.copy(p.src, e.tok.start, e.tok.end)
	case *refExpr:
		b.copy(p.src, e.r.Start, e.r.End)
	case *groupExpr:
		p.emit(b, e.x)
	case *notExpr:
		b.synth("not(", e.op.rng())
		p.emit(b, e.x)
		b.synth(")", source.R(e.x.rng().End, e.x.rng().End))
	case *binExpr:
		fn, wrap := operatorFuncs[e.op.text], ""
		if e.op.text == "!=" {
			fn, wrap = "not(eq", ")"
		}
		b.synth(fn+"(", e.op.rng())
		p.emit(b, e.l)
		b.synth(", ", source.R(e.op.end, e.op.end))
		p.emit(b, e.r)
		b.synth(")"+wrap, source.R(e.r.rng().End, e.r.rng().End))
	case *callExpr:
		b.copy(p.src, e.name.start, e.lparen.end)
		prev := e.lparen.end
		for i, a := range e.args {
			start := a.value.rng().Start
			if a.name.kind == tIdent {
				start = a.name.start
			}
			if i > 0 {
				p.separator(b, prev, start, ", ")
			}
			if a.name.kind == tIdent {
				b.copy(p.src, a.name.start, a.name.end)
				p.separator(b, a.name.end, a.value.rng().Start, " = ")
			}
			p.emit(b, a.value)
			prev = a.value.rng().End
		}
		b.copy(p.src, e.rparen.start, e.rparen.end)
		b.copy(p.src, e.path.Start, e.path.End)
	case *arrayExpr:
		b.synth("[", e.open.rng())
		prev := e.open.end
		for i, it := range e.elems {
			if i > 0 {
				p.separator(b, prev, it.rng().Start, ", ")
			}
			p.emit(b, it)
			prev = it.rng().End
		}
		b.synth("]", e.close.rng())
	case *objectExpr:
		b.synth("object(", e.open.rng())
		for i, f := range e.fields {
			if i > 0 {
				b.synth(", ", source.R(f.key.start, f.key.start))
			}
			if f.key.kind == tString {
				v, _, _ := decodeString(p.src, f.key)
				b.synth(v, f.key.rng())
			} else {
				b.copy(p.src, f.key.start, f.key.end)
			}
			b.synth(" = ", f.eq.rng())
			p.emit(b, f.value)
		}
		b.synth(")", e.close.rng())
	}
}

// separator writes the text between two parts of an expression: as
// written when it is white space around the one separator the
// substitution language has there (so a cursor in it maps to where it
// is), else sep mapped to the gap.
func (p *parser) separator(b *builder, start, end int, sep string) {
	gap := p.src[start:end]
	mark := strings.TrimSpace(sep)
	plain := strings.Count(string(gap), mark) == 1
	for _, c := range gap {
		if c != ' ' && c != '\t' && c != mark[0] {
			plain = false
		}
	}
	if plain {
		b.copy(p.src, start, end)
		return
	}
	b.synth(sep, source.R(start, end))
}

// quote writes v as a double-quoted string of the substitution language.
func quote(v string) string {
	out := []byte{'"'}
	for i := 0; i < len(v); i++ {
		switch c := v[i]; c {
		case '"', '\\':
			out = append(out, '\\', c)
		default: // a line break stands as it is in a substitution string
			out = append(out, c)
		}
	}
	return string(append(out, '"'))
}
