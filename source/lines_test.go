package source

import "fmt"

// check reports what is wrong with t as the table of a text of n bytes
// ("" when nothing is): for tests.
func (t lineTable) check(n int) string {
	line, prev := 0, -1
	for i, c := range t.chunks {
		switch {
		case c.first != line:
			return fmt.Sprintf("chunk %d starts at line %d, want %d", i, c.first, line)
		case len(c.rel) == 0 || c.rel[0] != 0:
			return fmt.Sprintf("chunk %d: relative starts %v", i, c.rel)
		case len(c.rel) > chunkLines:
			return fmt.Sprintf("chunk %d holds %d lines", i, len(c.rel))
		}
		for _, r := range c.rel {
			if c.base+int(r) <= prev || c.base+int(r) > n {
				return fmt.Sprintf("chunk %d: line start %d after %d (text of %d)", i, c.base+int(r), prev, n)
			}
			prev = c.base + int(r)
		}
		line += len(c.rel)
	}
	if line != t.count {
		return fmt.Sprintf("%d lines in chunks, count %d", line, t.count)
	}
	return ""
}
