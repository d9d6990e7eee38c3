package analysis

// block hands out values of T carved from 256-value arrays. A Result's
// sites, references and edges are made together and dropped together,
// so one allocation per block instead of per record costs no retained
// memory worth having and spares the collector work on every keystroke.
type block[T any] struct {
	free []T
}

// one returns a pointer to a zero T.
func (b *block[T]) one() *T {
	if len(b.free) == 0 {
		b.free = make([]T, 256)
	}
	p := &b.free[0]
	b.free = b.free[1:]
	return p
}
