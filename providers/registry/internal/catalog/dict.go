package catalog

import (
	"bytes"
	"sort"
)

// maxDict is DEFLATE's window: a longer preset dictionary is pointless.
const maxDict = 32 << 10

// Dictionary builds a preset dictionary of at most size bytes from the
// documents: the fixed-length pieces of text found in the most documents
// (JSON keys with their punctuation, common small objects such as
// {"type":"string"}), the most common last, where DEFLATE reaches them
// with the shortest distances. The result depends only on the input.
func Dictionary(docs [][]byte, size int) []byte {
	const piece, stride = 24, 3
	if size > maxDict {
		size = maxDict
	}
	counts := map[string]int{}
	for _, d := range docs {
		seen := map[string]bool{}
		for i := 0; i+piece <= len(d); i += stride {
			s := string(d[i : i+piece])
			if !seen[s] {
				seen[s] = true
				counts[s]++
			}
		}
	}
	type cand struct {
		s string
		n int
	}
	cands := make([]cand, 0, len(counts))
	for s, n := range counts {
		if n > 1 {
			cands = append(cands, cand{s, n})
		}
	}
	sort.Slice(cands, func(i, j int) bool {
		if cands[i].n != cands[j].n {
			return cands[i].n > cands[j].n
		}
		return cands[i].s < cands[j].s
	})
	var chosen []string
	var dict []byte
	for _, c := range cands {
		if len(dict)+len(c.s) > size {
			break
		}
		if bytes.Contains(dict, []byte(c.s)) {
			continue
		}
		chosen = append(chosen, c.s)
		dict = append(dict, c.s...)
	}
	// Most common last.
	out := make([]byte, 0, len(dict))
	for i := len(chosen) - 1; i >= 0; i-- {
		out = append(out, chosen[i]...)
	}
	return out
}
