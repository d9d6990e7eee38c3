package syntax

import (
	"strings"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/internal/gen"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// checkTree asserts what Tree promises for any input: a tree, never nil,
// whose ranges lie inside the document and inside their parents, with
// siblings in document order; broken regions sorted, disjoint and inside
// the document; and for a text that parses, Root itself with nothing
// broken, identical to a fresh parse.
func checkTree(t testing.TB, f *File, reparse func() *File) {
	t.Helper()
	root, broken := f.Tree()
	if root == nil {
		t.Fatal("Tree() = nil")
	}
	n := len(f.Content())
	in := func(r source.Range) bool { return 0 <= r.Start && r.Start <= r.End && r.End <= n }
	var walk func(node Node, parent source.Range)
	walk = func(node Node, parent source.Range) {
		if node == nil {
			return
		}
		r := node.Range()
		if !in(r) || !parent.ContainsRange(r) {
			t.Fatalf("range %v of %T outside the document or its parent %v (len %d)", r, node, parent, n)
		}
		prev := r.Start
		switch node := node.(type) {
		case *Mapping:
			for _, e := range node.Entries {
				if e.Key == nil {
					t.Fatalf("entry without key in %v", r)
				}
				if e.Key.Rng.Start < prev {
					t.Fatalf("entry %q at %v before its predecessor (%d)", e.Key.Value, e.Key.Rng, prev)
				}
				prev = e.Key.Rng.End
				walk(e.Key, r)
				walk(e.Value, r)
				if e.Value != nil {
					prev = max(prev, e.Value.Range().End)
				}
			}
		case *Sequence:
			for _, it := range node.Items {
				if it == nil {
					continue
				}
				if it.Range().Start < prev {
					t.Fatalf("item at %v before its predecessor (%d)", it.Range(), prev)
				}
				walk(it, r)
				prev = it.Range().End
			}
		}
	}
	walk(root, source.R(0, n))
	end := 0
	for i, b := range broken {
		if !in(b) || b.Start >= b.End && n > 0 || i > 0 && b.Start <= end {
			t.Fatalf("broken regions %v not sorted, disjoint and inside the document (len %d)", broken, n)
		}
		end = b.End
	}
	if f.HasSyntaxErrors() {
		if len(broken) == 0 {
			t.Fatalf("syntax errors %v but no broken region", f.SyntaxErrors())
		}
		return
	}
	if len(broken) != 0 {
		t.Fatalf("no syntax error but broken regions %v", broken)
	}
	if f.Root != nil && root != f.Root {
		t.Fatal("a text that parses must give Root itself")
	}
	if reparse != nil {
		g := reparse()
		gr, _ := g.Tree()
		if a, b := dumpTree(f, root), dumpTree(g, gr); a != b {
			t.Fatalf("tree differs from a fresh parse:\n%s\nvs\n%s", a, b)
		}
	}
}

func dumpTree(f *File, root Node) string {
	return dump(&File{Text: f.Text, Mapper: f.Mapper, Root: root})
}

func FuzzTree(f *testing.F) {
	addSeeds(f, ".yaml", ".json", ".jsonc")
	f.Add(gen.Blueprint(3, "yaml"))
	f.Add(gen.Blueprint(3, "json"))
	f.Add([]byte("version: 2023-04-20\nresources:\n  b: [1, 2\n  c:\n    type: x\n"))
	f.Add([]byte("a: 'x\nb: 1\n"))
	f.Add([]byte("{\"a\": [1, }"))
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, uri := range []string{"f.yaml", "f.json", "f.jsonc"} {
			checkTree(t, Parse(uri, b), func() *File { return Parse(uri, b) })
		}
	})
}

// A YAML text with a broken line keeps every other line's nodes, at
// their exact ranges, and marks the broken line.
func TestTreeRecoversYAML(t *testing.T) {
	src := "version: 2023-04-20\nresources:\n  bucket: [1, 2\n  queue:\n    type: aws/sqs/queue\n"
	f := ParseYAML([]byte(src))
	if f.Root != nil || !f.HasSyntaxErrors() {
		t.Fatalf("Root = %v, syntax errors %v; want no Root and an error", f.Root, f.SyntaxErrors())
	}
	root, broken := f.Tree()
	checkTree(t, f, nil)
	line := strings.Index(src, "  bucket")
	if want := []source.Range{source.R(line, strings.Index(src, "  queue"))}; len(broken) != 1 || broken[0] != want[0] {
		t.Errorf("broken = %v, want %v (the line of the unclosed '[')", broken, want)
	}
	m, _ := root.(*Mapping)
	if m == nil || m.Get("version") == nil {
		t.Fatalf("recovered tree lacks version: %s", dumpTree(f, root))
	}
	res, _ := m.Get("resources").(*Mapping)
	if res == nil || len(res.Entries) != 1 || res.Entries[0].Key.Value != "queue" {
		t.Fatalf("recovered resources: %s", dumpTree(f, root))
	}
	typ, _ := res.Entries[0].Value.(*Mapping).Get("type").(*Scalar)
	if off := strings.Index(src, "aws/sqs/queue"); typ == nil || typ.Value != "aws/sqs/queue" || typ.Rng != source.R(off, off+len("aws/sqs/queue")) {
		t.Errorf("queue type = %+v, want aws/sqs/queue at %d", typ, off)
	}
}

// The cases of recovery: an empty document, a whole document unreadable,
// JSON (whose own parser recovers) and several broken lines.
func TestTreeCases(t *testing.T) {
	tests := []struct {
		name, uri, src string
		keys           []string // the root mapping's keys
		broken         int      // number of broken regions
	}{
		{"empty", "a.yaml", "", nil, 0},
		{"comments only", "a.yaml", "# nothing\n", nil, 0},
		{"json recovers itself", "a.json", "{\"a\": 1, \"b\": [1,, 2], \"c\": true}", []string{"a", "b", "c"}, 1},
		{"two broken lines", "a.yaml", "a: 1\nb: [x\nc: 2\nd: {y\ne: 3\n", []string{"a", "c", "e"}, 2},
		{"tab indentation", "a.yaml", "a:\n\tb: 1\nc: 2\n", []string{"a", "c"}, 1},
		{"utf-16", "a.yaml", "\xff\xfea\x00:\x00", nil, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := Parse(tt.uri, []byte(tt.src))
			checkTree(t, f, func() *File { return Parse(tt.uri, []byte(tt.src)) })
			root, broken := f.Tree()
			var keys []string
			if m, ok := root.(*Mapping); ok {
				for _, e := range m.Entries {
					keys = append(keys, e.Key.Value)
				}
			}
			if strings.Join(keys, ",") != strings.Join(tt.keys, ",") || len(broken) != tt.broken {
				t.Errorf("keys %v, broken %v; want keys %v and %d broken regions", keys, broken, tt.keys, tt.broken)
			}
		})
	}
}
