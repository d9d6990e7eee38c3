package types

import "testing"

var (
	arrS   = &Array{Elem: String}
	arrI   = &Array{Elem: Integer}
	mapS   = &Map{Elem: String}
	mapAny = &Map{Elem: Any}
	objAB  = NewObject(false, Field{Name: "b", Type: String}, Field{Name: "a", Type: Integer})
	objA   = NewObject(false, Field{Name: "a", Type: Integer})
	openA  = NewObject(true, Field{Name: "a", Type: Integer})
	strFn  = &Func{Params: []FuncParam{{Type: String}}, Result: String}
	mapper = &Func{
		TypeParams: []string{"Item", "NewItem"},
		Params: []FuncParam{
			{Name: "items", Type: &Array{Elem: &Param{Name: "Item"}}},
			{Name: "f", Type: &Func{Params: []FuncParam{{Type: &Param{Name: "Item"}}, {Type: Integer, Optional: true}}, Result: &Param{Name: "NewItem"}}},
		},
		Result: &Array{Elem: &Param{Name: "NewItem"}},
	}
)

func TestString(t *testing.T) {
	for _, tc := range []struct {
		t    Type
		want string
	}{
		{String, "string"}, {Unknown, "unknown"}, {None, "none"},
		{arrS, "array[string]"},
		{&Map{Elem: arrI}, "map[array[integer]]"},
		{objAB, "object{a: integer, b: string}"},
		{openA, "object{a: integer, ...}"},
		{NewObject(true), "object{...}"},
		{NewObject(false), "object{}"},
		{strFn, "func(string) -> string"},
		{&Func{Result: String}, "func() -> string"},
		{&Func{Params: []FuncParam{{Type: String}, {Type: Integer, Optional: true}, {Type: Any, Variadic: true}}, Result: Boolean}, "func(string, integer?, any...) -> boolean"},
		{mapper, "func<Item, NewItem>(array[Item], func(Item, integer?) -> NewItem) -> array[NewItem]"},
		{&Func{Params: []FuncParam{{Type: Integer}}, Result: strFn}, "func(integer) -> func(string) -> string"},
		{NewUnion(String, &Array{Elem: Any}), "string | array[any]"},
		{NewUnion(String, NewUnion(Integer, String)), "string | integer"},
		{NewUnion(Integer), "integer"},
	} {
		if got := tc.t.String(); got != tc.want {
			t.Errorf("String() = %q, want %q", got, tc.want)
		}
	}
}

func TestArity(t *testing.T) {
	f := &Func{Params: []FuncParam{{Type: String}, {Type: Integer, Optional: true}}, Result: String}
	v := &Func{Params: []FuncParam{{Type: Any}, {Type: Any, Variadic: true}}, Result: Any}
	for _, tc := range []struct {
		f        *Func
		min, max int
	}{{f, 1, 2}, {v, 1, -1}, {&Func{Result: String}, 0, 0}} {
		if tc.f.MinArgs() != tc.min || tc.f.MaxArgs() != tc.max {
			t.Errorf("%s: min %d max %d", tc.f, tc.f.MinArgs(), tc.f.MaxArgs())
		}
	}
	if p, ok := v.ParamAt(5); !ok || !p.Variadic {
		t.Error("ParamAt past end of variadic")
	}
	if _, ok := f.ParamAt(2); ok {
		t.Error("ParamAt(2) of a 2-param func")
	}
	if f, ok := objAB.Field("b"); !ok || f.Type != String {
		t.Error("Field(b)")
	}
	if _, ok := objAB.Field("c"); ok {
		t.Error("Field(c) found")
	}
}

func TestAssignable(t *testing.T) {
	for _, tc := range []struct {
		from, to Type
		want     bool
	}{
		{String, String, true},
		{String, Integer, false},
		{Integer, Float, true},
		{Float, Integer, false},
		{None, String, true},
		{Unknown, Integer, true},
		{Any, arrS, true},
		{String, Any, true},
		{arrS, Unknown, true},
		{Binary, String, false},
		{String, NewUnion(String, Integer), true},
		{Boolean, NewUnion(String, Integer), false},
		{NewUnion(String, Integer), String, true},
		{NewUnion(Boolean, Binary), String, false},
		{arrI, &Array{Elem: Float}, true},
		{arrS, arrI, false},
		{arrS, &Array{Elem: &Param{Name: "T"}}, true},
		{String, &Param{Name: "T"}, true},
		{mapS, mapAny, true},
		{mapS, &Map{Elem: Integer}, false},
		{objAB, mapAny, true},
		{objAB, mapS, false},
		{objA, &Map{Elem: Float}, true},
		{objAB, objA, true},
		{objA, objAB, false},
		{openA, objAB, true},
		{mapS, NewObject(true), true},
		{mapS, NewObject(false, Field{Name: "x", Type: String}), true},
		{mapS, NewObject(false, Field{Name: "x", Type: Integer}), false},
		{arrS, mapAny, false},
		{strFn, mapper.Params[1].Type, true},
		{&Func{Params: []FuncParam{{Type: String}, {Type: String}, {Type: String}}, Result: String}, mapper.Params[1].Type, false},
		{&Func{Params: []FuncParam{{Type: Integer}}, Result: String}, &Func{Params: []FuncParam{{Type: String}}, Result: String}, false},
		{strFn, &Func{Params: []FuncParam{{Type: String}}, Result: Integer}, false},
		{strFn, String, false},
		{String, strFn, false},
	} {
		if got := Assignable(tc.from, tc.to); got != tc.want {
			t.Errorf("Assignable(%s, %s) = %v, want %v", tc.from, tc.to, got, tc.want)
		}
	}
}

