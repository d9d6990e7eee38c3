// Package slab hands out values carved from larger blocks. A parsed tree
// (package syntax) or a moved template (package subst) is built at once
// and dropped as a whole, so one allocation per block rather than per
// node costs nothing in retained memory worth having and spares the
// allocator and the collector most of their work on every keystroke.
package slab

// Size is how many values a slab allocates at once, at most: the first
// block of each Of holds 8 and each next one twice as many, up to Size,
// so that a small document (a monorepo checks thousands) does not pay
// for clearing, faulting in and scanning blocks it leaves mostly empty.
const Size = 256

// first is the size of an Of's first block.
const first = 8

// Of hands out values of T. The zero value is ready; it is not safe for
// concurrent use (one builder owns it).
type Of[T any] struct {
	free []T
	size int // the size of the last block allocated
}

// refill replaces the free block with a new one of at least n values.
func (s *Of[T]) refill(n int) {
	s.size = min(max(2*s.size, first), Size)
	s.free = make([]T, max(s.size, n))
}

// One returns a pointer to a zero T.
func (s *Of[T]) One() *T {
	if len(s.free) == 0 {
		s.refill(1)
	}
	p := &s.free[0]
	s.free = s.free[1:]
	return p
}

// Many returns an empty slice with capacity n. Its capacity is exact, so
// appending past n reallocates rather than overwrite a neighbour.
func (s *Of[T]) Many(n int) []T {
	if n > Size/8 {
		return make([]T, 0, n)
	}
	if len(s.free) < n || s.free == nil {
		// Never nil, even for n == 0: an empty collection is an empty
		// slice however many values came before it (a splice's copy and a
		// parse must agree).
		s.refill(n)
	}
	out := s.free[:0:n]
	s.free = s.free[n:]
	return out
}

// CopyOf returns a copy of v in slab memory, with exact capacity.
func (s *Of[T]) CopyOf(v []T) []T {
	return append(s.Many(len(v)), v...)
}
