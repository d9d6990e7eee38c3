package registry

import "github.com/blueprint-ls/blueprint-ls/source"

// NodeKind says which of the three shapes a Node has.
type NodeKind int

const (
	MappingNode NodeKind = iota
	SequenceNode
	ScalarNode
)

// ScalarTag is the resolved type of a scalar as written: a quoted "5" is
// a StringTag, a plain 5 an IntTag. The order matches schema.ScalarTag.
type ScalarTag int

const (
	StringTag ScalarTag = iota
	IntTag
	FloatTag
	BoolTag
	NullTag
)

func (t ScalarTag) String() string {
	switch t {
	case IntTag:
		return "integer"
	case FloatTag:
		return "float"
	case BoolTag:
		return "boolean"
	case NullTag:
		return "null"
	}
	return "string"
}

// Node is the input tree spec validation reads: a resource's spec as the
// document parser produced it. The registry sits below package schema, so
// the analysis layer adapts schema's nodes to this interface; tests use a
// small implementation of their own.
//
// Methods that do not apply to a node's kind return zero values: Len is
// 0 for a scalar, Scalar returns ("", NullTag) for a collection.
type Node interface {
	Kind() NodeKind
	// Range covers the node's source text; diagnostics about the value
	// (type, enum, pattern, bounds) are reported on it.
	Range() source.Range
	// Dynamic reports whether the node is a scalar containing a ${..}
	// substitution. Its value is known only after evaluation, so value
	// checks are skipped; the analysis layer checks the substitution's
	// inferred type against Schema.Type instead. Collections are never
	// dynamic themselves: their structure is checked even when some
	// members are.
	Dynamic() bool
	// Scalar returns the decoded text and tag of a scalar.
	Scalar() (value string, tag ScalarTag)
	// Len returns the number of entries of a mapping or items of a
	// sequence.
	Len() int
	// Entry returns mapping entry i: its key, the key's range (where
	// unknown-field, read-only and deprecated diagnostics go, and missing
	// fields of a nested object) and its value (nil when the parser
	// recovered from an error; such values are not checked).
	Entry(i int) (key string, keyRange source.Range, value Node)
	// Item returns sequence item i.
	Item(i int) Node
}