func TestJoin(t *testing.T) {
	for _, tc := range []struct {
		in   []Type
		want string
	}{
		{nil, "any"},
		{[]Type{String}, "string"},
		{[]Type{String, String}, "string"},
		{[]Type{Integer, Float}, "float"},
		{[]Type{Float, Integer, Integer}, "float"},
		{[]Type{String, Integer}, "any"},
		{[]Type{None, String}, "string"},
		{[]Type{None, None}, "none"},
		{[]Type{String, Unknown}, "unknown"},
		{[]Type{arrI, &Array{Elem: Float}}, "array[float]"},
		{[]Type{arrI, arrS}, "array[any]"},
		{[]Type{mapS, &Map{Elem: Integer}}, "map[any]"},
		{[]Type{arrS, mapS}, "any"},
		{[]Type{objAB, objAB}, "object{a: integer, b: string}"},
	} {
		if got := Join(tc.in...).String(); got != tc.want {
			t.Errorf("Join(%v) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestUnifySubstitute(t *testing.T) {
	item, newItem := &Param{Name: "Item"}, &Param{Name: "NewItem"}
	for _, tc := range []struct {
		name   string
		params []Type
		args   []Type
		result Type
		want   string
	}{
		{"map to_upper", []Type{mapper.Params[0].Type, mapper.Params[1].Type}, []Type{arrS, strFn}, mapper.Result, "array[string]"},
		{"unbound is any", []Type{&Array{Elem: item}}, []Type{String}, &Array{Elem: item}, "array[any]"},
		{"conflict widens", []Type{item, item}, []Type{Integer, Float}, item, "float"},
		{"conflict to any", []Type{item, item}, []Type{Integer, String}, item, "any"},
		{"map elem", []Type{&Map{Elem: item}}, []Type{mapS}, &Array{Elem: item}, "array[string]"},
		{"object elem", []Type{&Map{Elem: item}}, []Type{objA}, item, "integer"},
		{"union param", []Type{NewUnion(String, &Array{Elem: item})}, []Type{arrI}, item, "integer"},
		{"func result", []Type{&Func{Params: []FuncParam{{Type: item}}, Result: newItem}}, []Type{strFn}, &Func{Params: []FuncParam{{Type: item}}, Result: newItem}, "func(string) -> string"},
		{"object subst", nil, nil, NewObject(false, Field{Name: "x", Type: item}), "object{x: any}"},
	} {
		b := Bindings{}
		for i := range tc.params {
			Unify(tc.params[i], tc.args[i], b)
		}
		if got := Substitute(tc.result, b).String(); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}

func TestHelpers(t *testing.T) {
	if !IsComplex(arrS) || !IsComplex(objA) || !IsComplex(mapS) || IsComplex(String) || IsComplex(NewUnion(String, arrS)) || !IsComplex(NewUnion(arrS, mapS)) {
		t.Error("IsComplex")
	}
	if !IsUnknownOrAny(nil) || !IsUnknownOrAny(Any) || IsUnknownOrAny(String) {
		t.Error("IsUnknownOrAny")
	}
	for name, want := range map[string]string{"string": "string", "integer": "integer", "float": "float", "boolean": "boolean", "array": "array[any]", "object": "map[any]"} {
		if got, ok := Declared(name); !ok || got.String() != want {
			t.Errorf("Declared(%s) = %v", name, got)
		}
	}
	if _, ok := Declared("aws/region"); ok {
		t.Error("Declared(aws/region)")
	}
	if !Equal(&Array{Elem: String}, arrS) || Equal(arrS, arrI) || Equal(nil, String) {
		t.Error("Equal")
	}
}
