package syntax

import (
	"github.com/blueprint-ls/blueprint-ls/internal/slab"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// nodeSlabs are the slabs a tree's nodes are carved from (package slab
// says why).
type nodeSlabs struct {
	scalars  slab.Of[Scalar]
	mappings slab.Of[Mapping]
	seqs     slab.Of[Sequence]
	entries  slab.Of[Entry]
	entryPs  slab.Of[*Entry]
	items    slab.Of[Node]
	segs     slab.Of[source.Segment]
	maps     slab.Of[scalarMap]
}
