package funcs

import (
	"math"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/types"
)

// Argument readers: each returns a *RuntimeError naming the argument when
// the value has the wrong kind.

func argStr(args []Value, i int) (string, error) {
	v := args[i]
	switch v.kind {
	case KindString:
		return v.str, nil
	case KindBinary:
		return "", argError(i, "expected a string, got binary data (convert it with utf8(..))")
	}
	return "", argError(i, "expected a string, got %s", describe(v))
}

// argStrs2 reads two string arguments, the first two.
func argStrs2(args []Value) (a, b string, err error) {
	if a, err = argStr(args, 0); err != nil {
		return "", "", err
	}
	if b, err = argStr(args, 1); err != nil {
		return "", "", err
	}
	return a, b, nil
}

func argInt(args []Value, i int) (int64, error) {
	v := args[i]
	switch v.kind {
	case KindInteger:
		return int64(v.num), nil
	case KindFloat:
		f := math.Float64frombits(v.num)
		if f == math.Trunc(f) && math.Abs(f) < 1<<53 {
			return int64(f), nil
		}
		return 0, argError(i, "expected an integer, got %s", formatFloat(f))
	}
	return 0, argError(i, "expected an integer, got %s", describe(v))
}

func argNum(args []Value, i int) (Value, error) {
	if k := args[i].kind; k == KindInteger || k == KindFloat {
		return args[i], nil
	}
	return None, argError(i, "expected a number, got %s", describe(args[i]))
}

func argBool(args []Value, i int) (bool, error) {
	if args[i].kind == KindBoolean {
		return args[i].num != 0, nil
	}
	return false, argError(i, "expected a boolean, got %s", describe(args[i]))
}

func argArray(args []Value, i int) ([]Value, error) {
	if es, ok := args[i].Elems(); ok {
		return es, nil
	}
	return nil, argError(i, "expected an array, got %s", describe(args[i]))
}

func argMap(args []Value, i int) (*Map, error) {
	if m, ok := args[i].Map(); ok {
		return m, nil
	}
	return nil, argError(i, "expected a mapping or object, got %s", describe(args[i]))
}

func argFunc(args []Value, i int) (*Function, error) {
	if f, ok := args[i].Func(); ok {
		return f, nil
	}
	return nil, argError(i, "expected a function (such as to_upper or trimprefix_g(\"x\")), got %s", describe(args[i]))
}

// argBytes accepts binary data or a string (its UTF-8 bytes).
func argBytes(args []Value, i int) (string, error) {
	switch args[i].kind {
	case KindBinary, KindString:
		return args[i].str, nil
	}
	return "", argError(i, "expected binary data or a string, got %s", describe(args[i]))
}

// short renders a value compactly for function-value names.
func short(v Value) string {
	b, err := v.MarshalJSON()
	if err != nil {
		return describe(v)
	}
	s := string(b)
	if len(s) > 40 {
		s = s[:37] + "..."
	}
	return s
}

func callName(name string, args []Value) string {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = short(a)
	}
	return name + "(" + strings.Join(parts, ", ") + ")"
}

// Signature building.

var (
	tString  = types.String
	tInt     = types.Integer
	tFloat   = types.Float
	tBool    = types.Boolean
	tBinary  = types.Binary
	tAny     = types.Any
	tNumber  = types.NewUnion(types.Integer, types.Float)
	tMapping = &types.Map{Elem: types.Any}
	tArray   = &types.Array{Elem: types.Any}
)

func tp(name string) *types.Param                  { return &types.Param{Name: name} }
func arrayOf(t types.Type) *types.Array            { return &types.Array{Elem: t} }
func mapOf(t types.Type) *types.Map                { return &types.Map{Elem: t} }
func union(ts ...types.Type) types.Type            { return types.NewUnion(ts...) }
func param(n string, t types.Type) types.FuncParam { return types.FuncParam{Name: n, Type: t} }
func optional(n string, t types.Type) types.FuncParam {
	return types.FuncParam{Name: n, Type: t, Optional: true}
}
func variadic(n string, t types.Type) types.FuncParam {
	return types.FuncParam{Name: n, Type: t, Variadic: true}
}

