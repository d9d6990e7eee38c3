package syntax

import (
	"bytes"
	"sort"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// Splice returns the File of content, the next version of prev's text,
// or nil when it cannot be built from prev's (SpliceWith). For JSON and
// JSONC see reparseJSON (reparse_json.go): an edit inside one member of
// a section object re-parses that member. When prev is a clean YAML
// document (no diagnostics, block mappings at the top two levels) and
// the edit falls inside one entry of a top-level mapping (a resource, a
// value, a variable ...), only that entry's lines are parsed; the new
// entry is spliced into a tree that shares every node before the edit
// with prev's and holds shifted copies of the nodes after it. Anything
// else (an edit across entries, a fragment that does not parse
// alone as one entry at the same indentation, a fragment whose lines
// could mean something else in the whole document) gives nil, and the
// caller parses whole. A File it returns is the one Parse would give;
// prev is not changed. It finds the edit by comparing the two texts
// from both ends (ChangeBetween); SpliceAt is told where it is.
func Splice(prev *File, content []byte) *File { return splice1(prev, source.NewText(content), nil) }

// SpliceAt is Splice told where the edit is: prev.Content and content
// are the same outside ch (which may be wider than the bytes that
// differ). Only the bytes inside ch are compared, so the cost does not
// grow with the document. A ch that does not fit the two texts is
// ignored (the texts are compared whole, as Splice does).
func SpliceAt(prev *File, content source.Text, ch Change) *File { return splice1(prev, content, &ch) }

// splice1 dispatches on prev's format: JSON and JSONC (reparse_json.go)
// or YAML.
func splice1(prev *File, content source.Text, ch *Change) *File {
	if prev != nil && (prev.Format == JSON || prev.Format == JSONC) {
		return SpliceWith(prev, content, ch, jsonGrammar)
	}
	return SpliceWith(prev, content, ch, yamlGrammar)
}

// yamlGrammar splices YAML whose top two levels are block mappings: the
// entry of a top-level mapping (a resource, a value, a variable ...)
// whose lines hold the edit is parsed alone.
var yamlGrammar = Grammar{Formats: []Format{YAML}, Reparse: reparseYAML}

// reparseYAML parses alone the lines of the entry around the edit, when
// they parse clean as one entry at the same indentation and read the
// same inside the whole document (keepsItsPlace).
func reparseYAML(prev *File, root *Mapping, content source.Text, edit Change) (Reparsed, bool) {
	delta := content.Len() - prev.Text.Len()
	// Text inserted at the start of an entry's line may end the entry
	// above as well as begin the one there: try both.
	for _, above := range []bool{false, true} {
		sec, child, fragStart, fragEnd := entryAround(prev, root, content, edit.Start, edit.OldEnd, above)
		if child < 0 {
			continue
		}
		section := root.Entries[sec].Value.(*Mapping)
		col := section.Entries[child].Key.Rng.Start - fragStart
		frag := content.Slice(fragStart, fragEnd)
		if !keepsItsPlace(frag, col) {
			continue
		}
		pf := ParseYAML(frag)
		fm, ok := pf.Root.(*Mapping)
		if len(pf.Diagnostics) > 0 || !ok || fm.Flow || len(fm.Entries) != 1 || fm.Entries[0].Key.Rng.Start != col || fm.Entries[0].Value == nil {
			continue
		}
		var sh shifter
		return Reparsed{Sec: sec, Child: child, Entry: sh.entry(fm.Entries[0], fragStart), Start: fragStart, End: fragEnd - delta}, true
	}
	return Reparsed{}, false
}

// entryAround finds an entry of a top-level block mapping whose lines
// hold the edit: prev's bytes [p, oldEnd) became content's bytes [p,
// oldEnd+delta). The entry is the last one of its section whose line
// starts at or before p, or with above the one before that (text typed
// at the start of a line may end the entry above as well as begin the
// one there). Its lines in content run from its own line start to the
// line of the next key (its next sibling, or the next top-level key),
// which must lie after the edit and keep its indentation; the last
// entry of the document runs to the end. child is -1 when there is none.
func entryAround(prev *File, root *Mapping, content source.Text, p, oldEnd int, above bool) (sec, child, fragStart, fragEnd int) {
	m := prev.Mapper
	lineStart := func(off int) int { return m.LineStart(m.Line(off)) }
	delta := content.Len() - prev.Text.Len()
	for sec = range root.Entries {
		e := root.Entries[sec]
		section, ok := e.Value.(*Mapping)
		if !ok || section.Flow || len(section.Entries) == 0 || e.Key.Rng.End > p {
			continue
		}
		var next *Scalar // the key after the section
		if sec+1 < len(root.Entries) {
			next = root.Entries[sec+1].Key
			if p >= lineStart(next.Rng.Start) {
				continue
			}
		}
		if p < lineStart(section.Entries[0].Key.Rng.Start) {
			break
		}
		i := sort.Search(len(section.Entries), func(i int) bool {
			return lineStart(section.Entries[i].Key.Rng.Start) > p
		}) - 1
		if above {
			i--
		}
		if i < 0 {
			break
		}
		if i+1 < len(section.Entries) {
			next = section.Entries[i+1].Key
		}
		fragStart = lineStart(section.Entries[i].Key.Rng.Start)
		fragEnd = content.Len()
		if next != nil {
			if next.Rng.Start < oldEnd {
				break
			}
			col := next.Rng.Start - lineStart(next.Rng.Start)
			fragEnd = next.Rng.Start + delta - col
			if fragEnd <= fragStart || content.At(fragEnd-1) != '\n' || !onlySpaces(content.Slice(fragEnd, next.Rng.Start+delta)) {
				break
			}
		}
		if !onlySpaces(prev.Text.Slice(fragStart, section.Entries[i].Key.Rng.Start)) {
			break
		}
		// What precedes the entry must end on an earlier line, with only
		// blank and comment lines between: an explicit key ("? " on a
		// line of its own, the key's text on the next) starts its entry
		// a line above the key's, and the key's lines alone would parse
		// as another entry.
		before := e.Key.Rng.End
		if i > 0 {
			before = nodeEnd(section.Entries[i-1])
		}
		if !blankLinesBetween(prev.Text, before, fragStart) {
			break
		}
		return sec, i, fragStart, fragEnd
	}
	return 0, -1, 0, 0
}

// nodeEnd is where entry e's text ends: its value's, or its key's.
func nodeEnd(e *Entry) int {
	if e.Value != nil {
		return max(e.Key.Rng.End, e.Value.Range().End)
	}
	return e.Key.Rng.End
}

// blankLinesBetween reports whether the lines of t after the one holding
// from, up to to (a line start), are blank or comments.
func blankLinesBetween(t source.Text, from, to int) bool {
	nl := t.IndexAny(from, "\n")
	if nl < 0 || nl+1 >= to {
		return true
	}
	for _, line := range bytes.Split(t.Slice(nl+1, to), []byte{'\n'}) {
		if body := bytes.TrimLeft(bytes.TrimSuffix(line, []byte{'\r'}), " \t"); len(body) > 0 && body[0] != '#' {
			return false
		}
	}
	return true
}

func onlySpaces(b []byte) bool {
	for _, c := range b {
		if c != ' ' {
			return false
		}
	}
	return true
}

// keepsItsPlace reports whether frag, the lines of one entry whose key
// sits at column col, reads the same inside the whole document as alone:
// its first line starts with col spaces and a key, and every later line
// is blank, a comment, indented deeper than col, or a block sequence item
// at col (an entry's value may be one). A line at col or less would end
// the entry in the document; anything yaml.v3 or the line counting could
// read differently (a lone carriage return, a Unicode line break) is
// left to a whole parse.
func keepsItsPlace(frag []byte, col int) bool {
	if hasAny(frag, unicodeBreaks) {
		return false
	}
	for i, line := range bytes.SplitAfter(frag, []byte{'\n'}) {
		body := bytes.TrimSuffix(bytes.TrimSuffix(line, []byte{'\n'}), []byte{'\r'})
		if bytes.IndexByte(body, '\r') >= 0 {
			return false
		}
		k := 0
		for k < len(body) && body[k] == ' ' {
			k++
		}
		if i == 0 {
			if k != col || k == len(body) || body[k] == '#' || body[k] == '-' {
				return false
			}
			continue
		}
		rest := body[k:]
		switch {
		case len(bytes.TrimLeft(rest, " \t")) == 0, k > col, rest[0] == '#':
		case k == col && rest[0] == '-' && (len(rest) == 1 || rest[1] == ' '):
		default:
			return false
		}
	}
	return true
}

// shifter copies nodes with every offset moved by a delta, carving the
// copies from slabs as the parser does.
type shifter struct{ nodeSlabs }

// moved returns e moved by d: e itself when d is 0 (nodes never change,
// so an edit that keeps the text's length shares every node after it).
func (sh *shifter) moved(e *Entry, d int) *Entry {
	if d == 0 {
		return e
	}
	return sh.entry(e, d)
}

func (sh *shifter) entry(e *Entry, d int) *Entry {
	out := sh.entries.One()
	out.Key = sh.scalar(e.Key, d)
	if e.Value != nil {
		out.Value = sh.node(e.Value, d)
	}
	return out
}

func (sh *shifter) node(n Node, d int) Node {
	switch n := n.(type) {
	case *Mapping:
		m := sh.mappings.One()
		m.Rng, m.Flow = n.Rng.Moved(d), n.Flow
		if n.Entries != nil {
			m.Entries = sh.entryPs.Many(len(n.Entries))
			for _, e := range n.Entries {
				m.Entries = append(m.Entries, sh.entry(e, d))
			}
		}
		return m
	case *Sequence:
		s := sh.seqs.One()
		s.Rng, s.Flow = n.Rng.Moved(d), n.Flow
		if n.Items != nil {
			s.Items = sh.items.Many(len(n.Items))
			for _, it := range n.Items {
				s.Items = append(s.Items, sh.node(it, d))
			}
		}
		return s
	case *Scalar:
		return sh.scalar(n, d)
	}
	return n
}

func (sh *shifter) scalar(n *Scalar, d int) *Scalar {
	s := sh.scalars.One()
	*s = *n
	s.Rng = n.Rng.Moved(d) // ValueRange is relative to it, or moved with the map
	s.moveMap(n, d, &sh.maps)
	return s
}
