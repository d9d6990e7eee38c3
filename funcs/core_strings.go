package funcs

import (
	"strings"
	"unicode/utf8"

	"github.com/blueprint-ls/blueprint-ls/types"
)

// gImpl builds the implementation of a _g function: it captures its static
// arguments and returns a function value of one argument that calls base
// with (that argument, static...).
func gImpl(name, base string, dyn, result types.Type) Impl {
	return func(c *Ctx, args []Value) (Value, error) {
		f, ok := c.Table.Lookup(base)
		if !ok {
			return None, errorf("%s is missing from the function table", base)
		}
		// The captured arguments are checked now, not when (or whether)
		// the function is applied: substr_g("0") is a mistake even if
		// it is mapped over an empty list.
		if g, ok := c.Table.Lookup(name); ok {
			if err := checkKinds(g.Signature, args); err != nil {
				return None, err
			}
		}
		static := append([]Value(nil), args...)
		return FuncValue(&Function{
			Name: callName(name, static),
			Type: fn(result, dyn),
			call: func(c *Ctx, a []Value) (Value, error) {
				full := make([]Value, 0, len(static)+1)
				full = append(full, a[0])
				full = append(full, static...)
				return c.Invoke(f, full, nil)
			},
		}), nil
	}
}

// runeIndex converts a byte offset in s to a character offset.
func runeIndex(s string, byteOff int) int64 {
	if byteOff < 0 {
		return -1
	}
	return int64(utf8.RuneCountInString(s[:byteOff]))
}

// stringFn1 adapts a string → string operation.
func stringFn1(op func(string) string) Impl {
	return func(c *Ctx, args []Value) (Value, error) {
		s, err := argStr(args, 0)
		if err != nil {
			return None, err
		}
		return String(op(s)), nil
	}
}

// stringFn2 adapts a (string, string) operation.
func stringFn2(op func(a, b string) Value) Impl {
	return func(c *Ctx, args []Value) (Value, error) {
		a, b, err := argStrs2(args)
		if err != nil {
			return None, err
		}
		return op(a, b), nil
	}
}

const noneNote = "\n\nIf any argument is `none` the result is `none`."

