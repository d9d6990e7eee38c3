package landscaper

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// Value is the plain value of a node as Landscaper decodes it: mappings
// are map[string]any, lists []any, numbers json.Number, booleans bool,
// null nil, everything else a string. A key given twice keeps its first
// value (the duplicate is reported by the structure check).
func Value(n syntax.Node) any {
	switch n := n.(type) {
	case *syntax.Mapping:
		out := make(map[string]any, len(n.Entries))
		for _, e := range n.Entries {
			if e.Key == nil {
				continue
			}
			if _, dup := out[e.Key.Value]; !dup {
				out[e.Key.Value] = Value(e.Value)
			}
		}
		return out
	case *syntax.Sequence:
		out := make([]any, len(n.Items))
		for i, it := range n.Items {
			out[i] = Value(it)
		}
		return out
	case *syntax.Scalar:
		return scalarValue(n)
	}
	return nil
}

func scalarValue(s *syntax.Scalar) any {
	switch s.Tag {
	case syntax.NullTag:
		return nil
	case syntax.BoolTag:
		return strings.EqualFold(s.Value, "true")
	case syntax.IntTag:
		if i, err := strconv.ParseInt(strings.ReplaceAll(s.Value, "_", ""), 0, 64); err == nil {
			return json.Number(strconv.FormatInt(i, 10))
		}
		return json.Number(s.Value)
	case syntax.FloatTag:
		f, err := strconv.ParseFloat(s.Value, 64)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return s.Value // .inf and .nan have no JSON form
		}
		return json.Number(strconv.FormatFloat(f, 'g', -1, 64))
	}
	return s.Value
}

// mapNumbers is a copy of v, a Value, with every number replaced by
// f's result.
func mapNumbers(v any, f func(json.Number) any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[k] = mapNumbers(x, f)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = mapNumbers(x, f)
		}
		return out
	case json.Number:
		return f(v)
	}
	return v
}
