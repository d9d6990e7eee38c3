package analysis

import (
	"bytes"
	"context"

	"github.com/blueprint-ls/blueprint-ls/dialect"

	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// Analysing a YAML blueprint that does not parse (Options.Repair): every
// top-level entry holding a broken region of syntax.File.Tree — the
// definition (a resource, a variable, ...) it lies in, or the top-level key
// it is — is blanked (each byte but line breaks turned into a space, so
// every offset stays), and the blanked text is analysed as the document.
// Its Result serves the editor's features everywhere outside the blanked
// entries as if the document were well formed. Its diagnostics are the
// syntax errors, then the analysis diagnostics that leaving an entry out
// cannot have caused: none inside a blanked entry, and none of the codes in
// mayBeRepairs (a reference to the entry left out, a name only it used, a
// section it may have been) — for a reference, only when an entry of its
// section was left out.

// mayBeRepairs are the codes a diagnostic may carry because an entry was
// left out.
var mayBeRepairs = map[string]bool{
	"ref-unknown-variable": true, "ref-unknown-value": true, "ref-unknown-datasource": true,
	"ref-unknown-resource": true, "ref-unknown-child": true, "ref-child-export": true,
	"ref-datasource-field": true, "ref-datasource-path": true, "ref-datasource-dependency": true,
	"link-no-match": true, "unused-variable": true, "unused-value": true, "unused-datasource": true,
	"resource-depends-on-unknown": true, "resource-link-exclude-unknown": true,
	"spec-missing-version": true, "spec-no-resources": true, "spec-not-mapping": true,
	"include-unknown-variable": true, "include-missing-variable": true,
}

// sectionOfCode is the section whose entry left out may cause a code;
// the other codes of mayBeRepairs may come from leaving out any entry.
var sectionOfCode = map[string]dialect.Section{
	"ref-unknown-variable": dialect.Variables, "ref-unknown-value": dialect.Values,
	"ref-unknown-datasource": dialect.DataSources, "ref-datasource-field": dialect.DataSources,
	"ref-datasource-path": dialect.DataSources, "ref-unknown-resource": dialect.Resources,
	"link-no-match": dialect.Resources, "resource-depends-on-unknown": dialect.Resources,
	"resource-link-exclude-unknown": dialect.Resources, "ref-unknown-child": dialect.Include,
	"ref-child-export": dialect.Include,
}

// mayBeCaused reports whether leaving out entries of the sections left
// (nil: anything, a top-level key or a JSON document) may cause code.
func mayBeCaused(code string, left map[dialect.Section]bool) bool {
	s, ok := sectionOfCode[code]
	return !ok || left == nil || left[s]
}

// sectionsLeftOut names the sections whose entries the regions cut hold;
// nil when a region may hold anything: a top-level key, or JSON.
func sectionsLeftOut(f *schema.File, cut []source.Range) map[dialect.Section]bool {
	if f.Format == schema.BP {
		return bpSectionsLeftOut(f, cut)
	}
	if f.Format != schema.YAML {
		return nil
	}
	starts := splitLines(f.Content())
	left := map[dialect.Section]bool{}
	for _, r := range cut {
		l := lineOf(starts, r.Start)
		if indentOf(starts, f.Content(), l) == 0 {
			return nil
		}
		for l > 0 && indentOf(starts, f.Content(), l) != 0 {
			l--
		}
		line := f.Content()[starts[l]:lineEnd(starts, len(f.Content()), l)]
		key, _, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			return nil
		}
		left[dialect.SectionOf(string(bytes.TrimSpace(key)))] = true
	}
	return left
}

// analyzeRepaired analyses f, which has syntax errors, through its repair;
// nil when the repair does not parse either.
func analyzeRepaired(ctx context.Context, f *schema.File, opts Options) *Result {
	rf, cut := Repair(f)
	if rf == nil {
		return nil
	}
	opts.Repair = false
	res := Analyze(ctx, rf, opts)
	if res.Blueprint == nil {
		return nil
	}
	res.Repaired = cut
	diags := append([]source.Diagnostic(nil), f.Diagnostics...)
	res.Diagnostics = append(diags, certain(res.Diagnostics, rf.Root, cut, sectionsLeftOut(f, cut))...)
	return res
}

