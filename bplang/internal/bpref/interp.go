package bpref

import (
	"strings"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// operatorInterpolations rewrites the ${..} of a decoded string whose
// expression uses the language's operators (as the official language
// allows) into the substitution language: `"${a == b}"` holds
// `${eq(a, b)}`, mapped back to the text as a bare expression is. Any
// other interpolation stays as written, for the substitution parser; one
// that does not parse as an expression too.
func (p *parser) operatorInterpolations(v string, m source.OffsetMap) (string, source.OffsetMap) {
	if !strings.Contains(v, "${") {
		return v, m
	}
	b := builder{base: m.Base}
	done := 0 // decoded text up to here is written
	for i := strings.Index(v, "${"); i >= 0; {
		end := interpolationEnd(v, i+2)
		if end < 0 {
			break
		}
		if !hasOperator(v[i+2 : end]) {
			// As written: parsing it would change nothing (interpolationExpr
			// reports nothing).
		} else if x, ok := p.interpolationExpr(m.Source(i+2), m.SourceEnd(end)); ok {
			appendMapped(&b, v, m, done, i+2)
			p.emit(&b, x)
			done = end
		}
		j := strings.Index(v[end:], "${")
		if j < 0 {
			break
		}
		i = end + j
	}
	if done == 0 {
		return v, m
	}
	appendMapped(&b, v, m, done, len(v))
	return string(b.buf), p.offsetMap(&b)
}

// interpolationEnd is the offset of the '}' closing the ${ whose content
// starts at from, over nested braces and quoted strings; -1 when none.
func interpolationEnd(v string, from int) int {
	depth := 1
	for i := from; i < len(v); i++ {
		switch c := v[i]; c {
		case '{':
			depth++
		case '}':
			if depth--; depth == 0 {
				return i
			}
		case '"', '\'':
			for i++; i < len(v) && v[i] != c; i++ {
				if v[i] == '\\' {
					i++
				}
			}
		}
	}
	return -1
}

// hasOperator reports whether an expression's text holds an operator
// outside its strings.
func hasOperator(x string) bool {
	for i := 0; i < len(x); i++ {
		switch c := x[i]; c {
		case '"', '\'':
			for i++; i < len(x) && x[i] != c; i++ {
				if x[i] == '\\' {
					i++
				}
			}
		case '=', '<', '>', '&', '|', '!':
			return true
		}
	}
	return false
}

// interpolationExpr parses the source text [start, end) as one whole
// expression, reporting nothing: false when it is not one.
func (p *parser) interpolationExpr(start, end int) (x expr, ok bool) {
	if start < 0 || end > len(p.src) || start >= end {
		return nil, false
	}
	l := lex(p.src[start:end])
	if len(l.errs) > 0 {
		return nil, false
	}
	toks := make([]token, 0, len(l.toks))
	for _, t := range l.toks {
		if t.kind == tNewline || t.kind == tBad {
			return nil, false
		}
		t.start += start
		t.end += start
		toks = append(toks, t)
	}
	sub := &parser{src: p.src, mapper: p.mapper, toks: toks}
	defer func() {
		if r := recover(); r != nil {
			if _, bail := r.(bailout); !bail {
				panic(r)
			}
			x, ok = nil, false
		}
	}()
	x = sub.expression()
	if sub.peek().kind != tEOF || len(sub.diags) > 0 {
		return nil, false
	}
	return x, true
}

// appendMapped appends v[from:to] with its source mapping taken from m:
// verbatim runs clipped to the range, atomic runs whole.
func appendMapped(b *builder, v string, m source.OffsetMap, from, to int) {
	for _, s := range m.Segments {
		lo, hi := max(s.Dec, from), min(s.Dec+s.DecLen, to)
		if lo >= hi {
			continue
		}
		src := m.Base + s.Src
		if s.DecLen == s.SrcLen {
			b.verbatim(v[lo:hi], src+(lo-s.Dec))
			continue
		}
		b.synth(v[lo:hi], source.R(src, src+s.SrcLen))
	}
}
