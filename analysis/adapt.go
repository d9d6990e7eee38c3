package analysis

import (
	"sync"

	"github.com/blueprint-ls/blueprint-ls/providers/registry"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
)

var (
	builtinOnce sync.Once
	builtin     *registry.Registry
)

// builtinRegistry returns the embedded providers, loaded once per process.
func builtinRegistry() *registry.Registry {
	builtinOnce.Do(func() { builtin = registry.NewBuiltin() })
	return builtin
}

// BuiltinRegistry returns the shared registry of embedded providers.
func BuiltinRegistry() *registry.Registry { return builtinRegistry() }

// specNode adapts a schema node to the registry's validation interface.
// It is used through a pointer, carved from its adapter's blocks, so that
// handing a child to the validator as a registry.Node allocates nothing.
type specNode struct {
	n  schema.Node
	ad *adapter
}

// adapter wraps the nodes of specs for validation.
type adapter struct {
	sites map[*schema.Scalar]*Site
	free  []specNode
}

// wrap returns n as a registry.Node.
func (ad *adapter) wrap(n schema.Node) *specNode {
	if len(ad.free) == 0 {
		ad.free = make([]specNode, 256)
	}
	s := &ad.free[0]
	ad.free = ad.free[1:]
	s.n, s.ad = n, ad
	return s
}

func (s *specNode) Kind() registry.NodeKind {
	switch s.n.(type) {
	case *schema.Mapping:
		return registry.MappingNode
	case *schema.Sequence:
		return registry.SequenceNode
	}
	return registry.ScalarNode
}

func (s *specNode) Range() source.Range { return s.n.Range() }

func (s *specNode) Dynamic() bool {
	sc, ok := s.n.(*schema.Scalar)
	return ok && s.ad.sites[sc] != nil
}

func (s *specNode) Scalar() (string, registry.ScalarTag) {
	sc, ok := s.n.(*schema.Scalar)
	if !ok {
		return "", registry.NullTag
	}
	switch sc.Tag {
	case schema.IntTag:
		return sc.Value, registry.IntTag
	case schema.FloatTag:
		return sc.Value, registry.FloatTag
	case schema.BoolTag:
		return sc.Value, registry.BoolTag
	case schema.NullTag:
		return sc.Value, registry.NullTag
	}
	return sc.Value, registry.StringTag
}

func (s *specNode) Len() int {
	switch n := s.n.(type) {
	case *schema.Mapping:
		return len(n.Entries)
	case *schema.Sequence:
		return len(n.Items)
	}
	return 0
}

func (s *specNode) Entry(i int) (string, source.Range, registry.Node) {
	m := s.n.(*schema.Mapping)
	e := m.Entries[i]
	var v registry.Node
	if e.Value != nil {
		v = s.ad.wrap(e.Value)
	}
	if e.Key == nil {
		return "", source.Range{}, v
	}
	return e.Key.Value, e.Key.Rng, v
}

func (s *specNode) Item(i int) registry.Node {
	return s.ad.wrap(s.n.(*schema.Sequence).Items[i])
}
