package subst

import "github.com/blueprint-ls/blueprint-ls/source"

// Moved returns a copy of t for the same string at another place: every
// range, its diagnostics' included, moved by delta, and m (the string's
// map at its new place) for Tokens. It is what ParseTemplateWith gives
// for the moved string, without parsing it again, except that diagnostic
// messages are kept as written (one naming a position, "started at
// 3:14", names the old one); t is not changed.
func (t *Template) Moved(delta int, m *source.OffsetMap) *Template {
	mv := mover(delta)
	out := &Template{Rng: mv.r(t.Rng), src: t.src, m: m}
	if t.Parts != nil {
		out.Parts = make([]Part, len(t.Parts))
		for i, p := range t.Parts {
			switch p := p.(type) {
			case *Literal:
				out.Parts[i] = &Literal{Value: p.Value, Rng: mv.r(p.Rng)}
			case *Sub:
				out.Parts[i] = &Sub{Expr: mv.expr(p.Expr), Open: mv.r(p.Open), Close: mv.r(p.Close), Closed: p.Closed, Rng: mv.r(p.Rng)}
			}
		}
	}
	if t.Diagnostics != nil {
		out.Diagnostics = make([]source.Diagnostic, len(t.Diagnostics))
		for i, d := range t.Diagnostics {
			out.Diagnostics[i] = d.Moved(delta)
		}
	}
	return out
}

// mover moves ranges by a delta.
type mover int

// r moves r; the zero range stands for a part not written (the name of
// a positional argument) and stays zero.
func (mv mover) r(r source.Range) source.Range {
	if r == (source.Range{}) {
		return r
	}
	return r.Moved(int(mv))
}

func (mv mover) rs(rs []source.Range) []source.Range {
	if rs == nil {
		return nil
	}
	out := make([]source.Range, len(rs))
	for i, r := range rs {
		out[i] = mv.r(r)
	}
	return out
}

func (mv mover) expr(e Expr) Expr {
	switch e := e.(type) {
	case nil:
		return nil
	case *Ref:
		c := *e
		c.KeywordRange, c.NameRange, c.Rng = mv.r(e.KeywordRange), mv.r(e.NameRange), mv.r(e.Rng)
		c.Path = mv.path(e.Path)
		return &c
	case *Call:
		c := *e
		c.NameRange, c.Lparen, c.Rparen, c.Rng = mv.r(e.NameRange), mv.r(e.Lparen), mv.r(e.Rparen), mv.r(e.Rng)
		c.Commas = mv.rs(e.Commas)
		c.Path = mv.path(e.Path)
		if e.Args != nil {
			c.Args = make([]*Arg, len(e.Args))
			for i, a := range e.Args {
				c.Args[i] = &Arg{Name: a.Name, NameRange: mv.r(a.NameRange), Equals: mv.r(a.Equals), Value: mv.expr(a.Value), Rng: mv.r(a.Rng)}
			}
		}
		return &c
	case *StringLit:
		return &StringLit{Value: e.Value, Rng: mv.r(e.Rng)}
	case *IntLit:
		return &IntLit{Value: e.Value, Text: e.Text, Rng: mv.r(e.Rng)}
	case *FloatLit:
		return &FloatLit{Value: e.Value, Text: e.Text, Rng: mv.r(e.Rng)}
	case *BoolLit:
		return &BoolLit{Value: e.Value, Rng: mv.r(e.Rng)}
	case *NoneLit:
		return &NoneLit{Rng: mv.r(e.Rng)}
	case *ArrayLit:
		c := &ArrayLit{Lbrack: mv.r(e.Lbrack), Rbrack: mv.r(e.Rbrack), Closed: e.Closed, Rng: mv.r(e.Rng)}
		if e.Elems != nil {
			c.Elems = make([]Expr, len(e.Elems))
			for i, x := range e.Elems {
				c.Elems[i] = mv.expr(x)
			}
		}
		return c
	case *BadExpr:
		return &BadExpr{Rng: mv.r(e.Rng)}
	}
	panic("subst: Moved does not know this expression") // a new node type must be added here
}

func (mv mover) path(p []Accessor) []Accessor {
	if p == nil {
		return nil
	}
	out := make([]Accessor, len(p))
	for i, a := range p {
		switch a := a.(type) {
		case *FieldAccessor:
			out[i] = &FieldAccessor{Name: a.Name, NameRange: mv.r(a.NameRange), Rng: mv.r(a.Rng)}
		case *QuotedAccessor:
			out[i] = &QuotedAccessor{Name: a.Name, Single: a.Single, NameRange: mv.r(a.NameRange), Rng: mv.r(a.Rng)}
		case *IndexAccessor:
			out[i] = &IndexAccessor{Index: a.Index, IndexRange: mv.r(a.IndexRange), Rng: mv.r(a.Rng)}
		case *BadAccessor:
			out[i] = &BadAccessor{Rng: mv.r(a.Rng)}
		case *FirstAccessor:
			out[i] = &FirstAccessor{Rng: mv.r(a.Rng)}
		default:
			panic("subst: Moved does not know this accessor")
		}
	}
	return out
}
