package eval

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/blueprint-ls/blueprint-ls/funcs"
)

func TestChildData(t *testing.T) {
	f := func(s string) map[string]funcs.Value { return map[string]funcs.Value{"id": funcs.String(s)} }
	data := map[string]map[string]funcs.Value{
		"network":         f("parent's"),
		"core/network":    f("core's"),
		"core/net/vpc":    f("grandchild's"),
		"core.x/network":  f("another child's"),
		"corex/network":   f("another child's"),
		"core/":           f("no name"),
		"other/core/vpc2": f("elsewhere"),
	}
	ids := func(m map[string]map[string]funcs.Value) map[string]string {
		out := map[string]string{}
		for k, v := range m {
			s, _ := v["id"].Str()
			out[k] = s
		}
		return out
	}
	core := childData(data, "core")
	if diff := cmp.Diff(map[string]string{"network": "core's", "net/vpc": "grandchild's"}, ids(core)); diff != "" {
		t.Errorf("core (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]string{"vpc": "grandchild's"}, ids(childData(core, "net"))); diff != "" {
		t.Errorf("core/net (-want +got):\n%s", diff)
	}
	if got := childData(data, "none"); got != nil {
		t.Errorf("a child without fixtures got %v", got)
	}
}
