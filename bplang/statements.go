package bplang

import (
	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// Statement is one top-level statement as the text lays it out: from its
// keyword in the first column of a line to the next such keyword, and the
// section its declaration adds to (NoSection for version, transform and
// metadata).
type Statement struct {
	Range   source.Range
	Section dialect.Section
}

// Keyword is the declaration keyword of a section (resource for
// resources), "" for none.
func Keyword(s dialect.Section) string {
	for kw, sec := range sectionOf {
		if sec == s {
			return kw
		}
	}
	return ""
}

// Statements splits content into its top-level statements the way the
// parser resumes after an error: at each top-level keyword in the first
// column of a line. Text before the first is in none.
func Statements(content []byte) []Statement {
	l := lex(content)
	var out []Statement
	for _, t := range l.toks {
		if !atTopStatement(content, t) {
			continue
		}
		if n := len(out); n > 0 {
			out[n-1].Range.End = t.start
		}
		out = append(out, Statement{Range: source.R(t.start, len(content)), Section: sectionOf[string(content[t.start:t.end])]})
	}
	return out
}
