package funcs

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/types"
)

// compareStrings is a comparator a provider would supply.
var compareStrings = NewFunction("compare_strings", fn(tInt, tString, tString), func(c *Ctx, a []Value) (Value, error) {
	x, _ := a[0].Str()
	y, _ := a[1].Str()
	return Int(int64(strings.Compare(x, y))), nil
})

// sumReducer adds integers, optionally weighting by index.
var sumReducer = NewFunction("sum", fn(tInt, tInt, tInt), func(c *Ctx, a []Value) (Value, error) {
	x, _ := a[0].Int()
	y, _ := a[1].Int()
	return Int(x + y), nil
})

var indexedReducer = FuncValue(&Function{Name: "indexed", Type: fnOptIndex(tString, tString, tString), call: func(c *Ctx, a []Value) (Value, error) {
	acc, _ := a[0].Str()
	it, _ := a[1].Str()
	i, _ := a[2].Int()
	return String(fmt.Sprintf("%s%d%s", acc, i, it)), nil
}})

var withIndex = FuncValue(&Function{Name: "with_index", Type: fnOptIndex(tString, tString), call: func(c *Ctx, a []Value) (Value, error) {
	s, _ := a[0].Str()
	if len(a) < 2 {
		return String(s), nil
	}
	i, _ := a[1].Int()
	if i == 1 {
		return None, nil // dropped by map
	}
	return String(fmt.Sprintf("%d:%s", i, s)), nil
}})

var twoRequired = NewFunction("two", fn(tAny, tAny, tAny, tAny), func(c *Ctx, a []Value) (Value, error) { return a[0], nil })

