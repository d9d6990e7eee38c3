package ide

import (
	"strconv"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/subst"
	"github.com/blueprint-ls/blueprint-ls/types"
)

// extractToValue moves the expression the selection covers into a new
// value and references it instead. The selection picks the innermost
// whole expression that contains it; an expression that reads elem or i
// (the element of a foreach) is not offered, a value cannot see them.
func extractToValue(res *analysis.Result, rng source.Range, opts Options) (CodeAction, bool) {
	if res.Blueprint == nil {
		return CodeAction{}, false
	}
	if res.File.Format == schema.BP {
		return extractToValueBP(res, rng, opts)
	}
	site := indexFor(res).siteAt(rng.Start)
	if site == nil || site.Kind == analysis.SiteExportField || !site.Scalar.Rng.ContainsRange(rng) {
		return CodeAction{}, false
	}
	var target subst.Expr
	var path []subst.Expr
	for _, sub := range site.Template.Subs() {
		if !sub.Rng.ContainsRange(rng) {
			continue
		}
		target, path = sub.Expr, []subst.Expr{sub.Expr}
		chain := exprPath(sub.Expr, rng.Start)
		for i, e := range chain {
			if e.Range().ContainsRange(rng) {
				target, path = e, chain[:i+1]
			}
		}
	}
	if !extractable(target) {
		return CodeAction{}, false
	}
	name := newValueName(res)
	typ := extractedType(res, site, path, opts)
	body := "${" + subst.Print(target) + "}"
	var fields [][2]string
	if res.File.Format != schema.YAML {
		fields = [][2]string{{"type", strconv.Quote(typ)}, {"value", strconv.Quote(body)}}
	} else {
		fields = [][2]string{{"type", typ}, {"value", yamlScalarText(body)}}
	}
	if readsSecret(res, target) {
		fields = append(fields, [2]string{"secret", "true"})
	}
	ins, ok := insertDefinition(res, dialect.Values, name, fields)
	if !ok {
		return CodeAction{}, false
	}
	a := CodeAction{Title: "Extract to value " + name, Kind: KindRefactorExtract}
	a.Edit.add(res, source.Edit{Range: target.Range(), NewText: "values." + name})
	a.Edit.add(res, ins)
	return a, true
}

// extractable reports whether an expression can move into a value: it
// parsed, is not a value already, and reads no foreach element.
func extractable(e subst.Expr) bool {
	switch x := e.(type) {
	case nil, *subst.BadExpr:
		return false
	case *subst.Ref:
		if x.Namespace == subst.Values && len(x.Path) == 0 {
			return false
		}
	}
	ok := true
	walkExpr(e, func(e subst.Expr) {
		if r, isRef := e.(*subst.Ref); isRef && (r.Namespace == subst.Elem || r.Namespace == subst.Index) {
			ok = false
		}
	})
	return ok
}

// extractedType is the type a value declares for the last expression of
// path (from the substitution's whole expression down): its inferred type
// when known, else the type its place asks for (the parameter of the call
// it is an argument of; for a whole expression, the declared type of its
// value, boolean for a condition, array for a foreach, the spec field's
// type), else string.
func extractedType(res *analysis.Result, site *analysis.Site, path []subst.Expr, opts Options) string {
	target := path[len(path)-1]
	known := func(t types.Type) bool {
		return t != nil && !types.IsUnknownOrAny(t) && t != types.None
	}
	if t := site.TypeOf(target); known(t) {
		return declaredTypeName(t)
	}
	if len(path) >= 2 {
		if call, ok := path[len(path)-2].(*subst.Call); ok {
			if f, ok := opts.funcs().Lookup(call.Name); ok {
				for i, a := range call.Args {
					if a.Value != target {
						continue
					}
					if p, ok := f.Signature.ParamAt(i); ok && known(p.Type) {
						return declaredTypeName(p.Type)
					}
				}
			}
		}
	} else if site.Template.Pure() != nil {
		switch v := site.Owner; site.Kind {
		case analysis.SiteValue:
			if v != nil && v.Value != nil && v.Value.Type != nil {
				if _, ok := types.Declared(v.Value.Type.Text()); ok {
					return v.Value.Type.Text()
				}
			}
		case analysis.SiteCondition:
			return "boolean"
		case analysis.SiteEach:
			return "array"
		case analysis.SiteResourceSpec:
			p := segs(treePath(res.File.Root, site.Scalar.Rng.Start))
			if sp, ok := specPath(p); ok {
				c := &completer{res: res, opts: opts}
				if rt := c.resourceTypeOf(p[1]); rt != nil {
					if f, ok := rt.LookupSpec(sp); ok && f.Schema != nil && known(f.Schema.Type()) {
						return declaredTypeName(f.Schema.Type())
					}
				}
			}
		}
	}
	return "string"
}

// readsSecret reports whether e references a secret variable or value:
// the value it moves to must be secret too (the secret-leak check).
func readsSecret(res *analysis.Result, e subst.Expr) bool {
	ix := indexFor(res)
	secret := false
	walkExpr(e, func(e subst.Expr) {
		if r, ok := e.(*subst.Ref); ok {
			if ref := ix.refAt(r.Rng.Start); ref != nil && ref.Expr == r && ref.Target != nil && ref.Target.Secret {
				secret = true
			}
		}
	})
	return secret
}

// walkExpr calls f on e and every expression inside it.
func walkExpr(e subst.Expr, f func(subst.Expr)) {
	if e == nil {
		return
	}
	f(e)
	switch x := e.(type) {
	case *subst.Call:
		for _, a := range x.Args {
			walkExpr(a.Value, f)
		}
	case *subst.ArrayLit:
		for _, y := range x.Elems {
			walkExpr(y, f)
		}
	}
}

// newValueName is the first of newValue, newValue2, .. no value has.
func newValueName(res *analysis.Result) string {
	name := "newValue"
	for i := 2; res.Lookup(analysis.ValueSymbol, name) != nil; i++ {
		name = "newValue" + strconv.Itoa(i)
	}
	return name
}
