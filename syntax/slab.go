package syntax

import "github.com/blueprint-ls/blueprint-ls/source"

// slabSize is how many values a slab allocates at once.
const slabSize = 256

// slab hands out values of T carved from larger blocks. A parsed tree is
// built at once and dropped as a whole, so one allocation per block rather
// than per node costs nothing in retained memory worth having and spares
// the allocator and the collector most of their work on every keystroke.
type slab[T any] struct {
	free []T
}

// one returns a pointer to a zero T.
func (s *slab[T]) one() *T {
	if len(s.free) == 0 {
		s.free = make([]T, slabSize)
	}
	p := &s.free[0]
	s.free = s.free[1:]
	return p
}

// many returns an empty slice with capacity n. Its capacity is exact, so
// appending past n reallocates rather than overwrite a neighbour.
func (s *slab[T]) many(n int) []T {
	if n > slabSize/8 {
		return make([]T, 0, n)
	}
	if len(s.free) < n || s.free == nil {
		// Never nil, even for n == 0: an empty collection is an empty
		// slice however many nodes came before it (a splice's copy and a
		// parse must agree).
		s.free = make([]T, slabSize)
	}
	out := s.free[:0:n]
	s.free = s.free[n:]
	return out
}

// copyOf returns a copy of v in slab memory, with exact capacity.
func (s *slab[T]) copyOf(v []T) []T {
	return append(s.many(len(v)), v...)
}

// nodeSlabs are the slabs a tree's nodes are carved from.
type nodeSlabs struct {
	scalars  slab[Scalar]
	mappings slab[Mapping]
	seqs     slab[Sequence]
	entries  slab[Entry]
	entryPs  slab[*Entry]
	items    slab[Node]
	segs     slab[source.Segment]
}
