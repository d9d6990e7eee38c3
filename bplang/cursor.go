package bplang

import (
	"github.com/blueprint-ls/blueprint-ls/source"
)

// Cursor is what the text before an offset says about the place, for
// completion while the document may not parse: the structure path in the
// keys of the YAML form (resources, name, spec, ...) and what is typed.
type Cursor struct {
	// Path is the mapping the cursor is in (a key) or, for a value, the
	// mapping and the key the value is for. Empty at the top level.
	Path []string
	// Statement: typing a top-level statement keyword. Key: typing a
	// field name in the block at Path. Type: typing a declaration's type
	// (Path ends with "type"). Otherwise a value of Path's last key.
	Statement, Key, Type bool
	// Replace is the word being typed (empty at the cursor when none).
	Replace source.Range
	// Present are the fields the block already has.
	Present map[string]bool
	// Kind is the declaration keyword of the block the cursor is
	// directly in (resource, data, ...), "" in a nested block.
	Kind string
	// Expr: inside an expression that is not a plain value position
	// (after an operator, in a call); String: inside a string literal
	// whose text starts at StringStart.
	Expr, String bool
	StringStart  int
	// DeclType is the type written in the header of the declaration the
	// cursor is in (aws/sqs/queue), "" when none.
	DeclType string
}

type frame struct {
	path    []string
	kind    string
	typ     string // a declaration's type
	present map[string]bool
	object  bool // an object literal or an array: no statements
}

// CursorAt reads the context of offset off in text. ok is false where no
// completion applies (inside a string, a comment, an expression).
func CursorAt(text []byte, off int) (c Cursor, ok bool) {
	c, ok, _ = cursorIn(text, 0, off, false)
	return c, ok
}

// CursorInStatement is CursorAt read from the text of the statement
// holding off alone (DefinitionAt): stmt, which starts at base in the
// document (off and the ranges of c are the document's offsets). The
// lexer is between tokens at a statement's keyword, as at the start of
// the document, and every block opened after it closes before the next
// statement, so a cursor inside a block reads the same from there as
// from the start. known is false where it does not: at the top level,
// whose fields present are every statement's (or when the block does
// not close in stmt); CursorAt then.
func CursorInStatement(stmt []byte, base, off int) (c Cursor, ok, known bool) {
	return cursorIn(stmt, base, off, true)
}

// cursorIn is CursorAt on text starting at base in the document; bounded
// says text may be a part of it (CursorInStatement).
func cursorIn(text []byte, base, off int, bounded bool) (c Cursor, ok, known bool) {
	c, ok, known = cursorRel(text, off-base, bounded)
	c.Replace = source.R(c.Replace.Start+base, c.Replace.End+base)
	if c.String {
		c.StringStart += base
	}
	return c, ok, known
}

// cursorRel is cursorIn in text's own offsets.
func cursorRel(text []byte, off int, bounded bool) (c Cursor, ok, known bool) {
	if off < 0 || off > len(text) {
		return c, false, true
	}
	c.Replace = source.R(off, off)
	whole := string(text)
	l := lex(text[:off])
	toks := withText(whole, l.toks[:len(l.toks)-1]) // without EOF
	// The tokens after the cursor, for the fields present.
	all := lex(text).toks
	k := 0
	for k < len(all) && all[k].start < off {
		k++
	}
	after := withText(whole, all[k:])
	for _, cm := range l.comments {
		if cm.end == off {
			return c, false, true
		}
	}
	if n := len(toks); n > 0 && toks[n-1].kind == tString && toks[n-1].end == off && (toks[n-1].end-toks[n-1].start < 2 || text[off-1] != '"' || escapedQuote(text, toks[n-1].start, off-1)) {
		c.String, c.StringStart = true, toks[n-1].start+1
		return c, true, true
	}
	// The word being typed: an identifier ending at the cursor.
	if n := len(toks); n > 0 && toks[n-1].kind == tIdent && toks[n-1].end == off {
		c.Replace = toks[n-1].rng()
		toks = toks[:n-1]
	} else if n > 0 && toks[n-1].end == off && (toks[n-1].kind == tString || toks[n-1].kind == tMultiline || toks[n-1].kind == tInt || toks[n-1].kind == tFloat) {
		return c, false, true // right after a string or a number
	}
	stack := []*frame{{present: map[string]bool{}}}
	var line []ltok // the tokens of the current statement or field
	for _, t := range toks {
		top := stack[len(stack)-1]
		switch {
		case t.kind == tNewline || t.is(","):
			if len(line) > 0 && (isOperator(line[len(line)-1]) || t.kind == tNewline && top.object) {
				continue // an expression goes on
			}
			notePresent(top, line)
			line = line[:0]
		case t.is("{") || t.is("["):
			f := &frame{present: map[string]bool{}, object: true}
			switch {
			case len(stack) == 1 && len(line) > 0 && line[0].kind == tIdent:
				f.object = false
				f.kind = line[0].text
				f.path = topPath(line)
				if len(line) >= 4 && line[2].is(":") {
					f.typ = string(text[line[3].start:line[len(line)-1].end])
				}
			case !top.object && len(line) == 1 && line[0].kind == tIdent && t.is("{"):
				f.object = false
				f.path = appendPath(top.path, line[0].text)
				top.present[line[0].text] = true
			case !top.object && len(line) == 3 && line[0].is("select") && t.is("{"):
				f.object = false
				f.path = appendPath(top.path, "linkSelector", "byLabel")
				top.present["linkSelector"] = true
			case len(line) >= 2 && (line[0].kind == tIdent || line[0].kind == tString) && line[1].is("="):
				f.path = appendPath(top.path, line[0].text)
				top.present[line[0].text] = true
			default:
				f.path = appendPath(top.path, "*")
			}
			stack = append(stack, f)
			line = line[:0]
		case t.is("}") || t.is("]"):
			if len(stack) > 1 {
				stack = stack[:len(stack)-1]
			}
			line = line[:0]
		default:
			line = append(line, t)
		}
	}
	top := stack[len(stack)-1]
	closed := presentAfter(top, after)
	if bounded && (len(stack) == 1 || !closed) {
		return c, false, false
	}
	c.Present, c.Kind = top.present, top.kind
	if len(stack) > 1 {
		c.DeclType = stack[1].typ
	}
	switch {
	case len(line) == 0 && len(stack) == 1:
		c.Statement = true
		return c, true, true
	case len(line) == 0 && !top.object:
		c.Key, c.Path = true, top.path
		return c, true, true
	case len(line) == 0 && top.object && len(top.path) > 0 && top.path[len(top.path)-1] != "*":
		c.Key, c.Path = true, top.path
		return c, true, true
	case len(stack) == 1 && len(line) >= 3:
		start, ok := typeLine(line, c.Replace)
		if !ok {
			return c, false, true
		}
		c.Type, c.Path = true, []string{sectionOf[line[0].text].Key(), line[1].text, "type"}
		c.Replace.Start = start
		return c, true, true
	case len(line) == 2 && line[1].is("=") && (line[0].kind == tIdent || line[0].kind == tString):
		c.Path = appendPath(top.path, line[0].text)
		return c, true, true
	case len(line) > 0 && !(len(stack) == 1 && len(line) <= 3):
		c.Expr = true
		if len(line) >= 2 && line[1].is("=") {
			c.Path = appendPath(top.path, line[0].text)
		}
		return c, true, true
	}
	return c, false, true
}

