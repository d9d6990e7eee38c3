package schema

import "sort"

// An edit that keeps the text's length (syntax.Splice shares every node
// after it) leaves every entry of the resources section but the ones it
// re-parsed the previous version's own node, at the same index. When the
// section's keys are the previous ones too, LoadFrom takes the section
// over in bulk: the previous records and typed resources are copied as
// slices, the re-parsed entries are loaded, and only the records that
// hold diagnostics (Blueprint.noisy) are read one by one. The result is
// what the entry-by-entry path gives.

// edited returns the range of the resources section's entries that the
// splice re-parsed: those whose key lies in the new text of its lines.
func (l *loader) edited() (from, to int) {
	entries, sp := l.resources.Entries, l.splice
	from = sort.Search(len(entries), func(i int) bool { return entries[i].Key == nil || entries[i].Key.Rng.Start >= sp.Start })
	to = sort.Search(len(entries), func(i int) bool { return entries[i].Key == nil || entries[i].Key.Rng.Start >= sp.End+sp.Delta })
	return from, to
}

// bulkKeys does walkKeys' work for the resources section n in bulk
// when it can, and reports whether it did.
func (l *loader) bulkKeys(n *Mapping) bool {
	if l.splice == nil || l.splice.Delta != 0 || !l.keysAsBefore() {
		return false
	}
	from, to := l.edited()
	l.bp.resources = l.prev.Edit()
	for i := from; i < to; i++ {
		l.bp.resources.Set(i, nil) // not prev's: the entry is new
		if e := n.Entries[i]; e.Value != nil {
			l.walkEntryKeys(n, i, e)
		}
	}
	for _, i := range l.prevBP.noisy {
		if i < from || i >= to {
			l.diags = append(l.diags, l.prev.At(i).keys...)
		}
	}
	l.bulk, l.editFrom, l.editTo = true, from, to
	return true
}

// bulkLoad does loadResourceEntry's work for the entries of the
// resources section in bulk when bulkKeys did, under the same version,
// and every previous entry made a resource; it reports whether it did.
func (l *loader) bulkLoad(entries []*Entry) bool {
	if !l.bulk {
		return false
	}
	prev := &l.prevBP.Resources
	if len(entries) != len(l.resources.Entries) || prev.Len() != len(entries) || !l.versionAsBefore() || l.bp.Resources.added() > 0 {
		return false
	}
	from, to := l.editFrom, l.editTo
	res := &l.bp.Resources
	res.takeOver(prev, from, to) // prev's resources but [from, to)
	l.resourceIndex = from
	for _, e := range entries[from:to] {
		l.loadResourceEntry(e) // adds its resource, following prev's names
	}
	res.skipTo(prev, to)
	l.resourceIndex = len(entries)
	for _, i := range l.prevBP.noisy {
		if i < from || i >= to {
			l.diags = append(l.diags, l.prev.At(i).diags...)
		}
	}
	l.bp.takenOver += len(entries) - (to - from)
	l.bp.inBulk, l.bp.bulkFrom, l.bp.bulkTo = true, from, to
	return true
}

// ResourcesTakenOver reports whether LoadFrom took the resources section
// over from the previous version in bulk, and which resources it loaded
// anew: Resources.At(from) to At(to-1). Every other item is the previous
// version's own, at the same index, over the same node.
func (bp *Blueprint) ResourcesTakenOver() (from, to int, ok bool) {
	return bp.bulkFrom, bp.bulkTo, bp.inBulk
}

// nameHolders returns, in order, the indexes of the resources that name
// other resources (namesResources), and records them for the next
// version: in bulk from prev's outside the re-parsed entries (whose
// resources are prev's), else by reading every resource.
func (l *loader) nameHolders() []int {
	res := &l.bp.Resources
	if !l.bp.inBulk {
		for i, r := range res.Items() {
			if namesResources(r) {
				l.bp.holders = append(l.bp.holders, i)
			}
		}
		return l.bp.holders
	}
	l.bp.holders = merged(l.prevBP.holders, l.editFrom, l.editTo, func(i int) bool { return namesResources(res.At(i)) })
	return l.bp.holders
}

// merged returns the indexes of prev before from and from to on, and
// those between for which keep holds, in order.
func merged(prev []int, from, to int, keep func(int) bool) []int {
	var out []int
	for _, i := range prev {
		if i < from {
			out = append(out, i)
		}
	}
	for i := from; i < to; i++ {
		if keep(i) {
			out = append(out, i)
		}
	}
	for _, i := range prev {
		if i >= to {
			out = append(out, i)
		}
	}
	return out
}

// noteNoisy records which resource records hold diagnostics, for the
// next version's bulk path: prev's outside the re-parsed entries when
// this version was loaded in bulk (bulkLoad), else every record's.
func (l *loader) noteNoisy() {
	noisy := func(r *loaded) bool { return r != nil && (len(r.keys) > 0 || len(r.diags) > 0) }
	if !l.bp.inBulk {
		for i := range l.bp.resources.Len() {
			if noisy(l.bp.resources.At(i)) {
				l.bp.noisy = append(l.bp.noisy, i)
			}
		}
		return
	}
	l.bp.noisy = merged(l.prevBP.noisy, l.editFrom, l.editTo, func(i int) bool { return noisy(l.bp.resources.At(i)) })
}
