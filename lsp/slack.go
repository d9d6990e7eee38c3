package lsp

import (
	"bytes"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/bplang"
	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// Slack: the server's copy of a blueprint may hold padding the client's
// lacks, spaces at the end of a definition's first line (the line of
// its key, "  ordersTable:"). An edit inside the definition takes spaces
// from its padding or gives them back, so the definition keeps its
// length: the text after it, and so every node, symbol and record
// parsed from that text, keeps its offsets, and the next version shares
// them with this one instead of holding moved copies (syntax.Splice). A
// text that arrives whole has every definition padded at once
// (padwhole.go); a definition without padding (typed since, or whose
// padding an edit took out) is padded the first time it is edited.
// Typing more than its padding holds, or deleting more than slackMax,
// pads it afresh (and moves what follows, once). The padding is kept in
// a vector versions share (padding.go): an edit looks only at the runs
// around it. An edit that could take the padding off
// its key line (a line break typed on it, its indentation or the line
// break before it changed) removes the padding instead: on another line
// it could end up inside a block scalar (keepsKeyLine). So does an edit
// that makes a line above it a block scalar's header whose content the
// key line becomes ("resources: |", captured).
//
// YAML ignores spaces before a line break everywhere but inside a block
// scalar, and a definition's key line never is one. In the blueprint
// language the first line of a declaration's statement is padded only
// when it ends in the block's '{', where spaces lie between tokens
// (bplang.DefinitionAt). In JSON and JSONC a member of a section object
// is padded only when its key's line holds the key, its colon and the
// '{' of its object value (syntax.DefinitionAt): spaces there lie
// between tokens, outside any string (none holds a line break) and any
// comment; an edit that leaves the line anything else takes the padding
// out (unopened). The client never sees the padding: the mapper
// that converts positions ends a padded line where its padding begins
// (source.Mapper.WithSlack), and formatting works on the client's text
// (unpadded). Only Bluelink blueprints are padded (schema.DefinitionAt),
// and only while each edit lands inside one definition of a clean parse.
const (
	slackSize   = 64   // the spaces a definition is padded with
	slackRefill = 256  // and padded again with once typing used them up
	slackMax    = 1024 // padding grown past this by deletions is reset
)

// editPlan is one text change with the padding it takes or gives.
type editPlan struct {
	r      source.Range  // the bytes the client's change replaces, in our text
	text   string        // what replaces them
	pad    int           // where the padding starts (-1: none adjusted)
	old    int           // its length before
	size   int           // and after
	format schema.Format // the text's
}

// planSlack decides the padding an edit of r to text adjusts, given last,
// the parse of exactly the text being edited (nil: none is known).
func planSlack(last *schema.File, pads *padding, r source.Range, text string) editPlan {
	p := editPlan{r: r, text: text, pad: -1}
	if last == nil {
		return p
	}
	p.format = last.Format
	def, ok := schema.DefinitionAt(last, r.Start, r.End)
	if !ok {
		return p
	}
	j := pads.search(func(s source.Slack) bool { return s.At+s.Len >= def.KeyLineEnd })
	found := j < pads.Len() && pads.At(j).At+pads.At(j).Len == def.KeyLineEnd
	at, old := def.KeyLineEnd, 0
	if found {
		at, old = pads.At(j).At, pads.At(j).Len
	} else if !def.Open {
		return p
	}
	if found && old > 0 && r.Start == at && r.End == at && startsWithBreak(text) {
		// Enter at the key line's end ("ordersTable:" then a new field
		// below): the client's end of the line is the padding's start,
		// but the text goes after the padding, which so stays on the key
		// line. Either place gives the client's text once unpadded.
		r = source.R(at+old, at+old)
		p.r = r
	}
	if !keepsKeyLine(last.Text, source.Slack{At: at, Len: old}, r, text) {
		return p // the padding would leave the key's line (apply removes it)
	}
	size := old - (len(text) - r.Len())
	switch {
	case found && size < 0:
		// A definition being written: typing went past its padding,
		// and will again. Each refill moves everything after it, so
		// it gets more (typing a 1,000-byte resource into a padded
		// definition moves the rest of the text 4 times, not 15).
		size = slackRefill
	case size > slackMax || !found:
		size = slackSize
	}
	p.pad, p.old, p.size = at, old, size
	return p
}

// keepsKeyLine reports whether padding s stays at the end of its key's
// line, and that line keeps its indentation, when text replaces r: the
// edit is before the line (not touching the line break before it),
// after its line break, or inside the line from the key on with no line
// break, leaving the key's first character where it was and the line
// not ending in a backslash. Anything else could leave the padding on
// another line, one that may be inside a block scalar, where YAML keeps
// spaces before a line break: typing a line break at the key line's end
// would carry the padding to the end of the new line, deleting the line
// break before the key line would join it to the line above, and
// indenting the key could make its line part of a block scalar above.
func keepsKeyLine(content source.Text, s source.Slack, r source.Range, text string) bool {
	if r.Start > s.At+s.Len || (r.Start == s.At+s.Len && r.End == r.Start && s.Len > 0 && startsWithBreak(text)) {
		return true // after the key line, or new lines inserted at its break
	}
	lineStart := lineStartOf(content, s.At)
	if r.End < lineStart {
		return true
	}
	keyStart := lineStart
	for keyStart < s.At && content.At(keyStart) == ' ' {
		keyStart++
	}
	if r.Start < keyStart || r.End > s.At || strings.ContainsAny(text, "\r\n") {
		return false
	}
	// In a double-quoted string, "\ " is an escaped space, and "\" at a
	// line's end escapes the line break: the line must not end in one.
	last := byte(0)
	switch {
	case r.End < s.At:
		last = content.At(s.At - 1)
	case text != "":
		last = text[len(text)-1]
	case r.Start > 0:
		last = content.At(r.Start - 1)
	}
	if last == '\\' {
		return false
	}
	if r.Start > keyStart {
		return true
	}
	// From the key's first character (a rename): what then starts the
	// line must not be a space, or the line would be indented further.
	first := text
	if first == "" {
		first = content.String(r.End, s.At)
	}
	// Nor an indicator: "? " makes the key an explicit one that may run
	// over the lines below, a quote one that may, '#' a comment.
	return first != "" && first[0] != ' ' && first[0] != '\t' && !strings.ContainsRune("?-:,[]{}#&*!|>'\"%@`", rune(first[0]))
}

// startsWithBreak reports whether text starts with a line break.
func startsWithBreak(text string) bool {
	return text != "" && (text[0] == '\n' || text[0] == '\r')
}

// apply returns text with the plan's edit and padding made, the region
// of text they change ([lo, hi) before, [lo, hi+delta) after), and the
// padding after it. Padding the edit swallows (with its line break)
// goes; padding whose key line the edit changes otherwise than
// keepsKeyLine allows is removed from the text.
//
// Only the runs in a window around the edit are looked at: those before
// it stay where they are and those after it move by the length change,
// which is none when the padding takes up what the edit adds; then the
// new padding shares all but the window's chunk with pads.
func (p editPlan) apply(text source.Text, pads *padding) (next source.Text, lo, hi int, out *padding) {
	return p.applyIn(text, pads, false)
}

// applyIn is apply; every says to look at every run, as apply did before
// it had a window (the tests compare the two).
func (p editPlan) applyIn(text source.Text, pads *padding, every bool) (next source.Text, lo, hi int, out *padding) {
	type change struct {
		r    source.Range
		text []byte
		pad  int // the index in win of the padding it makes, or -1
	}
	// The window: every run whose key line the edit touches (keepsKeyLine
	// keeps the others, unmoved or moved by the whole length change), and
	// the run the plan adjusts or the place of the one it makes.
	n := pads.Len()
	w0 := pads.search(func(s source.Slack) bool { return s.At+s.Len >= p.r.Start })
	w1 := w0
	for w1 < n && lineStartOf(text, pads.At(w1).At) <= p.r.End {
		w1++
	}
	if every {
		w0, w1 = 0, n
	}
	if p.pad >= 0 {
		k := pads.search(func(s source.Slack) bool { return s.At >= p.pad })
		w0, w1 = min(w0, k), max(w1, k)
		if k < n && pads.At(k).At == p.pad {
			w1 = max(w1, k+1)
		}
	}
	cs := []change{{p.r, []byte(p.text), -1}}
	win := make([]source.Slack, 0, w1-w0+1) // the window's runs kept, then their offsets before
	for i := w0; i < w1; i++ {
		switch s := pads.At(i); {
		case s.At == p.pad:
		case p.r.Start <= s.At+s.Len && p.r.End > s.At:
		case keepsKeyLine(text, s, p.r, p.text):
			win = append(win, s)
		default:
			cs = append(cs, change{source.R(s.At, s.At+s.Len), nil, -1})
		}
	}
	deepest, format := 0, p.format
	if pads != nil {
		deepest = pads.deepest
		if pads.format != schema.YAML {
			format = pads.format
		}
	}
	if p.pad >= 0 {
		i := sort.Search(len(win), func(i int) bool { return win[i].At >= p.pad })
		win = slices.Insert(win, i, source.Slack{At: p.pad, Len: p.size})
		cs = append(cs, change{source.R(p.pad, p.pad+p.old), spaces[:p.size:p.size], i})
		deepest = max(deepest, indentOf(text, p.pad))
	}
	at := make([]int, len(win)) // win's offsets before the changes
	for i, s := range win {
		at[i] = s.At
	}
	// In text order; the edit goes before padding that starts where it
	// ends (typing at a key line's end types before its padding).
	slices.SortStableFunc(cs, func(a, b change) int { return a.r.Start - b.r.Start })

	delta := 0
	for _, c := range cs {
		delta += len(c.text) - c.r.Len()
	}
	lo, hi = cs[0].r.Start, cs[len(cs)-1].r.End
	// The new text shares every piece of the old one the changes do
	// not touch (source.Text): made from the last change back, each
	// change's offsets are still the old text's.
	next = text
	for i := len(cs) - 1; i >= 0; i-- {
		next = next.Edit(cs[i].r.Start, cs[i].r.End, cs[i].text)
	}

	// Each padding in the window moves by the length change of the
	// changes before it.
	for i := range win {
		shift := 0
		for _, c := range cs {
			if c.pad != i && c.r.End <= at[i] {
				shift += len(c.text) - c.r.Len()
			}
		}
		win[i].At = at[i] + shift
	}
	// oldAt is where run i of out was before the edit.
	oldAt := func(i int) int {
		switch {
		case i < w0:
			return out.At(i).At
		case i < w0+len(win):
			return at[i-w0]
		}
		return out.At(i).At - delta
	}
	if delta == 0 && len(win) == w1-w0 && pads != nil {
		v := pads.v.Edit()
		for i, s := range win {
			if pads.At(w0+i) != s {
				v.Set(w0+i, s)
			}
		}
		out = &padding{v: v, deepest: deepest, format: format}
	} else {
		runs := make([]source.Slack, 0, n-(w1-w0)+len(win))
		for i := range w0 {
			runs = append(runs, pads.At(i))
		}
		runs = append(runs, win...)
		for i := w1; i < n; i++ {
			s := pads.At(i)
			runs = append(runs, source.Slack{At: s.At + delta, Len: s.Len})
		}
		out = newPadding(runs, deepest, format)
	}
	var caught []int
	switch format {
	case schema.JSON, schema.JSONC:
		// No block scalars: the key lines the edit touched, and
		// padding a block comment the edit opened now holds.
		caught = unopened(next, out, w0, w0+len(win), jsonKeyLine.Match)
		caught = append(caught, capturedJSON(text, next, lo, hi, hi+delta, out)...)
	case schema.BP:
		caught = captured(text, next, lo, hi, hi+delta, out)
		caught = append(caught, capturedBP(text, next, lo, hi, hi+delta, out)...)
		caught = append(caught, unopened(next, out, w0, w0+len(win), openBP)...)
	default:
		caught = captured(text, next, lo, hi, hi+delta, out)
	}
	if len(caught) > 0 {
		// Padding the edit may have put in a block scalar (in the
		// blueprint language, a """ string) goes too.
		whole := next.Bytes()
		cut := make([]byte, 0, len(whole))
		var kept []source.Slack
		prev := 0
		for i := range out.Len() {
			s := out.At(i)
			if !slices.Contains(caught, i) {
				kept = append(kept, source.Slack{At: s.At - (prev - len(cut)), Len: s.Len})
				continue
			}
			cut = append(cut, whole[prev:s.At]...)
			prev = s.At + s.Len
			was, old := oldAt(i), s.Len
			if was == p.pad {
				old = p.old
			}
			lo, hi = min(lo, was), max(hi, was+old)
		}
		next, out = source.NewText(append(cut, whole[prev:]...)), newPadding(kept, deepest, format)
	}
	return next, lo, hi, out
}

// lineStartOf returns where the line holding off starts.
func lineStartOf(text source.Text, off int) int {
	return text.LastIndexAny(off, "\r\n") + 1
}

// captured returns the indices of the padding in out (offsets in next,
// the text after an edit of [lo, hi) of text, [lo, newHi) in next) that
// lines a block scalar's content in next. Only an edit that makes or
// unmakes a block scalar's header, or changes which lines end one (the
// indentation of the lines it touches), can change what a block scalar
// holds, and only one that touches a line indented less than a padded
// line can change it for that line (a section's line: "resources: |"):
// only then is next scanned.
func captured(text, nextText source.Text, lo, hi, newHi int, out *padding) []int {
	was, washead := lineShapes(text, lo, hi)
	is, ishead := lineShapes(nextText, lo, newHi)
	if !washead && !ishead && slices.Equal(was, is) {
		return nil
	}
	shallow := nextText.Len() + 1
	if len(was)+len(is) > 0 {
		shallow = slices.Min(append(was, is...))
	}
	if out == nil || out.deepest <= shallow {
		return nil // no padded line is indented more than every line touched
	}
	deeper := false
	for i := 0; i < out.Len() && !deeper; i++ {
		deeper = indentOf(nextText, out.At(i).At) > shallow
	}
	if !deeper {
		return nil
	}
	next := nextText.Bytes() // the whole text is scanned
	var caught []int
	block, j := -1, 0 // the indentation of the block scalar's header line, while in one
	for start := 0; start < len(next) && j < out.Len(); {
		end := bytes.IndexByte(next[start:], '\n')
		if end < 0 {
			end = len(next)
		} else {
			end += start
		}
		line := bytes.TrimRight(next[start:end], " \r")
		in := len(line) - len(bytes.TrimLeft(line, " "))
		if block >= 0 && (in == len(line) || in > block) {
			for j < out.Len() && out.At(j).At < end {
				if out.At(j).At >= start {
					caught = append(caught, j)
				}
				j++
			}
		} else {
			block = -1
			if blockHeader(line) {
				block = in
			}
		}
		for j < out.Len() && out.At(j).At < end {
			j++
		}
		start = end + 1
	}
	return caught
}

// capturedBP is captured for the blueprint language, whose """ strings
// keep the spaces before a line break: the indices of the padding in out
// that lines a """ string of next. Only an edit whose lines held or hold
// a """ can change which lines the strings take (single-line strings,
// comments and interpolations end with their line): only then is next
// lexed.
func capturedBP(text, next source.Text, lo, hi, newHi int, out *padding) []int {
	if out == nil || !holdsTriple(text, lo, hi) && !holdsTriple(next, lo, newHi) {
		return nil
	}
	return paddingIn(out, bplang.MultilineStrings(next.Bytes()))
}

// paddingIn returns the indices of the padding in out that starts inside
// one of ranges (sorted, apart).
func paddingIn(out *padding, ranges []source.Range) []int {
	var caught []int
	j := 0
	for _, r := range ranges {
		j = max(j, out.search(func(s source.Slack) bool { return s.At > r.Start }))
		for ; j < out.Len() && out.At(j).At < r.End; j++ {
			caught = append(caught, j)
		}
	}
	return caught
}

// unopened returns the indices in [from, to) of out (the runs whose key
// line an edit touched) whose line in next, up to the padding, is no
// longer one keyLine accepts (openBP, jsonKeyLine.Match).
func unopened(next source.Text, out *padding, from, to int, keyLine func(line []byte) bool) []int {
	var caught []int
	for i := from; i < to; i++ {
		s := out.At(i)
		if !keyLine(next.Slice(lineStartOf(next, s.At), s.At)) {
			caught = append(caught, i)
		}
	}
	return caught
}

// openBP reports whether a .bp key line still ends in the block's '{':
// text typed after it (a comment, a field) would hold the padding. A
// line with a '#' anywhere is let go too: the '{' may be in a comment.
func openBP(line []byte) bool {
	line = bytes.TrimRight(line, " \t")
	return bytes.HasSuffix(line, []byte("{")) && bytes.IndexByte(line, '#') < 0
}

// For JSON, a key line opens an object: blanks, a string, ':', '{' and
// spaces alone (jsonKeyLine). Anything typed after the key's '{' (a
// string, which would run on to the line's end through the padding if it
// were not closed, a comment, a value) or a key left unclosed would hold
// the padding.

// capturedJSON is captured for JSON and JSONC, whose block comments may
// span lines: the indices of the padding in out that lies in a block
// comment of next. Padding there changes no value, but it is no longer
// at the end of a key line (a comment opened above one may end below
// it). Strings and line comments end with their line, so only an edit
// whose lines held or hold a "/*" or "*/" can change which lines the
// block comments take: only then is next tokenized.
func capturedJSON(text, next source.Text, lo, hi, newHi int, out *padding) []int {
	if out == nil || !holdsAny(text, lo, hi, "/*", "*/") && !holdsAny(next, lo, newHi, "/*", "*/") {
		return nil
	}
	return paddingIn(out, syntax.BlockComments(next.Bytes()))
}

// jsonKeyLine matches a JSON key line that opens an object, up to its
// padding: what syntax.DefinitionAt calls Open.
var jsonKeyLine = regexp.MustCompile(`^[ \t]*"(?:[^"\\\r\n]|\\[^\r\n])*" *: *\{ *$`)

// holdsTriple reports whether the lines holding [from, to] of text hold
// a """.
func holdsTriple(text source.Text, from, to int) bool { return holdsAny(text, from, to, `"""`) }

// holdsAny reports whether the lines holding [from, to] of text hold one
// of marks.
func holdsAny(text source.Text, from, to int, marks ...string) bool {
	start := lineStartOf(text, from)
	end := text.Len()
	if i := text.IndexAny(min(to, text.Len()), "\r\n"); i >= 0 {
		end = i
	}
	lines := text.Slice(start, end)
	for _, m := range marks {
		if bytes.Contains(lines, []byte(m)) {
			return true
		}
	}
	return false
}

// blockHeader reports whether line may open a block scalar: it ends in
// '|' or '>' after a space or at its start, with indicators after it
// and perhaps a comment.
func blockHeader(line []byte) bool {
	if i := bytes.Index(line, []byte(" #")); i >= 0 {
		line = bytes.TrimRight(line[:i], " ")
	}
	line = bytes.TrimRight(line, "0123456789+-")
	n := len(line)
	return n > 0 && (line[n-1] == '|' || line[n-1] == '>') && (n == 1 || line[n-2] == ' ')
}

// lineShapes returns the indentation of each line holding [from, to]
// of text that is not blank, and whether one of them may be a block
// scalar's header.
func lineShapes(text source.Text, from, to int) (indents []int, header bool) {
	start := text.LastIndexAny(from, "\n") + 1
	for start <= to && start < text.Len() {
		end := text.IndexAny(start, "\n") - start
		if end < 0 {
			end = text.Len() - start
		}
		line := bytes.TrimRight(text.Slice(start, start+end), " \r")
		if in := len(line) - len(bytes.TrimLeft(line, " ")); in < len(line) {
			indents = append(indents, in)
			header = header || blockHeader(line)
		}
		start += end + 1
	}
	return indents, header
}

// indentOf returns the indentation of the line holding off.
func indentOf(text source.Text, off int) int {
	start := text.LastIndexAny(off, "\n") + 1
	line := text.Slice(start, off)
	return len(line) - len(bytes.TrimLeft(line, " "))
}

// unpadded returns content without the padding slack lists, and the
// mapper of that text: the client's copy of the document.
func unpadded(content []byte, m *source.Mapper) ([]byte, *source.Mapper) {
	slack := m.Slack()
	if slack.Len() == 0 {
		return content, m
	}
	out := make([]byte, 0, len(content))
	prev := 0
	for i := range slack.Len() {
		s := slack.At(i)
		out = append(out, content[prev:s.At]...)
		prev = s.At + s.Len
	}
	out = append(out, content[prev:]...)
	return out, source.NewMapper(out)
}

// padded returns the parse of exactly old's text when an edit of it may
// take or give padding: old is a Bluelink blueprint (in YAML, JSON,
// JSONC or the blueprint language) whose text the syntax phase has
// parsed.
func (s *session) padded(old *Snapshot) *schema.File {
	if s.noSlack {
		return nil
	}
	if k := old.doc.kind.Load(); k == nil || k.kind != dialect.Bluelink {
		return nil
	}
	p := old.doc.parsed.Load()
	if p == nil || !p.file.Text.Same(old.Text) {
		return nil
	}
	return p.file
}
