package gen

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.yaml.in/yaml/v3"
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
		if err := yaml.Unmarshal(Blueprint(n, "yaml"), &fromYAML); err != nil {
			t.Fatalf("n=%d yaml: %v", n, err)
		}
		// JSON numbers decode as float64, YAML ones as int.
		if diff := cmp.Diff(fromJSON, floats(fromYAML)); diff != "" {
			t.Errorf("n=%d: formats differ (-json +yaml):\n%s", n, diff)
		}
		res, _ := fromJSON["resources"].(map[string]any)
		if len(res) != n {
			t.Errorf("n=%d: %d resources", n, len(res))
		}
	}
}

func floats(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			v[k] = floats(e)
		}
	case []any:
		for i, e := range v {
			v[i] = floats(e)
		}
	case int:
		return float64(v)
	}
	return v
}
