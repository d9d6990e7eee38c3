package analysis

import "slices"

// usersIndex lists, for each symbol (by index), the units whose records
// name it: a reference's target or field, a link() name, an edge's end
// (unitRecs.targets), or a resource's dependsOn or exclude name
// (declRecs). It answers what an edit spreads to (planReuse) and which
// carried-over units must stop sharing their records (planSharing)
// without a walk over every reference. Versions that declare the same
// names share its chunks; an edit copies the few it changes.
type usersIndex struct {
	chunks []*usersChunk
	n      int
}

const usersChunkSize = 256

type usersChunk [usersChunkSize][]int32

// of returns the units that name symbol t, in index order.
func (x *usersIndex) of(t int) []int32 {
	if x == nil || t < 0 || t >= x.n {
		return nil
	}
	if c := x.chunks[t/usersChunkSize]; c != nil {
		return c[t%usersChunkSize]
	}
	return nil
}

// usersEdit makes the next version's index from the previous one,
// copying a chunk the first time one of its lists changes, and a list
// whenever it changes (the previous version's are read concurrently).
type usersEdit struct {
	x     *usersIndex
	owned []bool
}

func newUsersEdit(prev *usersIndex, n int) *usersEdit {
	x := &usersIndex{n: n, chunks: make([]*usersChunk, (n+usersChunkSize-1)/usersChunkSize)}
	if prev != nil && prev.n == n {
		copy(x.chunks, prev.chunks)
	}
	return &usersEdit{x: x, owned: make([]bool, len(x.chunks))}
}

func (e *usersEdit) chunk(t int) *usersChunk {
	k := t / usersChunkSize
	if !e.owned[k] {
		c := new(usersChunk)
		if old := e.x.chunks[k]; old != nil {
			*c = *old
		}
		e.x.chunks[k], e.owned[k] = c, true
	}
	return e.x.chunks[k]
}

// add records that unit u names symbol t.
func (e *usersEdit) add(t int, u int32) {
	if t < 0 || t >= e.x.n {
		return
	}
	l := e.x.of(t)
	at, found := slices.BinarySearch(l, u)
	if found {
		return
	}
	e.chunk(t)[t%usersChunkSize] = slices.Insert(slices.Clip(l), at, u)
}

// remove records that unit u no longer names symbol t.
func (e *usersEdit) remove(t int, u int32) {
	if t < 0 || t >= e.x.n {
		return
	}
	l := e.x.of(t)
	at, found := slices.BinarySearch(l, u)
	if !found {
		return
	}
	e.chunk(t)[t%usersChunkSize] = slices.Delete(slices.Clone(l), at, at+1)
}

// namedBy appends the indexes of the symbols unit i names (its records'
// targets and its declRecs' names) in syms, the version's symbols, each
// once, sorted.
func namedBy(out []int, syms []*Symbol, u *unitRecs, d *declRecs) []int {
	out = out[:0]
	note := func(t *Symbol) {
		if t != nil && t.index < len(syms) && syms[t.index] == t {
			out = append(out, t.index)
		}
	}
	if u != nil {
		for _, t := range u.targets {
			note(t)
		}
	}
	if d != nil {
		for _, n := range d.names {
			note(n.Target)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// usersOfAll builds the index of a version analysed whole.
func (a *analyzer) usersOfAll() *usersIndex {
	syms := a.res.Symbols
	e := newUsersEdit(nil, len(syms))
	var ts []int
	for i := range syms {
		var u *unitRecs
		if i < len(a.recs) {
			u = a.recs[i]
		}
		var d *declRecs
		if i < len(a.decl) {
			d = a.decl[i]
		}
		ts = namedBy(ts, syms, u, d)
		for _, t := range ts {
			e.add(t, int32(i))
		}
	}
	return e.x
}

// patchUsers makes this version's index from the previous one's: the
// units made again (their records and names may name others now) are
// taken out of the lists of what they named and put in those of what
// they name.
func (a *analyzer) patchUsers(changed []int32) *usersIndex {
	prev, syms := a.reuse.prev, a.res.Symbols
	e := newUsersEdit(prev.users, len(syms))
	var old, cur []int
	for _, i := range changed {
		var pu, cu *unitRecs
		var pd, cd *declRecs
		if int(i) < len(prev.units) {
			pu = prev.units[i]
		}
		if int(i) < len(prev.decl) {
			pd = prev.decl[i]
		}
		cu, cd = a.recs[i], a.decl[i]
		old = namedBy(old, prev.Symbols, pu, pd)
		cur = namedBy(cur, syms, cu, cd)
		for _, t := range old {
			if _, still := slices.BinarySearch(cur, t); !still {
				e.remove(t, i)
			}
		}
		for _, t := range cur {
			e.add(t, i)
		}
	}
	return e.x
}