// certain keeps the diagnostics of a document with the regions cut left
// out (entries of the sections left) that leaving them out cannot have
// caused.
func certain(diags []source.Diagnostic, root schema.Node, cut []source.Range, left map[dialect.Section]bool) []source.Diagnostic {
	// A definition that refers to a name left out may get any diagnostic
	// from it (a type the reference no longer gives): it keeps none.
	var uncertain []source.Range
	for _, d := range diags {
		if mayBeRepairs[d.Code] && mayBeCaused(d.Code, left) {
			uncertain = append(uncertain, definitionAt(root, d.Range))
		}
	}
	var out []source.Diagnostic
	for _, d := range diags {
		if touches(d.Range, cut) || touches(d.Range, uncertain) || mayBeRepairs[d.Code] && mayBeCaused(d.Code, left) {
			continue
		}
		out = append(out, d)
	}
	return out
}

// definitionAt is the definition (an entry of a section: a variable, a
// resource, ...) holding r, key to value; r itself outside every one.
func definitionAt(root schema.Node, r source.Range) source.Range {
	top, _ := root.(*schema.Mapping)
	if top == nil {
		return r
	}
	for _, sec := range top.Entries {
		defs, _ := sec.Value.(*schema.Mapping)
		if defs == nil || !within(r, defs.Rng) {
			continue
		}
		for _, e := range defs.Entries {
			if e.Key == nil || e.Value == nil {
				continue
			}
			if d := source.R(e.Key.Range().Start, e.Value.Range().End); within(r, d) {
				return d
			}
		}
	}
	return r
}

func within(r, outer source.Range) bool { return r.Start >= outer.Start && r.End <= outer.End }

// touches reports whether r overlaps (or is empty at the edge of) a region.
func touches(r source.Range, regions []source.Range) bool {
	for _, c := range regions {
		if r.Start <= c.End && r.End >= c.Start {
			return true
		}
	}
	return false
}

// Repair returns f's text repaired, parsed, and the regions left out
// (whole lines, sorted); nil when f parses already or the repair does not
// parse either. YAML has its half-typed lines patched (repair_typing.go)
// and every top-level entry holding a broken region still blanked; JSON
// and JSONC have their trailing commas dropped and their open strings and
// containers closed at the end (repairJSON).
func Repair(f *schema.File) (*schema.File, []source.Range) {
	if f == nil || !f.HasSyntaxErrors() {
		return nil, nil
	}
	_, broken := f.Tree()
	switch f.Format {
	case schema.BP:
		return repairBP(f, broken)
	case schema.JSON, schema.JSONC:
		return repairJSON(f, broken)
	}
	if rf, cut := repairTyping(f); rf != nil {
		return rf, cut
	}
	return repairYAML(f)
}

// repairYAML blanks every top-level entry of YAML f holding a broken
// region of its tree.
func repairYAML(f *schema.File) (*schema.File, []source.Range) {
	_, broken := f.Tree()
	lines := splitLines(f.Content())
	var cut []source.Range
	for _, b := range broken {
		first, last := lineOf(lines, b.Start), lineOf(lines, max(b.Start, b.End-1))
		s, e := entryLines(lines, f.Content(), first, last)
		r := source.R(lines[s], lineEnd(lines, len(f.Content()), e))
		if n := len(cut); n > 0 && r.Start <= cut[n-1].End {
			cut[n-1].End = max(cut[n-1].End, r.End)
			continue
		}
		cut = append(cut, r)
	}
	return reparseBlanked(f, cut)
}

// reparseBlanked parses f's text with the regions cut blanked (every
// offset kept): the repaired file and cut, or nil when it does not parse
// either.
func reparseBlanked(f *schema.File, cut []source.Range) (*schema.File, []source.Range) {
	text := bytes.Clone(f.Content())
	for _, r := range cut {
		blank(text, r)
	}
	rf := schema.Parse(f.URI, text)
	if rf.HasSyntaxErrors() || rf.Root == nil {
		return nil, nil
	}
	return rf, cut
}

// splitLines returns the offset each line starts at.
func splitLines(b []byte) []int {
	starts := []int{0}
	for i, c := range b {
		if c == '\n' && i+1 < len(b) {
			starts = append(starts, i+1)
		}
	}
	return starts
}

func lineOf(starts []int, off int) int {
	l := 0
	for l+1 < len(starts) && starts[l+1] <= off {
		l++
	}
	return l
}

func lineEnd(starts []int, n, l int) int {
	if l+1 < len(starts) {
		return starts[l+1]
	}
	return n
}