func TestCollectionFunctions(t *testing.T) {
	subnets := []any{
		map[string]any{"definition": map[string]any{"id": "subnet-1234"}},
		map[string]any{"definition": map[string]any{"id": "subnet-5678"}},
	}
	pairs := []any{
		[]any{map[string]any{"id": "subnet-1234", "label": "Subnet 1234"}, "10.0.0.0/16"},
		[]any{map[string]any{"id": "subnet-5678", "label": "Subnet 5678"}, "172.31.0.0/16"},
	}
	g := func(name string, args ...any) Value { return lit(t, name, args...) }
	runCases(t, []callCase{
		// list
		{fn: "list", args: []any{"item1", "item2", "item3", "item4"}, want: `["item1","item2","item3","item4"]`},
		{fn: "list", args: []any{}, want: `[]`},
		{fn: "list", args: []any{"a", nil, "b"}, want: `["a","b"]`},
		{fn: "list", args: []any{1, 2.5}, want: `[1,2.5]`},
		{fn: "list", args: []any{"a", 1}, err: "argument 2: list items must have the same type"},
		{fn: "list", args: []any{"a", unknown()}, want: `["a","<unknown>"]`},
		// object
		{fn: "object", args: []any{kw{"id", "subnet-1234"}, kw{"label", "Subnet 1234"}}, want: `{"id":"subnet-1234","label":"Subnet 1234"}`},
		{fn: "object", args: []any{}, want: `{}`},
		{fn: "object", args: []any{kw{"b", 1}, kw{"a", 2}}, want: `{"b":1,"a":2}`},
		{fn: "object", args: []any{kw{"a", 1}, kw{"skip", nil}}, want: `{"a":1}`},
		{fn: "object", args: []any{"positional"}, err: "argument 1: object takes named arguments only"},
		{fn: "object", args: []any{kw{"a", 1}, kw{"a", 2}}, err: `argument 2: attribute "a" is already given by argument 1`},
		// keys / vals
		{fn: "keys", args: []any{g("object", kw{"b", 1}, kw{"a", 2})}, want: `["b","a"]`},
		{fn: "keys", args: []any{map[string]any{}}, want: `[]`},
		{fn: "keys", args: []any{[]any{1}}, err: "expected a mapping or object, got an array"},
		{fn: "vals", args: []any{g("object", kw{"b", 1}, kw{"a", "x"})}, want: `[1,"x"]`},
		{fn: "vals", args: []any{nil}, want: `null`},
		// map
		{fn: "map", args: []any{[]any{"a", "b"}, fref("to_upper")}, want: `["A","B"]`},
		{fn: "map", args: []any{[]any{}, fref("to_upper")}, want: `[]`},
		{fn: "map", args: []any{nil, fref("to_upper")}, want: `null`},
		{fn: "map", args: []any{[]any{"a", "b", "c"}, withIndex}, want: `["0:a","2:c"]`},
		{fn: "map", args: []any{[]any{"a", nil, "b"}, fref("to_upper")}, want: `["A","B"]`},
		{fn: "map", args: []any{[]any{"a", unknown()}, fref("to_upper")}, want: `["A","<unknown>"]`},
		{fn: "map", args: []any{[]any{"a"}, "to_upper"}, err: "argument 2: expected a function"},
		{fn: "map", args: []any{[]any{"a"}, twoRequired}, err: "must have the shape func(Item, integer?) -> NewItem, but it takes 3 arguments"},
		{fn: "map", args: []any{[]any{"a"}, fref("uuid")}, err: "takes 0 arguments"},
		{fn: "map", args: []any{"abc", fref("to_upper")}, err: "argument 1: expected an array, got a string"},
		{fn: "map", args: []any{subnets, g("compose", g("getattr", "id"), g("getattr", "definition"))}, want: `["subnet-1234","subnet-5678"]`},
		{fn: "map", args: []any{pairs, g("compose", g("getattr", "id"), g("getelem", 0))}, want: `["subnet-1234","subnet-5678"]`},
		{fn: "map", args: []any{[]any{map[string]any{"id": "a"}}, g("compose", fref("to_upper"), g("getattr", "id"))}, want: `["A"]`},
		{fn: "map", args: []any{[]any{map[string]any{"id": "a"}}, g("pipe", g("getattr", "id"), fref("to_upper"))}, want: `["A"]`},
		{fn: "map", args: []any{[]any{map[string]any{"x": "a"}}, g("getattr", "id")}, err: `getattr("id"): no attribute "id" (it has ["x"])`},
		{fn: "map", args: []any{[]any{"s"}, g("getattr", "id")}, err: "expected an object or mapping, got a string"},
		{fn: "map", args: []any{[]any{[]any{1}}, g("getelem", 1)}, err: "index 1 is out of range (the array has 1 items)"},
		{fn: "map", args: []any{[]any{nil, map[string]any{"id": "a"}}, g("getattr", "id")}, want: `["a"]`},
		// filter
		{fn: "filter", args: []any{[]any{"a", "b"}, fref("to_upper")}, err: "returned a string for item 0; a filter predicate must return a boolean"},
		{fn: "filter", args: []any{[]any{}, fref("not")}, want: `[]`},
		{fn: "filter", args: []any{[]any{true, false, nil}, fref("not")}, want: `[false]`},
		{fn: "filter", args: []any{[]any{true, unknown()}, fref("not")}, want: `<unknown>`},
		// reduce
		{fn: "reduce", args: []any{[]any{1, 2, 3, 4}, sumReducer, 0}, want: `10`},
		{fn: "reduce", args: []any{[]any{}, sumReducer, 7}, want: `7`},
		{fn: "reduce", args: []any{[]any{"a", "b"}, indexedReducer, ">"}, want: `">0a1b"`},
		{fn: "reduce", args: []any{nil, sumReducer, 0}, want: `null`},
		{fn: "reduce", args: []any{[]any{1}, fref("to_upper"), 0}, err: "must have the shape func(Accum, Item, integer?) -> Accum"},
		// sort
		{fn: "sort", args: []any{[]any{"b", "c", "a"}, compareStrings}, want: `["a","b","c"]`},
		{fn: "sort", args: []any{[]any{}, compareStrings}, want: `[]`},
		{fn: "sort", args: []any{[]any{"b", "a"}, fref("to_upper")}, err: "must have the shape func(Item, Item) -> integer"},
		{fn: "sort", args: []any{[]any{"b", "a"}, fref("eq")}, err: "eq returned a boolean; a comparison must return an integer"},
		{fn: "sort", args: []any{[]any{"b", unknown()}, compareStrings}, want: `<unknown>`},
		// flatmap
		{fn: "flatmap", args: []any{[]any{"a,b", "", "c"}, g("split_g", ",")}, want: `["a","b","c"]`},
		{fn: "flatmap", args: []any{[]any{"a"}, fref("to_upper")}, err: "to_upper returned a string for item 0; flatmap needs an array"},
		// compose / pipe
		{fn: "compose", args: []any{}, err: "expected at least 1 argument, got 0"},
		{fn: "compose", args: []any{"x"}, err: "argument 1: expected a function"},
		{fn: "compose", args: []any{fref("replace")}, err: "replace takes 3 arguments; composed functions must take one"},
		{fn: "compose", args: []any{fref("to_upper"), fref("trim")}, want: `<func>`},
		// getattr / getelem
		{fn: "getattr", args: []any{1}, err: "expected a string"},
		{fn: "getelem", args: []any{-1}, err: "index -1 is negative"},
		// lookup
		{fn: "lookup", args: []any{map[string]any{"timeout": 30}, "timeout"}, want: `30`},
		{fn: "lookup", args: []any{map[string]any{"timeout": 30}, "memory"}, want: `null`},
		{fn: "lookup", args: []any{nil, "timeout"}, want: `null`},
		{fn: "lookup", args: []any{[]any{}, "timeout"}, err: "argument 1: expected a mapping"},
		{fn: "lookup", args: []any{g("object", kw{"production", "large"}, kw{"staging", "medium"}, kw{"development", "small"}), "staging"}, want: `"medium"`},
		// first (spec examples)
		{fn: "first", args: []any{nil, "", []any{}, "value"}, want: `"value"`},
		{fn: "first", args: []any{nil, []any{}, "", "value"}, want: `"value"`},
		{fn: "first", args: []any{nil, nil, nil}, want: `null`},
		{fn: "first", args: []any{"", []any{}}, want: `[]`},
		{fn: "first", args: []any{0, "x"}, want: `0`},
		{fn: "first", args: []any{map[string]any{}, "x"}, want: `{}`},
		{fn: "first", args: []any{nil, unknown(), "x"}, want: `<unknown>`},
		{fn: "first", args: []any{"", "info"}, want: `"info"`},
		{fn: "first", args: []any{}, err: "expected at least 1 argument"},
		// coalesce
		{fn: "coalesce", args: []any{nil, 30}, want: `30`},
		{fn: "coalesce", args: []any{"", "No description"}, want: `""`},
		{fn: "coalesce", args: []any{nil, []any{}, "x"}, want: `[]`},
		{fn: "coalesce", args: []any{nil, nil}, want: `null`},
		{fn: "coalesce", args: []any{unknown(), 1}, want: `<unknown>`},
	})
}