func stringFuncs() []Func {
	strToStr := fn(tString, tString)
	strToBool := fn(tBool, tString)
	return []Func{
		{
			Name:      "len",
			Signature: sig(tInt, param("value", union(tString, tArray, tMapping))),
			ParamDocs: []string{"The string, array or mapping to measure."},
			Summary:   "Returns the length of a string (in characters), an array or a mapping.",
			Doc: "Counts the characters (Unicode code points, not bytes) of a string, the items of an array " +
				"or the key/value pairs of a mapping or object. Binary data counts its bytes." + noneNote,
			Examples: []Example{
				{Expr: `len(values.cacheClusterConfig.endpoints)`},
				{Expr: `len("héllo")`, Result: `5`, Note: "characters, not bytes"},
			},
			Impl: func(c *Ctx, args []Value) (Value, error) {
				v := args[0]
				switch v.kind {
				case KindString:
					return Int(int64(utf8.RuneCountInString(v.str))), nil
				case KindBinary:
					return Int(int64(len(v.str))), nil
				case KindArray, KindMap:
					return Int(int64(v.Len())), nil
				}
				return None, argError(0, "expected a string, array or mapping, got %s", describe(v))
			},
		},
		{
			Name:      "substr",
			Signature: sig(tString, param("value", tString), param("start", tInt), optional("end", tInt)),
			ParamDocs: []string{
				"The string to take a part of.",
				"The index of the first character to include (from 0).",
				"The index just past the last character to include; defaults to the end of the string.",
			},
			Summary: "Returns the characters of a string from a start index up to an end index.",
			Doc: "Indexes count characters, not bytes, from 0. The substring starts at `start` and stops " +
				"before `end` (so `end - start` characters are taken), like the reference implementation; " +
				"without `end` it runs to the end of the string. A negative index, a start past the end, an " +
				"end past the end or an end before the start is an error." + noneNote,
			Examples: []Example{
				{Expr: `substr(values.cacheClusterConfig.host, 0, 3)`},
				{Expr: `substr("production", 0, 4)`, Result: `"prod"`},
				{Expr: `substr("production", 4)`, Result: `"uction"`},
			},
			Impl: implSubstr,
		},
		{
			Name:      "substr_g",
			Signature: sig(strToStr, param("start", tInt), optional("end", tInt)),
			ParamDocs: []string{"The index of the first character to include.", "The index just past the last character to include."},
			Summary:   "Composable substr: takes the indexes and returns a function of the string.",
			Doc:       "Returns a function that applies `substr` with these indexes to the string it is given; for `map` and friends.",
			Examples:  []Example{{Expr: `map(values.cacheClusterConfig.hosts, substr_g(0, 3))`}},
			Impl:      gImpl("substr_g", "substr", tString, tString),
			Flags:     ReturnsFunc,
		},
		{
			Name:      "replace",
			Signature: sig(tString, param("value", tString), param("search", tString), param("replace", tString)),
			ParamDocs: []string{"The input string.", "The substring to look for.", "What to put in its place."},
			Summary:   "Replaces every occurrence of a substring.",
			Doc:       "Replaces all non-overlapping occurrences of `search`, left to right. An empty `search` inserts `replace` between every character." + noneNote,
			Examples: []Example{
				{Expr: `replace(values.cacheClusterConfig.host, "http://", "https://")`},
				{Expr: `replace("http://a.com", "http://", "https://")`, Result: `"https://a.com"`},
			},
			Impl: func(c *Ctx, args []Value) (Value, error) {
				s, old, err := argStrs2(args)
				if err != nil {
					return None, err
				}
				repl, err := argStr(args, 2)
				if err != nil {
					return None, err
				}
				if replacedSize(s, old, repl) > MaxStringSize {
					return None, errTooBig("the text budget")
				}
				return String(strings.ReplaceAll(s, old, repl)), nil
			},
		},
		{
			Name:      "replace_g",
			Signature: sig(strToStr, param("search", tString), param("replace", tString)),
			ParamDocs: []string{"The substring to look for.", "What to put in its place."},
			Summary:   "Composable replace: takes search and replacement and returns a function of the string.",
			Doc:       "Returns a function that applies `replace` with these substrings to the string it is given.",
			Examples:  []Example{{Expr: `map(values.cacheClusterConfig.hosts, replace_g("http://", "https://"))`}},
			Impl:      gImpl("replace_g", "replace", tString, tString),
			Flags:     ReturnsFunc,
		},
		{
			Name:      "trim",
			Signature: sig(tString, param("value", tString)),
			ParamDocs: []string{"The string to trim."},
			Summary:   "Removes leading and trailing whitespace.",
			Doc:       "Removes all leading and trailing Unicode whitespace (spaces, tabs, newlines, ...)." + noneNote,
			Examples: []Example{
				{Expr: `trim(values.cacheClusterConfig.host)`},
				{Expr: `trim("  host \n")`, Result: `"host"`},
			},
			Impl: stringFn1(strings.TrimSpace),
		},
		{
			Name:      "trimprefix",
			Signature: sig(tString, param("value", tString), param("prefix", tString)),
			ParamDocs: []string{"The string to remove the prefix from.", "The prefix to remove."},
			Summary:   "Removes a prefix from a string.",
			Doc:       "Removes `prefix` once when the string starts with it; otherwise returns the string unchanged." + noneNote,
			Examples: []Example{
				{Expr: `trimprefix(values.cacheClusterConfig.host, "http://")`},
				{Expr: `trimprefix("http://a.com", "http://")`, Result: `"a.com"`},
			},
			Impl: stringFn2(func(a, b string) Value { return String(strings.TrimPrefix(a, b)) }),
		},
		{
			Name:      "trimprefix_g",
			Signature: sig(strToStr, param("prefix", tString)),
			ParamDocs: []string{"The prefix to remove."},
			Summary:   "Composable trimprefix: takes the prefix and returns a function of the string.",
			Doc:       "Returns a function that removes this prefix from the string it is given.",
			Examples:  []Example{{Expr: `map(variables.cacheClusterConfig.hosts, trimprefix_g("http://"))`}},
			Impl:      gImpl("trimprefix_g", "trimprefix", tString, tString),
			Flags:     ReturnsFunc,
		},
		{
			Name:      "trimsuffix",
			Signature: sig(tString, param("value", tString), param("suffix", tString)),
			ParamDocs: []string{"The string to remove the suffix from.", "The suffix to remove."},
			Summary:   "Removes a suffix from a string.",
			Doc:       "Removes `suffix` once when the string ends with it; otherwise returns the string unchanged." + noneNote,
			Examples: []Example{
				{Expr: `trimsuffix(values.cacheClusterConfig.host, ":3000")`},
				{Expr: `trimsuffix("a.com:3000", ":3000")`, Result: `"a.com"`},
			},
			Impl: stringFn2(func(a, b string) Value { return String(strings.TrimSuffix(a, b)) }),
		},
		{
			Name:      "trimsuffix_g",
			Signature: sig(strToStr, param("suffix", tString)),
			ParamDocs: []string{"The suffix to remove."},
			Summary:   "Composable trimsuffix: takes the suffix and returns a function of the string.",
			Doc:       "Returns a function that removes this suffix from the string it is given.",
			Examples:  []Example{{Expr: `map(values.cacheClusterConfig.hosts, trimsuffix_g("/config"))`}},
			Impl:      gImpl("trimsuffix_g", "trimsuffix", tString, tString),
			Flags:     ReturnsFunc,
		},
		{
			Name:      "split",
			Signature: sig(arrayOf(tString), param("value", tString), param("delimiter", tString)),
			ParamDocs: []string{"The string to split.", "The delimiter between the parts."},
			Summary:   "Splits a string into an array of substrings at a delimiter.",
			Doc: "Splits at every occurrence of the delimiter. The empty string gives an empty array; an " +
				"empty delimiter splits into single characters." + noneNote,
			Examples: []Example{
				{Expr: `split(values.cacheClusterConfig.hosts, ",")`},
				{Expr: `split("a,b,c", ",")`, Result: `["a","b","c"]`},
			},
			Impl: func(c *Ctx, args []Value) (Value, error) {
				s, sep, err := argStrs2(args)
				if err != nil {
					return None, err
				}
				if s == "" {
					return Array([]Value{}), nil
				}
				if occurrences(s, sep) >= MaxArrayLen {
					return None, errTooBig("the item budget")
				}
				parts := strings.Split(s, sep)
				out := make([]Value, len(parts))
				for i, p := range parts {
					out[i] = String(p)
				}
				return Array(out), nil
			},
		},
		{
			Name:      "split_g",
			Signature: sig(fn(arrayOf(tString), tString), param("delimiter", tString)),
			ParamDocs: []string{"The delimiter between the parts."},
			Summary:   "Composable split: takes the delimiter and returns a function of the string.",
			Doc:       "Returns a function that splits the string it is given at this delimiter; pairs well with `flatmap`.",
			Examples: []Example{
				{Expr: `flatmap(values.cacheClusterConfig.multiClusterHosts, split_g(","))`},
				{Expr: `flatmap(list("host1,example.com:3049", "host2,example.com:4095"), split_g(","))`,
					Result: `["host1","example.com:3049","host2","example.com:4095"]`},
			},
			Impl:  gImpl("split_g", "split", tString, arrayOf(tString)),
			Flags: ReturnsFunc,
		},
		{
			Name:      "join",
			Signature: sig(tString, param("items", arrayOf(tAny)), param("delimiter", tString)),
			ParamDocs: []string{"The items to join; numbers and booleans are converted to text.", "The delimiter to put between items."},
			Summary:   "Joins the items of an array into one string with a delimiter.",
			Doc: "Strings are joined as they are; integers, floats and booleans are converted to their text " +
				"first. Items that are `none` are left out. Arrays, mappings and functions cannot be joined. " +
				"If the array itself is `none` the result is `none`.",
			Examples: []Example{
				{Expr: `join(values.cacheClusterConfig.hosts, ",")`},
				{Expr: `join([8080, 8081, 8082], ",")`, Result: `"8080,8081,8082"`},
				{Expr: `join([true, false, true], "|")`, Result: `"true|false|true"`},
				{Expr: `join(["tag1", none, "tag2", none, "tag3"], ",")`, Result: `"tag1,tag2,tag3"`, Note: "none items are skipped"},
			},
			Impl: implJoin,
		},
		{
			Name:      "index",
			Signature: sig(tInt, param("value", tString), param("search", tString)),
			ParamDocs: []string{"The string to search in.", "The substring to look for."},
			Summary:   "Returns the index of the first occurrence of a substring, or -1.",
			Doc:       "The index counts characters from 0; -1 means the substring does not occur." + noneNote,
			Examples: []Example{
				{Expr: `index(values.cacheClusterConfig.host, ":3000")`},
				{Expr: `index("a.com:3000", ":3000")`, Result: `5`},
			},
			Impl: stringFn2(func(s, sub string) Value { return Int(runeIndex(s, strings.Index(s, sub))) }),
		},
		{
			Name:      "last_index",
			Signature: sig(tInt, param("value", tString), param("search", tString)),
			ParamDocs: []string{"The string to search in.", "The substring to look for."},
			Summary:   "Returns the index of the last occurrence of a substring, or -1.",
			Doc:       "The index counts characters from 0; -1 means the substring does not occur." + noneNote,
			Examples: []Example{
				{Expr: `last_index(values.cacheClusterConfig.host, ":3000")`},
				{Expr: `last_index("a:3000/b:3000", ":3000")`, Result: `8`},
			},
			Impl: stringFn2(func(s, sub string) Value { return Int(runeIndex(s, strings.LastIndex(s, sub))) }),
		},
		{
			Name:      "to_upper",
			Signature: sig(tString, param("value", tString)),
			ParamDocs: []string{"The string to convert."},
			Summary:   "Converts a string to upper case.",
			Doc:       "Converts every character to upper case (Unicode aware)." + noneNote,
			Examples: []Example{
				{Expr: `to_upper(values.cacheClusterConfig.hostName)`},
				{Expr: `to_upper("héllo")`, Result: `"HÉLLO"`},
			},
			Impl: stringFn1(strings.ToUpper),
		},
		{
			Name:      "to_lower",
			Signature: sig(tString, param("value", tString)),
			ParamDocs: []string{"The string to convert."},
			Summary:   "Converts a string to lower case.",
			Doc:       "Converts every character to lower case (Unicode aware)." + noneNote,
			Examples: []Example{
				{Expr: `to_lower(values.cacheClusterConfig.hostId)`},
				{Expr: `to_lower("HOST-1")`, Result: `"host-1"`},
			},
			Impl: stringFn1(strings.ToLower),
		},
		{
			Name:      "has_prefix",
			Signature: sig(tBool, param("value", tString), param("prefix", tString)),
			ParamDocs: []string{"The string to check.", "The prefix to look for."},
			Summary:   "Reports whether a string starts with a prefix.",
			Doc:       "True when the string starts with `prefix` (every string starts with the empty string)." + noneNote,
			Examples: []Example{
				{Expr: `has_prefix(values.cacheClusterConfig.host, "http://")`},
				{Expr: `has_prefix("http://a.com", "http://")`, Result: `true`},
			},
			Impl: stringFn2(func(a, b string) Value { return Bool(strings.HasPrefix(a, b)) }),
		},
		{
			Name:      "has_prefix_g",
			Signature: sig(strToBool, param("prefix", tString)),
			ParamDocs: []string{"The prefix to look for."},
			Summary:   "Composable has_prefix: takes the prefix and returns a predicate on strings.",
			Doc:       "Returns a function that reports whether the string it is given starts with this prefix; for `filter`.",
			Examples:  []Example{{Expr: `filter(values.cacheClusterConfig.hosts, has_prefix_g("http://"))`}},
			Impl:      gImpl("has_prefix_g", "has_prefix", tString, tBool),
			Flags:     ReturnsFunc,
		},
		{
			Name:      "has_suffix",
			Signature: sig(tBool, param("value", tString), param("suffix", tString)),
			ParamDocs: []string{"The string to check.", "The suffix to look for."},
			Summary:   "Reports whether a string ends with a suffix.",
			Doc:       "True when the string ends with `suffix`." + noneNote,
			Examples: []Example{
				{Expr: `has_suffix(values.cacheClusterConfig.host, "/config")`},
				{Expr: `has_suffix("a.com/config", "/config")`, Result: `true`},
			},
			Impl: stringFn2(func(a, b string) Value { return Bool(strings.HasSuffix(a, b)) }),
		},
		{
			Name:      "has_suffix_g",
			Signature: sig(strToBool, param("suffix", tString)),
			ParamDocs: []string{"The suffix to look for."},
			Summary:   "Composable has_suffix: takes the suffix and returns a predicate on strings.",
			Doc:       "Returns a function that reports whether the string it is given ends with this suffix; for `filter`.",
			Examples:  []Example{{Expr: `filter(values.cacheClusterConfig.hosts, has_suffix_g("/config"))`}},
			Impl:      gImpl("has_suffix_g", "has_suffix", tString, tBool),
			Flags:     ReturnsFunc,
		},
		{
			Name: "contains",
			Signature: generic([]string{"T"}, tBool,
				param("haystack", union(tString, arrayOf(tp("T")))), param("needle", union(tString, tp("T")))),
			ParamDocs: []string{"The string or array to search.", "The substring, or the value to look for among the array's items."},
			Summary:   "Reports whether a string contains a substring or an array contains a value.",
			Doc: "For a string, looks for a substring; for an array, looks for an item equal to the value " +
				"(deep equality; 1 equals 1.0)." + noneNote,
			Examples: []Example{
				{Expr: `contains(values.cacheClusterConfig.host, "bluelink.dev")`},
				{Expr: `contains(list("a", "b"), "b")`, Result: `true`},
			},
			Impl:  implContains,
			Flags: HandlesUnknown,
		},
		{
			Name:      "contains_g",
			Signature: generic([]string{"T"}, fn(tBool, union(tString, arrayOf(tp("T")))), param("needle", union(tString, tp("T")))),
			ParamDocs: []string{"The substring or value to look for."},
			Summary:   "Composable contains: takes the needle and returns a predicate on strings or arrays.",
			Doc:       "Returns a function that reports whether the string or array it is given contains this value; for `filter`.",
			Examples:  []Example{{Expr: `filter(values.cacheClusterConfig.hosts, contains_g("bluelink.dev"))`}},
			Impl:      gImpl("contains_g", "contains", union(tString, tArray), tBool),
			Flags:     ReturnsFunc,
		},
	}
}

