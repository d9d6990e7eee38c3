package funcs

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/types"
)

// specFunctions lists every function in core-functions-v2025-11-02 plus
// link (decisions 15).
var specFunctions = strings.Fields(`fromjson fromjson_g jsondecode len substr substr_g replace replace_g
trim trimprefix trimprefix_g trimsuffix trimsuffix_g split split_g join index last_index to_upper
to_lower has_prefix has_prefix_g has_suffix has_suffix_g contains contains_g list object keys vals
map filter reduce sort flatmap compose pipe getattr getelem link and or not eq gt ge lt le if first
coalesce lookup base64encode base64decode min max abs cidrsubnet file http_resource utf8 sha256 md5
sha1 uuid cwd datetime`)

func TestTableHasEverySpecFunction(t *testing.T) {
	tab := Core()
	for _, name := range specFunctions {
		if _, ok := tab.Lookup(name); !ok {
			t.Errorf("%s is missing from the table", name)
		}
	}
	if got, want := len(tab.All()), len(specFunctions); got != want {
		t.Errorf("table has %d functions, spec list has %d", got, want)
	}
}

func TestTableEntriesComplete(t *testing.T) {
	for _, f := range Core().All() {
		t.Run(f.Name, func(t *testing.T) {
			switch {
			case f.Signature == nil:
				t.Fatal("no signature")
			case f.Summary == "" || !strings.HasSuffix(f.Summary, "."):
				t.Errorf("summary %q should be one sentence", f.Summary)
			case f.Doc == "":
				t.Error("no doc")
			case len(f.Examples) == 0:
				t.Error("no examples")
			case f.Impl == nil:
				t.Error("no implementation")
			}
			if len(f.ParamDocs) != len(f.Signature.Params) {
				t.Errorf("%d param docs for %d params", len(f.ParamDocs), len(f.Signature.Params))
			}
			for i, p := range f.Signature.Params {
				if p.Name == "" {
					t.Errorf("parameter %d has no name", i+1)
				}
			}
			for _, e := range f.Examples {
				if !strings.Contains(e.Expr, f.Name+"(") {
					t.Errorf("example %q does not call %s", e.Expr, f.Name)
				}
				if e.Result != "" && !json.Valid([]byte(e.Result)) {
					t.Errorf("example result %q is not JSON", e.Result)
				}
			}
			if f.Has(ReturnsFunc) {
				if _, ok := f.Signature.Result.(*types.Func); !ok {
					t.Errorf("ReturnsFunc but result is %s", f.Signature.Result)
				}
			}
			if strings.HasSuffix(f.Name, "_g") && !f.Has(ReturnsFunc) {
				t.Error("_g function without ReturnsFunc")
			}
		})
	}
}

func TestSignatures(t *testing.T) {
	for name, want := range map[string]string{
		"map":        "func<Item, NewItem>(array[Item], func(Item, integer?) -> NewItem) -> array[NewItem]",
		"reduce":     "func<Item, Accum>(array[Item], func(Accum, Item, integer?) -> Accum, Accum) -> Accum",
		"sort":       "func<Item>(array[Item], func(Item, Item) -> integer) -> array[Item]",
		"substr":     "func(string, integer, integer?) -> string",
		"substr_g":   "func(integer, integer?) -> func(string) -> string",
		"list":       "func<T>(T...) -> array[T]",
		"trimprefix": "func(string, string) -> string",
		"uuid":       "func() -> string",
		"min":        "func(integer | float, integer | float...) -> integer | float",
	} {
		f, _ := Core().Lookup(name)
		if got := f.Signature.String(); got != want {
			t.Errorf("%s: %s, want %s", name, got, want)
		}
	}
}

func TestResultTypes(t *testing.T) {
	lookup := func(n string) *Func { f, _ := Core().Lookup(n); return f }
	up := lookup("to_upper").Signature
	for _, tc := range []struct {
		fn    string
		args  []types.Type
		names []string
		want  string
	}{
		{"map", []types.Type{arrayOf(tString), up}, nil, "array[string]"},
		{"filter", []types.Type{arrayOf(tInt), fn(tBool, tInt)}, nil, "array[integer]"},
		{"list", []types.Type{tInt, tFloat, types.None}, nil, "array[float]"},
		{"list", nil, nil, "array[any]"},
		{"object", []types.Type{tString, tInt}, []string{"size", "replicas"}, "object{replicas: integer, size: string}"},
		{"if", []types.Type{tBool, tString, types.None}, nil, "string"},
		{"coalesce", []types.Type{types.None, tInt}, nil, "integer"},
		{"min", []types.Type{tInt, tInt}, nil, "integer"},
		{"max", []types.Type{tInt, tFloat}, nil, "integer | float"},
		{"lookup", []types.Type{mapOf(tString), tString}, nil, "string"},
		{"vals", []types.Type{types.NewObject(false, types.Field{Name: "a", Type: tInt})}, nil, "array[integer]"},
		{"trim", []types.Type{tString}, nil, "string"},
		{"flatmap", []types.Type{arrayOf(tString), fn(arrayOf(tString), tString)}, nil, "array[string]"},
	} {
		if got := lookup(tc.fn).ResultType(tc.args, tc.names).String(); got != tc.want {
			t.Errorf("%s%v = %s, want %s", tc.fn, tc.args, got, tc.want)
		}
	}
	// The checker asks whether to_upper fits map's function parameter.
	if p := lookup("map").Signature.Params[1].Type; !types.Assignable(up, p) {
		t.Errorf("to_upper not assignable to %s", p)
	}
	if p := lookup("map").Signature.Params[1].Type; types.Assignable(lookup("replace").Signature, p) {
		t.Errorf("replace (3 args) assignable to %s", p)
	}
}

