package resschema

import (
	"fmt"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// MaxRefExpansion bounds a resource schema followed through its $refs,
// counted as the tree of property schemas it stands for: definitions
// that each reference the next one twice make that tree exponential in
// their depth (40 levels: 2^40 schemas) though the file is small. The
// registry cuts a resource's types at this budget (past it, fields are
// typed any); this rule says so on the $ref where the tree passes it.
// The largest built-in AWS schema (QuickSight Dashboard) counts about
// 37,000.
const MaxRefExpansion = 100_000

// CodeRefExpansion is reported on the $ref past which the schema's
// expansion passes MaxRefExpansion.
var CodeRefExpansion = source.NewCode("provider-schema-ref-expansion", source.Warning,
	fmt.Sprintf("The schema's $refs, followed, stand for more than %d property schemas (definitions that reference the next one more than once double at each level); the resource's fields past that budget are typed any.", MaxRefExpansion),
	"\"definitions\": {\"D0\": {\"properties\": {\"A\": {\"$ref\": \"#/definitions/D1\"}, \"B\": {\"$ref\": \"#/definitions/D1\"}}}, ...}")

// expansion counts, once per node, the property schemas a schema node
// stands for with its $refs followed; a reference back into a schema
// being counted counts one.
type expansion struct {
	root     *syntax.Mapping
	size     map[*syntax.Mapping]int
	visiting map[*syntax.Mapping]bool
}

// checkExpansion reports the $ref through which the resource's
// properties pass MaxRefExpansion: the deepest one whose target alone
// passes it.
func checkExpansion(root *syntax.Mapping) []source.Diagnostic {
	e := &expansion{root: root, size: map[*syntax.Mapping]int{}, visiting: map[*syntax.Mapping]bool{}}
	if e.count(root) <= MaxRefExpansion {
		return nil
	}
	var last *syntax.Scalar
	seen := map[*syntax.Mapping]bool{}
	cur := root
	for cur != nil && !seen[cur] {
		seen[cur] = true
		var next *syntax.Mapping
		if ref, t := e.ref(cur); t != nil && e.count(t) > MaxRefExpansion {
			last, next = ref, t
		} else {
			e.children(cur, func(c *syntax.Mapping) bool {
				if e.count(c) > MaxRefExpansion {
					next = c
					return false
				}
				return true
			})
		}
		cur = next
	}
	if last == nil {
		return nil
	}
	return []source.Diagnostic{CodeRefExpansion.New(last.Rng,
		"$ref %q, followed with the references below it, stands for more than %d property schemas (its definitions reference the next more than once); the fields below it are typed any past that budget", last.Value, MaxRefExpansion)}
}

// count is the size of n's tree, at most MaxRefExpansion+1.
func (e *expansion) count(n *syntax.Mapping) int {
	if s, ok := e.size[n]; ok {
		return s
	}
	if e.visiting[n] {
		return 1
	}
	e.visiting[n] = true
	total := 1
	if _, t := e.ref(n); t != nil {
		total += e.count(t)
	}
	e.children(n, func(c *syntax.Mapping) bool {
		total += e.count(c)
		return total <= MaxRefExpansion
	})
	delete(e.visiting, n)
	total = min(total, MaxRefExpansion+1)
	e.size[n] = total
	return total
}

// ref is n's local $ref and the mapping it names.
func (e *expansion) ref(n *syntax.Mapping) (*syntax.Scalar, *syntax.Mapping) {
	s, ok := n.Get("$ref").(*syntax.Scalar)
	if !ok || !s.IsString() || !strings.HasPrefix(s.Value, "#") {
		return nil, nil
	}
	t, _ := target(e.root, s.Value)
	m, _ := t.(*syntax.Mapping)
	if m == nil {
		return nil, nil
	}
	return s, m
}

// children calls f on n's subschemas until f returns false.
func (e *expansion) children(n *syntax.Mapping, f func(*syntax.Mapping) bool) {
	for _, en := range n.Entries {
		var list []syntax.Node
		switch en.Key.Value {
		case "properties", "patternProperties":
			if m, ok := en.Value.(*syntax.Mapping); ok {
				for _, pe := range m.Entries {
					list = append(list, pe.Value)
				}
			}
		case "items", "additionalProperties":
			if s, ok := en.Value.(*syntax.Sequence); ok {
				list = s.Items
			} else {
				list = []syntax.Node{en.Value}
			}
		case "oneOf", "anyOf", "allOf":
			if s, ok := en.Value.(*syntax.Sequence); ok {
				list = s.Items
			}
		}
		for _, c := range list {
			if m, ok := c.(*syntax.Mapping); ok && !f(m) {
				return
			}
		}
	}
}
