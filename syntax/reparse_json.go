package syntax

import (
	"sort"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// spliceJSON is Splice for JSON and JSONC, or SpliceAt when ch is not
// nil. prev must be a clean parse whose root is an object; the edit must
// lie inside one member of one of its section objects (a resource
// `"r0": {...}`), after the first byte of the member's key and no later
// than the end of its value. Then the member is parsed alone, by the
// parser the whole parse runs, on the new text from the member's key:
// the bytes before the key are prev's, so the whole parse would reach
// the key in the state prev's did and read the member exactly as this
// does. When the member parses without a diagnostic and its value ends
// where prev's ended (moved by the length change), the bytes after it are
// prev's too, read by the whole parse as prev's were: the tree is prev's
// with the member replaced and everything after it moved. Anything else
// (an edit between members, in a comma, a comment between members or a
// brace of a section; a member that no longer ends where it did) gives
// nil.
func spliceJSON(prev *File, content source.Text, ch *Change) (f *File) {
	defer func() {
		if recover() != nil {
			f = nil // a bug here costs a full parse, never a wrong tree
		}
	}()
	if prev == nil || len(prev.Diagnostics) > 0 || parseFormat(prev.URI, content) != prev.Format {
		return nil
	}
	root, ok := prev.Root.(*Mapping)
	if !ok {
		return nil
	}
	old := prev.Text
	edit := EditOf(old, content, ch)
	p, oldEnd, delta := edit.Start, edit.OldEnd, content.Len()-old.Len()
	next := &File{URI: prev.URI, Format: prev.Format, Text: content, Mapper: prev.Mapper.Edited(content, p, oldEnd, oldEnd+delta)}
	if edit.Same() {
		next.Root = root
		return next
	}
	sec, child := memberAround(root, p, oldEnd)
	if child < 0 {
		return nil
	}
	section := root.Entries[sec].Value.(*Mapping)
	was := section.Entries[child]
	start, end := was.Key.Rng.Start, was.Value.Range().End
	// The member is parsed from a window of the text that holds it and
	// a few bytes after it (the parser looks one byte past a value at
	// most), then moved to where the window starts.
	win := content.Slice(start, end+delta+jsonLookahead)
	jp := &jsonParser{src: win, jsonc: prev.Format == JSONC, slabs: &nodeSlabs{}}
	e := jp.member(jsonMemberDepth)
	if e == nil || len(jp.diags) > 0 || jp.pos != end+delta-start {
		return nil
	}
	var sh Shifter
	e = sh.Entry(e, start)
	next.Root = spliceMember(root, sec, child, e, delta)
	RecordSplice(next, prev, start, end, delta)
	return next
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

// spliceMember returns root with member child of section sec replaced
// by e, parsed in place from the new text, and every node after it moved
// by delta. A JSON object's range runs from its '{' to its '}': the
// section's and the root's end moves with the text after the member.
func spliceMember(root *Mapping, sec, child int, e *Entry, delta int) *Mapping {
	section := root.Entries[sec].Value.(*Mapping)
	sh := &shifter{}
	entries := make([]*Entry, len(section.Entries))
	copy(entries, section.Entries[:child])
	entries[child] = e
	for i := child + 1; i < len(section.Entries); i++ {
		entries[i] = sh.moved(section.Entries[i], delta)
	}
	newSection := &Mapping{Rng: source.R(section.Rng.Start, section.Rng.End+delta), Entries: entries, Flow: true}

	top := make([]*Entry, len(root.Entries))
	copy(top, root.Entries[:sec])
	top[sec] = &Entry{Key: root.Entries[sec].Key, Value: newSection}
	for i := sec + 1; i < len(root.Entries); i++ {
		top[i] = sh.moved(root.Entries[i], delta)
	}
	return &Mapping{Rng: source.R(root.Rng.Start, root.Rng.End+delta), Entries: top, Flow: true}
}
