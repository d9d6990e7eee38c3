package analysis

import (
	"slices"

	"github.com/blueprint-ls/blueprint-ls/internal/chunked"
)

// usersIndex lists, for each symbol (by index), the units whose records
// name it: a reference's target or field, a link() name, an edge's end
// (unitRecs.targets), or a resource's dependsOn or exclude name
// (declRecs). It answers what an edit spreads to (planReuse) and which
// carried-over units must stop sharing their records (planSharing)
// without a walk over every reference. Versions that declare the same
// names share its chunks (internal/chunked); an edit copies the few it
// changes.
type usersIndex struct {
	lists chunked.Vec[[]int32]
}

// of returns the units that name symbol t, in index order.
func (x *usersIndex) of(t int) []int32 {
	if x == nil {
		return nil
	}
	return x.lists.At(t)
}

// usersEdit makes the next version's index from the previous one's: a
// list that changes is copied the first time, never written in place
// while the previous version may read it.
type usersEdit struct {
	x     *usersIndex
	owned map[int]bool // the lists this version copied
}

func newUsersEdit(prev *usersIndex, n int) *usersEdit {
	if prev != nil && prev.lists.Len() == n {
		return &usersEdit{x: &usersIndex{prev.lists.Edit()}, owned: map[int]bool{}}
	}
	return &usersEdit{x: &usersIndex{chunked.Make[[]int32](n)}, owned: map[int]bool{}}
}

// list returns symbol t's list, this version's own to change.
func (e *usersEdit) list(t int) []int32 {
	l := e.x.of(t)
	if !e.owned[t] {
		l = slices.Clone(l)
		e.owned[t] = true
	}
	return l
}

// add records that unit u names symbol t.
func (e *usersEdit) add(t int, u int32) {
	if t < 0 || t >= e.x.lists.Len() {
		return
	}
	if at, found := slices.BinarySearch(e.x.of(t), u); !found {
		e.x.lists.Set(t, slices.Insert(e.list(t), at, u))
	}
}

// remove records that unit u no longer names symbol t.
func (e *usersEdit) remove(t int, u int32) {
	if t < 0 || t >= e.x.lists.Len() {
		return
	}
	if at, found := slices.BinarySearch(e.x.of(t), u); found {
		e.x.lists.Set(t, slices.Delete(e.list(t), at, at+1))
	}
}

// namedBy appends the indexes of the symbols unit i names (its records'
// targets and its declRecs' names) in syms, the version's symbols, each
// once, sorted.
func namedBy(out []int, syms chunked.Vec[*Symbol], u *unitRecs, d *declRecs) []int {
	out = out[:0]
	note := func(t *Symbol) {
		if t = current(syms, t); t != nil {
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
	syms := a.res.syms
	lists := make([][]int32, syms.Len())
	var ts []int
	for i := range syms.Len() {
		ts = namedBy(ts, syms, a.recs.At(i), a.decl.At(i))
		for _, t := range ts {
			lists[t] = append(lists[t], int32(i)) // in index order: sorted
		}
	}
	x := &usersIndex{chunked.Make[[]int32](syms.Len())}
	for t, l := range lists {
		if l != nil {
			x.lists.Set(t, slices.Clip(l))
		}
	}
	return x
}

// patchUsers makes this version's index from the previous one's: the
// units made again (their records and names may name others now) are
// taken out of the lists of what they named and put in those of what
// they name.
func (a *analyzer) patchUsers(changed []int32) *usersIndex {
	prev, syms := a.reuse.prev, a.res.syms
	e := newUsersEdit(prev.users, syms.Len())
	var old, cur []int
	for _, i := range changed {
		old = namedBy(old, prev.syms, prev.units.At(int(i)), prev.decl.At(int(i)))
		cur = namedBy(cur, syms, a.recs.At(int(i)), a.decl.At(int(i)))
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
