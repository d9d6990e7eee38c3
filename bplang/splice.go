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
// of the nodes after it (syntax.Shifter). Anything else (an edit in
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
func spliceBP(prev *syntax.File, content source.Text, ch *syntax.Change) (f *syntax.File) {
	defer func() {
		if recover() != nil {
			f = nil // a bug here costs a whole parse, never a wrong tree
		}
	}()
	if prev == nil || prev.Format != syntax.BP || len(prev.Diagnostics) > 0 || prev.HasSyntaxErrors() ||
		syntax.FormatOfText(prev.URI, content) != syntax.BP {
		return nil
	}
	root, ok := prev.Root.(*syntax.Mapping)
	if !ok {
		return nil
	}
	old := prev.Text
	edit := syntax.EditOf(old, content, ch)
	p, oldEnd, delta := edit.Start, edit.OldEnd, content.Len()-old.Len()
	mapper := prev.Mapper.Edited(content, p, oldEnd, oldEnd+delta)
	if edit.Same() {
		return syntax.Assemble(prev.URI, syntax.BP, content, mapper, root, nil, nil)
	}
	st, ok := statementAround(root, p, old.Len())
	if !ok || oldEnd > st.next {
		return nil
	}
	fragStart, fragEnd := st.start, st.next+delta
	if fragStart > 0 && content.At(fragStart-1) != '\n' || fragEnd < fragStart ||
		fragEnd < content.Len() && (fragEnd == 0 || content.At(fragEnd-1) != '\n') {
		return nil
	}
	entry := parseAlone(content.Slice(fragStart, fragEnd), root.Entries[st.sec].Key.Value)
	if entry == nil {
		return nil
	}
	next := splice(root, st, entry, fragStart, delta)
	next.Rng = source.R(0, content.Len())
	f = syntax.Assemble(prev.URI, syntax.BP, content, mapper, next, nil, nil)
	syntax.RecordSplice(f, prev, fragStart, st.next, delta)
	return f
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

// splice returns root with the declaration of st replaced by entry,
// parsed alone from the text at fragStart, and every node of the
// statements after it moved by delta (shared when delta is 0). Sections interleave in the text,
// so each section keeps the entries before the edit, takes the new one
// or shifted copies of the ones after, and is rebuilt only when one of
// its entries changed.
func splice(root *syntax.Mapping, st stmt, entry *syntax.Entry, fragStart, delta int) *syntax.Mapping {
	sh := &syntax.Shifter{}
	top := make([]*syntax.Entry, len(root.Entries))
	for i, e := range root.Entries {
		section, isSection := e.Value.(*syntax.Mapping)
		if !isSection || dialect.SectionOf(e.Key.Value) == dialect.NoSection {
			top[i] = e
			if e.Key.Rng.Start >= st.next && delta != 0 {
				top[i] = sh.Entry(e, delta)
			}
			continue
		}
		entries := section.Entries
		first := sort.Search(len(entries), func(i int) bool { return stmtStart(entries[i]) >= st.start })
		if first == len(entries) {
			top[i] = e // wholly before the edit
			continue
		}
		out := make([]*syntax.Entry, len(entries))
		copy(out, entries[:first])
		end := source.R(section.Rng.Start, section.Rng.Start)
		for j := first; j < len(entries); j++ {
			switch {
			case i == st.sec && j == st.child:
				out[j] = sh.Entry(entry, fragStart)
			case delta == 0:
				out[j] = entries[j] // nodes never change: shared
			default:
				out[j] = sh.Entry(entries[j], delta)
			}
		}
		// A section's declarations are statements in text order that do
		// not overlap: the last one ends it (no walk over thousands).
		end.End = max(end.End, out[len(out)-1].Value.Range().End)
		key := e.Key
		if key.Rng.Start >= st.next && delta != 0 {
			key = sh.Node(key, delta).(*syntax.Scalar)
			end.Start += delta
		}
		top[i] = &syntax.Entry{Key: key, Value: &syntax.Mapping{Rng: end, Entries: out}}
	}
	return &syntax.Mapping{Entries: top}
}
