package syntax

import (
	"bytes"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// Change says where two versions of a text may differ: the old text's
// bytes [Start, OldEnd) became the new text's bytes [Start, NewEnd), and
// every byte before Start and after the two ends is the same in both. A
// Change may be wider than the bytes that differ; one whose three
// offsets are equal (the zero Change among them) says the texts are the
// same.
type Change struct{ Start, OldEnd, NewEnd int }

// ChangeBetween returns the narrowest Change from old to new: the bytes
// between their common prefix and their common suffix (which do not
// overlap). It reads both texts up to where they differ, from each end.
func ChangeBetween(old, new []byte) Change {
	p, s := commonEnds(old, new)
	return Change{Start: p, OldEnd: len(old) - s, NewEnd: len(new) - s}
}

// Same reports whether c says the texts are the same.
func (c Change) Same() bool { return c.Start == c.OldEnd && c.Start == c.NewEnd }

// Fits reports whether c can describe an edit of a text of oldLen bytes
// into one of newLen bytes: its offsets lie in order inside the texts,
// and the two ends leave suffixes of the same length.
func (c Change) Fits(oldLen, newLen int) bool {
	return 0 <= c.Start && c.Start <= c.OldEnd && c.OldEnd <= oldLen && c.Start <= c.NewEnd && c.NewEnd <= newLen &&
		oldLen-c.OldEnd == newLen-c.NewEnd
}

// Then returns the Change from c's old text to the text next makes of
// c's new text (next's offsets are in c's new text). The result covers
// both edits: from the earlier start to the later end, each end carried
// through the other edit's length change.
func (c Change) Then(next Change) Change {
	switch {
	case c.Same():
		return next
	case next.Same():
		return c
	}
	// In c's new text, both edits lie before end: after it, the bytes
	// are the old text's (end >= c.NewEnd) and the next text's (end >=
	// next.OldEnd), each moved by its edit's length change.
	end := max(c.NewEnd, next.OldEnd)
	return Change{
		Start:  min(c.Start, next.Start),
		OldEnd: end - (c.NewEnd - c.OldEnd),
		NewEnd: end + (next.NewEnd - next.OldEnd),
	}
}

// Narrowed returns the narrowest Change from old to new inside c, which
// must fit the two texts (Fits): c without the bytes its two sides share
// at either end. It reads only the bytes inside c (a local comparison,
// whatever the texts' length). A c that does not fit gives
// ChangeBetween(old, new).
func (c Change) Narrowed(old, new []byte) Change {
	return EditOf(source.NewText(old), source.NewText(new), &c)
}

// commonEnds returns the length of the common prefix of a and b and of
// their common suffix, the two not overlapping in either.
func commonEnds(a, b []byte) (prefix, suffix int) {
	n := min(len(a), len(b))
	const chunk = 512 // compared by bytes.Equal, which is vectorised
	for prefix+chunk <= n && bytes.Equal(a[prefix:prefix+chunk], b[prefix:prefix+chunk]) {
		prefix += chunk
	}
	for prefix < n && a[prefix] == b[prefix] {
		prefix++
	}
	for suffix+chunk <= n-prefix && bytes.Equal(a[len(a)-suffix-chunk:len(a)-suffix], b[len(b)-suffix-chunk:len(b)-suffix]) {
		suffix += chunk
	}
	for suffix < n-prefix && a[len(a)-1-suffix] == b[len(b)-1-suffix] {
		suffix++
	}
	return prefix, suffix
}

// EditOf returns the narrowest Change from old to new: inside *ch when
// ch is given and fits the two texts, reading only the bytes inside it
// (Slice, so a large text is not joined), else from the whole texts
// (what ChangeBetween finds, read piece by piece: source.CommonPrefix
// and CommonSuffix pass over the pieces the texts share). The splices
// and the language server's syntax phase start from it.
func EditOf(old, new source.Text, ch *Change) Change {
	if ch == nil || !ch.Fits(old.Len(), new.Len()) {
		p := source.CommonPrefix(old, new)
		s := source.CommonSuffix(old, new, min(old.Len(), new.Len())-p)
		return Change{Start: p, OldEnd: old.Len() - s, NewEnd: new.Len() - s}
	}
	p, s := commonEnds(old.Slice(ch.Start, ch.OldEnd), new.Slice(ch.Start, ch.NewEnd))
	return Change{Start: ch.Start + p, OldEnd: ch.OldEnd - s, NewEnd: ch.NewEnd - s}
}
