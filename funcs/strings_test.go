package funcs

import (
	"strings"
	"testing"
)

func TestStringFunctions(t *testing.T) {
	runCases(t, []callCase{
		// len
		{fn: "len", args: []any{"héllo"}, want: `5`},
		{fn: "len", args: []any{"日本語"}, want: `3`},
		{fn: "len", args: []any{""}, want: `0`},
		{fn: "len", args: []any{[]any{1, 2, 3}}, want: `3`},
		{fn: "len", args: []any{map[string]any{"a": 1, "b": 2}}, want: `2`},
		{fn: "len", args: []any{[]byte{1, 2, 3, 4}}, want: `4`},
		{fn: "len", args: []any{nil}, want: `null`},
		{fn: "len", args: []any{5}, err: "argument 1: expected a string, array or mapping, got an integer"},
		{fn: "len", args: []any{}, err: "expected 1 argument, got 0"},
		// substr (end is exclusive, counted in characters)
		{fn: "substr", args: []any{"production", 0, 4}, want: `"prod"`},
		{fn: "substr", args: []any{"production", 4}, want: `"uction"`},
		{fn: "substr", args: []any{"héllo wörld", 6, 11}, want: `"wörld"`},
		{fn: "substr", args: []any{"日本語です", 1, 3}, want: `"本語"`},
		{fn: "substr", args: []any{"abc", 3}, want: `""`},
		{fn: "substr", args: []any{"abc", 1, 1}, want: `""`},
		{fn: "substr", args: []any{"abc", 4}, err: "argument 2: start index 4 is past the end"},
		{fn: "substr", args: []any{"abc", -1}, err: "negative"},
		{fn: "substr", args: []any{"abc", 0, 9}, err: "argument 3: end index 9 is past the end"},
		{fn: "substr", args: []any{"abc", 2, 1}, err: "before start"},
		{fn: "substr", args: []any{"abc", "0"}, err: "argument 2: expected an integer, got a string"},
		{fn: "substr", args: []any{"abc", 1.5}, err: "expected an integer, got 1.5"},
		{fn: "substr", args: []any{nil, 0, 1}, want: `null`},
		{fn: "substr", args: []any{"abc"}, err: "expected 2 to 3 arguments, got 1"},
		// replace
		{fn: "replace", args: []any{"http://a.com/http://", "http://", "https://"}, want: `"https://a.com/https://"`},
		{fn: "replace", args: []any{"abc", "x", "y"}, want: `"abc"`},
		{fn: "replace", args: []any{"ab", "", "-"}, want: `"-a-b-"`},
		{fn: "replace", args: []any{"abc", nil, "y"}, want: `null`},
		{fn: "replace", args: []any{[]byte("abc"), "a", "b"}, err: "convert it with utf8"},
		// trim family
		{fn: "trim", args: []any{"  host \n\t"}, want: `"host"`},
		{fn: "trim", args: []any{"\u00a0x\u3000"}, want: `"x"`},
		{fn: "trim", args: []any{nil}, want: `null`},
		{fn: "trim", args: []any{1}, err: "expected a string, got an integer"},
		{fn: "trimprefix", args: []any{"http://http://a", "http://"}, want: `"http://a"`},
		{fn: "trimprefix", args: []any{"a", "http://"}, want: `"a"`},
		{fn: "trimsuffix", args: []any{"a.com:3000", ":3000"}, want: `"a.com"`},
		{fn: "trimsuffix", args: []any{"", ":3000"}, want: `""`},
		// split
		{fn: "split", args: []any{"a,b,c", ","}, want: `["a","b","c"]`},
		{fn: "split", args: []any{"a,,b,", ","}, want: `["a","","b",""]`},
		{fn: "split", args: []any{"", ","}, want: `[]`},
		{fn: "split", args: []any{"héy", ""}, want: `["h","é","y"]`},
		{fn: "split", args: []any{nil, ","}, want: `null`},
		// join (spec examples)
		{fn: "join", args: []any{[]any{8080, 8081, 8082}, ","}, want: `"8080,8081,8082"`},
		{fn: "join", args: []any{[]any{true, false, true}, "|"}, want: `"true|false|true"`},
		{fn: "join", args: []any{[]any{"tag1", nil, "tag2", nil, "tag3"}, ","}, want: `"tag1,tag2,tag3"`},
		{fn: "join", args: []any{[]any{1.5, 2.0, 1e21}, ","}, want: `"1.5,2,1e+21"`},
		{fn: "join", args: []any{[]any{}, ","}, want: `""`},
		{fn: "join", args: []any{[]any{nil, nil}, ","}, want: `""`},
		{fn: "join", args: []any{nil, ","}, want: `null`},
		{fn: "join", args: []any{[]any{"a", []any{"b"}}, ","}, err: "item 1: an array cannot be joined"},
		{fn: "join", args: []any{[]any{"a", unknown()}, ","}, want: `<unknown>`},
		{fn: "join", args: []any{"abc", ","}, err: "argument 1: expected an array, got a string"},
		// index / last_index count characters
		{fn: "index", args: []any{"a.com:3000", ":3000"}, want: `5`},
		{fn: "index", args: []any{"日本:3000", ":"}, want: `2`},
		{fn: "index", args: []any{"abc", "x"}, want: `-1`},
		{fn: "index", args: []any{"abc", ""}, want: `0`},
		{fn: "last_index", args: []any{"a:3000/b:3000", ":3000"}, want: `8`},
		{fn: "last_index", args: []any{"ü:ü:", "ü"}, want: `2`},
		{fn: "last_index", args: []any{"abc", "x"}, want: `-1`},
		// case
		{fn: "to_upper", args: []any{"héllo"}, want: `"HÉLLO"`},
		{fn: "to_upper", args: []any{"host-1"}, want: `"HOST-1"`},
		{fn: "to_lower", args: []any{"HÉLLO"}, want: `"héllo"`},
		{fn: "to_lower", args: []any{nil}, want: `null`},
		// prefix/suffix checks
		{fn: "has_prefix", args: []any{"http://a", "http://"}, want: `true`},
		{fn: "has_prefix", args: []any{"a", "http://"}, want: `false`},
		{fn: "has_prefix", args: []any{"a", ""}, want: `true`},
		{fn: "has_suffix", args: []any{"a/config", "/config"}, want: `true`},
		{fn: "has_suffix", args: []any{"a/config/x", "/config"}, want: `false`},
		// contains
		{fn: "contains", args: []any{"api.bluelink.dev", "bluelink.dev"}, want: `true`},
		{fn: "contains", args: []any{"api.example.com", "bluelink.dev"}, want: `false`},
		{fn: "contains", args: []any{[]any{"a", "b"}, "b"}, want: `true`},
		{fn: "contains", args: []any{[]any{1, 2}, 2.0}, want: `true`},
		{fn: "contains", args: []any{[]any{[]any{1}, []any{2}}, []any{2}}, want: `true`},
		{fn: "contains", args: []any{[]any{1, 2}, 3}, want: `false`},
		{fn: "contains", args: []any{[]any{1, unknown()}, 1}, want: `true`},
		{fn: "contains", args: []any{[]any{1, unknown()}, 3}, want: `<unknown>`},
		{fn: "contains", args: []any{"abc", 1}, err: "argument 2: expected a string"},
		{fn: "contains", args: []any{5, 1}, err: "argument 1: expected a string or an array"},
		{fn: "contains", args: []any{nil, "x"}, want: `null`},
	})
}

