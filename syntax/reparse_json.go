package syntax

import (
	"sort"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// jsonGrammar splices JSON and JSONC: an edit inside one member of a
// section object (a resource `"r0": {...}`), after the first byte of the
// member's key and no later than the end of its value, re-parses that
// member alone, by the parser the whole parse runs, on the new text from
// the member's key: the bytes before the key are prev's, so the whole
// parse would reach the key in the state prev's did and read the member
// exactly as this does. When the member parses without a diagnostic and
// its value ends where prev's ended (moved by the length change), the
// bytes after it are prev's too, read by the whole parse as prev's were.
// Anything else (an edit between members, in a comma, a comment between
// members or a brace of a section; a member that no longer ends where it
// did) is parsed whole. An object's range runs from its '{' to its '}'.
var jsonGrammar = Grammar{Formats: []Format{JSON, JSONC}, Reparse: reparseJSON, Braced: true}

// reparseJSON parses alone the member of a section object around the
// edit (jsonGrammar).
func reparseJSON(prev *File, root *Mapping, content source.Text, edit Change) (Reparsed, bool) {
	delta := content.Len() - prev.Text.Len()
	sec, child := memberAround(root, edit.Start, edit.OldEnd)
	if child < 0 {
		return Reparsed{}, false
	}
	was := root.Entries[sec].Value.(*Mapping).Entries[child]
	start, end := was.Key.Rng.Start, was.Value.Range().End
	// The member is parsed from a window of the text that holds it and
	// a few bytes after it (the parser looks one byte past a value at
	// most), then moved to where the window starts.
	win := content.Slice(start, end+delta+jsonLookahead)
	jp := &jsonParser{src: win, jsonc: prev.Format == JSONC, slabs: &nodeSlabs{}}
	e := jp.member(jsonMemberDepth)
	if e == nil || len(jp.diags) > 0 || jp.pos != end+delta-start {
		return Reparsed{}, false
	}
	var sh shifter
	return Reparsed{Sec: sec, Child: child, Entry: sh.entry(e, start), Start: start, End: end}, true
}

// jsonMemberDepth is the depth the whole parse reads a section's member
// at: the root object is 0, a section 1.
const jsonMemberDepth = 2

// jsonLookahead is how many bytes past a member's end its window holds.
const jsonLookahead = 16

// parseFormat is the format Parse reads t, named uri, in; the text is
// read (joined) only when the name does not decide.
func parseFormat(uri string, t source.Text) Format {
	if f := FormatOfText(uri, t); f != BP {
		return f
	}
	return sniff(t.Bytes())
}

// memberAround returns the section (an index into root's entries) and
// the member of it whose key starts before p and whose value ends at or
// after oldEnd: the edit of prev's bytes [p, oldEnd) lies inside it,
// past its key's opening quote. child is -1 when there is none.
func memberAround(root *Mapping, p, oldEnd int) (sec, child int) {
	for sec, e := range root.Entries {
		section, ok := e.Value.(*Mapping)
		if !ok || len(section.Entries) == 0 || section.Rng.Start >= p {
			continue
		}
		if section.Rng.End <= p {
			continue
		}
		i := sort.Search(len(section.Entries), func(i int) bool {
			return section.Entries[i].Key.Rng.Start >= p
		}) - 1
		if i < 0 || section.Entries[i].Value == nil || section.Entries[i].Value.Range().End < oldEnd {
			return 0, -1
		}
		return sec, i
	}
	return 0, -1
}

// member reads one object member, `"key": value`, from p.pos, which is
// on the key's opening quote, as the object loop does; nil when it is
// not one (the caller parses whole, where the loop recovers).
func (p *jsonParser) member(depth int) *Entry {
	if p.pos >= len(p.src) || p.src[p.pos] != '"' {
		return nil
	}
	e := &Entry{Key: p.str()}
	p.skipSpace()
	if p.pos >= len(p.src) || p.src[p.pos] != ':' {
		return nil
	}
	p.pos++
	p.skipSpace()
	if p.pos >= len(p.src) || p.src[p.pos] == ',' || p.src[p.pos] == '}' {
		return nil
	}
	e.Value = p.value(depth)
	if e.Value == nil {
		return nil
	}
	return e
}
