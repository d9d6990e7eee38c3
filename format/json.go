package format

import (
	"strings"

	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// jsonTok is one token of a JSON or JSONC document.
type jsonTok struct {
	kind       jsonKind
	start, end int
}

type jsonKind int

const (
	jOpen         jsonKind = iota // { or [
	jClose                        // } or ]
	jColon                        // :
	jComma                        // ,
	jValue                        // string, number, true, false, null
	jLineComment                  // // ...
	jBlockComment                 // /* ... */
)

func (k jsonKind) comment() bool { return k == jLineComment || k == jBlockComment }

// scanJSON splits a syntactically valid document into tokens. Whitespace
// is everything between them.
func scanJSON(c []byte) []jsonTok {
	var toks []jsonTok
	for i := 0; i < len(c); {
		start := i
		var k jsonKind
		switch ch := c[i]; {
		case isSpace(ch):
			i++
			continue
		case ch == '{' || ch == '[':
			k, i = jOpen, i+1
		case ch == '}' || ch == ']':
			k, i = jClose, i+1
		case ch == ':':
			k, i = jColon, i+1
		case ch == ',':
			k, i = jComma, i+1
		case ch == '"':
			k, i = jValue, i+1
			for i < len(c) && c[i] != '"' {
				if c[i] == '\\' {
					i++
				}
				i++
			}
			i++
		case ch == '/' && i+1 < len(c) && c[i+1] == '/':
			k = jLineComment
			for i < len(c) && c[i] != '\n' && c[i] != '\r' {
				i++
			}
		case ch == '/' && i+1 < len(c) && c[i+1] == '*':
			k = jBlockComment
			if j := strings.Index(string(c[i+2:]), "*/"); j >= 0 {
				i += j + 4
			} else {
				i = len(c)
			}
		default:
			k = jValue
			for i < len(c) && !isSpace(c[i]) && !strings.ContainsRune("{}[]:,\"/", rune(c[i])) {
				i++
			}
			if i == start { // a lone '/': not valid, keep going
				i++
			}
		}
		if i > len(c) {
			i = len(c)
		}
		toks = append(toks, jsonTok{kind: k, start: start, end: i})
	}
	return toks
}

// formatJSON lays the document out one member per line. Only whitespace
// between tokens changes, plus trailing whitespace inside comments and
// spacing inside ${..} of strings.
func formatJSON(f *schema.File, opts Options) []kedit {
	c := f.Content()
	toks := scanJSON(c)
	if len(toks) == 0 {
		return nil
	}
	nl := newline(c)
	unit := strings.Repeat(" ", opts.width())
	if opts.UseTabs {
		unit = "\t"
	}
	indent := func(d int) string {
		if d < 0 {
			d = 0
		}
		return strings.Repeat(unit, d)
	}
	var edits []kedit
	add := func(start, end int, text string, kind editKind) {
		if e, ok := replace(c, start, end, text, kind); ok {
			edits = append(edits, e)
		}
	}

	// The leading gap goes; anything but whitespace there (a BOM) stays.
	if onlySpace(c[:toks[0].start]) {
		add(0, toks[0].start, "", kindIndent)
	}
	depth := 0
	var sig *jsonTok   // the last token that is not a comment
	startsLine := true // the current token starts its line in the output
	for i, t := range toks {
		switch t.kind {
		case jOpen:
			depth++
		case jClose:
			depth--
		}
		if t.kind.comment() && opts.TrimTrailingWhitespace {
			edits = append(edits, trimCommentLines(c, t)...)
		}
		if i+1 == len(toks) {
			break
		}
		next := toks[i+1]
		d := depth
		if next.kind == jClose {
			d--
		}
		gap := c[t.end:next.start]
		if !onlySpace(gap) {
			continue
		}
		text, newDepth := jsonGap(t, next, sig, startsLine, d, gap, nl, indent)
		add(t.end, next.start, text, kindIndent)
		if !t.kind.comment() {
			sig = &toks[i]
		}
		startsLine = next.kind.comment() && newDepth >= 0
		if next.kind == jBlockComment && newDepth >= 0 {
			edits = append(edits, reindentComment(c, next, lineIndent(c, next.start), indent(newDepth))...)
		}
	}
	last := toks[len(toks)-1]
	if tail := c[last.end:]; onlySpace(tail) {
		text := ""
		if opts.InsertFinalNewline || strings.ContainsAny(string(tail), "\r\n") {
			text = nl
		}
		add(last.end, len(c), text, kindSpace)
	}
	edits = append(edits, substEdits(f, opts)...)
	sortEdits(edits)
	return edits
}

// jsonGap returns the whitespace that belongs between t and next, depth
// being the indentation level next gets when it starts a line. sig is the
// last token before next that is not a comment (nil at the start), and
// startsLine says t is a comment that starts its line. newDepth is the
// level next gets when it starts a line, -1 when it does not.
func jsonGap(t, next jsonTok, sig *jsonTok, startsLine bool, depth int, gap []byte, nl string, indent func(int) string) (text string, newDepth int) {
	lines := strings.Count(string(gap), "\n")
	if lines == 0 {
		lines = strings.Count(string(gap), "\r")
	}
	breakAt := func(blank bool) (string, int) {
		s := nl
		if blank && lines >= 2 {
			s += nl
		}
		return s + indent(depth), depth
	}
	switch {
	case t.kind == jLineComment:
		return breakAt(next.kind != jClose)
	case next.kind.comment():
		if lines == 0 {
			return " ", -1
		}
		return breakAt(t.kind != jOpen)
	case t.kind == jBlockComment:
		switch {
		case lines > 0:
			return breakAt(next.kind != jClose)
		case startsLine || sig == nil:
			return " ", -1 // a comment leading the token after it
		}
		// A comment trailing sig: lay out as if it were not there.
		if text, d := structuralGap(*sig, next, breakAt); d >= 0 {
			return text, d
		}
		return " ", -1
	}
	return structuralGap(t, next, breakAt)
}

// structuralGap is the whitespace between two tokens that are not
// comments.
func structuralGap(t, next jsonTok, breakAt func(blank bool) (string, int)) (string, int) {
	switch {
	case next.kind == jColon || next.kind == jComma:
		return "", -1
	case t.kind == jColon:
		return " ", -1
	case t.kind == jOpen:
		if next.kind == jClose {
			return "", -1
		}
		return breakAt(false)
	case next.kind == jClose:
		return breakAt(false)
	case t.kind == jComma:
		return breakAt(true)
	}
	return " ", -1
}

// reindentComment moves the continuation lines of a multi-line block
// comment along with its first line: each line starting with the old
// indentation of the comment's line gets the new one instead.
func reindentComment(c []byte, t jsonTok, old, repl string) []kedit {
	if old == repl {
		return nil
	}
	var out []kedit
	for i := t.start; i < t.end; i++ {
		if c[i] != '\n' {
			continue
		}
		ls := i + 1
		if onlySpace(c[ls:lineBreakAt(c, ls, t.end)]) {
			continue // trimCommentLines owns blank lines
		}
		if ls < t.end && strings.HasPrefix(string(c[ls:t.end]), old) && old != "" {
			if e, ok := replace(c, ls, ls+len(old), repl, kindIndent); ok {
				out = append(out, e)
			}
		} else if old == "" && ls < t.end && c[ls] != '\n' && c[ls] != '\r' {
			if e, ok := replace(c, ls, ls, repl, kindIndent); ok {
				out = append(out, e)
			}
		}
	}
	return out
}

// lineIndent returns the whitespace that starts the line holding off.
func lineIndent(c []byte, off int) string {
	ls := off
	for ls > 0 && c[ls-1] != '\n' && c[ls-1] != '\r' {
		ls--
	}
	e := ls
	for e < len(c) && (c[e] == ' ' || c[e] == '\t') {
		e++
	}
	return string(c[ls:e])
}

// trimCommentLines removes whitespace before each line break inside a
// comment, and at the end of a line comment.
func trimCommentLines(c []byte, t jsonTok) []kedit {
	var out []kedit
	trim := func(end int) {
		s := end
		for s > t.start && (c[s-1] == ' ' || c[s-1] == '\t') {
			s--
		}
		if s < end {
			out = append(out, kedit{Edit: editDelete(s, end), kind: kindSpace})
		}
	}
	for i := t.start; i < t.end; i++ {
		if c[i] == '\n' || c[i] == '\r' {
			if c[i] == '\n' && i > t.start && c[i-1] == '\r' {
				continue
			}
			trim(i)
		}
	}
	if t.kind == jLineComment {
		trim(t.end)
	}
	return out
}

func onlySpace(b []byte) bool {
	for _, ch := range b {
		if !isSpace(ch) {
			return false
		}
	}
	return true
}

// lineBreakAt returns the offset of the first line break at or after off,
// or end.
func lineBreakAt(c []byte, off, end int) int {
	for off < end && c[off] != '\n' && c[off] != '\r' {
		off++
	}
	return off
}

func editDelete(start, end int) source.Edit {
	return source.Edit{Range: source.R(start, end)}
}
