package rules

import (
	"strconv"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/eval"

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
	return locateUnder(def, def.Spec, path, missing)
}

// locateUnder is locate from a field of the resource other than its
// spec (its metadata).
func locateUnder(def *schema.Resource, under *schema.Field, path []seg, missing bool) located {
	if under == nil {
		return typeOf(def)
	}
	root := under.Node()
	node := root
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
	if node == nil || node == root {
		if key == nil {
			return typeOf(def)
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
	if node != nil && node != root {
		r := node.Range()
		return located{rng: source.R(r.Start, r.Start+1)}
	}
	return typeOf(def)
}

// typeOf is where a finding about the resource def itself is reported:
// its type (its name when it has none). Made only when a finding goes
// there: reading the type's node is a cache miss on a large blueprint.
func typeOf(def *schema.Resource) located {
	if def.Type != nil {
		return located{rng: def.Type.ValueRange()}
	}
	return located{rng: def.NameRange()}
}

// Locate is where a finding about the field at path of resource
// instance r belongs: path is "spec.a.b[0].c", "metadata.labels.x" or ""
// (the resource itself: its type). A path that is not written is placed
// at its deepest written ancestor, as the built-in rules place theirs.
func Locate(r *eval.Resource, path string) source.Range {
	if r == nil || r.Symbol == nil || r.Symbol.Resource == nil {
		return source.Range{}
	}
	def := r.Symbol.Resource
	var segs []seg
	for _, step := range splitPath(path) {
		if step == star {
			continue
		}
		name, rest, _ := strings.Cut(step, "[")
		if name != "" {
			segs = append(segs, seg{key: name, idx: -1})
		}
		for rest != "" {
			n, after, _ := strings.Cut(rest, "]")
			i, err := strconv.Atoi(n)
			if err != nil {
				break
			}
			segs = append(segs, seg{idx: i})
			rest = strings.TrimPrefix(after, "[")
		}
	}
	if len(segs) == 0 {
		return locate(def, nil, true).rng
	}
	switch segs[0].key {
	case "spec":
		if len(segs) == 1 && def.Spec != nil {
			return def.Spec.KeyRange()
		}
		return locate(def, segs[1:], false).rng
	case "metadata":
		if def.Metadata != nil && def.Metadata.Field != nil {
			if len(segs) == 1 {
				return def.Metadata.Field.KeyRange()
			}
			return locateUnder(def, def.Metadata.Field, segs[1:], false).rng
		}
	}
	return locate(def, nil, true).rng
}
