package funcs

import (
	"strings"
	"testing"
)

func TestLogicFunctions(t *testing.T) {
	runCases(t, []callCase{
		{fn: "and", args: []any{true, true}, want: `true`},
		{fn: "and", args: []any{true, false}, want: `false`},
		{fn: "and", args: []any{nil, true}, want: `null`},
		{fn: "and", args: []any{false, unknown()}, want: `false`},
		{fn: "and", args: []any{true, unknown()}, want: `<unknown>`},
		{fn: "and", args: []any{1, true}, err: "argument 1: expected a boolean, got an integer"},
		{fn: "or", args: []any{false, true}, want: `true`},
		{fn: "or", args: []any{false, false}, want: `false`},
		{fn: "or", args: []any{nil, true}, want: `true`},
		{fn: "or", args: []any{nil, false}, want: `false`},
		{fn: "or", args: []any{nil, nil}, want: `null`},
		{fn: "or", args: []any{true, unknown()}, want: `true`},
		{fn: "or", args: []any{false, unknown()}, want: `<unknown>`},
		{fn: "or", args: []any{"x", true}, err: "argument 1: expected a boolean"},
		{fn: "or", args: []any{true, 985043}, err: "or: argument 2: expected a boolean, got an integer"},
		{fn: "or", args: []any{nil, "x"}, err: "argument 2: expected a boolean, got a string"},
		{fn: "or", args: []any{unknown(), 1.5}, err: "argument 2: expected a boolean, got a float"},
		{fn: "and", args: []any{false, "x"}, err: "and: argument 2: expected a boolean, got a string"},
		{fn: "and", args: []any{nil, 5}, err: "and: argument 2: expected a boolean, got an integer"},
		{fn: "and", args: []any{unknown(), []any{}}, err: "argument 2: expected a boolean, got an array"},
		{fn: "not", args: []any{false}, want: `true`},
		{fn: "not", args: []any{nil}, want: `null`},
		{fn: "not", args: []any{""}, err: "expected a boolean, got a string"},
		{fn: "eq", args: []any{"prod", "prod"}, want: `true`},
		{fn: "eq", args: []any{"prod", "dev"}, want: `false`},
		{fn: "eq", args: []any{1, 1.0}, want: `true`},
		{fn: "eq", args: []any{1, "1"}, want: `false`},
		{fn: "eq", args: []any{[]any{1, []any{"a"}}, []any{1, []any{"a"}}}, want: `true`},
		{fn: "eq", args: []any{map[string]any{"a": 1, "b": 2}, lit(t, "object", kw{"b", 2}, kw{"a", 1})}, want: `true`},
		{fn: "eq", args: []any{[]any{unknown()}, []any{1}}, want: `<unknown>`},
		{fn: "eq", args: []any{nil, "x"}, want: `null`},
		{fn: "gt", args: []any{11, 10}, want: `true`},
		{fn: "gt", args: []any{10, 10}, want: `false`},
		{fn: "gt", args: []any{3, 2.5}, want: `true`},
		{fn: "ge", args: []any{10, 10}, want: `true`},
		{fn: "ge", args: []any{9.99, 10}, want: `false`},
		{fn: "lt", args: []any{9, 10}, want: `true`},
		{fn: "lt", args: []any{int64(9007199254740993), int64(9007199254740992)}, want: `false`},
		{fn: "le", args: []any{10, 10.0}, want: `true`},
		{fn: "le", args: []any{"1", 2}, err: "argument 1: expected a number, got a string"},
		{fn: "gt", args: []any{nil, 2}, want: `null`},
		// if
		{fn: "if", args: []any{true, "us-east-1", "us-west-2"}, want: `"us-east-1"`},
		{fn: "if", args: []any{false, "us-east-1", "us-west-2"}, want: `"us-west-2"`},
		{fn: "if", args: []any{nil, "custom", "default"}, want: `"default"`},
		{fn: "if", args: []any{true, nil, "x"}, want: `null`},
		{fn: "if", args: []any{false, true, nil}, want: `null`},
		{fn: "if", args: []any{true, unknown(), 1}, want: `<unknown>`},
		{fn: "if", args: []any{false, unknown(), 1}, want: `1`},
		{fn: "if", args: []any{unknown(), 1, 2}, want: `<unknown>`},
		{fn: "if", args: []any{0, 1, 2}, err: "argument 1: the condition must be a boolean (or none), got an integer"},
		{fn: "if", args: []any{"", 1, 2}, err: "must be a boolean"},
		{fn: "if", args: []any{[]any{}, 1, 2}, err: "must be a boolean"},
		{fn: "if", args: []any{true, 1}, err: "expected 3 arguments, got 2"},
		{fn: "if", args: []any{true, lit(t, "object", kw{"size", "large"}, kw{"replicas", 3}), lit(t, "object", kw{"size", "small"})},
			want: `{"size":"large","replicas":3}`},
		// min / max / abs
		{fn: "min", args: []any{10, 5, 8, 3}, want: `3`},
		{fn: "max", args: []any{10, 5, 8, 3}, want: `10`},
		{fn: "min", args: []any{2, 1.5}, want: `1.5`},
		{fn: "max", args: []any{2, 1.5}, want: `2`},
		{fn: "max", args: []any{7}, want: `7`},
		{fn: "min", args: []any{}, err: "expected at least 1 argument, got 0"},
		{fn: "min", args: []any{1, "2"}, err: "argument 2: expected a number"},
		{fn: "max", args: []any{1, nil}, want: `null`},
		{fn: "abs", args: []any{-5}, want: `5`},
		{fn: "abs", args: []any{3}, want: `3`},
		{fn: "abs", args: []any{-2.5}, want: `2.5`},
		{fn: "abs", args: []any{int64(-9223372036854775808)}, err: "does not fit"},
		// link
		{fn: "link", args: []any{"orderApi", "deleteOrderFunction"}, want: `<unknown>`},
		{fn: "link", args: []any{"orderApi", 1}, err: "argument 2: expected a string"},
	})
}