// escapedQuote reports whether the quote at i closes nothing: it is the
// opening one, or escaped.
func escapedQuote(text []byte, start, i int) bool {
	return i == start || text[i-1] == '\\'
}

// notePresent records the field a finished line of a block set.
func notePresent(f *frame, line []ltok) {
	switch {
	case len(line) >= 2 && (line[0].kind == tIdent || line[0].kind == tString) && (line[1].is("=") || line[1].is("{")):
		f.present[line[0].text] = true
	case f.kind == "resource" && len(line) >= 1 && line[0].is("foreach"):
		f.present["each"] = true
	case f.kind == "resource" && len(line) >= 1 && line[0].is("select"):
		f.present["linkSelector"] = true
	}
}

// presentAfter records the fields of the cursor's block after it: the
// lines at its own depth up to its closing brace, and reports whether
// it found that brace.
func presentAfter(f *frame, after []ltok) bool {
	depth := 0
	var line []ltok
	for _, t := range after {
		switch {
		case t.kind == tNewline || t.is(","):
			if depth == 0 {
				notePresent(f, line)
				line = line[:0]
			}
		case t.is("{") || t.is("[") || t.is("("):
			if depth == 0 {
				line = append(line, t)
				notePresent(f, line)
			}
			depth++
		case t.is("}") || t.is("]") || t.is(")"):
			if depth == 0 {
				return true
			}
			depth--
		default:
			if depth == 0 {
				line = append(line, t)
			}
		}
	}
	return false
}

func isOperator(t ltok) bool {
	if t.kind != tPunct {
		return false
	}
	_, ok := operatorFuncs[t.text]
	return ok || t.is("!=") || t.is("!")
}

// typeLine reports whether a top-level line is `keyword name:` and the
// start of a type (words joined by '/'), and where the type starts.
func typeLine(line []ltok, word source.Range) (int, bool) {
	if len(line) < 3 || !line[2].is(":") || sectionOf[line[0].text].Key() == "" {
		return 0, false
	}
	start := word.Start
	for i := len(line) - 1; i >= 3; i-- {
		t := line[i]
		if !(t.kind == tIdent || t.is("/")) || t.end != start {
			return 0, false
		}
		start = t.start
	}
	return start, true
}

// topPath is the path of a top-level statement's block.
func topPath(line []ltok) []string {
	kw := line[0].text
	if kw == "metadata" {
		return []string{"metadata"}
	}
	sec, ok := sectionOf[kw]
	if !ok || len(line) < 2 {
		return []string{"*"}
	}
	name := line[1].text
	if line[1].kind == tString {
		name = name[1 : len(name)-1]
	}
	return []string{sec.Key(), name}
}

func appendPath(p []string, more ...string) []string {
	return append(append([]string(nil), p...), more...)
}

// ltok is a token with its text, for the cursor's reading of a few lines
// (the parser keeps tokens bare).
type ltok struct {
	token
	text string
}

// is reports whether t is the punctuation or identifier s.
func (t ltok) is(s string) bool {
	return (t.kind == tPunct || t.kind == tIdent) && t.text == s
}

// withText gives each of toks, tokens of text, its text.
func withText(text string, toks []token) []ltok {
	out := make([]ltok, len(toks))
	for i, t := range toks {
		out[i] = ltok{t, text[t.start:t.end]}
	}
	return out
}
