package bplang

import (
	"bytes"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// Comment is a comment to carry into emitted text: where it was in the
// source the tree came from, and its text after the comment marker.
type Comment struct {
	Range source.Range
	Text  string
}

// EmitOptions tune Emit.
type EmitOptions struct {
	// Comments are placed before the first item that starts after them,
	// or at the end of the line of the item they followed on its line.
	Comments []Comment
	// Source, when set, is the blueprint-language text the tree was
	// parsed from (Format): scalars and expressions are copied as
	// written, declarations keep their order.
	Source []byte
}

// Format lays a blueprint-language document out canonically: one
// statement or field per line, four spaces per level, a blank line
// between top-level statements, comments kept, every value as written.
// It fails on text with syntax errors.
func Format(content []byte) ([]byte, error) {
	f := Parse("", content)
	if f.HasSyntaxErrors() {
		return nil, fmt.Errorf("%d:%d: %s", line(f, f.SyntaxErrors()[0].Range.Start), col(f, f.SyntaxErrors()[0].Range.Start), f.SyntaxErrors()[0].Message)
	}
	var cs []Comment
	for _, r := range Comments(content) {
		cs = append(cs, Comment{Range: r, Text: strings.TrimRight(string(content[r.Start+1:r.End]), " \t\r")})
	}
	return Emit(f.Root, EmitOptions{Comments: cs, Source: content})
}

func line(f *syntax.File, off int) int { return f.Mapper.OffsetPosition(off, source.UTF8).Line + 1 }
func col(f *syntax.File, off int) int  { return f.Mapper.OffsetPosition(off, source.UTF8).Character + 1 }

// Emit writes the blueprint a tree holds (from any format) in the
// blueprint language. A tree the language cannot say (a top-level key
// that is no section, a definition without a type, a value no literal can
// hold) is an error naming the first such place.
func Emit(root syntax.Node, opts EmitOptions) ([]byte, error) {
	m, ok := root.(*syntax.Mapping)
	if !ok {
		return nil, fmt.Errorf("the top level is not a mapping")
	}
	e := &emitter{opts: opts, comments: append([]Comment(nil), opts.Comments...)}
	sort.Slice(e.comments, func(i, j int) bool { return e.comments[i].Range.Start < e.comments[j].Range.Start })
	if err := e.document(m); err != nil {
		return nil, err
	}
	e.flushComments(-1, 0)
	e.endLine()
	return e.buf.Bytes(), nil
}

type emitter struct {
	opts     EmitOptions
	buf      bytes.Buffer
	comments []Comment
	// open is true while the current line has content not yet ended by
	// a line break; lastSrc is the source offset where the last item
	// written ended (a comment on its line trails it).
	open    bool
	lastSrc int
}

type emitError struct{ msg string }

func (e *emitter) failf(format string, args ...any) {
	panic(emitError{fmt.Sprintf(format, args...)})
}

func (e *emitter) write(s string) {
	e.buf.WriteString(s)
	e.open = true
}

func (e *emitter) endLine() {
	if e.open {
		e.buf.WriteByte('\n')
		e.open = false
	}
}

func (e *emitter) blankLine() {
	e.endLine()
	if b := e.buf.Bytes(); len(b) > 0 && !bytes.HasSuffix(b, []byte("\n\n")) {
		e.buf.WriteByte('\n')
	}
}

// flushComments writes the comments that start before off (every one
// when off < 0) at indentation depth: one on the line of the last item
// written trails it, the others stand on their own lines.
func (e *emitter) flushComments(off, depth int) {
	for len(e.comments) > 0 && (off < 0 || e.comments[0].Range.Start < off) {
		c := e.comments[0]
		e.comments = e.comments[1:]
		trailing := e.open && e.opts.Source != nil && c.Range.Start >= e.lastSrc &&
			!bytes.Contains(e.opts.Source[e.lastSrc:c.Range.Start], []byte("\n"))
		if trailing {
			e.write(" #" + c.Text)
			e.endLine()
			continue
		}
		e.endLine()
		e.write(strings.Repeat("    ", depth) + "#" + c.Text)
		e.endLine()
	}
}

// decl is one top-level statement to write, at its source offset.
type decl struct {
	at      int
	keyword string // version, transform, metadata, or a declaration keyword
	entry   *syntax.Entry
}

var keywordOf = map[string]string{}

func init() {
	for kw, s := range sectionOf {
		keywordOf[s.Key()] = kw
	}
}

func (e *emitter) document(root *syntax.Mapping) (err error) {
	defer func() {
		if r := recover(); r != nil {
			ee, ok := r.(emitError)
			if !ok {
				panic(r)
			}
			err = fmt.Errorf("%s", ee.msg)
		}
	}()
	var decls []decl
	for _, x := range root.Entries {
		k := x.Key.Value
		switch k {
		case "version", "transform", "metadata":
			decls = append(decls, decl{at: start(x), keyword: k, entry: x})
			continue
		}
		kw, ok := keywordOf[k]
		if !ok {
			e.failf("the top-level key %q is no blueprint section: the blueprint language has no statement for it", k)
		}
		sec, ok := x.Value.(*syntax.Mapping)
		if !ok {
			if s, isScalar := x.Value.(*syntax.Scalar); isScalar && s.Tag == syntax.NullTag {
				continue // an empty section
			}
			e.failf("%s is not a mapping of definitions", k)
		}
		for _, d := range sec.Entries {
			decls = append(decls, decl{at: start(d), keyword: kw, entry: d})
		}
	}
	if e.opts.Source != nil {
		sort.SliceStable(decls, func(i, j int) bool { return decls[i].at < decls[j].at })
	}
	for i, d := range decls {
		if i > 0 && (d.keyword != "version" && d.keyword != "transform" || decls[i-1].keyword != "version") {
			e.blankLine()
		}
		e.flushComments(d.at, 0)
		e.statement(d)
	}
	return nil
}

func start(x *syntax.Entry) int {
	s := x.Key.Rng.Start
	if x.Value != nil {
		s = min(s, x.Value.Range().Start)
	}
	return s
}

func (e *emitter) statement(d decl) {
	v := d.entry.Value
	switch d.keyword {
	case "version":
		e.write("version ")
		e.scalar(v, 0)
	case "transform":
		e.write("transform ")
		e.inline(v, 0)
	case "metadata":
		e.write("metadata ")
		e.block(v, "", 0)
	default:
		e.definition(d.keyword, d.entry)
	}
	e.lastSrc = v.Range().End
	e.endLine()
}

// keywords are the words the official parser reserves as bare names (its
// statements, filter words, types and reference namespaces): a name that
// is one is written quoted, so the official tools read the output too.
var keywords = map[string]bool{
	"variable": true, "value": true, "data": true, "resource": true, "include": true, "export": true,
	"metadata": true, "spec": true, "select": true, "filter": true, "foreach": true, "as": true,
	"by": true, "label": true, "version": true, "transform": true, "not": true, "in": true, "has": true,
	"key": true, "contains": true, "starts": true, "with": true, "ends": true, "string": true,
	"integer": true, "float": true, "boolean": true, "array": true, "object": true,
}

// name writes a definition's name: bare when it is an identifier no
// expression or statement reserves, quoted otherwise.
func (e *emitter) name(k *syntax.Scalar) {
	if isIdent(k.Value) && !reserved[k.Value] && !keywords[k.Value] {
		e.write(k.Value)
		return
	}
	e.write(quoteString(k.Value))
}

func isIdent(s string) bool {
	if s == "" || !isIdentStart(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isIdentByte(s[i]) {
			return false
		}
	}
	return true
}

// isType reports whether s is a type the language writes bare:
// identifiers joined by '/'.
func isType(s string) bool {
	for _, seg := range strings.Split(s, "/") {
		if !isIdent(seg) {
			return false
		}
	}
	return true
}

func (e *emitter) definition(kw string, x *syntax.Entry) {
	what := fmt.Sprintf("%s %q", kw, x.Key.Value)
	m, ok := x.Value.(*syntax.Mapping)
	if !ok {
		e.failf("%s is not a mapping", what)
	}
	e.write(kw + " ")
	e.name(x.Key)
	skip := "type"
	if kw == "include" {
		skip = "path"
		p, _ := m.Get("path").(*syntax.Scalar)
		if p == nil || p.Tag != syntax.StringTag {
			e.failf("%s has no path: the language needs one", what)
		}
		e.write(" ")
		e.scalar(p, 1)
	} else {
		t, _ := m.Get("type").(*syntax.Scalar)
		if t == nil || t.Tag != syntax.StringTag || !isType(t.Value) {
			e.failf("%s has no type the language can write (identifiers joined by '/')", what)
		}
		e.write(": " + t.Value)
	}
	e.write(" ")
	e.body(m, kw, skip, 0)
}

// body writes a definition's block: its fields but skip, and the
// statements of its kind.
func (e *emitter) body(m *syntax.Mapping, kind, skip string, depth int) {
	var rest []*syntax.Entry
	for _, x := range m.Entries {
		if x.Key.Value != skip {
			rest = append(rest, x)
		}
	}
	if len(rest) == 0 {
		e.write("{}")
		return
	}
	e.write("{")
	e.endLine()
	for i, x := range rest {
		e.flushComments(start(x), depth+1)
		e.endLine()
		e.write(strings.Repeat("    ", depth+1))
		e.field(x, kind, depth+1)
		if kind == objectKind && i < len(rest)-1 {
			e.write(",") // inside an object, as in brackets, line breaks are no separators to the official parser
		}
		e.lastSrc = x.Value.Range().End
	}
	e.flushComments(m.Rng.End, depth+1)
	e.endLine()
	e.write(strings.Repeat("    ", depth) + "}")
}

// objectKind is the kind of body of an object value: its entries are
// separated by commas.
const objectKind = "{object}"

// statementWords are the words that start statements in a block of a
// kind: a field of that name is written quoted.
var statementWords = map[string]map[string]bool{
	"resource": {"foreach": true, "select": true},
	"data":     {"filter": true, "export": true},
}

func (e *emitter) field(x *syntax.Entry, kind string, depth int) {
	k, v := x.Key.Value, x.Value
	switch {
	case kind == "resource" && k == "each":
		e.write("foreach ")
		e.inline(v, depth)
		return
	case kind == "resource" && k == "linkSelector":
		e.selector(v, depth)
		return
	case kind == "data" && k == "filter":
		e.filters(v, depth)
		return
	case kind == "data" && k == "exports":
		e.exports(v, depth)
		return
	}
	if isIdent(k) && !statementWords[kind][k] {
		e.write(k)
	} else {
		e.write(quoteString(k))
	}
	if m, ok := v.(*syntax.Mapping); ok && e.isBlock(m, k, depth) {
		e.write(" ")
		e.block(m, "", depth)
		return
	}
	e.write(" = ")
	e.inline(v, depth)
}

// isBlock says whether a mapping is written as a `name {..}` block: as it
// was in blueprint-language source; from YAML or JSON, the spec, metadata
// and an include's variables (the official examples' style; a condition
// or any other mapping is an object value).
func (e *emitter) isBlock(m *syntax.Mapping, key string, depth int) bool {
	if e.opts.Source != nil {
		return !m.Flow
	}
	return depth == 1 && (key == "spec" || key == "metadata" || key == "variables")
}

func (e *emitter) block(v syntax.Node, kind string, depth int) {
	m, ok := v.(*syntax.Mapping)
	if !ok {
		e.failf("expected a mapping at %v", v.Range())
	}
	e.body(m, kind, "", depth)
}

func (e *emitter) selector(v syntax.Node, depth int) {
	m, ok := v.(*syntax.Mapping)
	labels, _ := m.Get("byLabel").(*syntax.Mapping)
	if !ok || labels == nil {
		e.failf("a linkSelector without a byLabel mapping has no form in the language")
	}
	sel := &syntax.Mapping{Rng: labels.Rng, Entries: append([]*syntax.Entry(nil), labels.Entries...)}
	for _, x := range m.Entries {
		switch x.Key.Value {
		case "byLabel":
		case "exclude":
			sel.Entries = append(sel.Entries, x)
			sel.Rng.End = max(sel.Rng.End, x.Value.Range().End)
		default:
			e.failf("the linkSelector field %q has no form in the language", x.Key.Value)
		}
	}
	e.write("select by label ")
	e.body(sel, "", "", depth)
}

func (e *emitter) filters(v syntax.Node, depth int) {
	items := []syntax.Node{v}
	if s, ok := v.(*syntax.Sequence); ok {
		items = s.Items
	}
	for i, it := range items {
		f, ok := it.(*syntax.Mapping)
		field, _ := f.Get("field").(*syntax.Scalar)
		op, _ := f.Get("operator").(*syntax.Scalar)
		search := f.Get("search")
		if !ok || field == nil || op == nil || search == nil || len(f.Entries) != 3 {
			e.failf("a filter needs exactly field, operator and search to have a form in the language")
		}
		if i > 0 {
			e.flushComments(it.Range().Start, depth)
			e.endLine()
			e.write(strings.Repeat("    ", depth))
		}
		o := op.Value
		if o == "=" {
			o = "=="
		}
		e.write("filter ")
		e.scalar(field, depth)
		e.write(" " + o + " ")
		e.inline(search, depth)
		e.lastSrc = it.Range().End
	}
}

func (e *emitter) exports(v syntax.Node, depth int) {
	if s, ok := v.(*syntax.Scalar); ok && s.Tag == syntax.StringTag && strings.TrimSpace(s.Value) == "*" {
		e.write("export *")
		return
	}
	m, ok := v.(*syntax.Mapping)
	if !ok {
		e.failf("data source exports must be a mapping or \"*\" to have a form in the language")
	}
	for i, x := range m.Entries {
		xm, ok := x.Value.(*syntax.Mapping)
		t, _ := xm.Get("type").(*syntax.Scalar)
		if !ok || t == nil || !isType(t.Value) {
			e.failf("data source export %q has no type the language can write", x.Key.Value)
		}
		if i > 0 {
			e.flushComments(start(x), depth)
			e.endLine()
			e.write(strings.Repeat("    ", depth))
		}
		e.write("export ")
		skip := 1
		if a, _ := xm.Get("aliasFor").(*syntax.Scalar); a != nil {
			e.name(a)
			e.write(" as ")
			skip++
		}
		e.name(x.Key)
		e.write(": " + t.Value)
		if len(xm.Entries) > skip {
			rest := &syntax.Mapping{Rng: xm.Rng}
			for _, f := range xm.Entries {
				if f.Key.Value != "type" && f.Key.Value != "aliasFor" {
					rest.Entries = append(rest.Entries, f)
				}
			}
			e.write(" ")
			e.body(rest, "", "", depth)
		}
		e.lastSrc = x.Value.Range().End
	}
}

// inline writes a value: a flow collection on one line when it is short
// and flat, one item per line otherwise.
func (e *emitter) inline(v syntax.Node, depth int) {
	switch v := v.(type) {
	case *syntax.Scalar:
		e.scalar(v, depth)
	case *syntax.Sequence:
		if s, ok := e.oneLine(v); ok {
			e.write(s)
			return
		}
		e.write("[")
		e.endLine()
		for _, it := range v.Items {
			e.flushComments(it.Range().Start, depth+1)
			e.endLine()
			e.write(strings.Repeat("    ", depth+1))
			e.inline(it, depth+1)
			e.write(",")
			e.lastSrc = it.Range().End
		}
		e.flushComments(v.Rng.End, depth+1)
		e.endLine()
		e.write(strings.Repeat("    ", depth) + "]")
	case *syntax.Mapping:
		if s, ok := e.oneLine(v); ok {
			e.write(s)
			return
		}
		if !v.Flow && e.opts.Source != nil {
			e.failf("a block at %v cannot stand in a value", v.Rng)
		}
		e.body(v, objectKind, "", depth)
	case nil:
		e.write("none")
	}
}

// oneLine renders a collection of scalars on one line when it fits, has
// no comment inside and holds no multi-line text.
func (e *emitter) oneLine(v syntax.Node) (string, bool) {
	r := v.Range()
	for _, c := range e.comments {
		if r.Contains(c.Range.Start) && c.Range.Start != r.Start {
			return "", false
		}
	}
	var b strings.Builder
	if !e.flat(&b, v, 0) || b.Len() > 80 || strings.Contains(b.String(), "\n") {
		return "", false
	}
	return b.String(), true
}

func (e *emitter) flat(b *strings.Builder, v syntax.Node, depth int) bool {
	if depth > 2 {
		return false
	}
	switch v := v.(type) {
	case *syntax.Scalar:
		b.WriteString(e.scalarText(v, 0))
	case *syntax.Sequence:
		b.WriteString("[")
		for i, it := range v.Items {
			if i > 0 {
				b.WriteString(", ")
			}
			if !e.flat(b, it, depth+1) {
				return false
			}
		}
		b.WriteString("]")
	case *syntax.Mapping:
		if !v.Flow && e.opts.Source != nil {
			return false
		}
		if len(v.Entries) == 0 {
			b.WriteString("{}")
			return true
		}
		b.WriteString("{ ")
		for i, x := range v.Entries {
			if i > 0 {
				b.WriteString(", ")
			}
			if isIdent(x.Key.Value) {
				b.WriteString(x.Key.Value)
			} else {
				b.WriteString(quoteString(x.Key.Value))
			}
			b.WriteString(" = ")
			if !e.flat(b, x.Value, depth+1) {
				return false
			}
		}
		b.WriteString(" }")
	default:
		return false
	}
	return true
}

func (e *emitter) scalar(v syntax.Node, depth int) {
	s, ok := v.(*syntax.Scalar)
	if !ok {
		e.failf("expected a scalar at %v", v.Range())
	}
	e.write(e.scalarText(s, depth))
}

// scalarText is a scalar in the language: as written when the tree is of
// blueprint-language text; else a literal of its type, a pure
// substitution whose expression the language writes the same bare, or a
// string.
func (e *emitter) scalarText(s *syntax.Scalar, depth int) string {
	if src := e.opts.Source; src != nil {
		return string(src[s.Rng.Start:s.Rng.End])
	}
	switch s.Tag {
	case syntax.NullTag:
		return "none"
	case syntax.BoolTag:
		return strings.ToLower(s.Value)
	case syntax.IntTag:
		if n, err := strconv.ParseInt(strings.ReplaceAll(s.Value, "_", ""), 0, 64); err == nil {
			return strconv.FormatInt(n, 10)
		}
		e.failf("the integer %s at %v has no form in the language", s.Value, s.Rng)
	case syntax.FloatTag:
		f, err := strconv.ParseFloat(s.Value, 64)
		if err != nil || f != f || f > 1e300 || f < -1e300 {
			e.failf("the number %s at %v has no form in the language", s.Value, s.Rng)
		}
		t := strconv.FormatFloat(f, 'f', -1, 64)
		if !strings.Contains(t, ".") {
			t += ".0"
		}
		return t
	}
	if x, ok := bareExpression(s.Value); ok {
		return x
	}
	if strings.Contains(s.Value, "\n") || strings.Contains(s.Value, `\"`) || strings.HasSuffix(s.Value, `\`) {
		if strings.Contains(s.Value, `"""`) || strings.Contains(s.Value, "\r") {
			e.failf("the string at %v has no form in the language", s.Rng)
		}
		ind := strings.Repeat("    ", depth+1)
		var b strings.Builder
		b.WriteString("\"\"\"\n")
		for _, l := range strings.Split(s.Value, "\n") {
			if l != "" {
				b.WriteString(ind + l)
			}
			b.WriteString("\n")
		}
		b.WriteString(ind + `"""`)
		return b.String()
	}
	return quoteString(s.Value)
}

// quoteString writes a one-line string: a quote outside ${..} escaped,
// the text of an interpolation as it is.
func quoteString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	depth := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '$' && i+1 < len(s) && s[i+1] == '{' && depth == 0:
			depth = 1
			b.WriteString("${")
			i++
			continue
		case depth > 0 && c == '{':
			depth++
		case depth > 0 && c == '}':
			depth--
		case c == '"' && depth == 0:
			b.WriteString(`\"`)
			continue
		}
		b.WriteByte(c)
	}
	b.WriteByte('"')
	return b.String()
}

// bareExpression returns the expression of a pure substitution "${x}"
// when the language reads x bare as the same substitution (a reference,
// a call): its own parser decides, and the "${..}" it makes of x must be
// the value itself.
func bareExpression(v string) (string, bool) {
	if !strings.HasPrefix(v, "${") || !strings.HasSuffix(v, "}") || strings.Count(v, "${") != 1 {
		return "", false
	}
	x := strings.TrimSpace(v[2 : len(v)-1])
	if x == "" || strings.ContainsAny(x, "\n'") {
		return "", false
	}
	src := []byte("value v: string {\n    value = " + x + "\n}\n")
	f := Parse("", src)
	if f.HasSyntaxErrors() {
		return "", false
	}
	vals, _ := f.Root.(*syntax.Mapping).Get(dialect.Values.Key()).(*syntax.Mapping)
	s, _ := vals.Get("v").(*syntax.Mapping).Get("value").(*syntax.Scalar)
	if s == nil || s.Value != "${"+x+"}" {
		return "", false
	}
	return x, true
}
