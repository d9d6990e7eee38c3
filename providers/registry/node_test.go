package registry

import (
	"fmt"

	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// tnode is a test's view of a syntax tree parsed from JSON (so tests
// state exact ranges): its children by index and key, for walking; tn
// hands the tree itself to validation.
type tnode struct {
	sn      syntax.Node
	kind    syntax.Kind
	rng     source.Range
	value   string
	tag     syntax.ScalarTag
	keys    []string
	keyRngs []source.Range
	kids    []*tnode
}

func (n *tnode) Kind() syntax.Kind   { return n.kind }
func (n *tnode) Range() source.Range { return n.rng }
func (n *tnode) Scalar() (string, syntax.ScalarTag) {
	if n.kind != ScalarNode {
		return "", NullTag
	}
	return n.value, n.tag
}
func (n *tnode) Len() int { return len(n.kids) }

// tn is the syntax node of n (nil for nil).
func tn(n *tnode) Node {
	if n == nil {
		return nil
	}
	return n.sn
}

// get follows keys (and decimal indexes) to a descendant.
func (n *tnode) get(path ...string) *tnode {
	cur := n
	for _, p := range path {
		found := false
		if cur.kind == SequenceNode {
			var i int
			fmt.Sscan(p, &i)
			cur, found = cur.kids[i], true
		} else {
			for i, k := range cur.keys {
				if k == p {
					cur, found = cur.kids[i], true
					break
				}
			}
		}
		if !found {
			panic("no " + p)
		}
	}
	return cur
}

// keyRange returns the range of the last key in path.
func (n *tnode) keyRange(path ...string) source.Range {
	parent := n.get(path[:len(path)-1]...)
	for i, k := range parent.keys {
		if k == path[len(path)-1] {
			return parent.keyRngs[i]
		}
	}
	panic("no key " + path[len(path)-1])
}

// parseJSONNode parses src with the document parser; it must be valid.
func parseJSONNode(src string) *tnode {
	f := syntax.ParseJSON([]byte(src), false)
	if len(f.Diagnostics) > 0 {
		panic(fmt.Sprintf("invalid test JSON: %v", f.Diagnostics))
	}
	return view(f.Root)
}

func view(n syntax.Node) *tnode {
	if n == nil {
		return nil
	}
	t := &tnode{sn: n, kind: n.Kind(), rng: n.Range()}
	switch n := n.(type) {
	case *syntax.Mapping:
		for _, e := range n.Entries {
			t.keys = append(t.keys, e.Key.Value)
			t.keyRngs = append(t.keyRngs, e.Key.Rng)
			t.kids = append(t.kids, view(e.Value))
		}
	case *syntax.Sequence:
		for _, it := range n.Items {
			t.kids = append(t.kids, view(it))
		}
	case *syntax.Scalar:
		t.value, t.tag = n.Value, n.Tag
	}
	return t
}

func sourceR(s, e int) source.Range { return source.R(s, e) }

func (s *Schema) rangeForTest() source.Range { return source.R(0, 1) }
