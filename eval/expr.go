package eval

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/funcs"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/subst"
)

// scope binds elem and i inside a resource with each.
type scope struct {
	elem, i funcs.Value
}

// node evaluates a document node: mappings and sequences member by member
// (a none member is dropped), string scalars as templates, other scalars
// by their tag.
func (e *evaluator) node(n schema.Node, sc *scope) funcs.Value {
	switch n := n.(type) {
	case *schema.Mapping:
		m := funcs.NewMap(len(n.Entries))
		for _, en := range n.Entries {
			if en.Key == nil {
				continue
			}
			if v := e.node(en.Value, sc); !v.IsNone() {
				m.Set(en.Key.Value, v)
			}
		}
		return funcs.MapValue(m)
	case *schema.Sequence:
		es := make([]funcs.Value, 0, len(n.Items))
		for _, it := range n.Items {
			if v := e.node(it, sc); !v.IsNone() {
				es = append(es, v)
			}
		}
		return funcs.Array(es)
	case *schema.Scalar:
		if n.IsString() {
			if site := e.res.SiteOf(n); site != nil && site.Template != nil {
				return e.template(site.Template, sc)
			}
			if e.hasSubs(n) {
				return e.template(subst.ParseTemplate(n.Value, n.OffsetMap()), sc)
			}
		}
		return scalarValue(n)
	}
	return funcs.None
}

func (e *evaluator) hasSubs(n *schema.Scalar) bool {
	return n.IsString() && strings.Contains(n.Value, "${")
}

// template evaluates a parsed string: a pure substitution yields the
// expression's value, an interpolation a string (none contributes "").
// An interpolation with parts only known after deployment keeps its
// shape: an unknown string (funcs.UnknownString) of the literal text and
// one unknown value per unknown substitution, which stands for the
// substitution's text (resources.x.state.arn); the whole is described by
// those texts, joined with ", ". A template with syntax errors is unknown
// (the parser reported them).
func (e *evaluator) template(t *subst.Template, sc *scope) funcs.Value {
	if t.HasErrors() {
		return funcs.Unknown("a substitution with errors")
	}
	if sub := t.Pure(); sub != nil {
		return e.expr(sub.Expr, sc)
	}
	var b strings.Builder
	sensitive := false
	// parts is the shape of an unknown result, made at the first unknown
	// part: the text before it is b's (funcs.UnknownString joins
	// neighbouring literals anyway).
	var parts []funcs.Value
	var unknown []string
	// spliced counts the known text of the unknown strings spliced in,
	// which b does not hold: the result's text is b's and theirs.
	spliced := 0
	lit := func(s string) {
		b.WriteString(s)
		if parts != nil {
			parts = append(parts, funcs.String(s))
		}
	}
	shape := func() {
		if parts == nil {
			parts = []funcs.Value{funcs.String(b.String())}
		}
	}
	for _, p := range t.Parts {
		switch p := p.(type) {
		case *subst.Literal:
			lit(p.Value)
		case *subst.Sub:
			v := e.expr(p.Expr, sc)
			sensitive = sensitive || v.Sensitive()
			if v.HasUnknown() {
				shape()
				what := subst.Print(p.Expr)
				if ps, ok := v.Parts(); ok && e.knownTextFits(b.Len()+spliced, ps, p.Expr) {
					unknown = append(unknown, v.UnknownReason())
					parts = append(parts, v) // spliced in
					spliced += knownLen(ps)
				} else {
					unknown = append(unknown, what)
					parts = append(parts, funcs.Unknown(what).WithSensitive(v.Sensitive()))
				}
				continue
			}
			s, err := funcs.Interpolate(v)
			if err == nil && b.Len()+spliced+len(s) > funcs.MaxStringSize {
				err = fmt.Errorf("the string would be larger than %d MiB", funcs.MaxStringSize>>20)
			}
			if err == nil {
				err = e.fc.Charge(len(s))
			}
			if err != nil {
				shape()
				what := subst.Print(p.Expr)
				e.report(CodeRuntime.New(p.Expr.Range(), "%s can not be interpolated into a string: %v", what, funcs.MaskError(err, v)))
				unknown = append(unknown, what)
				parts = append(parts, funcs.Unknown(what+" (failed)"))
				continue
			}
			lit(s)
		}
	}
	if len(unknown) > 0 {
		return funcs.UnknownString(strings.Join(unknown, ", "), parts).WithSensitive(sensitive)
	}
	return funcs.String(b.String()).WithSensitive(sensitive)
}

