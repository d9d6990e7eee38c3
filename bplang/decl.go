package bplang

import (
	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// sectionOf is the blueprint section each declaration keyword adds to.
var sectionOf = map[string]dialect.Section{
	"variable": dialect.Variables, "value": dialect.Values, "data": dialect.DataSources,
	"resource": dialect.Resources, "include": dialect.Include, "export": dialect.Exports,
}

// reserved words cannot be bare names: they mean something in an
// expression (the literals, the reference namespaces, elem and i).
var reserved = func() map[string]bool {
	r := map[string]bool{"true": true, "false": true, "none": true, "elem": true, "i": true}
	for _, s := range sectionOf {
		if ns := s.Namespace(); ns != "" {
			r[ns] = true
		}
	}
	return r
}()

// topLevel parses one top-level statement.
func (p *parser) topLevel() {
	kw := p.peek()
	if kw.kind != tIdent || !topKeywords[p.tx(kw)] {
		p.fail(kw.rng(), "expected a statement (version, transform, variable, value, data, resource, include, export or metadata), found %s", p.describe(kw))
	}
	p.next()
	switch p.tx(kw) {
	case "version":
		v := p.peek()
		if v.kind != tString {
			p.fail(v.rng(), "expected the version as a string after version, found %s", p.describe(v))
		}
		p.next()
		p.rootEntry("version", kw, p.literal(v))
	case "transform":
		t := p.peek()
		if t.kind != tString && !p.is(t, "[") {
			p.fail(t.rng(), "expected a string or a list of strings after transform, found %s", p.describe(t))
		}
		p.rootEntry("transform", kw, p.value(p.expression(), false))
	case "metadata":
		open := p.peek()
		if !p.is(open, "{") {
			p.fail(open.rng(), "expected '{' after metadata, found %s", p.describe(open))
		}
		m := p.newMapping(syntax.Mapping{Rng: source.R(open.start, open.end)})
		p.rootEntry("metadata", kw, m)
		p.body(m, "")
	case "include":
		p.include(kw)
	default:
		p.declaration(kw)
	}
	if t := p.peek(); t.kind != tNewline && t.kind != tEOF {
		p.fail(t.rng(), "expected a line break after the %s statement, found %s", p.tx(kw), p.describe(t))
	}
}

// rootEntry adds a top-level entry.
func (p *parser) rootEntry(name string, kw token, v syntax.Node) {
	p.root.Entries = appendCarved(&p.entryPs, p.root.Entries, p.newEntry(syntax.Entry{Key: p.plain(name, kw.rng()), Value: v}))
}

// section returns the mapping of a section, adding it (keyed at the
// keyword of its first declaration) on first use.
func (p *parser) section(name string, kw token) *syntax.Mapping {
	if m := p.sections[name]; m != nil {
		return m
	}
	m := p.newMapping(syntax.Mapping{Rng: kw.rng()})
	p.sections[name] = m
	p.rootEntry(name, kw, m)
	return m
}

// declare adds the definition m named name to the section of kw; the
// section's range grows to the end of the definition when it is parsed.
func (p *parser) declare(kw token, name *syntax.Scalar, m *syntax.Mapping) {
	sec := p.section(sectionOf[p.tx(kw)].Key(), kw)
	sec.Entries = appendCarved(&p.entryPs, sec.Entries, p.newEntry(syntax.Entry{Key: name, Value: m}))
	defer func() { sec.Rng.End = max(sec.Rng.End, m.Rng.End) }()
	if p.is(p.peek(), "{") {
		p.body(m, p.tx(kw))
	}
}

// declaration parses `variable|value|data|resource|export name: type {..}`.
func (p *parser) declaration(kw token) {
	name := p.name()
	colon := p.expect(":", "after the name ", name.Value)
	typ := p.typeRef()
	m := p.newMapping(syntax.Mapping{Rng: source.R(kw.start, typ.Rng.End)})
	m.Entries = appendCarved(&p.entryPs, m.Entries, p.newEntry(syntax.Entry{Key: p.plain("type", colon.rng()), Value: typ}))
	p.declare(kw, name, m)
}

// include parses `include name "path" {..}`.
func (p *parser) include(kw token) {
	name := p.name()
	path := p.peek()
	if path.kind != tString {
		p.fail(path.rng(), "expected the path of the child blueprint as a string, found %s", p.describe(path))
	}
	p.next()
	m := p.newMapping(syntax.Mapping{Rng: source.R(kw.start, path.end)})
	m.Entries = appendCarved(&p.entryPs, m.Entries, p.newEntry(syntax.Entry{Key: p.plain("path", source.R(path.start, path.start)), Value: p.literal(path)}))
	p.declare(kw, name, m)
}

// name parses a definition's name: an identifier or a quoted string.
func (p *parser) name() *syntax.Scalar {
	t := p.peek()
	switch t.kind {
	case tIdent:
		if reserved[p.tx(t)] {
			p.report(t.rng(), "%s is reserved and cannot be a bare name: write it in double quotes", p.tx(t))
		}
		p.next()
		return p.key(t)
	case tString:
		p.next()
		return p.literal(t)
	}
	p.fail(t.rng(), "expected a name, found %s", p.describe(t))
	return nil
}

// typeRef parses a type: a word, or words joined by '/' (aws/s3/bucket).
func (p *parser) typeRef() *syntax.Scalar {
	t := p.peek()
	if t.kind != tIdent {
		p.fail(t.rng(), "expected a type, found %s", p.describe(t))
	}
	p.next()
	end := t.end
	for s := p.peek(); p.is(s, "/") && s.start == end; s = p.peek() {
		p.next()
		seg := p.peek()
		if seg.kind != tIdent || seg.start != s.end {
			p.fail(seg.rng(), "expected a type segment after '/', found %s", p.describe(seg))
		}
		p.next()
		end = seg.end
	}
	return p.plain(p.text[t.start:end], source.R(t.start, end))
}

// body parses a `{ entries }` block into m. kind is the declaration
// keyword whose block it is ("" for a nested block): it decides which
// statements other than `name = value` and `name {..}` are allowed.
func (p *parser) body(m *syntax.Mapping, kind string) {
	p.enter() // before the '{': recovery then skips the block whole
	defer p.leave()
	open := p.next()
	// A block left by an error still covers what it holds.
	defer func() { m.Rng.End = max(m.Rng.End, p.lastEnd) }()
	for {
		p.skipSeparators()
		t := p.peek()
		if p.is(t, "}") {
			p.next()
			m.Rng.End = t.end
			return
		}
		if t.kind == tEOF || atTopStatement(p.src, t) {
			p.report(open.rng(), "this '{' is never closed: expected '}' before %s", p.describe(t))
			panic(bailTop{})
		}
		goesOn := true
		p.guard(false, func() { p.entry(m, kind) }, func() { goesOn = p.syncField() })
		if !goesOn {
			p.report(open.rng(), "this '{' is never closed")
			panic(bailTop{})
		}
	}
}

// add appends an entry to m.
func (p *parser) add(m *syntax.Mapping, k *syntax.Scalar, v syntax.Node) {
	m.Entries = appendCarved(&p.entryPs, m.Entries, p.newEntry(syntax.Entry{Key: k, Value: v}))
}

// entry parses one entry of a block.
func (p *parser) entry(m *syntax.Mapping, kind string) {
	t := p.peek()
	switch {
	case kind == "resource" && p.is(t, "foreach"):
		p.next()
		p.add(m, p.plain("each", t.rng()), p.value(p.expression(), false))
	case kind == "resource" && p.is(t, "select"):
		p.selector(m)
	case kind == "data" && p.is(t, "filter"):
		p.filter(m)
	case kind == "data" && p.is(t, "export"):
		p.dataExport(m)
	case t.kind == tIdent || t.kind == tString:
		p.next()
		key := p.key(t)
		switch n := p.peek(); {
		case p.is(n, "{"):
			sub := p.newMapping(syntax.Mapping{Rng: n.rng()})
			p.add(m, key, sub)
			p.body(sub, "")
		case p.is(n, "="):
			p.next()
			plainNames := p.tx(t) == "dependsOn" || p.tx(t) == "exclude" || kind == "export" && p.tx(t) == "field"
			p.add(m, key, p.value(p.expression(), plainNames))
		default:
			p.fail(n.rng(), "expected '=' or '{' after the field name %s, found %s", p.tx(t), p.describe(n))
		}
	default:
		p.fail(t.rng(), "expected a field name, found %s", p.describe(t))
	}
	if n := p.peek(); n.kind != tNewline && !p.is(n, ",") && !p.is(n, "}") {
		p.fail(n.rng(), "expected ',', a line break or '}' after the entry, found %s", p.describe(n))
	}
}

// expectWord consumes the identifier w.
func (p *parser) expectWord(w, why string) token {
	t := p.peek()
	if t.kind != tIdent || p.tx(t) != w {
		p.fail(t.rng(), "expected %s %s, found %s", w, why, p.describe(t))
	}
	return p.next()
}

// selector parses `select by label { name = value, exclude = [..] }`,
// the linkSelector of a resource.
func (p *parser) selector(m *syntax.Mapping) {
	sel := p.next()
	by := p.expectWord("by", "after select")
	label := p.expectWord("label", "after select by")
	open := p.peek()
	if !p.is(open, "{") {
		p.fail(open.rng(), "expected '{' after select by label, found %s", p.describe(open))
	}
	labels := p.newMapping(syntax.Mapping{Rng: open.rng()})
	ls := p.newMapping(syntax.Mapping{Rng: source.R(sel.start, open.end)})
	p.add(ls, p.plain("byLabel", source.R(by.start, label.end)), labels)
	p.add(m, p.plain("linkSelector", sel.rng()), ls)
	defer func() {
		ls.Rng.End = labels.Rng.End
		kept := labels.Entries[:0]
		for _, e := range labels.Entries {
			if e.Key.Value == "exclude" {
				p.add(ls, e.Key, e.Value)
				continue
			}
			kept = append(kept, e)
		}
		labels.Entries = kept
	}()
	p.body(labels, "")
}

// filterWords are the word operators of a data source filter.
var filterWords = [][]string{
	{"in"}, {"has", "key"}, {"contains"}, {"starts", "with"}, {"ends", "with"},
}

// filter parses `filter "field" operator search`. One filter is the
// data source's filter mapping; more make it a sequence.
func (p *parser) filter(m *syntax.Mapping) {
	kw := p.next()
	field := p.peek()
	if field.kind != tString {
		p.fail(field.rng(), "expected the field to filter on as a string, found %s", p.describe(field))
	}
	p.next()
	op, opRange := p.filterOperator()
	search := p.expression()
	fm := p.newMapping(syntax.Mapping{Rng: source.R(kw.start, search.rng().End)})
	p.add(fm, p.plain("field", source.R(field.start, field.start)), p.literal(field))
	p.add(fm, p.plain("operator", source.R(opRange.Start, opRange.Start)), p.plain(op, opRange))
	p.add(fm, p.plain("search", source.R(search.rng().Start, search.rng().Start)), p.value(search, false))
	e := m.Entry("filter")
	if e == nil {
		p.add(m, p.plain("filter", kw.rng()), fm)
		return
	}
	switch v := e.Value.(type) {
	case *syntax.Mapping:
		e.Value = p.newSequence(syntax.Sequence{Rng: source.R(v.Rng.Start, fm.Rng.End), Items: []syntax.Node{v, fm}})
	case *syntax.Sequence:
		v.Items = append(v.Items, fm)
		v.Rng.End = fm.Rng.End
	}
}

// filterOperator reads an operator: == (the "=" of the YAML form), !=,
// <, <=, >, >=, or the words in, has key, contains, starts with, ends
// with, each maybe after not.
func (p *parser) filterOperator() (string, source.Range) {
	t := p.peek()
	if t.kind == tPunct {
		switch p.tx(t) {
		case "==", "!=", "<", "<=", ">", ">=":
			p.next()
			if p.tx(t) == "==" {
				return "=", t.rng()
			}
			return p.tx(t), t.rng()
		}
	}
	start, text := t.start, ""
	if t.kind == tIdent && p.tx(t) == "not" {
		p.next()
		text = "not "
	}
	w := p.peek()
	for _, words := range filterWords {
		if w.kind == tIdent && p.tx(w) == words[0] {
			end := p.next().end
			for _, more := range words[1:] {
				end = p.expectWord(more, "after "+words[0]).end
			}
			for i, x := range words {
				if i > 0 {
					text += " "
				}
				text += x
			}
			return text, source.R(start, end)
		}
	}
	p.fail(w.rng(), "expected a filter operator (==, !=, <, <=, >, >=, in, has key, contains, starts with, ends with), found %s", p.describe(w))
	return "", source.Range{}
}

// dataExport parses `export *` or `export field [as name]: type {..}`.
func (p *parser) dataExport(m *syntax.Mapping) {
	kw := p.next()
	if star := p.peek(); p.is(star, "*") {
		p.next()
		p.add(m, p.plain("exports", kw.rng()), p.plain("*", star.rng()))
		return
	}
	var exports *syntax.Mapping
	if e := m.Entry("exports"); e != nil {
		exports, _ = e.Value.(*syntax.Mapping)
	}
	if exports == nil {
		exports = p.newMapping(syntax.Mapping{Rng: kw.rng()})
		p.add(m, p.plain("exports", kw.rng()), exports)
	}
	name := p.name()
	x := p.newMapping(syntax.Mapping{Rng: source.R(kw.start, name.Rng.End)})
	var alias *syntax.Entry
	if as := p.peek(); p.is(as, "as") {
		p.next()
		alias = p.newEntry(syntax.Entry{Key: p.plain("aliasFor", as.rng()), Value: name})
		name = p.name()
	}
	colon := p.expect(":", "after the export's name ", name.Value)
	typ := p.typeRef()
	x.Rng.End = typ.Rng.End
	p.add(x, p.plain("type", colon.rng()), typ)
	if alias != nil {
		x.Entries = appendCarved(&p.entryPs, x.Entries, alias)
	}
	p.add(exports, name, x)
	defer func() { exports.Rng.End = max(exports.Rng.End, x.Rng.End) }()
	if p.is(p.peek(), "{") {
		p.body(x, "")
	}
}
