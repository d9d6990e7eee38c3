package types

// Assignable reports whether a value of type from may be used where to is
// expected. It answers "could this work", not "is this proven": any and
// unknown on either side succeed (checked at run time or already reported),
// a union succeeds when some member pair does, none is accepted everywhere
// (functions propagate it), an integer may stand for a float, and type
// parameters accept anything (Unify binds them).
func Assignable(from, to Type) bool {
	if from == nil || to == nil {
		return true
	}
	if from == to {
		return true
	}
	switch t := to.(type) {
	case *Basic:
		switch t.Kind {
		case KAny, KUnknown:
			return true
		}
	case *Param:
		return true
	case *Union:
		for _, m := range t.Types {
			if Assignable(from, m) {
				return true
			}
		}
		return false
	}
	switch f := from.(type) {
	case *Basic:
		switch f.Kind {
		case KAny, KUnknown, KNone:
			return true
		case KInteger:
			return to == Float
		}
		return false
	case *Param:
		return true
	case *Union:
		for _, m := range f.Types {
			if Assignable(m, to) {
				return true
			}
		}
		return false
	case *Array:
		if a, ok := to.(*Array); ok {
			return Assignable(f.Elem, a.Elem)
		}
	case *Map:
		switch m := to.(type) {
		case *Map:
			return Assignable(f.Elem, m.Elem)
		case *Object:
			return m.Open || len(m.Fields) == 0 || Assignable(f.Elem, objectElem(m))
		}
	case *Object:
		switch o := to.(type) {
		case *Map:
			for _, fl := range f.Fields {
				if !Assignable(fl.Type, o.Elem) {
					return false
				}
			}
			return true
		case *Object:
			for _, want := range o.Fields {
				got, ok := f.Field(want.Name)
				if !ok {
					if f.Open {
						continue
					}
					return false
				}
				if !Assignable(got.Type, want.Type) {
					return false
				}
			}
			return true
		}
	case *Func:
		g, ok := to.(*Func)
		if !ok {
			return false
		}
		// Callers pass the argument types the parameter function will be
		// given; the candidate must accept at least that many.
		if g.MaxArgs() >= 0 && f.MinArgs() > len(g.Params) {
			return false
		}
		for i, p := range g.Params {
			fp, ok := f.ParamAt(i)
			if !ok {
				break // extra arguments the candidate ignores are fine
			}
			if !Assignable(p.Type, fp.Type) {
				return false
			}
		}
		return Assignable(f.Result, g.Result)
	}
	return false
}

func objectElem(o *Object) Type {
	var ts []Type
	for _, f := range o.Fields {
		ts = append(ts, f.Type)
	}
	if len(ts) == 0 {
		return Any
	}
	return Join(ts...)
}

// Join returns the least type covering all of ts: equal types stay, integer
// and float give float, unknown absorbs everything, none is dropped when
// other types are present, anything else gives any.
func Join(ts ...Type) Type {
	var out Type
	for _, t := range ts {
		if t == nil || t == None {
			continue
		}
		if t == Unknown {
			return Unknown
		}
		switch {
		case out == nil:
			out = t
		case Equal(out, t):
		case (out == Integer && t == Float) || (out == Float && t == Integer):
			out = Float
		default:
			if a, ok := out.(*Array); ok {
				if b, ok := t.(*Array); ok {
					out = &Array{Elem: Join(a.Elem, b.Elem)}
					continue
				}
			}
			if a, ok := out.(*Map); ok {
				if b, ok := t.(*Map); ok {
					out = &Map{Elem: Join(a.Elem, b.Elem)}
					continue
				}
			}
			out = Any
		}
	}
	if out == nil {
		if len(ts) > 0 {
			return None
		}
		return Any
	}
	return out
}

// Equal reports structural equality.
func Equal(a, b Type) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil {
		return false
	}
	return a.String() == b.String()
}

// IsComplex reports whether t is an array, map or object (which cannot be
// interpolated into a string). Unions are complex only when every member is.
func IsComplex(t Type) bool {
	switch t := t.(type) {
	case *Array, *Map, *Object:
		return true
	case *Union:
		for _, m := range t.Types {
			if !IsComplex(m) {
				return false
			}
		}
		return len(t.Types) > 0
	}
	return false
}

// IsPrimitive reports whether t is string, integer, float or boolean: the
// types a variable can declare and a data source filter compares.
func IsPrimitive(t Type) bool {
	return t == String || t == Integer || t == Float || t == Boolean
}

// IsUnknownOrAny reports whether t absorbs checks.
func IsUnknownOrAny(t Type) bool { return t == nil || t == Unknown || t == Any }

// Declared returns the type a blueprint declares by name for variables,
// values and exports: string, integer, float, boolean, array (of any) and
// object (a mapping of any). Custom variable types ({provider}/{type}) are
// strings.
func Declared(name string) (Type, bool) {
	switch name {
	case "string":
		return String, true
	case "integer":
		return Integer, true
	case "float":
		return Float, true
	case "boolean":
		return Boolean, true
	case "array":
		return &Array{Elem: Any}, true
	case "object":
		return &Map{Elem: Any}, true
	}
	return nil, false
}