func TestComposableStringFunctions(t *testing.T) {
	hosts := []any{"http://a.example.com", "https://b.example.com", "http://c.other.org"}
	c := newTestCtx(nil)
	g := func(name string, args ...any) Value { return lit(t, name, args...) }
	runCases(t, []callCase{
		{fn: "map", args: []any{hosts, g("trimprefix_g", "http://")}, want: `["a.example.com","https://b.example.com","c.other.org"]`},
		{fn: "map", args: []any{[]any{"abcdef", "ghijkl"}, g("substr_g", 0, 3)}, want: `["abc","ghi"]`},
		{fn: "map", args: []any{[]any{"abcdef"}, g("substr_g", 2)}, want: `["cdef"]`},
		{fn: "map", args: []any{hosts, g("replace_g", "http://", "https://")}, want: `["https://a.example.com","https://b.example.com","https://c.other.org"]`},
		{fn: "map", args: []any{[]any{"a/config", "b"}, g("trimsuffix_g", "/config")}, want: `["a","b"]`},
		{fn: "filter", args: []any{hosts, g("has_prefix_g", "http://")}, want: `["http://a.example.com","http://c.other.org"]`},
		{fn: "filter", args: []any{[]any{"a/config", "b"}, g("has_suffix_g", "/config")}, want: `["a/config"]`},
		{fn: "filter", args: []any{hosts, g("contains_g", "example.com")}, want: `["http://a.example.com","https://b.example.com"]`},
		{fn: "filter", args: []any{[]any{[]any{"x", "y"}, []any{"z"}}, g("contains_g", "z")}, want: `[["z"]]`},
		{fn: "flatmap", args: []any{[]any{"host1,example.com:3049", "host2,example.com:4095"}, g("split_g", ",")},
			want: `["host1","example.com:3049","host2","example.com:4095"]`},
		{fn: "map", args: []any{[]any{`{"host":"a"}`, `{"host":"b"}`}, g("fromjson_g", "/host")}, want: `["a","b"]`},
		{fn: "map", args: []any{[]any{1}, g("trimprefix_g", "x")}, err: "applying trimprefix_g(\"x\") to item 0: trimprefix: argument 1: expected a string, got an integer"},
	})
	// A _g call yields a function value whose name shows its static arguments.
	v := g("trimprefix_g", "http://")
	f, ok := v.Func()
	if !ok || f.Name != `trimprefix_g("http://")` || f.Type.String() != "func(string) -> string" {
		t.Fatalf("trimprefix_g value = %+v", f)
	}
	got, err := c.CallFunc(v, String("http://x"))
	if err != nil || jsonOf(t, got) != `"x"` {
		t.Fatalf("calling trimprefix_g value = %s, %v", jsonOf(t, got), err)
	}
	if _, err := c.CallFunc(v); err == nil || !strings.Contains(err.Error(), "expected 1 argument, got 0") {
		t.Fatalf("calling with no args: %v", err)
	}
}

func TestJoinLarge(t *testing.T) {
	items := make([]Value, 100_000)
	for i := range items {
		items[i] = String("item")
	}
	c := newTestCtx(nil)
	v, err := c.Call("join", []Value{Array(items), String(",")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := v.Str()
	if want := 100_000*5 - 1; len(s) != want {
		t.Fatalf("len = %d, want %d", len(s), want)
	}
}

func TestSubstrLargeUnicode(t *testing.T) {
	s := strings.Repeat("é", 200_000)
	v, err := call(t, "substr", s, 100_000, 100_003)
	if err != nil || jsonOf(t, v) != `"ééé"` {
		t.Fatalf("substr = %s, %v", jsonOf(t, v), err)
	}
}