func TestSpecNoneExamples(t *testing.T) {
	// coalesce(lookup(config, "timeout"), 30) with and without the key.
	config := MustFromGo(map[string]any{"description": ""})
	if got := jsonOf(t, lit(t, "coalesce", lit(t, "lookup", config, "timeout"), 30)); got != `30` {
		t.Errorf("coalesce default = %s", got)
	}
	// first skips "" where coalesce keeps it.
	desc := lit(t, "lookup", config, "description")
	if got := jsonOf(t, lit(t, "coalesce", desc, "No description")); got != `""` {
		t.Errorf("coalesce keeps empty string: %s", got)
	}
	if got := jsonOf(t, lit(t, "first", desc, "No description")); got != `"No description"` {
		t.Errorf("first skips empty string: %s", got)
	}
	// if(eq(env, "prod"), true, none) omits the field outside prod.
	if got := lit(t, "if", lit(t, "eq", "dev", "prod"), true, nil); !got.IsNone() {
		t.Errorf("if false branch none = %s", jsonOf(t, got))
	}
	// coalesce(timeoutOverride, if(eq(env, "prod"), 60, 30))
	if got := jsonOf(t, lit(t, "coalesce", nil, lit(t, "if", lit(t, "eq", "prod", "prod"), 60, 30))); got != `60` {
		t.Errorf("chained default = %s", got)
	}
	// The instance-size lookup table example.
	sizes := lit(t, "object", kw{"production", "large"}, kw{"staging", "medium"}, kw{"development", "small"})
	if got := jsonOf(t, lit(t, "coalesce", lit(t, "lookup", sizes, "qa"), "small")); got != `"small"` {
		t.Errorf("size default = %s", got)
	}
}

func TestMapLargeAndCancel(t *testing.T) {
	items := make([]Value, 50_000)
	for i := range items {
		items[i] = String("x")
	}
	c := newTestCtx(nil)
	up, _ := c.Table.FuncValue("to_upper")
	v, err := c.Call("map", []Value{Array(items), up}, nil)
	if err != nil || v.Len() != len(items) {
		t.Fatalf("map = %d items, %v", v.Len(), err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	c = NewCtx(ctx, Core(), nil)
	if _, err := c.Call("map", []Value{Array(items), up}, nil); err == nil {
		t.Fatal("map with cancelled context: no error")
	}
}

func TestComposeTypes(t *testing.T) {
	f, _ := Core().Lookup("compose")
	up, _ := Core().Lookup("to_upper")
	got := f.ResultType([]types.Type{up.Signature, fn(tAny, tMapping)}, nil)
	if s := got.String(); s != "func(map[any]) -> string" {
		t.Errorf("compose type = %s", s)
	}
	v := lit(t, "pipe", lit(t, "getattr", "id"), fref("to_upper"))
	fv, _ := v.Func()
	if s := fv.Type.String(); s != "func(map[any]) -> string" {
		t.Errorf("pipe value type = %s", s)
	}
}

func TestSortStableLarge(t *testing.T) {
	// Compare only the first character: equal keys keep their order.
	byFirst := NewFunction("by_first", fn(tInt, tString, tString), func(c *Ctx, a []Value) (Value, error) {
		x, _ := a[0].Str()
		y, _ := a[1].Str()
		return Int(int64(x[0]) - int64(y[0])), nil
	})
	var in []Value
	for i := 0; i < 5000; i++ {
		in = append(in, String(fmt.Sprintf("%c%05d", 'a'+(i*7)%26, i)))
	}
	v := mustCall(t, newTestCtx(nil), "sort", Array(in), byFirst)
	es, _ := v.Elems()
	for i := 1; i < len(es); i++ {
		a, _ := es[i-1].Str()
		b, _ := es[i].Str()
		if a[0] > b[0] || (a[0] == b[0] && a > b) {
			t.Fatalf("not stable/sorted at %d: %s %s", i, a, b)
		}
	}
}