func implSubstr(c *Ctx, args []Value) (Value, error) {
	s, err := argStr(args, 0)
	if err != nil {
		return None, err
	}
	start, err := argInt(args, 1)
	if err != nil {
		return None, err
	}
	n := int64(utf8.RuneCountInString(s))
	end := n
	if len(args) > 2 {
		if end, err = argInt(args, 2); err != nil {
			return None, err
		}
	}
	switch {
	case start < 0:
		return None, argError(1, "start index %d is negative", start)
	case start > n:
		return None, argError(1, "start index %d is past the end of the string (%d characters)", start, n)
	case end < 0:
		return None, argError(2, "end index %d is negative", end)
	case end > n:
		return None, argError(2, "end index %d is past the end of the string (%d characters)", end, n)
	case end < start:
		return None, argError(2, "end index %d is before start index %d", end, start)
	}
	if n == int64(len(s)) { // ASCII fast path
		return String(s[start:end]), nil
	}
	from, to := len(s), len(s)
	i := int64(0)
	for off := range s {
		if i == start {
			from = off
		}
		if i == end {
			to = off
			break
		}
		i++
	}
	return String(s[from:to]), nil
}

func implJoin(c *Ctx, args []Value) (Value, error) {
	items, err := argArray(args, 0)
	if err != nil {
		return None, err
	}
	sep, err := argStr(args, 1)
	if err != nil {
		return None, err
	}
	if args[0].HasUnknown() {
		return Unknown("join(..)"), nil
	}
	var b strings.Builder
	size := 0
	for _, it := range items {
		size += len(it.str) + len(sep)
		if size > MaxStringSize {
			return None, errTooBig("the text budget")
		}
	}
	b.Grow(size)
	first := true
	for i, it := range items {
		if it.kind == KindNone {
			continue
		}
		s, err := Interpolate(it)
		if err != nil {
			return None, argError(0, "item %d: %s cannot be joined into a string", i, describe(it))
		}
		if !first {
			b.WriteString(sep)
		}
		first = false
		b.WriteString(s)
	}
	return String(b.String()), nil
}

func implContains(c *Ctx, args []Value) (Value, error) {
	h, n := args[0], args[1]
	if h.IsUnknown() || n.HasUnknown() {
		return Unknown("contains(..)"), nil
	}
	switch h.kind {
	case KindString:
		sub, err := argStr(args, 1)
		if err != nil {
			return None, err
		}
		return Bool(strings.Contains(h.str, sub)), nil
	case KindArray:
		es, _ := h.Elems()
		unknown := false
		for _, e := range es {
			if e.HasUnknown() {
				unknown = true
				continue
			}
			if Equal(e, n) {
				return Bool(true), nil
			}
		}
		if unknown {
			return Unknown("contains(..)"), nil
		}
		return Bool(false), nil
	}
	return None, argError(0, "expected a string or an array, got %s", describe(h))
}
