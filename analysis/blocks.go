package analysis

// block hands out values of T carved from arrays, one allocation per
// array instead of per record. A record can outlive its version (the
// next one shares the records of units an edit did not touch, units.go),
// and it keeps its whole array alive: the arrays start small and double
// up to 256, so an edit that makes a few records holds a few slots, and
// a whole analysis still allocates once per 256.
type block[T any] struct {
	free []T
	next int
}

// one returns a pointer to a zero T.
func (b *block[T]) one() *T {
	if len(b.free) == 0 {
		b.next = min(max(2*b.next, 8), 256)
		b.free = make([]T, b.next)
	}
	p := &b.free[0]
	b.free = b.free[1:]
	return p
}
