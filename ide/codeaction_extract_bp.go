package ide

import (
	"bytes"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/bplang"
	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/subst"
)

// exprSpan is where an expression of a .bp document is written: inner
// from its first to its last byte, outer with the parentheses around it.
// The substitution tree alone does not say: an operator's call is placed
// at the operator, and a group's parentheses are not in it.
type exprSpan struct{ inner, outer source.Range }

// extractToValueBP is "Extract to value" in the blueprint language: the
// expression, as written, becomes `value = ..` of a new value declaration
// placed after the last value (or where values go), and a reference
// `values.name` takes its place, parentheses around it included. Inside
// a string's ${..} the reference stays in the interpolation. The edit is
// offered only when the document it makes parses.
func extractToValueBP(res *analysis.Result, rng source.Range, opts Options) (CodeAction, bool) {
	site := indexFor(res).siteAt(rng.Start)
	if site == nil || site.Kind == analysis.SiteExportField || !site.Scalar.Rng.ContainsRange(rng) {
		return CodeAction{}, false
	}
	src := res.File.Content()
	var target subst.Expr
	var span exprSpan
	var path []subst.Expr
	for _, sub := range site.Template.Subs() {
		if !sub.Rng.ContainsRange(rng) {
			continue
		}
		spans := map[subst.Expr]exprSpan{}
		bpSpan(src, sub.Rng, sub.Expr, spans)
		path = nil
		for e := sub.Expr; e != nil; {
			target, span = e, spans[e]
			path = append(path, e)
			var next subst.Expr
			for _, c := range children(e) {
				if spans[c].outer.ContainsRange(rng) {
					next = c
				}
			}
			e = next
		}
	}
	if !extractable(target) || span.inner.Len() == 0 {
		return CodeAction{}, false
	}
	name := newValueName(res)
	nl := "\n"
	if bytes.Contains(src, []byte("\r\n")) {
		nl = "\r\n"
	}
	text := string(src[span.inner.Start:span.inner.End])
	if a, ok := target.(*subst.ArrayLit); ok && a.Closed {
		// In a value's place [..] is an array of values, not an
		// expression: the call says the same as an expression.
		text = "list(" + string(src[a.Lbrack.End:a.Rbrack.Start]) + ")"
	}
	decl := "value " + bpKey(name) + ": " + extractedType(res, site, path, opts) + " {" + nl +
		"    value = " + reindent(src, span.inner.Start, text) + nl
	if readsSecret(res, target) {
		decl += "    secret = true" + nl
	}
	decl += "}"
	at, before, after := bpValuePlace(res)
	ins := source.Edit{Range: source.R(at, at), NewText: before + decl + after}
	ins.NewText = strings.ReplaceAll(ins.NewText, "\n", nl)
	if nl == "\r\n" {
		ins.NewText = strings.ReplaceAll(ins.NewText, "\r\r\n", "\r\n")
	}
	repl := source.Edit{Range: span.outer, NewText: "values." + name}
	if ins.Range.Start > repl.Range.Start && ins.Range.Start < repl.Range.End {
		return CodeAction{}, false
	}
	if !parsesAfter(res, repl) || bplang.Parse("", []byte(decl)).HasSyntaxErrors() {
		return CodeAction{}, false
	}
	a := CodeAction{Title: "Extract to value " + name, Kind: KindRefactorExtract}
	a.Edit.add(res, repl)
	a.Edit.add(res, ins)
	return a, true
}

