package bplang

import (
	"sort"

	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// Splice returns the File of content, the next version of prev's text,
// or nil when it cannot be built from prev's. When prev parsed clean and
// the edit falls inside one declaration (resource, data, value, variable,
// export, include: from its keyword to the next statement's), only that
// statement's text is parsed; its entry is spliced into a tree that
// shares every node before the edit with prev's and holds shifted copies
// of the nodes after it (syntax.SpliceWith). Anything else (an edit in
// version, transform, metadata or before the first statement, one across
// statements, a statement that does not parse clean alone as one
// declaration of the same section starting where it did, a next
// statement no longer at the start of a line) gives nil, and the caller
// parses whole. A File it returns is the one Parse would give, and says
// how it was spliced (syntax.RecordSplice); prev is not changed. It finds
// the edit by comparing the two texts from both ends
// (syntax.ChangeBetween); SpliceAt is told where it is.
//
// Why the rest reads the same: the parser reads statements one after the
// other from the top level, the lexer is between tokens at a statement's
// keyword, and the only look-ahead past a statement (an operator starting
// the next line) sees the next keyword, unchanged on both sides.
func Splice(prev *syntax.File, content []byte) *syntax.File {
	return spliceBP(prev, source.NewText(content), nil)
}

// SpliceAt is Splice told where the edit is: prev.Content and content
// are the same outside ch (which may be wider than the bytes that
// differ). Only the bytes inside ch are compared, so the cost does not
// grow with the document. A ch that does not fit the two texts is
// ignored (the texts are compared whole, as Splice does).
func SpliceAt(prev *syntax.File, content source.Text, ch syntax.Change) *syntax.File {
	return spliceBP(prev, content, &ch)
}

// spliceBP is Splice, or SpliceAt when ch is not nil.
func spliceBP(prev *syntax.File, content source.Text, ch *syntax.Change) *syntax.File {
	return syntax.SpliceWith(prev, content, ch, bpGrammar)
}

// bpGrammar splices the blueprint language: the statement of the
// declaration around the edit is parsed alone (reparse). A section's
// declarations start at their keywords, and sections interleave in the
// text.
var bpGrammar = syntax.Grammar{
	Formats: []syntax.Format{syntax.BP},
	Reparse: reparse,
	IsSection: func(e *syntax.Entry) bool {
		_, ok := e.Value.(*syntax.Mapping)
		return ok && dialect.SectionOf(e.Key.Value) != dialect.NoSection
	},
	StartOf:   stmtStart,
	WholeText: true,
}

// reparse parses alone the statement of the declaration around the
// edit, when its text starts and ends lines and parses clean as one
// declaration of the same section (parseAlone).
func reparse(prev *syntax.File, root *syntax.Mapping, content source.Text, edit syntax.Change) (syntax.Reparsed, bool) {
	delta := content.Len() - prev.Text.Len()
	st, ok := statementAround(root, edit.Start, prev.Text.Len())
	if !ok || edit.OldEnd > st.next {
		return syntax.Reparsed{}, false
	}
	fragStart, fragEnd := st.start, st.next+delta
	if fragStart > 0 && content.At(fragStart-1) != '\n' || fragEnd < fragStart ||
		fragEnd < content.Len() && (fragEnd == 0 || content.At(fragEnd-1) != '\n') {
		return syntax.Reparsed{}, false
	}
	entry := parseAlone(content.Slice(fragStart, fragEnd), root.Entries[st.sec].Key.Value)
	if entry == nil {
		return syntax.Reparsed{}, false
	}
	var sh syntax.Shifter
	return syntax.Reparsed{Sec: st.sec, Child: st.child, Entry: sh.Entry(entry, fragStart), Start: fragStart, End: st.next}, true
}

// stmt is the declaration an edit falls in: entry child of the section
// at root entry sec, its statement's text running from start (its
// keyword) to next (the next statement's keyword, or the end).
type stmt struct {
	sec, child  int
	start, next int
}

// stmtStart is where the statement of a section's definition begins: its
// keyword, where the definition's mapping starts.
func stmtStart(e *syntax.Entry) int { return e.Value.(*syntax.Mapping).Rng.Start }

// statementAround finds the declaration whose statement holds offset p
// of a clean tree of a text of n bytes: the last one starting at or
// before p, unless a version, transform or metadata statement lies
// between it and p. ok is false when there is none.
func statementAround(root *syntax.Mapping, p, n int) (st stmt, ok bool) {
	st.start = -1
	var others []int // where every statement other than a declaration starts
	for sec, e := range root.Entries {
		section, isSection := e.Value.(*syntax.Mapping)
		if !isSection || dialect.SectionOf(e.Key.Value) == dialect.NoSection {
			others = append(others, e.Key.Rng.Start)
			continue
		}
		entries := section.Entries
		i := sort.Search(len(entries), func(i int) bool { return stmtStart(entries[i]) > p }) - 1
		if i >= 0 && stmtStart(entries[i]) > st.start {
			st = stmt{sec: sec, child: i, start: stmtStart(entries[i])}
		}
	}
	if st.start < 0 {
		return st, false
	}
	st.next = n
	for _, o := range others {
		if o > st.start && o <= p {
			return st, false // the edit is in that statement
		}
		if o > st.start {
			st.next = min(st.next, o)
		}
	}
	for _, e := range root.Entries {
		section, isSection := e.Value.(*syntax.Mapping)
		if !isSection || dialect.SectionOf(e.Key.Value) == dialect.NoSection {
			continue
		}
		entries := section.Entries
		if i := sort.Search(len(entries), func(i int) bool { return stmtStart(entries[i]) > st.start }); i < len(entries) {
			st.next = min(st.next, stmtStart(entries[i]))
		}
	}
	return st, true
}

// parseAlone parses the text of one statement and returns its
// declaration's entry when the text is exactly one declaration, clean, of
// section key, whose keyword is the text's first byte; nil otherwise.
func parseAlone(frag []byte, key string) *syntax.Entry {
	pf := Parse("", frag)
	root, ok := pf.Root.(*syntax.Mapping)
	if len(pf.Diagnostics) > 0 || !ok || len(root.Entries) != 1 || root.Entries[0].Key.Value != key {
		return nil
	}
	section, ok := root.Entries[0].Value.(*syntax.Mapping)
	if !ok || len(section.Entries) != 1 {
		return nil
	}
	if m, ok := section.Entries[0].Value.(*syntax.Mapping); !ok || m.Rng.Start != 0 {
		return nil
	}
	return section.Entries[0]
}
