package convert

import (
	"fmt"
	"strconv"

	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// difference describes where tree b differs from tree a (the blueprint
// before and after conversion): the path to the first difference and
// what differs, or "" when both hold the same mappings, lists and
// scalars (keys in the same order, scalars of the same kind and value).
func difference(a, b syntax.Node) string {
	var walk func(a, b syntax.Node, path string) string
	walk = func(a, b syntax.Node, path string) string {
		if path == "" {
			path = "the top level"
		}
		switch a := a.(type) {
		case *syntax.Mapping:
			bm, ok := b.(*syntax.Mapping)
			if !ok {
				return fmt.Sprintf("%s: a mapping became %s", path, kindName(b))
			}
			top := path == "the top level"
			ae, be := entries(a, top), entries(bm, top)
			if len(ae) != len(be) {
				return fmt.Sprintf("%s: %d keys became %d", path, len(ae), len(be))
			}
			for i, e := range ae {
				if e.Key.Value != be[i].Key.Value {
					return fmt.Sprintf("%s: key %q became %q", path, e.Key.Value, be[i].Key.Value)
				}
				if d := walk(e.Value, be[i].Value, join(path, e.Key.Value)); d != "" {
					return d
				}
			}
		case *syntax.Sequence:
			bs, ok := b.(*syntax.Sequence)
			if !ok {
				return fmt.Sprintf("%s: a list became %s", path, kindName(b))
			}
			if len(a.Items) != len(bs.Items) {
				return fmt.Sprintf("%s: %d items became %d", path, len(a.Items), len(bs.Items))
			}
			for i, it := range a.Items {
				if d := walk(it, bs.Items[i], join(path, strconv.Itoa(i))); d != "" {
					return d
				}
			}
		case *syntax.Scalar:
			bs, ok := b.(*syntax.Scalar)
			if !ok {
				return fmt.Sprintf("%s: a scalar became %s", path, kindName(b))
			}
			if a.Tag != bs.Tag || a.Value != bs.Value && a.Tag != syntax.NullTag {
				return fmt.Sprintf("%s: %s became %s", path, strconv.Quote(a.Value), strconv.Quote(bs.Value))
			}
		case nil:
			if b != nil {
				return fmt.Sprintf("%s: nothing became %s", path, kindName(b))
			}
		}
		return ""
	}
	return walk(a, b, "")
}

func join(path, seg string) string {
	if path == "the top level" {
		return seg
	}
	return path + "." + seg
}

func kindName(n syntax.Node) string {
	switch n.(type) {
	case *syntax.Mapping:
		return "a mapping"
	case *syntax.Sequence:
		return "a list"
	case *syntax.Scalar:
		return "a scalar"
	}
	return "nothing"
}

// entries are m's entries; at the top level without the empty sections
// (a section key with no value), which say nothing.
func entries(m *syntax.Mapping, top bool) []*syntax.Entry {
	if !top {
		return m.Entries
	}
	var out []*syntax.Entry
	for _, e := range m.Entries {
		if s, ok := e.Value.(*syntax.Scalar); ok && s.Tag == syntax.NullTag {
			continue
		}
		out = append(out, e)
	}
	return out
}
