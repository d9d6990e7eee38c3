package syntax

import (
	"bytes"
	"runtime"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// A large blueprint is one long section (its resources) of entries that
// each start a line at the same column. fastParseSplit reads such a text
// on two cores (issue 36): the text up to an entry's line near its
// middle as a whole document, and from that line on as the rest of the
// section, then the top-level keys after it; the two trees are joined.
// Each half reads exactly what the whole parse reads there: in the fast
// parser's subset a line at the section's column that starts a key can
// only be the next entry of the section (scalars are single-line or
// literal block scalars, whose content is indented further), and either
// half leaving the subset, or the section not being what the split took
// it for, gives up on the split (the caller then parses whole).
// TestSplitParseEqualsWhole holds the joined tree to the whole parse.

// splitMin is the smallest text parsed in two halves: below it the
// second goroutine costs more than it saves.
const splitMin = 256 << 10

// fastParseSplit is fastParse of src in two halves, when src is at least
// min bytes and a split is found; ok false otherwise (nothing built
// counts).
func fastParseSplit(src []byte, m *source.Mapper, min int) (root Node, diags []source.Diagnostic, ok bool) {
	if len(src) < min || runtime.GOMAXPROCS(0) < 2 || !fastText(src) {
		return nil, nil, false
	}
	sp, found := findSplit(src)
	if !found {
		return nil, nil, false
	}
	type half struct {
		section, rest *Mapping
		b             *yamlBuilder
		ok            bool
	}
	second := make(chan half, 1)
	go func() {
		b := newYAMLBuilder(src, m)
		sec, rest, ok := fastParseFrom(b, src, sp)
		second <- half{sec, rest, b, ok}
	}()
	b1 := newYAMLBuilder(src, m)
	first, ok1 := fastParse(b1, src[:sp.at])
	h := <-second
	if !ok1 || !h.ok {
		return nil, nil, false
	}
	top, ok := first.(*Mapping)
	if !ok || len(top.Entries) == 0 {
		return nil, nil, false
	}
	last := top.Entries[len(top.Entries)-1]
	sec, ok := last.Value.(*Mapping)
	if last.Key.Rng.Start != sp.key || !ok || sec.Flow || len(sec.Entries) == 0 ||
		sec.Entries[0].Key.Rng.Start-lineStartOf(src, sec.Entries[0].Key.Rng.Start) != sp.col {
		return nil, nil, false
	}
	sec.Entries = joinEntries(sec.Entries, h.section.Entries)
	sec.Rng = sec.Rng.Union(h.section.Rng)
	top.Rng = top.Rng.Union(sec.Rng)
	if h.rest != nil {
		top.Entries = joinEntries(top.Entries, h.rest.Entries)
		top.Rng = top.Rng.Union(h.rest.Rng)
	}
	return top, append(b1.diags, h.b.diags...), true
}

// split is where a text is cut: at, the start of the line of an entry
// of the section whose key starts at key, its entries' keys at column
// col.
type split struct{ at, key, col int }

// findSplit finds the line of an entry of a top-level section at or
// after the middle of src.
func findSplit(src []byte) (split, bool) {
	line := lineStartOf(src, len(src)/2)
	// The top-level key above: the last line above that starts with
	// neither a space, a comment, a line break nor a dash.
	key := line
	for {
		if key < len(src) && startsTopKey(src[key]) {
			break
		}
		if key == 0 {
			return split{}, false
		}
		key = lineStartOf(src, key-1)
	}
	// Its entries' column: that of the first line below it with content.
	col, at := -1, nextLine(src, key)
	for at < len(src) {
		n := skipSpaces(src[at:], 0)
		if at+n < len(src) && src[at+n] != '\n' && src[at+n] != '#' {
			col = n
			break
		}
		at = nextLine(src, at)
	}
	if col <= 0 || at > line {
		return split{}, false
	}
	// The first line at or after the middle at that column starting a
	// key (neither a comment nor a sequence item), before the next
	// top-level key.
	for at = line; at < len(src); at = nextLine(src, at) {
		n := skipSpaces(src[at:], 0)
		switch {
		case n == 0 && at < len(src) && src[at] != '\n' && src[at] != '#':
			return split{}, false // the section ended
		case n == col && at+n < len(src) && startsTopKey(src[at+n]):
			return split{at: at, key: key, col: col}, true
		}
	}
	return split{}, false
}

// fastParseFrom reads src from sp.at on: the rest of the section (a
// block mapping at column sp.col), then the top-level keys after it (a
// block mapping at column 0), as fastParse would read them there.
func fastParseFrom(b *yamlBuilder, src []byte, sp split) (section, rest *Mapping, ok bool) {
	d := &fastDecoder{src: src, str: textString(src), b: b, pos: sp.at, lineStart: sp.at}
	defer func() {
		if r := recover(); r != nil {
			if _, isBail := r.(fastBail); !isBail {
				panic(r)
			}
			section, rest, ok = nil, nil, false
		}
	}()
	if !d.nextContent() || d.indent() != sp.col {
		return nil, nil, false
	}
	d.depth = 1 // inside the top-level mapping, as in the whole parse
	section = d.mapping(sp.col)
	if d.pos >= len(src) || !d.nextContent() {
		return section, nil, true
	}
	if d.indent() != 0 || d.isItem() {
		return nil, nil, false // the whole parse gives up there too
	}
	d.depth = 0
	rest = d.mapping(0)
	if d.pos < len(src) {
		return nil, nil, false
	}
	return section, rest, true
}

// joinEntries returns a followed by b in a new slice.
func joinEntries(a, b []*Entry) []*Entry {
	out := make([]*Entry, 0, len(a)+len(b))
	return append(append(out, a...), b...)
}

// startsTopKey reports whether c may start a key at a line's start: not
// a blank, a comment, a line break or a sequence item's dash.
func startsTopKey(c byte) bool { return c != ' ' && c != '#' && c != '\n' && c != '-' }

// nextLine returns the start of the line after the one starting at at
// (len(src) at the end).
func nextLine(src []byte, at int) int {
	if i := bytes.IndexByte(src[at:], '\n'); i >= 0 {
		return at + i + 1
	}
	return len(src)
}
