// Package chunked is a fixed-length vector that the versions of a
// document share: it is kept in chunks of 256 values, and a version made
// from another copies only the chunks it changes (and the list of chunk
// pointers, one per 256 values). Analysis keeps what it knows per
// definition this way, so that an edit that changes one definition of
// thousands copies one chunk, not every definition's entry. The last
// chunk holds only the values past the last full one, so a small
// document's Vec (a monorepo checks thousands) is not 256 values long.
package chunked

const size = 256

// Vec holds n values of T. The zero Vec is empty. A Vec that has been
// handed to readers must not be Set again; make the next version with
// Edit.
type Vec[T any] struct {
	chunks [][]T  // each size values long but the last; nil: all zero
	owned  []bool // chunks this version made (its own to write)
	n      int
}

// Make returns a Vec of n zero values.
func Make[T any](n int) Vec[T] {
	return Vec[T]{chunks: make([][]T, (n+size-1)/size), owned: make([]bool, (n+size-1)/size), n: n}
}

// Edit returns a Vec holding v's values that shares v's chunks until
// Set changes one of them.
func (v Vec[T]) Edit() Vec[T] {
	chunks := make([][]T, len(v.chunks))
	copy(chunks, v.chunks)
	return Vec[T]{chunks: chunks, owned: make([]bool, len(chunks)), n: v.n}
}

// Len returns the number of values.
func (v Vec[T]) Len() int { return v.n }

// At returns value i (the zero value when i is out of range).
func (v Vec[T]) At(i int) T {
	var zero T
	if i < 0 || i >= v.n {
		return zero
	}
	if c := v.chunks[i/size]; c != nil {
		return c[i%size]
	}
	return zero
}

// Shares reports whether v and w hold value i in one chunk they share
// (so every value of that chunk is the same in both): a version made
// with Edit shares every chunk it did not Set.
func (v Vec[T]) Shares(w Vec[T], i int) bool {
	k := i / size
	if i < 0 || i >= v.n || i >= w.n {
		return false
	}
	a, b := v.chunks[k], w.chunks[k]
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return &a[0] == &b[0] && len(a) == len(b)
}

// Set makes value i x, copying its chunk first when it is shared.
func (v Vec[T]) Set(i int, x T) {
	k := i / size
	if !v.owned[k] {
		c := make([]T, min(size, v.n-k*size))
		copy(c, v.chunks[k])
		v.chunks[k], v.owned[k] = c, true
	}
	v.chunks[k][i%size] = x
}