// indentOf is the indentation of line l, or -1 for a blank or comment line.
func indentOf(starts []int, text []byte, l int) int {
	end := lineEnd(starts, len(text), l)
	for i := starts[l]; i < end; i++ {
		switch text[i] {
		case ' ':
			continue
		case '\n', '\r', '#':
			return -1
		}
		return i - starts[l]
	}
	return -1
}

// entryLines widens lines first..last to the top-level entry they lie in:
// from the definition line above them (indented as the first definition of
// their section) or the top-level key, to the line before the next line
// indented as much or less.
func entryLines(starts []int, text []byte, first, last int) (int, int) {
	sec := first
	for sec > 0 && indentOf(starts, text, sec) != 0 {
		sec--
	}
	start := first
	if indentOf(starts, text, sec) == 0 && sec < first {
		def := -1
		for l := sec + 1; l <= first && def < 0; l++ {
			def = indentOf(starts, text, l)
		}
		for l := first; l > sec; l-- {
			if in := indentOf(starts, text, l); in >= 0 && in <= def {
				start = l
				break
			}
		}
	}
	base := max(indentOf(starts, text, start), 0)
	end := last
	for l := last + 1; l < len(starts); l++ {
		if in := indentOf(starts, text, l); in >= 0 && in <= base {
			break
		}
		end = l
	}
	return start, end
}

// repairJSON drops the commas before a closing bracket or the end and
// closes what is open at the end (a string, a member without its value,
// the containers): the usual state of JSON being typed. Every offset
// stays; the closers are appended. The regions left out are the lines of
// the syntax errors, whose diagnostics a repair could have changed.
func repairJSON(f *schema.File, broken []source.Range) (*schema.File, []source.Range) {
	text := bytes.Clone(f.Content())
	var stack []byte
	var opened []int // where each open container starts
	suspect := -1    // where the text stops being certain
	inStr, esc := false, false
	last := byte(0) // the last significant byte outside strings
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case inStr:
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"' || c == '\n':
				inStr = false
			}
			continue
		case c == '"':
			inStr = true
		case c == '{' || c == '[':
			stack, opened = append(stack, c), append(opened, i)
		case (c == '}' || c == ']') && len(stack) > 0:
			// A closer first on its line, indented unlike the line of the
			// container it closes, is another container's: a bracket went
			// missing above, and what follows the definition it is in may
			// belong elsewhere.
			if suspect < 0 && firstOnLine(text, i) && lineIndent(text, i) != lineIndent(text, opened[len(opened)-1]) {
				suspect = opened[min(2, len(opened)-1)]
			}
			stack, opened = stack[:len(stack)-1], opened[:len(opened)-1]
		case c == ',':
			j := i + 1
			for j < len(text) && (text[j] == ' ' || text[j] == '\t' || text[j] == '\n' || text[j] == '\r') {
				j++
			}
			if j == len(text) || text[j] == '}' || text[j] == ']' {
				text[i] = ' '
				continue
			}
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			continue
		}
		last = c
	}
	if inStr {
		text = append(text, '"')
	} else if last == ':' {
		text = append(text, "null"...)
	}
	for i := len(stack) - 1; i >= 0; i-- {
		text = append(text, stack[i]+2) // '{'+2 is '}', '['+2 is ']'
	}
	rf := schema.Parse(f.URI, text)
	if rf.HasSyntaxErrors() || rf.Root == nil {
		return nil, nil
	}
	// A definition (or anything deeper) still open at the end may have
	// lost its closing bracket anywhere, not only at the end: whatever
	// follows its start may belong elsewhere, and is left out.
	if len(opened) > 2 && (suspect < 0 || opened[2] < suspect) {
		suspect = opened[2]
	}
	if suspect >= 0 {
		m := f.Mapper
		if m == nil {
			m = source.NewMapper(f.Content())
		}
		broken = source.MergeRanges(append(broken, source.R(m.LineStart(m.Line(suspect)), len(f.Content()))))
	}
	return rf, broken
}

// firstOnLine reports whether only spaces and tabs precede i on its line.
func firstOnLine(text []byte, i int) bool {
	for j := i - 1; j >= 0 && text[j] != '\n'; j-- {
		if text[j] != ' ' && text[j] != '\t' {
			return false
		}
	}
	return true
}

// lineIndent is the indentation of the line holding i.
func lineIndent(text []byte, i int) int {
	start := bytes.LastIndexByte(text[:i], '\n') + 1
	n := 0
	for start+n < len(text) && (text[start+n] == ' ' || text[start+n] == '\t') {
		n++
	}
	return n
}
