package source

import (
	"sort"
	"unicode/utf8"
)

// Closest returns the candidates nearest to name by edit distance, best
// first, keeping only those close enough to be a plausible typo (at most a
// third of the name's length, minimum 1, maximum 3 edits). Ties keep the
// candidates' order.
func Closest(name string, candidates []string) []string {
	limit := len([]rune(name)) / 3
	if limit < 1 {
		limit = 1
	}
	if limit > 3 {
		limit = 3
	}
	type scored struct {
		s string
		d int
	}
	var best []scored
	n := utf8.RuneCountInString(name)
	for _, c := range candidates {
		if c == name {
			continue
		}
		// The distance is at least the difference in length: skip the
		// alignment when that alone is over the limit.
		if diff := utf8.RuneCountInString(c) - n; diff > limit || -diff > limit {
			continue
		}
		if d := Distance(name, c); d <= limit {
			best = append(best, scored{c, d})
		}
	}
	sort.SliceStable(best, func(i, j int) bool { return best[i].d < best[j].d })
	out := make([]string, len(best))
	for i, b := range best {
		out[i] = b.s
	}
	return out
}

// Distance is the optimal-string-alignment edit distance between a and b
// (insertions, deletions, substitutions and adjacent transpositions), with
// case differences costing nothing extra beyond one substitution.
func Distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	if len(ra) == 0 {
		return len(rb)
	}
	if len(rb) == 0 {
		return len(ra)
	}
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}
