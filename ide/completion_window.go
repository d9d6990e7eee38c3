package ide

import (
	"sort"

	"github.com/blueprint-ls/blueprint-ls/bplang"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// Completion reads the structure around the cursor from the text, which
// may not parse, and on the version an edit just made the text is not
// joined for it (issue 32): what it reads is bounded by the definition
// holding the cursor, which the Result's tree places when it was parsed
// clean from a text that this one matches up to the definition's start
// (this text, or while this one does not parse, the last that did).
//
//   - YAML reads a line at a time (yamlContext): the lines of the
//     cursor's block, and the walk up to the section's key hops over the
//     definitions before the cursor's (yamlHop).
//   - JSON scans from the definition's opening brace, with the frames of
//     the root and the section open, instead of from the document's
//     start (jsonContext), and on after the cursor to its object's end.
//   - The blueprint language lexes the declaration statement holding
//     the cursor, not the document (bplang.CursorInStatement).
//
// Each falls back to the whole text where the part cannot say:
// TestBoundedCompletionEqualsWhole holds every answer to the whole
// text's.

// entryBefore returns the last entry of m whose key starts before off.
func entryBefore(m *schema.Mapping, off int) *schema.Entry {
	es := m.Entries
	i := sort.Search(len(es), func(i int) bool { return es[i].Key == nil || es[i].Key.Rng.Start >= off }) - 1
	if i < 0 {
		return nil
	}
	return es[i]
}

// sharedPrefix is how long a prefix the text shares with the text the
// Result was parsed from.
func (c *completer) sharedPrefix() int {
	if c.src.Same(c.res.File.Text) {
		return c.src.Len()
	}
	return source.CommonPrefix(c.src, c.res.File.Text)
}

// yamlHop places, from a clean tree of the Result, the hop of the walk
// up from the line starting at ls: from the key line of the last
// definition of a section above it to the line after the section's key.
// The tree's word on the lines it passes over holds when the text up to
// that key line is the one it was parsed from. The zero hop when there
// is none.
func (c *completer) yamlHop(ls int) yamlHop {
	if c.unbounded || c.res == nil || c.res.File.Root == nil || c.res.File.HasSyntaxErrors() {
		return yamlHop{}
	}
	root, ok := c.res.File.Root.(*schema.Mapping)
	if !ok || root.Flow {
		return yamlHop{}
	}
	sec := entryBefore(root, ls)
	if sec == nil {
		return yamlHop{}
	}
	m, ok := sec.Value.(*schema.Mapping)
	if !ok || m.Flow {
		return yamlHop{}
	}
	def := entryBefore(m, ls)
	if def == nil {
		return yamlHop{}
	}
	k0, d := sec.Key.Rng.Start, def.Key.Rng.Start
	if d >= c.sharedPrefix() {
		return yamlHop{}
	}
	at := c.src.LastIndexAny(d, "\n") + 1
	to := c.src.IndexAny(k0, "\n") + 1
	if k0 > 0 && c.src.At(k0-1) != '\n' || to <= 0 || to > at || at == d {
		return yamlHop{}
	}
	for _, b := range c.src.Slice(at, d) {
		if b != ' ' {
			return yamlHop{}
		}
	}
	return yamlHop{at: at, to: to, col: d - at}
}

// jsonWindow places, from a clean tree of the Result, the definition
// whose object holds off, or the last one before it: where its opening
// brace is, and the frames open there (the root's and the section's,
// each at its key). The scanner reads from there as from the document's
// start when the text before the brace is the one the tree was parsed
// from; past the definition's end it goes on through the section, and a
// section it closes fails the read (jsonContext).
func (c *completer) jsonWindow(off int) (from int, open []*jsonFrame, ok bool) {
	if c.unbounded || c.res == nil || c.res.File.HasSyntaxErrors() {
		return 0, nil, false
	}
	m, ok := c.res.File.Root.(*schema.Mapping)
	if !ok {
		return 0, nil, false
	}
	at := min(off, c.sharedPrefix())
	for range 2 {
		e := entryBefore(m, at)
		if e == nil {
			return 0, nil, false
		}
		v, isMapping := e.Value.(*schema.Mapping)
		k := e.Key.Rng
		if !isMapping || v.Rng.Start >= at || k.Len() < 2 || c.src.At(k.Start) != '"' || c.src.At(k.End-1) != '"' {
			return 0, nil, false
		}
		open = append(open, &jsonFrame{obj: true, key: c.src.String(k.Start+1, k.End-1), keys: map[string]bool{}})
		m, from = v, v.Rng.Start
	}
	return from, open, true
}

// jsonStruct is jsonContext at off, scanned from the opening brace of
// the definition holding it when the tree says which.
func (c *completer) jsonStruct(off int) structCtx {
	if from, open, ok := c.jsonWindow(off); ok {
		if sc, ok := jsonContext(c.src, from, off, open); ok {
			return sc
		}
	}
	sc, _ := jsonContext(c.src, 0, off, nil)
	return sc
}

// bpCursor reads the cursor's context from the text from the start of
// the declaration statement holding it, which a clean tree of the
// Result places when the text up to there is the one it was parsed
// from, to the next line a statement may start (bpStatementEnd); from
// the whole text when there is none or that text cannot say
// (bplang.CursorInStatement).
func (c *completer) bpCursor() (bplang.Cursor, bool) {
	if start, ok := c.bpStatementStart(); ok {
		end := bpStatementEnd(c.src, c.off)
		if cur, ok, known := bplang.CursorInStatement(c.src.Slice(start, end), start, c.off); known {
			return cur, ok
		}
	}
	return bplang.CursorAt(c.whole(), c.off)
}

// bpStatementStart returns where the declaration statement holding the
// cursor starts, read from a clean tree of the Result: the statement
// holding the cursor, or when the text differs before it, the one
// holding the first byte that differs. Either starts a statement of
// this text, the bytes before it being the tree's.
func (c *completer) bpStatementStart() (int, bool) {
	if c.unbounded || c.res == nil || c.res.File.Root == nil || c.res.File.HasSyntaxErrors() {
		return 0, false
	}
	at := min(c.off, c.sharedPrefix())
	if at >= c.res.File.Text.Len() {
		return 0, false
	}
	d, ok := schema.DefinitionAt(c.res.File, at, at)
	return d.Start, ok
}

// bpStatementEnd is the start of the first line after off's that starts
// with a letter (a statement's keyword, mostly), or the text's end: the
// block holding off mostly closes before it, and when it does not the
// cursor is read from the whole text.
func bpStatementEnd(t source.Text, off int) int {
	for at := t.IndexAny(off, "\n"); at >= 0; at = t.IndexAny(at+1, "\n") {
		if at+1 < t.Len() && isLetter(t.At(at+1)) {
			return at + 1
		}
	}
	return t.Len()
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
