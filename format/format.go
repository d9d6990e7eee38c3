package format

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"unicode/utf8"

	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// Options tunes formatting; they mirror LSP FormattingOptions. Start from
// DefaultOptions: the zero value neither inserts a final newline nor trims
// trailing whitespace.
type Options struct {
	// IndentWidth is the number of spaces per nesting level; 0 means 2.
	IndentWidth int
	// UseTabs indents JSON and JSONC with one tab per level (LSP
	// insertSpaces false). YAML does not allow tabs in indentation, so
	// YAML always uses IndentWidth spaces.
	UseTabs bool
	// InsertFinalNewline ends the document with exactly one line break.
	InsertFinalNewline bool
	// TrimTrailingWhitespace removes spaces and tabs at the ends of lines,
	// except where they are scalar content.
	TrimTrailingWhitespace bool
}

// DefaultOptions returns the options `blueprint-ls fmt` uses: two-space
// indentation, a final newline and no trailing whitespace.
func DefaultOptions() Options {
	return Options{IndentWidth: 2, InsertFinalNewline: true, TrimTrailingWhitespace: true}
}

func (o Options) width() int {
	if o.IndentWidth <= 0 {
		return 2
	}
	return o.IndentWidth
}

// ErrSyntax is wrapped by the error Format returns for a document that does
// not parse; the wrapping error names the first syntax problem.
var ErrSyntax = errors.New("document has syntax errors")

// SyntaxError is the error returned for a document with syntax errors: the
// diagnostics say where.
type SyntaxError struct {
	Diagnostics []source.Diagnostic
	Mapper      *source.Mapper
}

func (e *SyntaxError) Error() string {
	d := e.Diagnostics[0]
	line, col := e.Mapper.LineCol(d.Range.Start, source.UTF32)
	return fmt.Sprintf("%d:%d: %s (not formatted)", line, col, d.Message)
}

func (e *SyntaxError) Unwrap() error { return ErrSyntax }

// Format returns the edits that format the document. The format (YAML,
// JSON or JSONC) is chosen from uri as schema.Parse chooses it. A document
// with syntax errors yields a *SyntaxError and no edits.
func Format(uri string, content []byte, opts Options) ([]source.Edit, error) {
	edits, _, err := format(uri, content, nil, opts)
	return edits, err
}

// FormatRange is Format limited to the lines r touches: only edits lying
// entirely within those lines are kept (a range ending at the start of a
// line does not touch that line). The subset is checked like a whole
// formatting, so a partial re-indentation that would change the document is
// dropped.
func FormatRange(uri string, content []byte, r source.Range, opts Options) ([]source.Edit, error) {
	edits, _, err := format(uri, content, &r, opts)
	return edits, err
}

// Apply returns content with edits applied. Edits must be sorted and must
// not overlap, as Format returns them.
func Apply(content []byte, edits []source.Edit) []byte {
	var b bytes.Buffer
	b.Grow(len(content))
	last := 0
	for _, e := range edits {
		b.Write(content[last:e.Range.Start])
		b.WriteString(e.NewText)
		last = e.Range.End
	}
	b.Write(content[last:])
	return b.Bytes()
}

// level is how much the formatter allows itself; each level drops the
// riskiest kind of change of the one before.
type level int

const (
	levelFull     level = iota // everything
	levelNoIndent              // no re-indentation
	levelMinimal               // final newline and trailing whitespace only
	levelNone                  // nothing could be done safely
)

// edit kinds, so a level can filter them.
type editKind int

const (
	kindSpace  editKind = iota // trailing whitespace, final newline
	kindSubst                  // spacing inside ${..}
	kindIndent                 // indentation and layout
)

type kedit struct {
	source.Edit
	kind editKind
}

// format is Format and FormatRange with the level reached, for tests.
func format(uri string, content []byte, r *source.Range, opts Options) ([]source.Edit, level, error) {
	f := schema.Parse(uri, content)
	if syn := f.SyntaxErrors(); len(syn) > 0 {
		return nil, levelNone, &SyntaxError{Diagnostics: syn, Mapper: f.Mapper}
	}
	if f.Root == nil {
		return nil, levelFull, nil
	}
	var all []kedit
	switch f.Format {
	case schema.YAML:
		all = formatYAML(f, opts)
	case schema.BP:
		all = formatBP(f)
	default:
		all = formatJSON(f, opts)
	}
	if r != nil {
		all = withinLines(f.Mapper, all, *r)
	}
	for lv := levelFull; lv < levelNone; lv++ {
		edits := select_(all, lv)
		if len(edits) == 0 {
			return nil, lv, nil
		}
		out := Apply(content, edits)
		g := schema.Parse(uri, out)
		if !g.HasSyntaxErrors() && Equal(f.Root, g.Root) {
			return edits, lv, nil
		}
	}
	return nil, levelNone, nil
}