// knownTextFits reports whether the known text of an unknown string's
// parts can join the interpolation's have bytes of known text within
// the value budgets; when not, it reports why at x and the part is
// spliced in as failed.
func (e *evaluator) knownTextFits(have int, ps []funcs.Value, x subst.Expr) bool {
	n := knownLen(ps)
	err := e.fc.Charge(n)
	if err == nil && have+n > funcs.MaxStringSize {
		err = fmt.Errorf("the string would be larger than %d MiB", funcs.MaxStringSize>>20)
	}
	if err != nil {
		e.report(CodeRuntime.New(x.Range(), "%s can not be interpolated into a string: %v", subst.Print(x), err))
		return false
	}
	return true
}

// knownLen is the length of the known text of an unknown string's parts.
func knownLen(ps []funcs.Value) int {
	n := 0
	for _, p := range ps {
		if s, ok := p.Str(); ok {
			n += len(s)
		}
	}
	return n
}

// expr evaluates one expression. Errors are reported at the expression and
// yield an unknown value, so one mistake is reported once.
func (e *evaluator) expr(x subst.Expr, sc *scope) funcs.Value {
	switch x := x.(type) {
	case *subst.StringLit:
		return funcs.String(x.Value)
	case *subst.IntLit:
		return funcs.Int(x.Value)
	case *subst.FloatLit:
		return funcs.Float(x.Value)
	case *subst.BoolLit:
		return funcs.Bool(x.Value)
	case *subst.NoneLit:
		return funcs.None
	case *subst.ArrayLit:
		// Decision 8: an array literal evaluates like list(..).
		args := make([]funcs.Value, len(x.Elems))
		for i, el := range x.Elems {
			args[i] = e.expr(el, sc)
		}
		return e.call("list", args, nil, x, nil)
	case *subst.Ref:
		return e.ref(x, sc)
	case *subst.Call:
		f, _ := e.opts.Funcs.Lookup(x.Name)
		v, first, done := e.lazyCall(f, x, sc)
		if done {
			if len(x.Path) == 0 {
				return v
			}
			return e.path(v, x.Path, x)
		}
		args := make([]funcs.Value, len(x.Args))
		var names []string
		for i, a := range x.Args {
			if f != nil && f.Has(funcs.ResourceArgs) {
				if r, ok := a.Value.(*subst.Ref); ok && r.Namespace == subst.Resources && len(r.Path) == 0 {
					args[i] = funcs.String(r.Name)
					continue
				}
			}
			if i == 0 && first != nil {
				args[0] = *first // evaluated by lazyCall: report its problems once
			} else {
				args[i] = e.expr(a.Value, sc)
			}
			if a.Name != "" {
				if names == nil {
					names = make([]string, len(x.Args))
				}
				names[i] = a.Name
			}
		}
		v = e.call(x.Name, args, names, x, x.Args)
		if len(x.Path) == 0 {
			return v // printing x at every level of a nested call is quadratic
		}
		return e.path(v, x.Path, x)
	}
	return funcs.Unknown("a substitution with errors")
}

// lazyCall evaluates a call of a function that chooses its result among
// its arguments (funcs.Func.Choose, as if does): the first argument, then
// only the chosen one, so that nothing in the others is evaluated or
// reported. It reports done false when the call must be evaluated as
// usual: a function without Choose, a wrong number of arguments
// (analysis reports it), or a first argument Choose cannot decide on —
// first is then that argument's value when it was evaluated. Argument
// names do not matter: only object() reads them, elsewhere the values
// are positional (core functions spec, object).
func (e *evaluator) lazyCall(f *funcs.Func, x *subst.Call, sc *scope) (v funcs.Value, first *funcs.Value, done bool) {
	if f == nil || f.Choose == nil || len(x.Args) == 0 {
		return funcs.None, nil, false
	}
	n := len(x.Args)
	if n < f.Signature.MinArgs() || f.Signature.MaxArgs() >= 0 && n > f.Signature.MaxArgs() {
		return funcs.None, nil, false
	}
	cond := e.expr(x.Args[0].Value, sc)
	i := f.Choose(cond)
	if i < 1 || i >= n {
		return funcs.None, &cond, false
	}
	v = e.expr(x.Args[i].Value, sc)
	if cond.Sensitive() {
		v = v.WithSensitive(true)
	}
	return v, nil, true
}

// call invokes a table function, reporting runtime errors at the argument
// at fault when the function names it.
func (e *evaluator) call(name string, args []funcs.Value, names []string, at subst.Expr, xargs []*subst.Arg) funcs.Value {
	v, err := e.fc.Call(name, args, names)
	if err == nil {
		return v
	}
	if errors.Is(err, funcs.ErrUnknown) {
		return funcs.Unknown(subst.Print(at))
	}
	rng := at.Range()
	var re *funcs.RuntimeError
	if errors.As(err, &re) && re.Arg > 0 && re.Arg <= len(xargs) {
		rng = xargs[re.Arg-1].Range()
	}
	e.report(CodeRuntime.New(rng, "%v", err))
	return funcs.Unknown(subst.Print(at) + " (failed)")
}

