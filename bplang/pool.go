package bplang

// pool hands out values that live until reset: an expression lives until
// its statement is rendered into the tree, and the next statement's
// reuse the same memory, so a parse allocates about as much for its
// expressions as its largest statement needs. Nothing handed out may be
// kept past reset.
type pool[T any] struct {
	blocks [][]T
	b, i   int // the block in use and its first free value
}

// poolBlock is how many values a pool's block holds, at least.
const poolBlock = 128

// take returns n contiguous zero values, their capacity exactly n.
func (a *pool[T]) take(n int) []T {
	for a.b < len(a.blocks) {
		if blk := a.blocks[a.b]; a.i+n <= len(blk) {
			s := blk[a.i : a.i+n : a.i+n]
			a.i += n
			clear(s)
			return s
		}
		a.b++
		a.i = 0
	}
	a.blocks = append(a.blocks, make([]T, max(poolBlock, n)))
	a.b, a.i = len(a.blocks)-1, n
	return a.blocks[a.b][:n:n]
}

// one returns a zero value.
func (a *pool[T]) one() *T { return &a.take(1)[0] }

// reset makes every value handed out free again.
func (a *pool[T]) reset() { a.b, a.i = 0, 0 }

// appendPooled appends x to xs, moving xs to a larger run of a when it
// is full.
func appendPooled[T any](a *pool[T], xs []T, x T) []T {
	if len(xs) == cap(xs) {
		xs = append(a.take(max(4, 2*len(xs)))[:0], xs...)
	}
	return append(xs, x)
}

// exprPools are the pools of a parser's expressions.
type exprPools struct {
	lits    pool[litExpr]
	refs    pool[refExpr]
	calls   pool[callExpr]
	arrays  pool[arrayExpr]
	objects pool[objectExpr]
	bins    pool[binExpr]
	nots    pool[notExpr]
	groups  pool[groupExpr]
	elems   pool[expr]
	fields  pool[objectField]
	args    pool[callArg]
}

func (x *exprPools) reset() {
	x.lits.reset()
	x.refs.reset()
	x.calls.reset()
	x.arrays.reset()
	x.objects.reset()
	x.bins.reset()
	x.nots.reset()
	x.groups.reset()
	x.elems.reset()
	x.fields.reset()
	x.args.reset()
}
