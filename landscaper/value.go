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

// locate finds the node a JSON pointer's tokens name below root, and the
// key of the entry holding it (nil for a list item or root itself). It
// stops at the deepest node that exists.
func locate(root syntax.Node, tokens []string) (syntax.Node, *syntax.Scalar) {
	n, key := root, (*syntax.Scalar)(nil)
	for _, t := range tokens {
		switch c := n.(type) {
		case *syntax.Mapping:
			e := c.Entry(t)
			if e == nil || e.Value == nil {
				return n, key
			}
			n, key = e.Value, e.Key
		case *syntax.Sequence:
			i, err := strconv.Atoi(t)
			if err != nil || i < 0 || i >= len(c.Items) {
				return n, key
			}
			n, key = c.Items[i], nil
		default:
			return n, key
		}
	}
	return n, key
}
