package landscaper

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// spiffImport is a reference to an import in a Spiff expression:
// imports.X not preceded by a name or a dot.
var spiffImport = regexp.MustCompile(`(^|[^\w.])imports\.([A-Za-z0-9_-]+)`)

// spiff checks a Spiff execution: every (( )) expression is closed and
// its imports.X refer to declared imports. A template given as text is
// YAML too, read as such.
func (c *checker) spiff(ex *execution, imports *names) {
	tree := ex.tree
	at := func(a, b int) span { return span{rng: source.R(a, b)} } // offsets in the blueprint
	if tree == nil {
		f := syntax.Parse("spiff.yaml", []byte(ex.text))
		if errs := f.SyntaxErrors(); len(errs) > 0 {
			ex.report(c, codeTemplateSyntax, errs[0].Range.Start, errs[0].Range.End, "a Spiff template is YAML: %s", errs[0].Message)
			return
		}
		tree, at = f.Root, ex.at
	}
	if ex.list == "exportExecutions" {
		root, _ := tree.(*syntax.Mapping)
		if out, ok := root.Get("exports").(*syntax.Mapping); ok {
			for _, e := range out.Entries {
				if e.Key != nil && c.exported != nil && !c.exported.has(e.Key.Value) {
					r := e.Key.Range()
					if ex.tree == nil {
						sp := ex.at(r.Start, r.End)
						c.report(codeExportUndeclared.New(sp.rng, "%s%s", sp.prefix, undeclaredExport(c.exported, e.Key.Value)))
					} else {
						c.report(codeExportUndeclared.New(r, "%s", undeclaredExport(c.exported, e.Key.Value)))
					}
				}
			}
		}
	}
	spiffScalars(tree, func(sc *syntax.Scalar) {
		one := *ex
		one.at = func(a, b int) span {
			r := sc.OffsetMap().Range(a, b)
			return at(r.Start, r.End)
		}
		c.spiffExpr(&one, sc.Value, imports)
	})
}

var codeExportUndeclared = source.NewCode("landscaper-export-undeclared", source.Error,
	"A Landscaper export execution produces an export the blueprint does not declare (found where the output is known: a Spiff template's exports mapping, or render's output).",
	"exports:\n- name: url\n  schema: {type: string}\nexportExecutions:\n- name: e\n  type: Spiff\n  template:\n    exports:\n      ulr: (( \"http://x\" ))")

// undeclaredExport words an export that is not declared.
func undeclaredExport(exported *names, name string) string {
	msg := fmt.Sprintf("export %q is not declared under exports", name)
	if near := source.Closest(name, candidates(exported, nil)); len(near) > 0 {
		msg += fmt.Sprintf("; did you mean %q?", near[0])
	}
	return msg
}

// spiffScalars calls f on every string scalar below n, keys included
// (Spiff evaluates both).
func spiffScalars(n syntax.Node, f func(*syntax.Scalar)) {
	switch n := n.(type) {
	case *syntax.Mapping:
		for _, e := range n.Entries {
			if e.Key != nil {
				f(e.Key)
			}
			spiffScalars(e.Value, f)
		}
	case *syntax.Sequence:
		for _, it := range n.Items {
			spiffScalars(it, f)
		}
	case *syntax.Scalar:
		if n.IsString() {
			f(n)
		}
	}
}

// spiffExpr checks one value: a Spiff expression when it is (( ... ))
// ("((!" escapes a literal).
func (c *checker) spiffExpr(ex *execution, v string, imports *names) {
	lead := len(v) - len(strings.TrimLeft(v, " \t\n"))
	if !strings.HasPrefix(v[lead:], "((") || strings.HasPrefix(v[lead:], "((!") {
		return
	}
	end, ok := spiffClose(v, lead+2)
	if !ok {
		ex.report(c, codeTemplateSyntax, lead, lead+2, "this Spiff expression is never closed: (( needs a matching ))")
		return
	}
	expr := v[lead+2 : end]
	for _, m := range spiffImport.FindAllStringSubmatchIndex(stripStrings(expr), -1) {
		name := expr[m[4]:m[5]]
		if imports != nil && !imports.has(name) {
			c.undeclaredImport(ex, imports, name, lead+2+m[4])
		}
	}
}

// spiffClose finds the "))" closing an expression whose text starts at
// i, counting parentheses outside string literals; it returns the
// offset of the closing "))".
func spiffClose(v string, i int) (int, bool) {
	depth := 2
	for ; i < len(v); i++ {
		switch v[i] {
		case '"':
			for i++; i < len(v) && v[i] != '"'; i++ {
				if v[i] == '\\' {
					i++
				}
			}
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i - 1, v[i-1] == ')'
			}
		}
	}
	return 0, false
}

// stripStrings blanks the string literals of an expression, keeping
// offsets.
func stripStrings(s string) string {
	b := []byte(s)
	in := false
	for i := 0; i < len(b); i++ {
		switch {
		case !in && b[i] == '"':
			in = true
		case in && b[i] == '\\' && i+1 < len(b):
			b[i], b[i+1] = ' ', ' '
			i++
		case in && b[i] == '"':
			in = false
		case in:
			b[i] = ' '
		}
	}
	return string(b)
}