// ref resolves a reference to its value and follows its path.
func (e *evaluator) ref(r *subst.Ref, sc *scope) funcs.Value {
	path := r.Path
	var base funcs.Value
	switch r.Namespace {
	case subst.Variables:
		v, ok := e.vars[r.Name]
		if !ok {
			return e.unresolved(r)
		}
		base = v
	case subst.Values:
		if e.bp.Values.Get(r.Name) == nil {
			return e.unresolved(r)
		}
		base = e.value(r.Name)
	case subst.DataSources:
		d := e.bp.DataSources.Get(r.Name)
		if d == nil {
			return e.unresolved(r)
		}
		if len(path) == 0 {
			m := funcs.NewMap(0)
			for _, f := range e.dataSource(d).Fields {
				m.Set(f.Name, f.Value)
			}
			return funcs.MapValue(m)
		}
		field, ok := accessorName(path[0])
		if !ok {
			return funcs.Unknown(subst.Print(r))
		}
		base, path = e.dataField(d, field), path[1:]
	case subst.Resources:
		if e.bp.Resources.Get(r.Name) == nil {
			if r.Bare && len(path) == 0 {
				if fv, ok := e.opts.Funcs.FuncValue(r.Name); ok {
					return fv // a function passed by name
				}
			}
			return e.unresolved(r)
		}
		var inst *Resource
		var instPath []subst.Accessor // the path from the instance
		base, path, inst, instPath = e.resourceRef(r.Name, path, r)
		if v, ok := e.omittedSpecField(inst, instPath, r); ok {
			return v
		}
	case subst.Children:
		if e.bp.Include.Get(r.Name) == nil {
			return e.unresolved(r)
		}
		base = e.child(r.Name).exports
	case subst.Elem:
		if sc == nil {
			return e.unresolved(r)
		}
		base = sc.elem
	case subst.Index:
		if sc == nil {
			return e.unresolved(r)
		}
		base = sc.i
	default:
		return funcs.Unknown(subst.Print(r))
	}
	return e.path(base, path, r)
}

// unresolved is a reference analysis could not resolve either: it has
// reported it, so the value is simply unknown.
func (e *evaluator) unresolved(r *subst.Ref) funcs.Value {
	return funcs.Unknown(subst.Print(r))
}

// path follows accessors. Reading from an unknown value is unknown (named
// by the whole reference, x, printed only then); reading a missing field
// is none; reading from a sensitive container is sensitive.
func (e *evaluator) path(v funcs.Value, path []subst.Accessor, x subst.Expr) funcs.Value {
	for _, a := range path {
		if v.IsUnknown() {
			return funcs.Unknown(subst.Print(x)).WithSensitive(v.Sensitive())
		}
		sens := IsSensitiveLeaf(v) // the container itself is secret, not just a member
		var next funcs.Value
		switch a := a.(type) {
		case *subst.FieldAccessor, *subst.QuotedAccessor:
			name, _ := accessorName(a)
			m, ok := v.Map()
			if !ok {
				if v.IsNone() {
					return funcs.None
				}
				what := subst.Print(x)
				e.report(CodeRuntime.New(a.Range(), "can not read %q from %s (a %s)", name, what, v.Kind()))
				return funcs.Unknown(what + " (failed)")
			}
			next, _ = m.Get(name)
		case *subst.IndexAccessor, *subst.FirstAccessor:
			idx := 0
			if ia, ok := a.(*subst.IndexAccessor); ok {
				idx = ia.Index
			}
			es, ok := v.Elems()
			if !ok {
				if v.IsNone() {
					return funcs.None
				}
				what := subst.Print(x)
				e.report(CodeRuntime.New(a.Range(), "can not index %s (a %s) with [%d]", what, v.Kind(), idx))
				return funcs.Unknown(what + " (failed)")
			}
			if idx < 0 || idx >= len(es) {
				what := subst.Print(x)
				e.report(CodeRuntime.New(a.Range(), "index %d is out of range: %s has %d item%s", idx, what, len(es), plural(len(es))))
				return funcs.Unknown(what + " (failed)")
			}
			next = es[idx]
		default:
			return funcs.Unknown(subst.Print(x))
		}
		v = next
		if sens {
			v = v.WithSensitive(true)
		}
	}
	return v
}

func accessorName(a subst.Accessor) (string, bool) {
	switch a := a.(type) {
	case *subst.FieldAccessor:
		return a.Name, a.Name != ""
	case *subst.QuotedAccessor:
		return a.Name, true
	}
	return "", false
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func itoa(i int) string { return strconv.Itoa(i) }
