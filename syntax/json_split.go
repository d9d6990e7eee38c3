package syntax

import (
	"bytes"
	"runtime"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// A large JSON blueprint is one long section object (its resources)
// whose members each start a line. parseJSONSplit reads such a text on
// two cores (issue 36), without a parser of its own:
//
//   - the first half is the text up to the line of a member near the
//     middle, parsed as a document: it ends inside the section and the
//     root, which the parser reports as exactly two errors at its end
//     ("expected '}' to close the object" and "expected ',' or '}' after
//     object member"); any other diagnostic, or those two anywhere else,
//     means the line was not a member of a section (it was inside a
//     string, a comment or a deeper object) and gives up;
//   - the second half reads the section's members from that line on, as
//     if after a comma, then the root's members after the section, then
//     nothing but white space.
//
// The trees are joined and the two errors dropped. Anything the second
// half finds wrong gives up too: the caller then parses whole.
// TestJSONSplitEqualsWhole holds the joined tree to the whole parse.

// parseJSONSplit is ParseJSON in two halves when content is at least
// min bytes and a split is found; nil otherwise.
func parseJSONSplit(content []byte, m *source.Mapper, jsonc bool, min int) *File {
	if len(content) < min || runtime.GOMAXPROCS(0) < 2 {
		return nil
	}
	at := jsonSplitAt(content)
	if at <= 0 {
		return nil
	}
	type half struct {
		section, rest *Mapping
		end           int // where the root's '}' ends
		ok            bool
		mapper        *source.Mapper // the whole text's, made here too
	}
	second := make(chan half, 1)
	go func() {
		p := &jsonParser{src: content, jsonc: jsonc, slabs: &nodeSlabs{}, text: textString(content), whole: true}
		sec, rest, end, ok := p.resume(at)
		var whole *source.Mapper
		if ok {
			whole = mapperOf(m, content)
		}
		second <- half{sec, rest, end, ok, whole}
	}()
	src := content[:at]
	first := parseJSONMapped(src, &jsonParser{src: src, jsonc: jsonc, slabs: &nodeSlabs{}, text: textString(src), whole: true}, source.NewMapper(nil))
	h := <-second
	root, ok := first.Root.(*Mapping)
	if !h.ok || !ok || !endsInsideSection(first, at) || len(root.Entries) == 0 {
		return nil
	}
	sec, ok := root.Entries[len(root.Entries)-1].Value.(*Mapping)
	if !ok || len(sec.Entries) == 0 || closedObject(content, sec) || !closedObject(content, sec.Entries[len(sec.Entries)-1].Value) {
		// The cut is not right after a member of the section (inside
		// it, after a closed member): resumed as one, the second half
		// may still balance its braces (when the text lacks some), so
		// the depth is checked here too.
		return nil
	}
	sec.Entries = joinEntries(sec.Entries, h.section.Entries)
	sec.Rng.End = h.section.Rng.End
	if h.rest != nil {
		root.Entries = joinEntries(root.Entries, h.rest.Entries)
	}
	root.Rng.End = h.end
	f := &File{Format: first.Format, Mapper: h.mapper, Root: root}
	f.Text = f.Mapper.Text()
	f.noteSyntax()
	return f
}

// endsInsideSection reports whether f, the parse of a text cut at at,
// has the one error of a text that ends inside objects, at its end (the
// parser reports one error per offset; the second half checks the
// depth: resumed at the wrong one, its braces do not balance).
func endsInsideSection(f *File, at int) bool {
	return len(f.Diagnostics) == 1 && f.Diagnostics[0].Range == source.R(at, at) &&
		f.Diagnostics[0].Message == "expected '}' to close the object, found end of input"
}

// closedObject reports whether n is an object its '}' closed: one the
// text ended inside ends where its last member's value does.
func closedObject(src []byte, n Node) bool {
	m, ok := n.(*Mapping)
	if !ok || m.Rng.End < 1 || src[m.Rng.End-1] != '}' {
		return false
	}
	if len(m.Entries) == 0 {
		return true
	}
	last := m.Entries[len(m.Entries)-1]
	return last.Value != nil && last.Value.Range().End < m.Rng.End
}

// resume reads, from at (a line's start, after a member and its comma),
// the rest of a section object's members, then the root's members after
// it, then white space to the end. It reports the section's members
// (and its closing '}'), the root's members after it (nil when none)
// and where the root's '}' ends; ok false when anything is amiss.
func (p *jsonParser) resume(at int) (section, rest *Mapping, end int, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			section, rest, ok = nil, nil, false
		}
	}()
	// members starts past the '{' it is at: here the line break before
	// the member's line stands for it.
	p.pos = at - 1
	section = p.object(1)
	if len(p.diags) > 0 || p.src[section.Rng.End-1] != '}' {
		return nil, nil, 0, false
	}
	p.skipSpace()
	if p.pos >= len(p.src) {
		return nil, nil, 0, false
	}
	switch p.src[p.pos] {
	case '}':
		p.pos++
	case ',':
		comma := p.pos
		p.pos++
		p.skipSpace()
		if p.pos < len(p.src) && p.src[p.pos] == '}' {
			return nil, nil, 0, false // a trailing comma: leave it to the whole parse
		}
		p.pos = comma
		rest = p.object(0)
		if p.src[rest.Rng.End-1] != '}' {
			return nil, nil, 0, false
		}
		p.pos = rest.Rng.End
	default:
		return nil, nil, 0, false
	}
	end = p.pos
	p.skipSpace()
	if p.pos < len(p.src) || len(p.diags) > 0 {
		return nil, nil, 0, false
	}
	return section, rest, end, true
}