// select_ returns the edits allowed at lv, minimised.
func select_(all []kedit, lv level) []source.Edit {
	var out []source.Edit
	for _, e := range all {
		switch {
		case lv >= levelNoIndent && e.kind == kindIndent,
			lv >= levelMinimal && e.kind == kindSubst:
			continue
		}
		out = append(out, e.Edit)
	}
	return out
}

// withinLines keeps the edits that lie within the lines r touches.
func withinLines(m *source.Mapper, edits []kedit, r source.Range) []kedit {
	start := m.LineStart(m.Line(r.Start))
	endLine := m.Line(r.End)
	if r.End > r.Start && m.LineStart(endLine) == r.End {
		endLine--
	}
	end := lineEnd(m, endLine)
	var out []kedit
	for _, e := range edits {
		if e.Range.Start >= start && e.Range.End <= end {
			out = append(out, e)
		}
	}
	return out
}

// lineEnd returns the offset of the line break ending line (or the end of
// the document).
func lineEnd(m *source.Mapper, line int) int {
	c := m.Content()
	if line+1 >= m.LineCount() {
		return len(c)
	}
	end := m.LineStart(line + 1)
	if end > 0 && c[end-1] == '\n' {
		end--
	}
	if end > 0 && c[end-1] == '\r' {
		end--
	}
	return end
}

// newline returns the line break the document uses: that of its first
// line, "\n" when it has none.
func newline(content []byte) string {
	i := bytes.IndexAny(content, "\r\n")
	switch {
	case i < 0:
		return "\n"
	case content[i] == '\n':
		return "\n"
	}
	// A lone CR followed by blanks and then LF becomes CRLF once the blank
	// line between them is trimmed, so it counts as CRLF already: otherwise a
	// second formatting pass would pick another line break than the first.
	j := i + 1
	for j < len(content) && (content[j] == ' ' || content[j] == '\t') {
		j++
	}
	if j < len(content) && content[j] == '\n' {
		return "\r\n"
	}
	return "\r"
}

// replace returns the edit turning content[start:end] into text, trimmed to
// the part that differs, or false when nothing differs. Only ASCII bytes
// are trimmed so an edit never splits a character.
func replace(content []byte, start, end int, text string, kind editKind) (kedit, bool) {
	old := content[start:end]
	if string(old) == text {
		return kedit{}, false
	}
	for len(old) > 0 && len(text) > 0 && old[0] == text[0] && old[0] < utf8.RuneSelf {
		old, text = old[1:], text[1:]
		start++
	}
	for len(old) > 0 && len(text) > 0 && old[len(old)-1] == text[len(text)-1] && old[len(old)-1] < utf8.RuneSelf {
		old, text = old[:len(old)-1], text[:len(text)-1]
		end--
	}
	return kedit{Edit: source.Edit{Range: source.R(start, end), NewText: text}, kind: kind}, true
}

// sortEdits orders edits by position; callers never produce overlaps.
func sortEdits(edits []kedit) {
	sort.SliceStable(edits, func(i, j int) bool {
		if edits[i].Range.Start != edits[j].Range.Start {
			return edits[i].Range.Start < edits[j].Range.Start
		}
		return edits[i].Range.End < edits[j].Range.End
	})
}

// finalNewline returns the edit that ends content with exactly one line
// break after its last non-blank line, when opts ask for it.
func finalNewline(content []byte, opts Options) (kedit, bool) {
	if !opts.InsertFinalNewline {
		return kedit{}, false
	}
	end := len(content)
	for end > 0 && isSpace(content[end-1]) {
		end--
	}
	if end == 0 {
		return kedit{}, false
	}
	if !opts.TrimTrailingWhitespace {
		for end < len(content) && (content[end] == ' ' || content[end] == '\t') {
			end++
		}
	}
	return replace(content, end, len(content), newline(content), kindSpace)
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
