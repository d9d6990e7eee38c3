package funcs

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"sort"

	"github.com/blueprint-ls/blueprint-ls/types"
)

// Helpers only tests use: kept out of the production build (deadcode,
// scripts/test.sh).

// FromGo converts a Go value: nil → none, string, bool, any integer or
// float type, json.Number, []byte → binary, slices → array, maps with
// string keys → mapping (keys sorted, as Go maps have no order), Value and
// *Function as they are.
func FromGo(x any) (Value, error) {
	switch x := x.(type) {
	case nil:
		return None, nil
	case Value:
		return x, nil
	case *Function:
		return FuncValue(x), nil
	case string:
		return String(x), nil
	case bool:
		return Bool(x), nil
	case int:
		return Int(int64(x)), nil
	case int64:
		return Int(x), nil
	case int32:
		return Int(int64(x)), nil
	case float64:
		return Float(x), nil
	case float32:
		return Float(float64(x)), nil
	case []byte:
		return Binary(x), nil
	case json.Number:
		if n, err := x.Int64(); err == nil {
			return Int(n), nil
		}
		f, err := x.Float64()
		if err != nil {
			return None, fmt.Errorf("from go: bad number %q", x)
		}
		return Float(f), nil
	case []any:
		out := make([]Value, len(x))
		for i, e := range x {
			v, err := FromGo(e)
			if err != nil {
				return None, err
			}
			out[i] = v
		}
		return Array(out), nil
	case []string:
		out := make([]Value, len(x))
		for i, e := range x {
			out[i] = String(e)
		}
		return Array(out), nil
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		m := NewMap(len(keys))
		for _, k := range keys {
			v, err := FromGo(x[k])
			if err != nil {
				return None, err
			}
			m.Set(k, v)
		}
		return MapValue(m), nil
	}
	rv := reflect.ValueOf(x)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return Int(rv.Int()), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		u := rv.Uint()
		if u > math.MaxInt64 {
			return None, fmt.Errorf("from go: %d overflows an integer", u)
		}
		return Int(int64(u)), nil
	case reflect.Float32, reflect.Float64:
		return Float(rv.Float()), nil
	case reflect.String:
		return String(rv.String()), nil
	case reflect.Bool:
		return Bool(rv.Bool()), nil
	case reflect.Slice, reflect.Array:
		out := make([]Value, rv.Len())
		for i := range out {
			v, err := FromGo(rv.Index(i).Interface())
			if err != nil {
				return None, err
			}
			out[i] = v
		}
		return Array(out), nil
	case reflect.Map:
		if rv.Type().Key().Kind() != reflect.String {
			break
		}
		keys := make([]string, 0, rv.Len())
		for _, k := range rv.MapKeys() {
			keys = append(keys, k.String())
		}
		sort.Strings(keys)
		m := NewMap(len(keys))
		for _, k := range keys {
			v, err := FromGo(rv.MapIndex(reflect.ValueOf(k).Convert(rv.Type().Key())).Interface())
			if err != nil {
				return None, err
			}
			m.Set(k, v)
		}
		return MapValue(m), nil
	case reflect.Pointer:
		if rv.IsNil() {
			return None, nil
		}
		return FromGo(rv.Elem().Interface())
	}
	return None, fmt.Errorf("from go: unsupported type %T", x)
}

// MustFromGo is FromGo for literals in tests and tables; it panics on an
// unsupported type.
func MustFromGo(x any) Value {
	v, err := FromGo(x)
	if err != nil {
		panic(err)
	}
	return v
}

// ToGo converts v to plain Go: nil, string, int64, float64, bool, []byte,
// []any, map[string]any (order is lost; use Map for order), *Function, or
// UnknownGo.
func ToGo(v Value) any {
	switch v.kind {
	case KindString:
		return v.str
	case KindInteger:
		return int64(v.num)
	case KindFloat:
		return math.Float64frombits(v.num)
	case KindBoolean:
		return v.num != 0
	case KindBinary:
		return []byte(v.str)
	case KindArray:
		es, _ := v.Elems()
		out := make([]any, len(es))
		for i, e := range es {
			out[i] = ToGo(e)
		}
		return out
	case KindMap:
		m, _ := v.Map()
		out := make(map[string]any, m.Len())
		for i, k := range m.keys {
			out[k] = ToGo(m.vals[i])
		}
		return out
	case KindFunc:
		f, _ := v.Func()
		return f
	case KindUnknown:
		return UnknownGo{Reason: v.str}
	}
	return nil
}

// NewFunction returns a function value implemented in Go, for providers
// and tests (a comparator for sort, a reducer). A none or unknown argument
// makes the result none or unknown without calling it. call must not keep
// args.
func NewFunction(name string, sig *types.Func, call func(c *Ctx, args []Value) (Value, error)) Value {
	return FuncValue(&Function{Name: name, Type: sig, propagate: true, call: call})
}

// BinaryString returns a binary value whose bytes are those of s (no copy).
func BinaryString(s string) Value { return Value{kind: KindBinary, str: s} }

// ArrayOf returns an array of the given elements (copied).
func ArrayOf(elems ...Value) Value { return Array(append([]Value(nil), elems...)) }

// UnknownGo is what ToGo returns for an unknown value.
type UnknownGo struct{ Reason string }