// jsonSplitAt returns the start of a line at or after the middle of
// content that starts a member of the section object holding the middle
// (a line as indented as the section's first member, starting with a key
// and ending in the '{' of its object value) right after a line that
// ends one ("},"), before the section ends; 0 when there is none. The
// section is found by its lines alone: the root's '{' alone on the first
// line, its members indented alike, the section's opening line the last
// one at that indentation above the middle.
func jsonSplitAt(content []byte) int {
	first := bytes.IndexByte(content, '\n')
	if first < 0 || string(bytes.TrimSpace(content[:first])) != "{" {
		return 0
	}
	root := nextContentIndent(content, first+1)
	mid := bytes.LastIndexByte(content[:len(content)/2], '\n') + 1
	open := mid
	for {
		if open == 0 {
			return 0
		}
		open = bytes.LastIndexByte(content[:open-1], '\n') + 1
		line := bytes.TrimRight(content[open:open+bytes.IndexByte(content[open:], '\n')], " \t\r")
		if n := skipSpaces(line, 0); n == root && n < len(line) {
			if line[n] != '"' || line[len(line)-1] != '{' || open <= first {
				return 0 // the middle is not inside a section object
			}
			break
		}
	}
	indent := nextContentIndent(content, open+bytes.IndexByte(content[open:], '\n')+1)
	if indent <= root {
		return 0
	}
	at, prevEndsMember := mid, false
	for at < len(content) {
		end := bytes.IndexByte(content[at:], '\n')
		if end < 0 {
			return 0
		}
		line := bytes.TrimRight(content[at:at+end], " \t\r")
		n := skipSpaces(line, 0)
		trimmed := line[n:]
		switch {
		case len(trimmed) == 0:
		case n < indent:
			return 0 // the section ended
		case n == indent && prevEndsMember && trimmed[0] == '"' && trimmed[len(trimmed)-1] == '{':
			return at
		}
		prevEndsMember = bytes.HasSuffix(trimmed, []byte("},"))
		at += end + 1
	}
	return 0
}

// nextContentIndent returns the indentation of the first line from at on
// that holds more than white space (-1 when none does).
func nextContentIndent(content []byte, at int) int {
	for at < len(content) {
		end := bytes.IndexByte(content[at:], '\n')
		if end < 0 {
			end = len(content) - at
		}
		line := bytes.TrimRight(content[at:at+end], " \t\r")
		if n := skipSpaces(line, 0); n < len(line) {
			return n
		}
		at += end + 1
	}
	return -1
}
