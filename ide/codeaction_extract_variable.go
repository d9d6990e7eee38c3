package ide

import (
	"strconv"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/subst"
)

// extractToVariable turns the literal the selection covers into an input
// of the blueprint: a new variable of the literal's type with the literal
// as its default, referenced where the literal was. The literal is a
// string, number or boolean inside ${..} (or a .bp expression), or a
// whole scalar where a substitution may stand (a resource's spec, a
// value's value, a child's variables, a filter's search). Beside "Extract
// to value", which moves an expression: a literal the deployer should be
// able to change is a variable.
func extractToVariable(res *analysis.Result, rng source.Range) (CodeAction, bool) {
	if res.Blueprint == nil {
		return CodeAction{}, false
	}
	lit, ok := literalAt(res, rng)
	if !ok {
		return CodeAction{}, false
	}
	name := newVariableName(res)
	format := res.File.Format
	def := lit.text
	switch {
	case lit.typ != "string":
	case format == schema.YAML:
		def = yamlScalarText(lit.text)
	default:
		def = strconv.Quote(lit.text)
	}
	typ := lit.typ
	if format != schema.YAML && format != schema.BP {
		typ = strconv.Quote(typ)
	}
	ins, ok := insertDefinition(res, dialect.Variables, name, [][2]string{{"type", typ}, {"default", def}})
	if !ok {
		return CodeAction{}, false
	}
	ref := "variables." + name
	switch {
	case lit.inExpr:
	case format == schema.YAML:
		ref = "${" + ref + "}"
	case format != schema.BP:
		ref = `"${` + ref + `}"`
	}
	repl := source.Edit{Range: lit.rng, NewText: ref}
	if ins.Range.Start > repl.Range.Start && ins.Range.Start < repl.Range.End {
		return CodeAction{}, false
	}
	if format == schema.BP && !parsesAfter(res, repl) {
		return CodeAction{}, false
	}
	a := CodeAction{Title: "Extract to variable " + name, Kind: KindRefactorExtract}
	a.Edit.add(res, repl)
	a.Edit.add(res, ins)
	return a, true
}

// literal is what extractToVariable moves: its text (decoded), its
// variable type, where it is written, and whether that is inside an
// expression (the reference is then written bare).
type literal struct {
	text, typ string
	rng       source.Range
	inExpr    bool
}

// literalAt finds the literal the selection covers: the innermost literal
// expression of a substitution holding it, or a scalar holding no
// substitution.
func literalAt(res *analysis.Result, rng source.Range) (literal, bool) {
	if site := indexFor(res).siteAt(rng.Start); site != nil {
		if site.Kind == analysis.SiteExportField || !site.Scalar.Rng.ContainsRange(rng) {
			return literal{}, false
		}
		for _, sub := range site.Template.Subs() {
			if !sub.Rng.ContainsRange(rng) {
				continue
			}
			var spans map[subst.Expr]exprSpan
			if res.File.Format == schema.BP {
				spans = map[subst.Expr]exprSpan{}
				bpSpan(res.File.Content(), sub.Rng, sub.Expr, spans)
			}
			var found literal
			ok := false
			walkExpr(sub.Expr, func(e subst.Expr) {
				r := e.Range()
				if s, in := spans[e]; in {
					r = s.outer
				}
				if !r.ContainsRange(rng) {
					return
				}
				if l, is := exprLiteral(e); is {
					l.rng = r
					found, ok = l, true
				}
			})
			return found, ok
		}
		return literal{}, false
	}
	path := treePath(res.File.Root, rng.Start)
	if len(path) < 3 || path[len(path)-1].OnKey || !substitutable(segs(path)) {
		return literal{}, false
	}
	s, ok := path[len(path)-1].Node.(*schema.Scalar)
	if !ok || !s.Rng.ContainsRange(rng) {
		return literal{}, false
	}
	typ := map[schema.ScalarTag]string{schema.StringTag: "string", schema.IntTag: "integer", schema.FloatTag: "float", schema.BoolTag: "boolean"}[s.Tag]
	if typ == "" {
		return literal{}, false
	}
	return literal{text: s.Value, typ: typ, rng: s.Rng}, true
}

// exprLiteral is the literal e is, if it is one.
func exprLiteral(e subst.Expr) (literal, bool) {
	switch x := e.(type) {
	case *subst.StringLit:
		return literal{text: x.Value, typ: "string", inExpr: true}, true
	case *subst.IntLit:
		return literal{text: x.Text, typ: "integer", inExpr: true}, true
	case *subst.FloatLit:
		return literal{text: x.Text, typ: "float", inExpr: true}, true
	case *subst.BoolLit:
		return literal{text: strconv.FormatBool(x.Value), typ: "boolean", inExpr: true}, true
	}
	return literal{}, false
}

// substitutable reports whether a scalar at path may be a substitution
// the way its literal is: a resource's spec field, a value's value, a
// child's variable, a data source filter's search.
func substitutable(path []string) bool {
	switch dialect.SectionOf(path[0]) {
	case dialect.Resources:
		return len(path) >= 4 && path[2] == "spec"
	case dialect.Values:
		return len(path) >= 3 && path[2] == "value"
	case dialect.Include:
		return len(path) >= 4 && path[2] == "variables"
	case dialect.DataSources:
		return len(path) >= 4 && path[2] == "filter" && path[len(path)-1] == "search"
	}
	return false
}

// newVariableName is the first of newVariable, newVariable2, .. no
// variable has.
func newVariableName(res *analysis.Result) string {
	name := "newVariable"
	for i := 2; res.Lookup(analysis.VariableSymbol, name) != nil; i++ {
		name = "newVariable" + strconv.Itoa(i)
	}
	return name
}
