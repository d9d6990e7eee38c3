// Package types owns the closed type lattice of the substitution language:
// string, integer, float, boolean, binary, array(T), map(T), object{fields},
// func(params) -> result, any, none and unknown, plus the type parameters
// and unions that function signatures need. Assignability, joining and the
// rendering used in every message live here and nowhere else.
//
// Invariants: types are immutable values; the basic types are singletons
// compared with ==; Unknown absorbs every check so that one mistake yields
// one diagnostic.
package types

import (
	"sort"
	"strings"
)

// Type is a member of the lattice. The implementations are *Basic, *Array,
// *Map, *Object, *Func, *Param and *Union.
type Type interface {
	String() string
	isType()
}

// BasicKind names the scalar and special types.
type BasicKind int

const (
	KString BasicKind = iota
	KInteger
	KFloat
	KBoolean
	KBinary
	KAny     // statically anything; checked at run time
	KNone    // the none literal: the absence of a value
	KUnknown // could not be determined (an earlier error, or a value known only after deploy)
)

// Basic is a scalar or special type.
type Basic struct {
	Kind BasicKind
	name string
}

func (b *Basic) String() string { return b.name }
func (*Basic) isType()          {}

// The basic types; compare with ==.
var (
	String  = &Basic{KString, "string"}
	Integer = &Basic{KInteger, "integer"}
	Float   = &Basic{KFloat, "float"}
	Boolean = &Basic{KBoolean, "boolean"}
	Binary  = &Basic{KBinary, "binary"}
	Any     = &Basic{KAny, "any"}
	None    = &Basic{KNone, "none"}
	Unknown = &Basic{KUnknown, "unknown"}
)

// Array is an ordered list of Elem.
type Array struct{ Elem Type }

func (a *Array) String() string { return "array[" + a.Elem.String() + "]" }
func (*Array) isType()          {}

// Map is a mapping from string keys to Elem.
type Map struct{ Elem Type }

func (m *Map) String() string { return "map[" + m.Elem.String() + "]" }
func (*Map) isType()          {}

// Field is one named member of an object type.
type Field struct {
	Name string
	Type Type
	Doc  string
}

// Object has known fields. Open objects may have further fields of unknown
// type (a resource spec from a schema with additional properties, say).
type Object struct {
	Fields []Field // sorted by Name
	Open   bool
}

// NewObject returns an object type with fields sorted by name.
func NewObject(open bool, fields ...Field) *Object {
	fs := append([]Field(nil), fields...)
	sort.Slice(fs, func(i, j int) bool { return fs[i].Name < fs[j].Name })
	return &Object{Fields: fs, Open: open}
}

// Field returns the named field.
func (o *Object) Field(name string) (Field, bool) {
	i := sort.Search(len(o.Fields), func(i int) bool { return o.Fields[i].Name >= name })
	if i < len(o.Fields) && o.Fields[i].Name == name {
		return o.Fields[i], true
	}
	return Field{}, false
}

// FieldNames returns the names of the fields in order.
func (o *Object) FieldNames() []string {
	out := make([]string, len(o.Fields))
	for i, f := range o.Fields {
		out[i] = f.Name
	}
	return out
}

func (o *Object) String() string {
	var b strings.Builder
	b.WriteString("object{")
	for i, f := range o.Fields {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(f.Name)
		b.WriteString(": ")
		b.WriteString(f.Type.String())
	}
	if o.Open {
		if len(o.Fields) > 0 {
			b.WriteString(", ")
		}
		b.WriteString("...")
	}
	b.WriteString("}")
	return b.String()
}
func (*Object) isType() {}

// FuncParam is one parameter of a function type.
type FuncParam struct {
	Name     string
	Type     Type
	Optional bool // may be left out (only trailing parameters)
	Variadic bool // the last parameter may repeat zero or more times
}

// Func is a function type. TypeParams name the generic parameters its
// Params and Result mention as *Param.
type Func struct {
	TypeParams []string
	Params     []FuncParam
	Result     Type
}

func (f *Func) String() string {
	var b strings.Builder
	b.WriteString("func")
	if len(f.TypeParams) > 0 {
		b.WriteString("<" + strings.Join(f.TypeParams, ", ") + ">")
	}
	b.WriteString("(")
	for i, p := range f.Params {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(p.Type.String())
		if p.Optional {
			b.WriteString("?")
		}
		if p.Variadic {
			b.WriteString("...")
		}
	}
	b.WriteString(") -> ")
	b.WriteString(f.Result.String())
	return b.String()
}
func (*Func) isType() {}

// MinArgs returns the number of arguments a call must pass.
func (f *Func) MinArgs() int {
	n := 0
	for _, p := range f.Params {
		if !p.Optional && !p.Variadic {
			n++
		}
	}
	return n
}

// MaxArgs returns the most arguments a call may pass, or -1 when the last
// parameter is variadic.
func (f *Func) MaxArgs() int {
	if len(f.Params) > 0 && f.Params[len(f.Params)-1].Variadic {
		return -1
	}
	return len(f.Params)
}

// ParamAt returns the parameter that argument i binds to.
func (f *Func) ParamAt(i int) (FuncParam, bool) {
	if i < len(f.Params) {
		return f.Params[i], true
	}
	if n := len(f.Params); n > 0 && f.Params[n-1].Variadic {
		return f.Params[n-1], true
	}
	return FuncParam{}, false
}

// Param is a type parameter of a generic function signature.
type Param struct{ Name string }

func (p *Param) String() string { return p.Name }
func (*Param) isType()          {}

// Union is any one of its members.
type Union struct{ Types []Type }

// NewUnion flattens nested unions and removes duplicates; a union of one
// type is that type.
func NewUnion(ts ...Type) Type {
	var out []Type
	seen := map[string]bool{}
	var add func(t Type)
	add = func(t Type) {
		if u, ok := t.(*Union); ok {
			for _, m := range u.Types {
				add(m)
			}
			return
		}
		k := t.String()
		if !seen[k] {
			seen[k] = true
			out = append(out, t)
		}
	}
	for _, t := range ts {
		add(t)
	}
	if len(out) == 1 {
		return out[0]
	}
	return &Union{Types: out}
}

func (u *Union) String() string {
	parts := make([]string, len(u.Types))
	for i, t := range u.Types {
		parts[i] = t.String()
	}
	return strings.Join(parts, " | ")
}
func (*Union) isType() {}
