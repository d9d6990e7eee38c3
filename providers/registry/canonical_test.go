package registry

import (
	"testing"

	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// TestKnownIsRender holds known, which canonical asks before rendering,
// to render's own answer on every node of lists with substitutions at
// every depth, nulls, keys written twice (render reads the last value of
// a key) and nothing dynamic at all.
func TestKnownIsRender(t *testing.T) {
	docs := []string{
		"- a\n- '${x}'\n- 1\n- true\n- null\n- ~\n- ''\n- '${'\n- \"$${x}\"\n- [a, b]\n- [a, '${y}']\n- []\n- {}\n",
		"- {key: env, value: '${variables.env}'}\n- {key: env, value: prod}\n- {key: '${k}', value: v}\n",
		"- {a: '${x}', a: 1}\n- {a: 1, a: '${x}'}\n- {a: 1, b: {c: '${x}'}, a: 2}\n- {a: {b: [1, '${x}']}, a: {b: [1, 2]}}\n",
		"- {a: [{b: '${x}'}]}\n- {a: [{b: 1}, {c: ['${y}', 2]}]}\n- {a: [{b: 1}, {c: [3, 2]}]}\n- {a: null}\n- {a: }\n- {? a}\n",
		"- - - - '${deep}'\n- - - - shallow\n",
		"- key: a\n  value: |\n    text ${x}\n- key: b\n  value: >\n    plain\n",
		"- !!str '${x}'\n- !!int 3\n- 3.0\n- 0x1F\n",
	}
	seen, knowns := 0, 0
	for _, src := range docs {
		f := syntax.ParseYAML([]byte(src))
		if f.Root == nil {
			t.Fatalf("no tree: %q", src)
		}
		var walk func(n syntax.Node)
		walk = func(n syntax.Node) {
			var node Node
			if n != nil {
				node = n
			}
			_, want := render(node)
			if got := known(node); got != want {
				t.Errorf("%q: known = %v, render = %v", src, got, want)
			}
			seen++
			if want {
				knowns++
			}
			switch n := n.(type) {
			case *syntax.Mapping:
				for _, e := range n.Entries {
					walk(e.Value)
				}
			case *syntax.Sequence:
				for _, it := range n.Items {
					walk(it)
				}
			}
		}
		walk(f.Root)
	}
	if seen < 90 || knowns < 30 || seen-knowns < 30 {
		t.Fatalf("%d nodes, %d of them known", seen, knowns)
	}
}
