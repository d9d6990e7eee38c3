package source

import (
	"fmt"
	"sort"
)

// Range is a half-open byte range [Start, End) in a document.
type Range struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

// R returns the range [start, end).
func R(start, end int) Range { return Range{Start: start, End: end} }

// Len returns the number of bytes in r.
func (r Range) Len() int { return r.End - r.Start }

// Contains reports whether off lies in r; the end offset counts as inside so
// that a cursor just after a token still touches it.
func (r Range) Contains(off int) bool { return off >= r.Start && off <= r.End }

// ContainsRange reports whether o lies entirely within r.
func (r Range) ContainsRange(o Range) bool { return o.Start >= r.Start && o.End <= r.End }

// Moved returns r moved by delta bytes (text inserted or deleted before
// it).
func (r Range) Moved(delta int) Range { return Range{Start: r.Start + delta, End: r.End + delta} }

// Union returns the smallest range covering r and o.
func (r Range) Union(o Range) Range {
	if o.Start < r.Start {
		r.Start = o.Start
	}
	if o.End > r.End {
		r.End = o.End
	}
	return r
}

func (r Range) String() string { return fmt.Sprintf("[%d,%d)", r.Start, r.End) }

// MergeRanges sorts rs in place by start and returns them with those that
// overlap or touch joined into one.
func MergeRanges(rs []Range) []Range {
	sort.Slice(rs, func(i, j int) bool { return rs[i].Start < rs[j].Start })
	var out []Range
	for _, r := range rs {
		if n := len(out); n > 0 && r.Start <= out[n-1].End {
			out[n-1].End = max(out[n-1].End, r.End)
			continue
		}
		out = append(out, r)
	}
	return out
}
