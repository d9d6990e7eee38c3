package schema

import (
	"github.com/blueprint-ls/blueprint-ls/internal/slab"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// twins builds a definition's typed view over a moved copy of its entry
// (syntax.Splice copies the entries after an edit with every offset
// moved) from the typed view of the original: each node the view points
// at is replaced by its twin, the node at the same place in the copy.
// Nothing is loaded again and nothing of the original changes. A node
// not found where the view says it is sets failed, and the caller loads
// the entry afresh.
type twins struct {
	failed bool
	// the views are carved from slabs, as the parser carves nodes
	fields    slab.Of[Field]
	resources slab.Of[Resource]
	metadata  slab.Of[ResourceMetadata]
}

// field returns the twin of f, an entry of old, as an entry of cur.
func (t *twins) field(old, cur *Mapping, f *Field) *Field {
	if f == nil {
		return nil
	}
	e := t.entry(old, cur, f.Entry)
	if e == nil {
		return nil
	}
	out := t.fields.One()
	out.Entry = e
	return out
}

// entry returns the twin of e, an entry of old, among cur's entries.
func (t *twins) entry(old, cur *Mapping, e *Entry) *Entry {
	if old != nil && cur != nil && len(old.Entries) == len(cur.Entries) {
		for i, x := range old.Entries {
			if x == e {
				return cur.Entries[i]
			}
		}
	}
	t.failed = true
	return nil
}

// node returns the twin of target, a node under old, under cur.
func (t *twins) node(old, cur, target Node) Node {
	if n := findTwin(old, cur, target); n != nil {
		return n
	}
	t.failed = true
	return nil
}

func findTwin(old, cur, target Node) Node {
	if old == target {
		return cur
	}
	switch o := old.(type) {
	case *Mapping:
		c, ok := cur.(*Mapping)
		if !ok || len(c.Entries) != len(o.Entries) {
			return nil
		}
		for i, e := range o.Entries {
			if e.Key == target {
				return c.Entries[i].Key
			}
			if e.Value != nil && c.Entries[i].Value != nil {
				if n := findTwin(e.Value, c.Entries[i].Value, target); n != nil {
					return n
				}
			}
		}
	case *Sequence:
		c, ok := cur.(*Sequence)
		if !ok || len(c.Items) != len(o.Items) {
			return nil
		}
		for i, it := range o.Items {
			if n := findTwin(it, c.Items[i], target); n != nil {
				return n
			}
		}
	}
	return nil
}

// mapping returns f's value as a mapping, and its twin's.
func (t *twins) mappings(f, twin *Field) (old, cur *Mapping) {
	if f == nil || twin == nil {
		return nil, nil
	}
	return f.Mapping(), twin.Mapping()
}

// resource returns r, loaded from entry old, over cur, old's moved copy.
func (t *twins) resource(r *Resource, old, cur *Entry) *Resource {
	out := t.resources.One()
	out.Name, out.Entry = r.Name, cur
	if r.Mapping == nil {
		return out
	}
	om, m := r.Mapping, asMapping(cur.Value)
	if m == nil || old.Value != om {
		t.failed = true
		return out
	}
	out.Mapping = m
	out.Type = t.field(om, m, r.Type)
	out.Description = t.field(om, m, r.Description)
	out.Each = t.field(om, m, r.Each)
	out.Spec = t.field(om, m, r.Spec)
	out.DependsOn = t.field(om, m, r.DependsOn)
	out.RemovalPolicy = t.field(om, m, r.RemovalPolicy)
	out.ConditionNode = t.field(om, m, r.ConditionNode)
	if md := r.Metadata; md != nil {
		f := t.field(om, m, md.Field)
		o, c := t.mappings(md.Field, f)
		out.Metadata = t.metadata.One()
		*out.Metadata = ResourceMetadata{
			Field:       f,
			DisplayName: t.field(o, c, md.DisplayName),
			Labels:      t.field(o, c, md.Labels),
			Annotations: t.field(o, c, md.Annotations),
			Custom:      t.field(o, c, md.Custom),
		}
	}
	if ls := r.LinkSelector; ls != nil {
		f := t.field(om, m, ls.Field)
		o, c := t.mappings(ls.Field, f)
		out.LinkSelector = &LinkSelector{Field: f, ByLabel: t.field(o, c, ls.ByLabel), Exclude: t.field(o, c, ls.Exclude)}
	}
	if r.Condition != nil && r.ConditionNode != nil && out.ConditionNode != nil {
		out.Condition = t.condition(r.ConditionNode.Node(), out.ConditionNode.Node(), r.Condition)
	}
	if r.DependsOnRefs != nil && out.DependsOn != nil {
		out.DependsOnRefs = make([]*Scalar, len(r.DependsOnRefs))
		for i, s := range r.DependsOnRefs {
			out.DependsOnRefs[i], _ = t.node(r.DependsOn.Node(), out.DependsOn.Node(), s).(*Scalar)
		}
	}
	return out
}

// condition returns c, read from old, over cur.
func (t *twins) condition(old, cur Node, c Condition) Condition {
	switch c := c.(type) {
	case *ConditionExpr:
		s, _ := t.node(old, cur, c.Scalar).(*Scalar)
		return &ConditionExpr{Scalar: s}
	case *ConditionOp:
		m, _ := t.node(old, cur, c.Mapping).(*Mapping)
		k, _ := t.node(old, cur, c.OpKey).(*Scalar)
		out := &ConditionOp{Mapping: m, Op: c.Op, OpKey: k}
		if c.Operands != nil {
			out.Operands = make([]Condition, len(c.Operands))
			for i, sub := range c.Operands {
				out.Operands[i] = t.condition(old, cur, sub)
			}
		}
		return out
	}
	t.failed = true
	return nil
}

func asMapping(n Node) *Mapping {
	m, _ := n.(*Mapping)
	return m
}

// movedDiags returns ds with every offset x of the previous text mapped
// to mv(x); ds itself when none changes.
func movedDiags(ds []source.Diagnostic, mv func(int) int) []source.Diagnostic {
	r := func(r source.Range) source.Range { return source.Range{Start: mv(r.Start), End: mv(r.End)} }
	changes := func(x source.Range) bool { return r(x) != x }
	same := true
	for _, d := range ds {
		if changes(d.Range) {
			same = false
		}
		for _, rel := range d.Related {
			if changes(rel.Range) {
				same = false
			}
		}
		for _, s := range d.Suggestions {
			for _, e := range s.Edits {
				if changes(e.Range) {
					same = false
				}
			}
		}
	}
	if same {
		return ds
	}
	out := make([]source.Diagnostic, len(ds))
	for i, d := range ds {
		if d.Related != nil {
			rel := make([]source.Related, len(d.Related))
			for j, x := range d.Related {
				x.Range = r(x.Range)
				rel[j] = x
			}
			d.Related = rel
		}
		if d.Suggestions != nil {
			sugs := make([]source.Suggestion, len(d.Suggestions))
			for j, s := range d.Suggestions {
				edits := make([]source.Edit, len(s.Edits))
				for k, e := range s.Edits {
					e.Range = r(e.Range)
					edits[k] = e
				}
				s.Edits = edits
				sugs[j] = s
			}
			d.Suggestions = sugs
		}
		d.Range = r(d.Range)
		out[i] = d
	}
	return out
}
