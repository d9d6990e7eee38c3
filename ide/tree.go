package ide

import (
	"sort"

	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// step is one level of the path from the document root to an offset: the
// mapping entry or sequence item entered, and its value node.
type step struct {
	Entry *schema.Entry // nil for a sequence item
	Item  int           // the item index when Entry is nil
	Node  schema.Node   // the value (nil when the entry has none)
	// OnKey says the offset is on the entry's key.
	OnKey bool
}

// seg is the path segment of a step: the key, or "*" for an item.
func (s step) seg() string {
	if s.Entry == nil {
		return "*"
	}
	return s.Entry.Key.Value
}

func segs(path []step) []string {
	out := make([]string, len(path))
	for i, s := range path {
		out[i] = s.seg()
	}
	return out
}

// treePath returns the steps from root to the innermost node containing
// off. Entries are found by binary search, so the cost is the depth times
// log of the width.
func treePath(root schema.Node, off int) []step {
	var out []step
	n := root
	for n != nil {
		switch m := n.(type) {
		case *schema.Mapping:
			es := m.Entries
			i := sort.Search(len(es), func(i int) bool { return es[i].Key != nil && es[i].Key.Rng.Start > off }) - 1
			if i < 0 {
				return out
			}
			e := es[i]
			if e.Key == nil {
				return out
			}
			if e.Key.Rng.Contains(off) {
				return append(out, step{Entry: e, Node: e.Value, OnKey: true})
			}
			if e.Value == nil || !e.Value.Range().Contains(off) {
				return out
			}
			out = append(out, step{Entry: e, Node: e.Value})
			n = e.Value
		case *schema.Sequence:
			its := m.Items
			i := sort.Search(len(its), func(i int) bool { return its[i].Range().Start > off }) - 1
			if i < 0 || !its[i].Range().Contains(off) {
				return out
			}
			out = append(out, step{Item: i, Node: its[i]})
			n = its[i]
		default:
			return out
		}
	}
	return out
}

// nodeAtPath follows string segments from root ("*" is not followed:
// items have no name). It returns nil when a segment is missing.
func nodeAtPath(root schema.Node, path []string) schema.Node {
	n := root
	for _, p := range path {
		m, ok := n.(*schema.Mapping)
		if !ok {
			return nil
		}
		n = m.Get(p)
		if n == nil {
			return nil
		}
	}
	return n
}

// keysOf returns the keys of a mapping node.
func keysOf(n schema.Node) map[string]bool {
	out := map[string]bool{}
	if m, ok := n.(*schema.Mapping); ok {
		for _, e := range m.Entries {
			if e.Key != nil {
				out[e.Key.Value] = true
			}
		}
	}
	return out
}

// entryRange covers an entry's key and value.
func entryRange(e *schema.Entry) source.Range {
	r := e.Key.Rng
	if e.Value != nil {
		r = r.Union(e.Value.Range())
	}
	return r
}

// sections maps the top-level keys that hold named definitions to the
// field table of each definition.
var sections = map[dialect.Section]schema.DefKind{
	dialect.Variables:   schema.KindVariable,
	dialect.Values:      schema.KindValue,
	dialect.DataSources: schema.KindDataSource,
	dialect.Resources:   schema.KindResource,
	dialect.Include:     schema.KindInclude,
	dialect.Exports:     schema.KindExport,
}

// mappingKind returns the field table that describes the mapping at path
// (keys typed there come from it).
func mappingKind(path []string) (schema.DefKind, bool) {
	switch len(path) {
	case 0:
		return schema.KindBlueprint, true
	case 1:
		return 0, false
	case 2:
		k, ok := sections[dialect.SectionOf(path[0])]
		return k, ok
	}
	sec, rest := dialect.SectionOf(path[0]), path[2:]
	switch sec {
	case dialect.DataSources:
		switch {
		case len(rest) == 1 && rest[0] == "metadata":
			return schema.KindDataSourceMetadata, true
		case len(rest) == 1 && rest[0] == "filter", len(rest) == 2 && rest[0] == "filter" && rest[1] == "*":
			return schema.KindFilter, true
		case len(rest) == 2 && rest[0] == "exports":
			return schema.KindDataSourceExport, true
		}
	case dialect.Resources:
		switch {
		case len(rest) == 1 && rest[0] == "metadata":
			return schema.KindResourceMetadata, true
		case len(rest) == 1 && rest[0] == "linkSelector":
			return schema.KindLinkSelector, true
		case rest[0] == "condition" && conditionPath(rest[1:]):
			return schema.KindCondition, true
		}
	}
	return 0, false
}

// conditionPath reports whether rest (after "condition") leads to a
// nested condition object: (and|or) * ... or not ....
func conditionPath(rest []string) bool {
	for len(rest) > 0 {
		switch {
		case (rest[0] == "and" || rest[0] == "or") && len(rest) > 1 && rest[1] == "*":
			rest = rest[2:]
		case rest[0] == "not":
			rest = rest[1:]
		default:
			return false
		}
	}
	return true
}

// inSection reports whether path starts in section s.
func inSection(path []string, s dialect.Section) bool {
	return len(path) > 0 && dialect.SectionOf(path[0]) == s
}

// specPath returns the path inside a resource's spec when path is under
// resources.<name>.spec.
func specPath(path []string) ([]string, bool) {
	if len(path) >= 3 && inSection(path, dialect.Resources) && path[2] == "spec" {
		return path[3:], true
	}
	return nil, false
}
