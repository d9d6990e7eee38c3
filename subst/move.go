package subst

import (
	"github.com/blueprint-ls/blueprint-ls/internal/slab"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// Moved returns a copy of t for the same string at another place: every
// range, its diagnostics' included, moved by delta, and m (the string's
// map at its new place) for Tokens. It is what ParseTemplateWith gives
// for the moved string, without parsing it again, except that diagnostic
// messages are kept as written (one naming a position, "started at
// 3:14", names the old one); t is not changed. A caller moving many
// templates at once uses a Mover.
func (t *Template) Moved(delta int, m *source.OffsetMap) *Template {
	var mv Mover
	return mv.Move(t, delta, m)
}

// Mover moves templates (Template.Moved) carving the copies from slabs,
// so that moving the templates of every definition after an edit makes a
// few large allocations rather than one per node. The zero value is
// ready; a Mover is not safe for concurrent use, and the templates it
// returns share their blocks (they are meant to be dropped together, as
// one analysis' are).
type Mover struct {
	templates slab.Of[Template]
	literals  slab.Of[Literal]
	subs      slab.Of[Sub]
	refs      slab.Of[Ref]
	calls     slab.Of[Call]
	args      slab.Of[Arg]
	strs      slab.Of[StringLit]
	ints      slab.Of[IntLit]
	fields    slab.Of[FieldAccessor]
	parts     slab.Of[Part]
	exprs     slab.Of[Expr]
	argPs     slab.Of[*Arg]
	accessors slab.Of[Accessor]
	ranges    slab.Of[source.Range]
	delta     int
}

// Move returns t moved by delta with map m (see Template.Moved).
func (mv *Mover) Move(t *Template, delta int, m *source.OffsetMap) *Template {
	mv.delta = delta
	out := mv.templates.One()
	*out = Template{Rng: mv.r(t.Rng), src: t.src, m: keptMap(m, len(t.src))}
	if t.Parts != nil {
		out.Parts = mv.parts.Many(len(t.Parts))
		for _, p := range t.Parts {
			switch p := p.(type) {
			case *Literal:
				l := mv.literals.One()
				*l = Literal{Value: p.Value, Rng: mv.r(p.Rng)}
				out.Parts = append(out.Parts, l)
			case *Sub:
				s := mv.subs.One()
				*s = *p // Open and Close move with Rng
				s.Expr, s.Rng = mv.expr(p.Expr), mv.r(p.Rng)
				out.Parts = append(out.Parts, s)
			}
		}
	}
	if ds := t.Diagnostics(); ds != nil {
		moved := make([]source.Diagnostic, len(ds))
		for i, d := range ds {
			moved[i] = d.Moved(delta)
		}
		out.setDiagnostics(moved)
	}
	return out
}

// r moves r; the zero range stands for a part not written (the name of
// a positional argument) and stays zero.
func (mv *Mover) r(r source.Range) source.Range {
	if r == (source.Range{}) {
		return r
	}
	return r.Moved(mv.delta)
}

func (mv *Mover) rs(rs []source.Range) []source.Range {
	if rs == nil {
		return nil
	}
	out := mv.ranges.Many(len(rs))
	for _, r := range rs {
		out = append(out, mv.r(r))
	}
	return out
}

func (mv *Mover) expr(e Expr) Expr {
	switch e := e.(type) {
	case nil:
		return nil
	case *Ref:
		c := mv.refs.One()
		*c = *e
		c.Rng = mv.r(e.Rng) // KeywordRange and NameRange move with it
		c.Path = mv.path(e.Path)
		return c
	case *Call:
		c := mv.calls.One()
		*c = *e
		c.NameRange, c.Lparen, c.Rparen, c.Rng = mv.r(e.NameRange), mv.r(e.Lparen), mv.r(e.Rparen), mv.r(e.Rng)
		c.Commas = mv.rs(e.Commas)
		c.Path = mv.path(e.Path)
		if e.Args != nil {
			c.Args = mv.argPs.Many(len(e.Args))
			for _, a := range e.Args {
				n := mv.args.One()
				*n = Arg{Name: a.Name, NameRange: mv.r(a.NameRange), Equals: mv.r(a.Equals), Value: mv.expr(a.Value), Rng: mv.r(a.Rng)}
				c.Args = append(c.Args, n)
			}
		}
		return c
	case *StringLit:
		c := mv.strs.One()
		*c = StringLit{Value: e.Value, Rng: mv.r(e.Rng)}
		return c
	case *IntLit:
		c := mv.ints.One()
		*c = IntLit{Value: e.Value, Text: e.Text, Rng: mv.r(e.Rng)}
		return c
	case *FloatLit:
		return &FloatLit{Value: e.Value, Text: e.Text, Rng: mv.r(e.Rng)}
	case *BoolLit:
		return &BoolLit{Value: e.Value, Rng: mv.r(e.Rng)}
	case *NoneLit:
		return &NoneLit{Rng: mv.r(e.Rng)}
	case *ArrayLit:
		c := &ArrayLit{Lbrack: mv.r(e.Lbrack), Rbrack: mv.r(e.Rbrack), Closed: e.Closed, Rng: mv.r(e.Rng)}
		if e.Elems != nil {
			c.Elems = mv.exprs.Many(len(e.Elems))
			for _, x := range e.Elems {
				c.Elems = append(c.Elems, mv.expr(x))
			}
		}
		return c
	case *BadExpr:
		return &BadExpr{Rng: mv.r(e.Rng)}
	}
	panic("subst: Moved does not know this expression") // a new node type must be added here
}

func (mv *Mover) path(p []Accessor) []Accessor {
	if p == nil {
		return nil
	}
	out := mv.accessors.Many(len(p))
	for _, a := range p {
		switch a := a.(type) {
		case *FieldAccessor:
			c := mv.fields.One()
			*c = FieldAccessor{Name: a.Name, NameRange: mv.r(a.NameRange), Rng: mv.r(a.Rng)}
			out = append(out, c)
		case *QuotedAccessor:
			out = append(out, &QuotedAccessor{Name: a.Name, Single: a.Single, NameRange: mv.r(a.NameRange), Rng: mv.r(a.Rng)})
		case *IndexAccessor:
			out = append(out, &IndexAccessor{Index: a.Index, IndexRange: mv.r(a.IndexRange), Rng: mv.r(a.Rng)})
		case *BadAccessor:
			out = append(out, &BadAccessor{Rng: mv.r(a.Rng)})
		case *FirstAccessor:
			out = append(out, &FirstAccessor{Rng: mv.r(a.Rng)})
		default:
			panic("subst: Moved does not know this accessor")
		}
	}
	return out
}
