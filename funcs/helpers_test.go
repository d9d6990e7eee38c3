package funcs

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite generated files (docs/functions.md)")

// fref names a table function passed as a value (to_upper in map(xs, to_upper)).
type fref string

// kw is a named argument (object(id = "x")).
type kw struct {
	name string
	val  any
}

// unknown builds an unknown argument.
func unknown() Value { return Unknown("test") }

func toArgs(t testing.TB, c *Ctx, in []any) ([]Value, []string) {
	t.Helper()
	args := make([]Value, len(in))
	var names []string
	for i, a := range in {
		switch a := a.(type) {
		case fref:
			v, ok := c.Table.FuncValue(string(a))
			if !ok {
				t.Fatalf("no function %q", a)
			}
			args[i] = v
		case kw:
			if names == nil {
				names = make([]string, len(in))
			}
			names[i] = a.name
			args[i] = MustFromGo(a.val)
		default:
			args[i] = MustFromGo(a)
		}
	}
	return args, names
}

func newTestCtx(env Env) *Ctx {
	if env == nil {
		env = &TestEnv{}
	}
	return NewCtx(context.Background(), Core(), env)
}

// call invokes a core function with Go arguments.
func call(t testing.TB, name string, in ...any) (Value, error) {
	t.Helper()
	c := newTestCtx(nil)
	args, names := toArgs(t, c, in)
	return c.Call(name, args, names)
}

// lit evaluates a nested call for use as an argument.
func lit(t testing.TB, name string, in ...any) Value {
	t.Helper()
	v, err := call(t, name, in...)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return v
}

func jsonOf(t testing.TB, v Value) string {
	t.Helper()
	if v.IsUnknown() {
		return "<unknown>"
	}
	if _, ok := v.Func(); ok {
		return "<func>"
	}
	b, err := markUnknown(v).MarshalJSON()
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	return string(b)
}

// markUnknown replaces nested unknown values with the string "<unknown>".
func markUnknown(v Value) Value {
	if !v.HasUnknown() {
		return v
	}
	switch v.Kind() {
	case KindUnknown:
		return String("<unknown>")
	case KindArray:
		es, _ := v.Elems()
		out := make([]Value, len(es))
		for i, e := range es {
			out[i] = markUnknown(e)
		}
		return Array(out)
	case KindMap:
		m, _ := v.Map()
		out := NewMap(m.Len())
		for i := 0; i < m.Len(); i++ {
			k, e := m.At(i)
			out.Set(k, markUnknown(e))
		}
		return MapValue(out)
	}
	return v
}

func compact(t testing.TB, s string) string {
	t.Helper()
	if s == "<unknown>" || s == "<func>" {
		return s
	}
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(s)); err != nil {
		t.Fatalf("bad expected JSON %q: %v", s, err)
	}
	return b.String()
}

// callCase is one call and its expected JSON result or error substring.
type callCase struct {
	fn   string
	args []any
	want string // JSON, "<unknown>" or "<func>"; ignored when err is set
	err  string
}

func runCases(t *testing.T, cases []callCase) {
	t.Helper()
	for _, tc := range cases {
		name := tc.fn
		t.Run(name, func(t *testing.T) {
			got, err := call(t, tc.fn, tc.args...)
			if tc.err != "" {
				if err == nil {
					t.Fatalf("%s%v = %s, want error containing %q", tc.fn, tc.args, jsonOf(t, got), tc.err)
				}
				if !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("%s%v error = %q, want it to contain %q", tc.fn, tc.args, err, tc.err)
				}
				if _, ok := err.(*RuntimeError); !ok {
					t.Errorf("error is %T, want *RuntimeError", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("%s%v: unexpected error: %v", tc.fn, tc.args, err)
			}
			if g, w := jsonOf(t, got), compact(t, tc.want); g != w {
				t.Errorf("%s%v = %s, want %s", tc.fn, tc.args, g, w)
			}
		})
	}
}