func TestDataFunctions(t *testing.T) {
	doc := `{"host":"localhost","ports":[6379,6380],"a/b":{"m~n":true},"nested":{"x":[{"y":1.5}]},"nul":null,"":"empty"}`
	runCases(t, []callCase{
		// fromjson (spec example and pointers)
		{fn: "fromjson", args: []any{`{"host":"localhost"}`, "/host"}, want: `"localhost"`},
		{fn: "fromjson", args: []any{doc, "/ports/0"}, want: `6379`},
		{fn: "fromjson", args: []any{doc, "/ports"}, want: `[6379,6380]`},
		{fn: "fromjson", args: []any{doc, "/a~1b/m~0n"}, want: `true`},
		{fn: "fromjson", args: []any{doc, "/nested/x/0/y"}, want: `1.5`},
		{fn: "fromjson", args: []any{doc, "/nul"}, want: `null`},
		{fn: "fromjson", args: []any{doc, "/"}, want: `"empty"`},
		{fn: "fromjson", args: []any{`{"b":1,"a":2}`, ""}, want: `{"b":1,"a":2}`},
		{fn: "fromjson", args: []any{doc, "host"}, want: `"localhost"`},
		{fn: "fromjson", args: []any{doc, "/missing"}, err: `argument 2: no key "missing" at the root`},
		{fn: "fromjson", args: []any{doc, "/ports/2"}, err: "index 2 is out of range at /ports (the array has 2 items)"},
		{fn: "fromjson", args: []any{doc, "/ports/01"}, err: `"01" is not an array index`},
		{fn: "fromjson", args: []any{doc, "/ports/-"}, err: `"-" is not an array index`},
		{fn: "fromjson", args: []any{doc, "/host/x"}, err: "cannot look up \"x\" in a string at /host"},
		{fn: "fromjson", args: []any{doc, "/a~2b"}, err: "must be followed by 0 or 1"},
		{fn: "fromjson", args: []any{`{"host":`, "/host"}, err: "argument 1: invalid JSON"},
		{fn: "fromjson", args: []any{`[1,2]`, "/0"}, err: "the JSON document must be an object, got an array"},
		{fn: "fromjson", args: []any{nil, "/host"}, want: `null`},
		// jsondecode
		{fn: "jsondecode", args: []any{`{"z":1,"a":[true,null,"s",2.5,-3]}`}, want: `{"z":1,"a":[true,null,"s",2.5,-3]}`},
		{fn: "jsondecode", args: []any{`"just a string"`}, want: `"just a string"`},
		{fn: "jsondecode", args: []any{`12345678901234567890`}, want: `12345678901234567000`},
		{fn: "jsondecode", args: []any{`{"a":1} x`}, err: "invalid JSON at offset"},
		{fn: "jsondecode", args: []any{``}, err: "invalid JSON"},
		// base64
		{fn: "base64encode", args: []any{"#!/bin/bash\necho 'Hello World'"}, want: `"IyEvYmluL2Jhc2gKZWNobyAnSGVsbG8gV29ybGQn"`},
		{fn: "base64encode", args: []any{[]byte{0xff, 0x00}}, want: `"/wA="`},
		{fn: "base64encode", args: []any{""}, want: `""`},
		{fn: "base64encode", args: []any{1}, err: "expected binary data or a string"},
		{fn: "base64decode", args: []any{"SGVsbG8gV29ybGQ="}, want: `"Hello World"`},
		{fn: "base64decode", args: []any{"SGVsbG8gV29ybGQ"}, err: "argument 1: invalid Base64"},
		{fn: "utf8", args: []any{lit(t, "base64decode", "SGVsbG8gV29ybGQ=")}, want: `"Hello World"`},
		{fn: "utf8", args: []any{[]byte{'a', 0xff}}, err: "not valid UTF-8 (bad byte 0xff at offset 1)"},
		{fn: "jsondecode", args: []any{lit(t, "utf8", lit(t, "base64decode", "eyJhIjoxfQ=="))}, want: `{"a":1}`},
		{fn: "jsondecode", args: []any{lit(t, "base64decode", "eyJhIjoxfQ==")}, err: "convert it with utf8"},
		// hashes
		{fn: "sha256", args: []any{"Hello World"}, want: `"a591a6d40bf420404a011733cfb7b190d62c65bf0bcda32b57b277d9ad9f146e"`},
		{fn: "md5", args: []any{"Hello World"}, want: `"b10a8db164e0754105b7a99be72e3fe5"`},
		{fn: "sha1", args: []any{"Hello World"}, want: `"0a4d55a8d778e5022fab701977c5d840bbc486d0"`},
		{fn: "sha256", args: []any{[]byte("Hello World")}, want: `"a591a6d40bf420404a011733cfb7b190d62c65bf0bcda32b57b277d9ad9f146e"`},
		{fn: "md5", args: []any{""}, want: `"d41d8cd98f00b204e9800998ecf8427e"`},
		{fn: "sha1", args: []any{[]any{1, unknown()}}, want: `<unknown>`},
		{fn: "sha256", args: []any{nil}, want: `null`},
		// cidrsubnet (spec examples; the spec's second comment is wrong, see the table's note)
		{fn: "cidrsubnet", args: []any{"192.168.0.0/16", 8, 1}, want: `"192.168.1.0/24"`},
		{fn: "cidrsubnet", args: []any{"10.0.0.0/8", 4, 2}, want: `"10.32.0.0/12"`},
		{fn: "cidrsubnet", args: []any{"10.0.0.0/16", 8, 255}, want: `"10.0.255.0/24"`},
		{fn: "cidrsubnet", args: []any{"10.1.2.3/16", 0, 0}, want: `"10.1.0.0/16"`},
		{fn: "cidrsubnet", args: []any{"10.0.0.0/30", 2, 3}, want: `"10.0.0.3/32"`},
		{fn: "cidrsubnet", args: []any{"fd00::/48", 16, 5}, want: `"fd00:0:0:5::/64"`},
		{fn: "cidrsubnet", args: []any{"2001:db8::/32", 96, 1}, want: `"2001:db8::1/128"`},
		{fn: "cidrsubnet", args: []any{"2001:db8::/32", 64, 3}, want: `"2001:db8::3:0:0/96"`},
		{fn: "cidrsubnet", args: []any{"10.0.0.0/16", 8, 256}, err: "argument 3: netnum 256 does not fit in 8 bits (the largest is 255)"},
		{fn: "cidrsubnet", args: []any{"10.0.0.0/16", 17, 0}, err: "argument 2: not enough address space: /16 plus 17 bits"},
		{fn: "cidrsubnet", args: []any{"2001:db8::/32", 97, 0}, err: "more than the 128 bits"},
		{fn: "cidrsubnet", args: []any{"10.0.0.0/16", -1, 0}, err: "newbits -1 is negative"},
		{fn: "cidrsubnet", args: []any{"10.0.0.0/16", 4, -1}, err: "netnum -1 is negative"},
		{fn: "cidrsubnet", args: []any{"10.0.0.0", 4, 1}, err: "argument 1: \"10.0.0.0\" is not a CIDR block"},
		{fn: "cidrsubnet", args: []any{"banana/8", 4, 1}, err: "not a CIDR block"},
	})
}

func TestPointerHelpers(t *testing.T) {
	for _, tc := range []struct {
		in    string
		norm  string
		fixed bool
		toks  []string
		err   string
	}{
		{in: "/host", norm: "/host", toks: []string{"host"}},
		{in: "host", norm: "/host", fixed: true, toks: []string{"host"}},
		{in: "", norm: "", toks: nil},
		{in: "/a~1b/~0", norm: "/a~1b/~0", toks: []string{"a/b", "~"}},
		{in: "/~01", norm: "/~01", toks: []string{"~1"}},
		{in: "/a~", norm: "/a~", err: "must be followed by 0 or 1"},
	} {
		norm, fixed := NormalizePointer(tc.in)
		if norm != tc.norm || fixed != tc.fixed {
			t.Errorf("NormalizePointer(%q) = %q, %v", tc.in, norm, fixed)
		}
		toks, err := ParsePointer(norm)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParsePointer(%q) err = %v", norm, err)
			}
			continue
		}
		if err != nil || strings.Join(toks, "|") != strings.Join(tc.toks, "|") || len(toks) != len(tc.toks) {
			t.Errorf("ParsePointer(%q) = %q, %v; want %q", norm, toks, err, tc.toks)
		}
	}
}
