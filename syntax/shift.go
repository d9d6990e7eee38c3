package syntax

// What Splice is made of, for front ends outside this package that splice
// their own statements into a previous tree (package bplang).

// RecordSplice notes on f, a File just built by splicing the text of one
// definition into prev's tree, how it was built: prev's bytes [start,
// end) became f's [start, end+delta), and every node of prev's tree
// from end on was copied moved by delta (see Splicing). Call it before f
// is returned to anyone.
func RecordSplice(f, prev *File, start, end, delta int) {
	f.spliced = Splicing{From: prev.ID(), Start: start, End: end, Delta: delta}
}

// Shifter copies nodes with every offset (ranges, value ranges, offset
// maps) moved by a delta, carving the copies from slabs as the parsers
// do. The zero value is ready; one Shifter serves one new tree.
type Shifter struct{ sh shifter }

// Entry returns a copy of e, key and value, moved by d.
func (s *Shifter) Entry(e *Entry, d int) *Entry { return s.sh.entry(e, d) }

// Node returns a copy of n and everything under it moved by d.
func (s *Shifter) Node(n Node, d int) Node { return s.sh.node(n, d) }
