package funcs

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

// ParseJSON decodes a JSON document into a Value: objects become mappings
// in document order (a repeated key keeps its first position and last
// value), numbers without a fraction or exponent that fit in 64 bits
// become integers, null becomes none.
func ParseJSON(data []byte) (Value, error) {
	if err := validJSON(data); err != nil {
		return None, err
	}
	return decodeJSON(gjson.ParseBytes(data))
}

// decodeJSON converts a parsed document of at most MaxArrayLen values:
// a 64 MiB string of [0,0,0,...] would otherwise become 32 million values
// and gigabytes.
func decodeJSON(r gjson.Result) (Value, error) {
	left := MaxArrayLen
	v := fromGJSON(r, &left)
	if left < 0 {
		return None, errTooBig("the item budget")
	}
	return v, nil
}

func validJSON(data []byte) error {
	if json.Valid(data) {
		return nil
	}
	var x any
	err := json.Unmarshal(data, &x)
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("invalid JSON at offset %d: %s", se.Offset, se.Error())
	}
	if err == nil {
		err = errors.New("not a single JSON value")
	}
	return fmt.Errorf("invalid JSON: %w", err)
}

// fromGJSON converts r, counting every value against *left; once it is
// negative the rest is skipped (the caller reports it).
func fromGJSON(r gjson.Result, left *int) Value {
	if *left--; *left < 0 {
		return None
	}
	switch r.Type {
	case gjson.Null:
		return None
	case gjson.False:
		return Bool(false)
	case gjson.True:
		return Bool(true)
	case gjson.String:
		return String(r.Str)
	case gjson.Number:
		if !strings.ContainsAny(r.Raw, ".eE") {
			if n, err := strconv.ParseInt(r.Raw, 10, 64); err == nil {
				return Int(n)
			}
		}
		return Float(r.Num)
	case gjson.JSON:
		if r.IsArray() {
			var out []Value
			r.ForEach(func(_, e gjson.Result) bool {
				out = append(out, fromGJSON(e, left))
				return *left >= 0
			})
			if out == nil {
				out = []Value{}
			}
			return Array(out)
		}
		m := NewMap(0)
		r.ForEach(func(k, e gjson.Result) bool {
			m.Set(k.Str, fromGJSON(e, left))
			return *left >= 0
		})
		return MapValue(m)
	}
	return None
}

// ParsePointer splits an RFC 6901 JSON pointer into its unescaped
// reference tokens ("~1" is "/", "~0" is "~"). The empty pointer refers to
// the whole document. A pointer must start with "/"; see NormalizePointer
// for the lenient form the language accepts.
func ParsePointer(p string) ([]string, error) {
	if p == "" {
		return nil, nil
	}
	if p[0] != '/' {
		return nil, fmt.Errorf("JSON pointer %q must start with \"/\"", p)
	}
	parts := strings.Split(p[1:], "/")
	for i, s := range parts {
		if !strings.Contains(s, "~") {
			continue
		}
		var b strings.Builder
		for j := 0; j < len(s); j++ {
			if s[j] != '~' {
				b.WriteByte(s[j])
				continue
			}
			if j+1 < len(s) && s[j+1] == '0' {
				b.WriteByte('~')
			} else if j+1 < len(s) && s[j+1] == '1' {
				b.WriteByte('/')
			} else {
				return nil, fmt.Errorf("JSON pointer %q: \"~\" must be followed by 0 or 1 (write ~0 for a literal ~)", p)
			}
			j++
		}
		parts[i] = b.String()
	}
	return parts, nil
}

// NormalizePointer returns the pointer fromjson uses for p: a path without
// the leading "/" ("host") is read as "/host" (decisions 11). fixed reports
// whether p needed that; the checker warns and offers the fixed text.
func NormalizePointer(p string) (norm string, fixed bool) {
	if p != "" && p[0] != '/' {
		return "/" + p, true
	}
	return p, false
}

// extractPointer finds the value at pointer p in the JSON document doc,
// whose root must be an object.
func extractPointer(doc, p string) (Value, error) {
	if err := validJSON([]byte(doc)); err != nil {
		return None, argError(0, "%s", err.Error()).publicly(SensitiveText + " is not valid JSON")
	}
	norm, _ := NormalizePointer(p)
	tokens, err := ParsePointer(norm)
	if err != nil {
		return None, argError(1, "%s", err.Error())
	}
	cur := gjson.Parse(doc)
	if !cur.IsObject() {
		return None, argError(0, "the JSON document must be an object, got %s", jsonKind(cur)).publicly("the JSON document must be an object")
	}
	for depth, tok := range tokens {
		at := "/" + strings.Join(escapeTokens(tokens[:depth]), "/")
		if depth == 0 {
			at = "the root"
		}
		switch {
		case cur.IsObject():
			var found gjson.Result
			ok := false
			cur.ForEach(func(k, v gjson.Result) bool {
				if k.Str == tok {
					found, ok = v, true // the last duplicate wins, like ParseJSON
				}
				return true
			})
			if !ok {
				return None, argError(1, "no key %q at %s of the JSON document", tok, at).describing(0).publicly("the pointer names nothing in the JSON document")
			}
			cur = found
		case cur.IsArray():
			i, ok := pointerIndex(tok)
			if !ok {
				return None, argError(1, "%q is not an array index at %s (expected 0, 1, ...)", tok, at).describing(0).publicly("the pointer names nothing in the JSON document")
			}
			var found gjson.Result
			n := 0
			cur.ForEach(func(_, v gjson.Result) bool {
				if n == i {
					found = v
				}
				n++
				return n <= i
			})
			if i >= n {
				return None, argError(1, "index %d is out of range at %s (the array has %d items)", i, at, n).describing(0).publicly("the pointer names nothing in the JSON document")
			}
			cur = found
		default:
			return None, argError(1, "cannot look up %q in %s at %s", tok, jsonKind(cur), at).describing(0).publicly("the pointer names nothing in the JSON document")
		}
	}
	return decodeJSON(cur)
}

func escapeTokens(ts []string) []string {
	out := make([]string, len(ts))
	r := strings.NewReplacer("~", "~0", "/", "~1")
	for i, t := range ts {
		out[i] = r.Replace(t)
	}
	return out
}

func pointerIndex(tok string) (int, bool) {
	if tok == "" || len(tok) > 9 || (len(tok) > 1 && tok[0] == '0') {
		return 0, false
	}
	n := 0
	for i := 0; i < len(tok); i++ {
		if tok[i] < '0' || tok[i] > '9' {
			return 0, false
		}
		n = n*10 + int(tok[i]-'0')
	}
	return n, true
}

func jsonKind(r gjson.Result) string {
	switch {
	case r.IsObject():
		return "an object"
	case r.IsArray():
		return "an array"
	}
	switch r.Type {
	case gjson.String:
		return "a string"
	case gjson.Number:
		return "a number"
	case gjson.True, gjson.False:
		return "a boolean"
	}
	return "null"
}
