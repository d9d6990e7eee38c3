package types

// Bindings maps type parameter names to the types inferred for them.
type Bindings map[string]Type

// Unify matches a parameter type that may mention type parameters against
// an argument type, recording what each parameter stands for. It never
// fails: a conflict widens the binding with Join.
func Unify(param, arg Type, b Bindings) {
	switch p := param.(type) {
	case *Param:
		if prev, ok := b[p.Name]; ok {
			b[p.Name] = Join(prev, arg)
		} else {
			b[p.Name] = arg
		}
	case *Array:
		if a, ok := arg.(*Array); ok {
			Unify(p.Elem, a.Elem, b)
		}
	case *Map:
		switch a := arg.(type) {
		case *Map:
			Unify(p.Elem, a.Elem, b)
		case *Object:
			Unify(p.Elem, objectElem(a), b)
		}
	case *Func:
		if a, ok := arg.(*Func); ok {
			for i, pp := range p.Params {
				if ap, ok := a.ParamAt(i); ok {
					// Parameters are contravariant; binding from the candidate
					// still tells us what it expects.
					Unify(pp.Type, ap.Type, b)
				}
			}
			Unify(p.Result, a.Result, b)
		}
	case *Union:
		for _, m := range p.Types {
			Unify(m, arg, b)
		}
	}
}

// Substitute replaces type parameters with their bindings; unbound
// parameters become any.
func Substitute(t Type, b Bindings) Type {
	switch t := t.(type) {
	case *Param:
		if v, ok := b[t.Name]; ok && v != nil {
			return v
		}
		return Any
	case *Array:
		return &Array{Elem: Substitute(t.Elem, b)}
	case *Map:
		return &Map{Elem: Substitute(t.Elem, b)}
	case *Func:
		f := &Func{Result: Substitute(t.Result, b)}
		for _, p := range t.Params {
			p.Type = Substitute(p.Type, b)
			f.Params = append(f.Params, p)
		}
		return f
	case *Union:
		ms := make([]Type, len(t.Types))
		for i, m := range t.Types {
			ms[i] = Substitute(m, b)
		}
		return NewUnion(ms...)
	case *Object:
		fs := make([]Field, len(t.Fields))
		for i, f := range t.Fields {
			f.Type = Substitute(f.Type, b)
			fs[i] = f
		}
		return &Object{Fields: fs, Open: t.Open}
	}
	return t
}