// bpSpan records the span of e and of every expression inside it; the
// outer span never leaves within (the substitution's own range).
func bpSpan(src []byte, within source.Range, e subst.Expr, spans map[subst.Expr]exprSpan) exprSpan {
	r := e.Range()
	for _, c := range children(e) {
		cs := bpSpan(src, within, c, spans)
		if r.Len() == 0 {
			r = cs.outer
		} else {
			r = r.Union(cs.outer)
		}
	}
	s := exprSpan{inner: r, outer: r}
	for {
		i, j := s.outer.Start-1, s.outer.End
		for i >= within.Start && isSpace(src[i]) {
			i--
		}
		for j < within.End && isSpace(src[j]) {
			j++
		}
		if i < within.Start || j >= within.End || src[i] != '(' || src[j] != ')' || i > 0 && isWordByte(src[i-1]) {
			break // no parentheses, or a call's
		}
		s.outer = source.R(i, j+1)
	}
	spans[e] = s
	return s
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// children are the expressions directly inside e that a selection can
// pick: a call's arguments, an array's elements.
func children(e subst.Expr) []subst.Expr {
	var out []subst.Expr
	switch x := e.(type) {
	case *subst.Call:
		for _, a := range x.Args {
			out = append(out, a.Value)
		}
	case *subst.ArrayLit:
		out = append(out, x.Elems...)
	}
	return out
}

// reindent moves the continuation lines of text, written at offset at,
// from the indentation of its first line to a field's (four spaces); it
// leaves text as written when a line is indented less than the first.
func reindent(src []byte, at int, text string) string {
	if !strings.Contains(text, "\n") {
		return text
	}
	ls := bytes.LastIndexByte(src[:at], '\n') + 1
	ind := ls
	for ind < at && (src[ind] == ' ' || src[ind] == '\t') {
		ind++
	}
	prefix := string(src[ls:ind])
	lines := strings.Split(text, "\n")
	for i, l := range lines[1:] {
		if strings.TrimSpace(l) == "" {
			continue
		}
		if !strings.HasPrefix(l, prefix) {
			return text
		}
		lines[i+1] = "    " + l[len(prefix):]
	}
	return strings.Join(lines, "\n")
}

// bpValuePlace is where a new value declaration goes, with the text
// before and after it: after the last value declaration, else after the
// last variable, else after version and transform, else at the start.
func bpValuePlace(res *analysis.Result) (at int, before, after string) {
	root := res.Blueprint.Root
	last := func(section string) *schema.Entry {
		var out *schema.Entry
		if e := root.Entry(section); e != nil {
			if m, ok := e.Value.(*schema.Mapping); ok {
				for _, d := range m.Entries {
					if out == nil || entryRange(d).End > entryRange(out).End {
						out = d
					}
				}
			}
		}
		return out
	}
	e := last(dialect.Values.Key())
	if e == nil {
		e = last(dialect.Variables.Key())
	}
	if e == nil {
		for _, k := range []string{"version", "transform"} {
			if x := root.Entry(k); x != nil && (e == nil || entryRange(x).End > entryRange(e).End) {
				e = x
			}
		}
	}
	if e == nil {
		return 0, "", "\n\n"
	}
	src := res.File.Content()
	at = entryRange(e).End
	for at < len(src) && (src[at] == ' ' || src[at] == '\t') {
		at++
	}
	if at < len(src) && src[at] == '#' {
		for at < len(src) && src[at] != '\n' && src[at] != '\r' {
			at++
		}
	} else {
		at = entryRange(e).End
	}
	return at, "\n\n", ""
}

// parsesAfter reports whether the top-level statement the edit falls in
// still parses with the edit made (the statement alone, so the check does
// not grow with the document).
func parsesAfter(res *analysis.Result, e source.Edit) bool {
	stmt, ok := statementAround(res, e.Range)
	if !ok {
		return false
	}
	src := res.File.Content()
	text := make([]byte, 0, stmt.Len()+len(e.NewText))
	text = append(text, src[stmt.Start:e.Range.Start]...)
	text = append(text, e.NewText...)
	text = append(text, src[e.Range.End:stmt.End]...)
	return !bplang.Parse("", text).HasSyntaxErrors()
}

// statementAround is the range of the top-level statement of a .bp
// document that holds r: from the start of its first line to its end.
func statementAround(res *analysis.Result, r source.Range) (source.Range, bool) {
	found := func(e *schema.Entry) (source.Range, bool) {
		er := entryRange(e)
		m := res.File.Mapper
		return source.R(m.LineStart(m.Line(er.Start)), er.End), true
	}
	for _, top := range res.Blueprint.Root.Entries {
		if !entryRange(top).ContainsRange(r) {
			continue
		}
		if dialect.SectionOf(top.Key.Value) == dialect.NoSection {
			return found(top) // version, transform, metadata
		}
		if m, ok := top.Value.(*schema.Mapping); ok {
			for _, d := range m.Entries {
				if entryRange(d).ContainsRange(r) {
					return found(d)
				}
			}
		}
	}
	return source.Range{}, false
}