func sig(result types.Type, ps ...types.FuncParam) *types.Func {
	return &types.Func{Params: ps, Result: result}
}

func generic(tparams []string, result types.Type, ps ...types.FuncParam) *types.Func {
	return &types.Func{TypeParams: tparams, Params: ps, Result: result}
}

// fn is the type of a function-valued argument or result.
func fn(result types.Type, ps ...types.Type) *types.Func {
	f := &types.Func{Result: result}
	for _, p := range ps {
		f.Params = append(f.Params, types.FuncParam{Type: p})
	}
	return f
}

// fnOptIndex is func(ps..., integer?) -> result: the shape map, flatmap and
// reduce accept.
func fnOptIndex(result types.Type, ps ...types.Type) *types.Func {
	f := fn(result, ps...)
	f.Params = append(f.Params, types.FuncParam{Name: "index", Type: types.Integer, Optional: true})
	return f
}

// acceptsArgs checks that a function value can be called with n arguments
// and reports whether it takes one more (an optional index).
func acceptsArgs(f *Function, argIndex, n int, shape string) (withIndex bool, err error) {
	lo, hi := f.Type.MinArgs(), f.Type.MaxArgs()
	if lo > n+1 || (hi >= 0 && hi < n) {
		return false, argError(argIndex, "%s must have the shape %s, but it takes %s", f.Name, shape, takes(f.Type))
	}
	return hi < 0 || hi > n, nil
}

func takes(t *types.Func) string {
	lo, hi := t.MinArgs(), t.MaxArgs()
	switch {
	case hi < 0:
		return "any number of arguments"
	case lo == hi && lo == 1:
		return "1 argument"
	case lo == hi:
		return itoa(lo) + " arguments"
	}
	return itoa(lo) + " to " + itoa(hi) + " arguments"
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	neg := n < 0
	if neg {
		n = -n
	}
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}

// checkKinds reports the first argument whose kind can not be what its
// parameter's type says (none, unknown and type parameters are not
// judged). It is for arguments a function does not read itself: those of
// a call that none short-circuits, and those a _g function captures.
func checkKinds(sig *types.Func, args []Value) error {
	for i, v := range args {
		p, ok := sig.ParamAt(i)
		if !ok || kindFits(p.Type, v) {
			continue
		}
		want := p.Type.String()
		if types.Assignable(types.Integer, p.Type) && types.Assignable(types.Float, p.Type) {
			want = "number"
		}
		return argError(i, "expected %s, got %s", article(want), describe(v))
	}
	return nil
}

// kindFits reports whether v can be a value of type t, judging by kind
// the way the argument readers do (an integral float is an integer,
// a string passes for binary data).
func kindFits(t types.Type, v Value) bool {
	switch v.kind {
	case KindNone, KindUnknown:
		return true
	}
	switch t := t.(type) {
	case *types.Union:
		for _, m := range t.Types {
			if kindFits(m, v) {
				return true
			}
		}
		return false
	case *types.Array:
		return v.kind == KindArray
	case *types.Map, *types.Object:
		return v.kind == KindMap
	case *types.Func:
		return v.kind == KindFunc
	}
	switch t {
	case types.String:
		return v.kind == KindString
	case types.Integer:
		_, err := argInt([]Value{v}, 0)
		return err == nil
	case types.Float:
		return v.kind == KindInteger || v.kind == KindFloat
	case types.Boolean:
		return v.kind == KindBoolean
	case types.Binary:
		return v.kind == KindBinary || v.kind == KindString
	}
	return true
}

func article(s string) string {
	if s != "" && strings.ContainsAny(s[:1], "aeiou") {
		return "an " + s
	}
	return "a " + s
}
