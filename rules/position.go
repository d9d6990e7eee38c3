package rules

import (
	"strings"

	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// located is where a finding is reported, and the literal scalar there
// when the value is written as one (a quick fix may replace it).
type located struct {
	rng     source.Range
	literal *syntax.Scalar
}

// locate finds the source node that decides a finding at path in the
// resource def: the value written at path (or the ${..} scalar it came
// from), for a missing field its deepest written ancestor's key, and the
// resource's type when nothing of the path is written.
func locate(def *schema.Resource, path []seg, missing bool) located {
	typeAt := located{rng: def.NameRange()}
	if def.Type != nil {
		typeAt.rng = def.Type.ValueRange()
	}
	if def.Spec == nil {
		return typeAt
	}
	node := def.Spec.Node()
	var key *syntax.Scalar // the key of the entry holding node
	for _, s := range path {
		if sc, ok := node.(*syntax.Scalar); ok && strings.Contains(sc.Value, "${") {
			return located{rng: sc.Rng} // the rest of the path came from an expression
		}
		var next syntax.Node
		switch n := node.(type) {
		case *syntax.Mapping:
			if s.key == "" {
				break
			}
			e := n.Entry(s.key)
			if e == nil && s.key != "" {
				e = n.Entry(strings.ToUpper(s.key[:1]) + s.key[1:])
			}
			if e != nil {
				next, key = e.Value, e.Key
			}
		case *syntax.Sequence:
			if s.key == "" && s.idx >= 0 && s.idx < len(n.Items) {
				next, key = n.Items[s.idx], nil
			}
		}
		if next == nil {
			break
		}
		node = next
		if node == nil {
			break
		}
	}
	if node == nil || node == def.Spec.Node() {
		if key == nil {
			return typeAt
		}
	}
	if sc, ok := node.(*syntax.Scalar); ok && !missing {
		if strings.Contains(sc.Value, "${") {
			return located{rng: sc.Rng}
		}
		return located{rng: sc.Rng, literal: sc}
	}
	if sc, ok := node.(*syntax.Scalar); ok && strings.Contains(sc.Value, "${") {
		return located{rng: sc.Rng}
	}
	if key != nil {
		return located{rng: key.Rng}
	}
	if node != nil && node != def.Spec.Node() {
		r := node.Range()
		return located{rng: source.R(r.Start, r.Start+1)}
	}
	return typeAt
}
