package gen

import (
	"encoding/json"
	"testing"

	"strconv"

	"github.com/google/go-cmp/cmp"

	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// TestBlueprintFormatsAgree decodes both formats and compares them: the
// YAML writer's quoting must not change any value.
func TestBlueprintFormatsAgree(t *testing.T) {
	for _, n := range []int{0, 1, 25} {
		var fromJSON map[string]any
		var fromYAML any
		if err := json.Unmarshal(Blueprint(n, "json"), &fromJSON); err != nil {
			t.Fatalf("n=%d json: %v", n, err)
		}
		f := syntax.ParseYAML(Blueprint(n, "yaml"))
		if len(f.Diagnostics) > 0 || f.Root == nil {
			t.Fatalf("n=%d yaml: %v", n, f.Diagnostics)
		}
		fromYAML = toAny(f.Root)
		// JSON numbers decode as float64, YAML ones as int.
		if diff := cmp.Diff(any(fromJSON), fromYAML); diff != "" {
			t.Errorf("n=%d: formats differ (-json +yaml):\n%s", n, diff)
		}
		res, _ := fromJSON["resources"].(map[string]any)
		if len(res) != n {
			t.Errorf("n=%d: %d resources", n, len(res))
		}
	}
}

// toAny converts a parsed tree to the values encoding/json produces.
func toAny(n syntax.Node) any {
	switch n := n.(type) {
	case *syntax.Mapping:
		m := map[string]any{}
		for _, e := range n.Entries {
			m[e.Key.Value] = toAny(e.Value)
		}
		return m
	case *syntax.Sequence:
		s := []any{}
		for _, it := range n.Items {
			s = append(s, toAny(it))
		}
		return s
	case *syntax.Scalar:
		switch n.Tag {
		case syntax.IntTag, syntax.FloatTag:
			f, _ := strconv.ParseFloat(n.Value, 64)
			return f
		case syntax.BoolTag:
			return n.Value == "true"
		case syntax.NullTag:
			return nil
		}
		return n.Value
	}
	return nil
}
