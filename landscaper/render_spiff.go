package landscaper

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// unknownPrefix starts the text that stands for a value render did not
// evaluate.
const unknownPrefix = "<unknown:"

// spiff evaluates a Spiff execution as far as it is trivial: values that
// are not expressions, and expressions that are a literal or a path
// into the bindings (imports.x.y). Every other expression becomes an
// unknown, listed with its place.
func (r *renderer) spiff(ex *execution, where string, binding map[string]any) (map[string]any, bool) {
	tree := ex.tree
	if tree == nil {
		f := syntax.Parse(where, []byte(ex.text))
		if errs := f.SyntaxErrors(); len(errs) > 0 {
			r.problem("%s: a Spiff template is YAML: %s", where, errs[0].Message)
			return nil, false
		}
		tree = f.Root
	}
	v := r.spiffValue(Value(tree), binding, where, "")
	out, _ := v.(map[string]any)
	return out, true
}

func (r *renderer) spiffValue(v any, binding map[string]any, where, at string) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sortStrings(keys)
		for _, k := range keys {
			x := v[k]
			if k == "<<" || k == "<<<" || strings.HasPrefix(strings.TrimSpace(k), "((") {
				r.unknown(where+at+"/"+k, "a Spiff merge or computed key is not evaluated")
				continue
			}
			out[k] = r.spiffValue(x, binding, where, at+"/"+k)
		}
		return out
	case []any:
		out := make([]any, 0, len(v))
		for i, x := range v {
			if m, ok := x.(map[string]any); ok && (m["<<"] != nil || m["<<<"] != nil) {
				r.unknown(where+at+"/"+strconv.Itoa(i), "a Spiff merge is not evaluated: the item is left out")
				continue
			}
			out = append(out, r.spiffValue(x, binding, where, at+"/"+strconv.Itoa(i)))
		}
		return out
	case string:
		t := strings.TrimSpace(v)
		if !strings.HasPrefix(t, "((") || strings.HasPrefix(t, "((!") || !strings.HasSuffix(t, "))") {
			return v
		}
		expr := strings.TrimSpace(t[2 : len(t)-2])
		if x, ok := spiffTrivial(expr, binding); ok {
			return x
		}
		r.unknown(where+at, "the Spiff expression (( %s )) is not evaluated: render evaluates literals and paths such as imports.x.y only", expr)
		return unknownPrefix + "(( " + expr + " ))>"
	}
	return v
}

// spiffTrivial evaluates a literal or a path into the bindings.
func spiffTrivial(expr string, binding map[string]any) (any, bool) {
	if s, err := strconv.Unquote(expr); err == nil && strings.HasPrefix(expr, `"`) {
		return s, true
	}
	switch expr {
	case "true", "false":
		return expr == "true", true
	case "nil", "~":
		return nil, true
	}
	if _, err := strconv.ParseFloat(expr, 64); err == nil {
		return json.Number(expr), true
	}
	var cur any = binding
	for _, seg := range strings.Split(expr, ".") {
		m, ok := cur.(map[string]any)
		if !ok || seg == "" {
			return nil, false
		}
		if cur, ok = m[seg]; !ok {
			return nil, false
		}
	}
	return cur, true
}

// hasUnknown reports whether v holds a value render did not evaluate.
func hasUnknown(v any) bool {
	switch v := v.(type) {
	case map[string]any:
		for _, x := range v {
			if hasUnknown(x) {
				return true
			}
		}
	case []any:
		for _, x := range v {
			if hasUnknown(x) {
				return true
			}
		}
	case string:
		return strings.HasPrefix(v, unknownPrefix)
	}
	return false
}
