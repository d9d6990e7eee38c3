package registry

import (
	"strings"

	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// Node is the input tree spec validation reads: a resource's spec as the
// document parser produced it (package syntax's tree, the one every
// layer reads).
type Node = syntax.Node

// The shapes and scalar tags of the tree, by the names validation uses.
const (
	MappingNode  = syntax.MappingKind
	SequenceNode = syntax.SequenceKind
	ScalarNode   = syntax.ScalarKind

	StringTag = syntax.StringTag
	IntTag    = syntax.IntTag
	FloatTag  = syntax.FloatTag
	BoolTag   = syntax.BoolTag
	NullTag   = syntax.NullTag
)

// dynamic reports whether n is a string scalar holding a ${..}
// substitution (or text that tried to be one). Its value is known only
// after evaluation, so value checks are skipped; the analysis layer
// checks the substitution's inferred type against Schema.Type instead.
// Collections are never dynamic themselves: their structure is checked
// even when some members are.
func dynamic(n Node) bool {
	sc, ok := n.(*syntax.Scalar)
	return ok && sc.IsString() && strings.Contains(sc.Value, "${")
}

// scalarOf returns the decoded text and tag of a scalar, ("", NullTag)
// for a collection.
func scalarOf(n Node) (string, syntax.ScalarTag) {
	sc, ok := n.(*syntax.Scalar)
	if !ok {
		return "", NullTag
	}
	return sc.Value, sc.Tag
}

// lenOf is the number of entries of a mapping or items of a sequence.
func lenOf(n Node) int {
	switch n := n.(type) {
	case *syntax.Mapping:
		return len(n.Entries)
	case *syntax.Sequence:
		return len(n.Items)
	}
	return 0
}

// entryOf returns mapping entry i: its key, the key's range (where
// unknown-field, read-only and deprecated diagnostics go, and missing
// fields of a nested object) and its value (nil when the parser
// recovered from an error; such values are not checked).
func entryOf(n Node, i int) (string, source.Range, Node) {
	e := n.(*syntax.Mapping).Entries[i]
	var v Node
	if e.Value != nil {
		v = e.Value
	}
	if e.Key == nil {
		return "", source.Range{}, v
	}
	return e.Key.Value, e.Key.Rng, v
}

// itemOf returns sequence item i.
func itemOf(n Node, i int) Node { return n.(*syntax.Sequence).Items[i] }