func TestRegisterAndSuggest(t *testing.T) {
	if err := Core().Register(Func{Name: "x"}); err == nil {
		t.Error("core table accepted a registration")
	}
	tab := NewTable()
	double := Func{
		Name: "double", Signature: sig(tInt, param("n", tInt)), Summary: "Doubles.", Provider: "test",
		Impl: func(c *Ctx, args []Value) (Value, error) { n, _ := args[0].Int(); return Int(2 * n), nil },
	}
	if err := tab.Register(double); err != nil {
		t.Fatal(err)
	}
	if err := tab.Register(double); err == nil {
		t.Error("duplicate registration accepted")
	}
	if err := tab.Register(Func{Name: "nosig", Summary: "x.", Impl: double.Impl}); err == nil {
		t.Error("function without signature accepted")
	}
	if _, ok := Core().Lookup("double"); ok {
		t.Error("registration leaked into the core table")
	}
	names := tab.Names()
	if !isSorted(names) || len(names) != len(specFunctions)+1 {
		t.Errorf("names not sorted or wrong length: %d", len(names))
	}
	c := NewCtx(context.Background(), tab, nil)
	v, err := c.Call("map", []Value{MustFromGo([]any{1, 2}), must(tab.FuncValue("double"))}, nil)
	if err != nil || jsonOf(t, v) != `[2,4]` {
		t.Errorf("map with provider function = %s, %v", jsonOf(t, v), err)
	}
	if s := Core().Suggest("trimm"); len(s) == 0 || s[0] != "trim" {
		t.Errorf("Suggest(trimm) = %v", s)
	}
	if _, err := c.Call("to_uper", nil, nil); err == nil || !strings.Contains(err.Error(), `did you mean "to_upper"`) {
		t.Errorf("unknown function error = %v", err)
	}
}

func must(v Value, ok bool) Value {
	if !ok {
		panic("missing")
	}
	return v
}

func isSorted(ss []string) bool {
	for i := 1; i < len(ss); i++ {
		if ss[i-1] > ss[i] {
			return false
		}
	}
	return true
}

func TestPanicsBecomeErrors(t *testing.T) {
	tab := NewTable()
	if err := tab.Register(Func{Name: "boom", Signature: sig(tAny), Summary: "Panics.", Impl: func(*Ctx, []Value) (Value, error) { panic("kaboom") }}); err != nil {
		t.Fatal(err)
	}
	c := NewCtx(context.Background(), tab, nil)
	_, err := c.Call("boom", nil, nil)
	var re *RuntimeError
	if !errors.As(err, &re) || re.Func != "boom" || !strings.Contains(err.Error(), "internal error: kaboom") {
		t.Errorf("err = %v", err)
	}
	bad := NewFunction("bad", fn(tAny, tAny), func(*Ctx, []Value) (Value, error) {
		var m map[string]int
		//lint:ignore SA5000 a runtime panic on purpose: it must become an error
		m["x"] = 1
		return None, nil
	})
	_, err = c.Call("map", []Value{MustFromGo([]any{1}), bad}, nil)
	if !errors.As(err, &re) || re.Func != "map" || re.Arg != 2 || !strings.Contains(err.Error(), "bad: internal error") {
		t.Errorf("nested panic err = %v", err)
	}
}

func TestSensitivePropagates(t *testing.T) {
	secret := String("hunter2").WithSensitive(true)
	c := newTestCtx(nil)
	for _, tc := range []struct {
		name string
		args []Value
	}{
		{"to_upper", []Value{secret}},
		{"join", []Value{ArrayOf(String("a"), secret), String(",")}},
		{"sha256", []Value{secret}},
		{"list", []Value{String("a"), secret}},
		{"object", []Value{secret}},
		{"lookup", []Value{MustFromGo(map[string]any{"k": "v"}).WithSensitive(true), String("k")}},
	} {
		var names []string
		if tc.name == "object" {
			names = []string{"pw"}
		}
		v, err := c.Call(tc.name, tc.args, names)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !v.Sensitive() {
			t.Errorf("%s result is not sensitive", tc.name)
		}
	}
	// Partial application captures the secret; everything it produces is sensitive.
	g := mustCall(t, c, "trimprefix_g", secret)
	v := mustCall(t, c, "map", ArrayOf(String("hunter2x")), g)
	es, _ := v.Elems()
	if !v.Sensitive() || !es[0].Sensitive() {
		t.Errorf("map with secret-capturing function: %v %v", v.Sensitive(), es[0].Sensitive())
	}
	if plain := mustCall(t, c, "to_upper", String("x")); plain.Sensitive() {
		t.Error("plain value became sensitive")
	}
}

func TestFunctionsDocFresh(t *testing.T) {
	path := filepath.Join("..", "docs", "functions.md")
	want := Markdown(Core())
	if *update {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./funcs -run TestFunctionsDocFresh -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("docs/functions.md is stale: run go test ./funcs -run TestFunctionsDocFresh -update")
	}
	for _, f := range Core().All() {
		if !bytes.Contains(got, []byte("\n## "+f.Name+"\n")) {
			t.Errorf("docs/functions.md has no section for %s", f.Name)
		}
	}
}
