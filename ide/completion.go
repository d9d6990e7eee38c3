package ide

import (
	"sort"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/subst"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// ItemKind says what a completion item names; lsp maps it to the
// protocol's CompletionItemKind.
type ItemKind int

const (
	ItemProperty   ItemKind = iota + 1 // a blueprint or spec field key
	ItemField                          // a field in a reference path
	ItemVariable                       // variables.x
	ItemValue                          // values.x
	ItemDataSource                     // datasources.x
	ItemResource                       // a resource name
	ItemChild                          // children.x
	ItemNamespace                      // variables, values, ... keywords
	ItemFunction
	ItemEnum    // a value from a closed set (types, operators, enums)
	ItemKeyword // true, false, none, elem, i
	ItemType    // a resource, data source or custom variable type
)

// CompletionItem is one candidate. ReplaceRange is in offsets of the text
// passed to Completion, on the cursor's line: the whole word under the
// cursor (completion_edit.go), whose part before the cursor is what a
// client inserting rather than replacing overwrites; InsertText replaces
// it (a snippet when Snippet is set). Retrigger asks the client to complete again after inserting (after
// "variables." for instance).
type CompletionItem struct {
	Label         string
	Kind          ItemKind
	Detail        string
	Documentation string // markdown
	InsertText    string
	Snippet       bool
	ReplaceRange  source.Range
	SortText      string
	FilterText    string
	Deprecated    bool
	Retrigger     bool
}

// completer holds one completion request.
type completer struct {
	res  *analysis.Result // may be nil when nothing ever parsed
	ix   *Index
	opts Options
	src  source.Text
	// text is src joined, made on first use (whole): the paths that read
	// the structure from the text need it; an expression in the Result's
	// own tree reads only the cursor's line, and a version an edit made
	// is not joined for it (issue 32).
	text []byte
	off  int
	json bool
	bp   bool // the blueprint language: completion_bp.go
	// declType is the type in the header of the .bp declaration the
	// cursor is in: the type of a resource the last Result may not have.
	declType string
	path     []string // structure path of the cursor (best effort)
	owner    *analysis.Symbol
	// incomplete: typing on would give other items.
	incomplete bool
	// unbounded reads the whole text, never the cursor's definition
	// alone (completion_window.go): the tests' oracle.
	unbounded bool
}

// newCompleter sets up a request at offset in text against res, the last
// Result that analysed successfully (it may be older than text, or nil); a
// nil text means res's own content. It returns nil when there is no text
// or offset is outside it.
func newCompleter(res *analysis.Result, text []byte, offset int, opts Options) *completer {
	if text != nil {
		return completerOf(res, source.NewText(text), offset, opts)
	}
	if res == nil || res.File == nil {
		return nil
	}
	return completerOf(res, res.File.Text, offset, opts)
}

// completerOf is newCompleter of a Text, which it reads without joining
// it where it can.
func completerOf(res *analysis.Result, text source.Text, offset int, opts Options) *completer {
	if res != nil && res.File == nil {
		res = nil
	}
	if offset < 0 || offset > text.Len() {
		return nil
	}
	c := &completer{res: res, opts: opts, src: text, off: offset}
	uri := ""
	if res != nil {
		c.ix = indexFor(res)
		uri = res.URI
	}
	switch syntax.FormatOfText(uri, text) {
	case schema.YAML:
	case schema.BP:
		c.bp = true
	default:
		c.json = true
	}
	return c
}

// whole returns the text joined, joining it once.
func (c *completer) whole() []byte {
	if c.text == nil {
		c.text = c.src.Bytes()
	}
	return c.text
}

// structContext reads the structure around the cursor from the text, which
// may not parse, within the cursor's definition where it can
// (completion_window.go).
func (c *completer) structContext() structCtx {
	if c.json {
		return c.jsonStruct(c.off)
	}
	ls, _ := textLine(c.src, c.off)
	return yamlContext(c.src, c.off, c.yamlHop(ls))
}

// Completion returns the candidates at offset in text. res is the last
// Result that analysed successfully (it may be older than text, or nil):
// the text around the cursor is read again, so completion keeps working
// while the document does not parse. A nil text means res's own content.
func Completion(res *analysis.Result, text []byte, offset int, opts Options) []CompletionItem {
	items, _ := newCompleter(res, text, offset, opts).list()
	return items
}

// CompletionList is Completion in a Text, and whether the list is
// incomplete: typing on would give other items (resource types
// prefilled with their required fields, completion_prefill.go), so the
// client should ask again.
func CompletionList(res *analysis.Result, text source.Text, offset int, opts Options) ([]CompletionItem, bool) {
	return completerOf(res, text, offset, opts).list()
}

// list completes at c's cursor (nothing for a nil c), fitting the items'
// edits to the text after it.
func (c *completer) list() ([]CompletionItem, bool) {
	if c == nil {
		return nil, false
	}
	return fitEdits(c.complete(), c.src, c.off), c.incomplete
}

func (c *completer) complete() []CompletionItem {
	// In a substitution of the current tree the path comes from the tree
	// (cheap); otherwise from the text, which may not parse.
	if s, p, ok := c.treeScalar(); ok && (strings.Contains(s.Value, "${") || isExportField(p)) {
		c.setPath(p)
		if items, ok := c.expression(structCtx{path: p}); ok {
			return items
		}
	}
	if c.bp {
		return c.bpCompletion()
	}
	sc := c.structContext()
	if c.json && sc.key && sc.quoted {
		jsonKeysAfter(c.src, sc.replace.End+1, sc.present)
	}
	c.setPath(sc.path)
	if items, ok := c.expression(sc); ok {
		return items
	}
	return c.structure(sc)
}

func isExportField(p []string) bool {
	return len(p) == 3 && inSection(p, dialect.Exports) && p[2] == "field"
}

// setPath records the cursor's structure path and the definition it is in.
func (c *completer) setPath(p []string) {
	c.path = p
	if len(c.path) >= 2 && c.res != nil {
		if k, ok := sectionSymbol[dialect.SectionOf(c.path[0])]; ok {
			c.owner = c.res.Lookup(k, c.path[1])
		}
	}
}

var sectionSymbol = map[dialect.Section]analysis.SymbolKind{
	dialect.Variables:   analysis.VariableSymbol,
	dialect.Values:      analysis.ValueSymbol,
	dialect.DataSources: analysis.DataSourceSymbol,
	dialect.Resources:   analysis.ResourceSymbol,
	dialect.Include:     analysis.ChildSymbol,
	dialect.Exports:     analysis.ExportSymbol,
}

// current reports whether text is the Result's own content, so its tree
// can be used. Texts of one length are compared without joining them.
func (c *completer) current() bool {
	if c.res == nil || c.res.File.Root == nil {
		return false
	}
	a, b := c.src, c.res.File.Text
	return a.Same(b) || a.Len() == b.Len() && source.CommonPrefix(a, b) == a.Len()
}

// treeScalar returns the string scalar at the cursor and its path, from
// the Result's tree when the text is the Result's own.
func (c *completer) treeScalar() (*schema.Scalar, []string, bool) {
	if !c.current() {
		return nil, nil, false
	}
	return c.scalarAt()
}

// expression completes inside ${..} (or an export's field). ok is false
// when the cursor is not in a substitution.
func (c *completer) expression(sc structCtx) ([]CompletionItem, bool) {
	prefix, m, field, ok := c.scalarPrefix(sc)
	if !ok {
		return nil, false
	}
	var e subst.Expr
	if field {
		e, _ = subst.ParseReference(prefix, &m)
	} else {
		if !strings.Contains(prefix, "${") {
			return nil, false
		}
		t := subst.ParseTemplate(prefix, &m)
		sub := subst.SubAt(t, c.off)
		if sub == nil {
			return nil, false
		}
		e = sub.Expr
	}
	return c.exprItems(e, field), true
}

// scalarPrefix returns the decoded text of the string scalar at the
// cursor up to the cursor, with its offset map, and whether the scalar is
// an export's field (a reference without ${}).
func (c *completer) scalarPrefix(sc structCtx) (string, source.OffsetMap, bool, bool) {
	if s, p, ok := c.treeScalar(); ok {
		field := isExportField(p)
		d := sort.Search(len(s.Value)+1, func(i int) bool { return s.OffsetMap().Source(i) >= c.off })
		if d > len(s.Value) {
			d = len(s.Value)
		}
		return s.Value[:d], *s.OffsetMap(), field, true
	}
	// The text does not match the Result (or the cursor is after a plain
	// scalar's trailing spaces): read the scalar from the line.
	var start int
	switch {
	case !sc.key:
		start = sc.replace.Start
	case !c.json:
		// A line inside a block scalar looks like a key being typed; a key
		// never holds ${.
		ls, _ := textLine(c.src, c.off)
		line := c.src.String(ls, c.off)
		if !strings.Contains(line, "${") {
			return "", source.OffsetMap{}, false, false
		}
		start = ls + len(line) - len(strings.TrimLeft(line, " -"))
	default:
		return "", source.OffsetMap{}, false, false
	}
	if start > c.off {
		return "", source.OffsetMap{}, false, false
	}
	raw := c.src.String(start, c.off)
	quoted := sc.quoted || (start > 0 && c.src.At(start-1) == '"')
	field := len(sc.path) == 3 && inSection(sc.path, dialect.Exports) && sc.path[2] == "field"
	if quoted {
		s, m := decodeQuoted(raw, start)
		return s, m, field, true
	}
	return raw, source.Identity(start, len(raw)), field, true
}

// decodeQuoted undoes the escapes of a JSON or YAML double-quoted string
// written at base, mapping each decoded byte back.
func decodeQuoted(raw string, base int) (string, source.OffsetMap) {
	if !strings.Contains(raw, `\`) {
		return raw, source.Identity(base, len(raw))
	}
	var b strings.Builder
	m := source.OffsetMap{Base: base}
	run := -1 // start of the current verbatim run in raw
	flush := func(end int) {
		if run >= 0 && end > run {
			m.Segments = append(m.Segments, source.Segment{Dec: b.Len() - (end - run), DecLen: end - run, Src: run, SrcLen: end - run})
		}
		run = -1
	}
	for i := 0; i < len(raw); i++ {
		if raw[i] == '\\' && i+1 < len(raw) {
			if run >= 0 {
				flush(i)
			}
			var r byte
			switch raw[i+1] {
			case 'n':
				r = '\n'
			case 't':
				r = '\t'
			default:
				r = raw[i+1]
			}
			m.Segments = append(m.Segments, source.Segment{Dec: b.Len(), DecLen: 1, Src: i, SrcLen: 2})
			b.WriteByte(r)
			i++
			continue
		}
		if run < 0 {
			run = i
		}
		b.WriteByte(raw[i])
	}
	flush(len(raw))
	return b.String(), m
}

// sortKey builds SortText: a rank then the label, so ranks order groups
// and labels order within them.
func sortKey(rank int, label string) string {
	return string(rune('0'+rank)) + "_" + label
}

// scalarAt returns the string scalar of the current tree whose value
// contains the cursor, and the structure path to it.
func (c *completer) scalarAt() (*schema.Scalar, []string, bool) {
	path := treePath(c.res.File.Root, c.off)
	if len(path) == 0 {
		return nil, nil, false
	}
	last := path[len(path)-1]
	s, ok := last.Node.(*schema.Scalar)
	if !ok || last.OnKey || !s.IsString() || !s.ValueRange().Contains(c.off) {
		return nil, nil, false
	}
	return s, segs(path), true
}
