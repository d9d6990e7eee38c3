package analysis

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/funcs"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/subst"
	"github.com/blueprint-ls/blueprint-ls/types"
)

// checkCall checks a call against the function table and returns its
// result type with any accessors applied.
func (a *analyzer) checkCall(e *subst.Call, s *Site) types.Type {
	call := a.callBlock.one()
	*call = Call{Expr: e, Site: s, Type: types.Unknown}
	a.addCall(s, call)
	f, ok := a.table.Lookup(e.Name)
	if !ok {
		d := unknownName(codeUnknownFunction, e.NameRange, "function", e.Name, a.table.Names())
		a.report(d)
		for _, arg := range e.Args {
			a.infer(arg.Value, s) // still resolve references inside
		}
		call.Func = FuncInfo{Name: e.Name}
		return types.Unknown
	}
	call.Func = funcInfo(f)
	sig := f.Signature

	argTypes := make([]types.Type, len(e.Args))
	names := make([]string, len(e.Args))
	for i, arg := range e.Args {
		names[i] = arg.Name
		p, hasParam := sig.ParamAt(i)
		if hasParam && isFuncType(p.Type) {
			argTypes[i] = a.infer(arg.Value, s)
		} else {
			argTypes[i] = a.valueOf(arg.Value, s)
		}
	}

	// Only object() reads argument names; elsewhere the core functions
	// spec makes them legal but meaningless.
	if !f.Has(funcs.NamedArgs) {
		for i, arg := range e.Args {
			if arg.Name != "" {
				a.report(namedArgDiag(e, i, arg))
			}
		}
	}

	// Arity.
	if minA, maxA := sig.MinArgs(), sig.MaxArgs(); len(e.Args) < minA || (maxA >= 0 && len(e.Args) > maxA) {
		if e.Closed || len(e.Args) > maxA && maxA >= 0 {
			rng := e.Rng
			if maxA >= 0 && len(e.Args) > maxA {
				rng = e.Args[maxA].Rng.Union(e.Args[len(e.Args)-1].Rng)
			}
			a.report(codeArity.New(rng, "%s takes %s but is given %d; signature: %s%s", e.Name, arityText(minA, maxA), len(e.Args), e.Name, strings.TrimPrefix(sig.String(), "func")))
		}
		call.Type = a.walkPath(resultOrAny(f, argTypes, names), e.Path, exprLabel{e.Name, "(..)"})
		return call.Type
	}

	// Argument types, with type parameters bound left to right.
	b := types.Bindings{}
	for i, arg := range e.Args {
		if e.Name == "link" {
			break // resources or their names: staticArgChecks owns the rule
		}
		p, ok := sig.ParamAt(i)
		if !ok {
			continue
		}
		at := argTypes[i]
		want := types.Substitute(p.Type, b)
		if len(sig.TypeParams) == 0 {
			want = p.Type
		}
		if !types.Assignable(at, want) && !containsParam(p.Type) {
			a.report(argTypeDiag(e, i, arg, p, at, sig))
		} else if containsParam(p.Type) && !types.Assignable(at, shape(p.Type)) {
			a.report(argTypeDiag(e, i, arg, p, at, sig))
		}
		types.Unify(p.Type, at, b)
	}
	if e.Name == "list" {
		exprs := make([]subst.Expr, len(e.Args))
		for i, arg := range e.Args {
			exprs[i] = arg.Value
		}
		a.checkSameItems(codeArgType, "list items", "argument", exprs, argTypes)
	}
	a.staticArgChecks(e, f, s)
	call.Type = a.walkPath(resultOrAny(f, argTypes, names), e.Path, exprLabel{e.Name, "(..)"})
	return call.Type
}

// namedArgDiag warns that a call's named argument has its name ignored,
// with the fix that drops "name =".
func namedArgDiag(e *subst.Call, i int, arg *subst.Arg) source.Diagnostic {
	d := codeNamedArg.New(arg.NameRange.Union(arg.Equals), "%s does not take named arguments: the name %q is ignored and the value is passed as argument %d (only object() reads names)", e.Name, arg.Name, i+1)
	d.Tags = []source.Tag{source.Unnecessary}
	d.Suggestions = []source.Suggestion{{Title: fmt.Sprintf("Remove the name %q", arg.Name), Edits: []source.Edit{{Range: source.R(arg.NameRange.Start, arg.Value.Range().Start), NewText: ""}}}}
	return d
}

func resultOrAny(f *funcs.Func, args []types.Type, names []string) types.Type {
	t := f.ResultType(args, names)
	if t == nil {
		return types.Any
	}
	return t
}

func argTypeDiag(e *subst.Call, i int, arg *subst.Arg, p types.FuncParam, at types.Type, sig *types.Func) source.Diagnostic {
	want := p.Type.String()
	if u, ok := p.Type.(*types.Union); ok {
		parts := make([]string, len(u.Types))
		for j, m := range u.Types {
			parts[j] = m.String()
		}
		if len(parts) > 1 {
			want = strings.Join(parts[:len(parts)-1], ", ") + " or " + parts[len(parts)-1]
		}
	}
	name := p.Name
	if name != "" {
		name = " (" + name + ")"
	}
	return codeArgType.New(arg.Value.Range(), "argument %d%s of %s must be %s, not %s", i+1, name, e.Name, withArticle(want), at.String())
}

func withArticle(s string) string {
	if s == "" {
		return s
	}
	if strings.ContainsAny(s[:1], "aeiou") {
		return "an " + s
	}
	return "a " + s
}

func arityText(minA, maxA int) string {
	switch {
	case maxA < 0:
		return fmt.Sprintf("at least %d argument%s", minA, plural(minA))
	case minA == maxA:
		return fmt.Sprintf("%d argument%s", minA, plural(minA))
	default:
		return fmt.Sprintf("%d to %d arguments", minA, maxA)
	}
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func isFuncType(t types.Type) bool {
	_, ok := t.(*types.Func)
	return ok
}

// containsParam reports whether t mentions a type parameter.
func containsParam(t types.Type) bool {
	switch t := t.(type) {
	case *types.Param:
		return true
	case *types.Array:
		return containsParam(t.Elem)
	case *types.Map:
		return containsParam(t.Elem)
	case *types.Func:
		for _, p := range t.Params {
			if containsParam(p.Type) {
				return true
			}
		}
		return containsParam(t.Result)
	case *types.Union:
		for _, m := range t.Types {
			if containsParam(m) {
				return true
			}
		}
	}
	return false
}

// shape replaces type parameters with any, keeping the structure, so
// array[Item] still rejects a string.
func shape(t types.Type) types.Type { return types.Substitute(t, types.Bindings{}) }

// staticArgChecks applies what a function's literal arguments reveal
// before evaluation.
func (a *analyzer) staticArgChecks(e *subst.Call, f *funcs.Func, s *Site) {
	switch e.Name {
	case "object":
		seen := map[string]int{}
		for i, arg := range e.Args {
			if arg.Name == "" {
				a.report(codeObjectArg.New(arg.Rng, "object takes named arguments only: write name = value"))
				continue
			}
			if j, dup := seen[arg.Name]; dup {
				a.report(codeObjectArg.New(arg.NameRange, "attribute %q is already given by argument %d", arg.Name, j+1))
				continue
			}
			seen[arg.Name] = i
		}
	case "datetime":
		if len(e.Args) > 0 {
			if lit, ok := e.Args[0].Value.(*subst.StringLit); ok {
				valid := false
				for _, v := range funcs.DatetimeFormats {
					if v == lit.Value {
						valid = true
					}
				}
				if !valid {
					d := codeDatetimeFormat.New(lit.Rng, "datetime format %q is not one of %s", lit.Value, strings.Join(funcs.DatetimeFormats, ", "))
					for _, b := range source.Closest(lit.Value, funcs.DatetimeFormats) {
						d.Suggestions = append(d.Suggestions, source.Suggestion{Title: fmt.Sprintf("Change to %q", b), Edits: []source.Edit{{Range: lit.Rng, NewText: `"` + b + `"`}}})
					}
					a.report(d)
				}
			}
		}
	case "fromjson", "fromjson_g":
		idx := 1
		if e.Name == "fromjson_g" {
			idx = 0
		}
		if len(e.Args) > idx {
			if lit, ok := e.Args[idx].Value.(*subst.StringLit); ok && lit.Value != "" && !strings.HasPrefix(lit.Value, "/") {
				d := codeJSONPointer.New(lit.Rng, "%q is not a JSON pointer; it is read as the top-level key %q — write %q", lit.Value, lit.Value, "/"+lit.Value)
				norm, _ := funcs.NormalizePointer(lit.Value)
				d.Suggestions = []source.Suggestion{{Title: "Use the JSON pointer " + norm, Edits: []source.Edit{{Range: lit.Rng, NewText: `"` + norm + `"`}}}}
				a.report(d)
			}
		}
	case "link":
		for _, arg := range e.Args {
			switch v := arg.Value.(type) {
			case *subst.StringLit:
				if r := a.lookup(ResourceSymbol, v.Value); r != nil {
					if rng, ok := a.literalName(v); ok {
						a.addName(s, &NameRef{Range: rng, Target: r, Kind: NameRefLink, Site: s})
					}
					if s != nil && s.Owner != nil {
						a.addEdge(s, &Edge{From: s.Owner, To: r, Range: v.Rng, Kind: EdgeLink})
					}
				} else {
					a.report(unknownName(codeLinkArg, v.Rng, "resource", v.Value, a.names(ResourceSymbol)))
				}
			case *subst.Ref:
				if v.Namespace != subst.Resources {
					a.report(codeLinkArg.New(v.Rng, "link() takes resources; %s is not a resource reference", subst.Print(v)))
				}
			case *subst.BadExpr:
			default:
				a.report(codeLinkArg.New(arg.Value.Range(), "link() takes two resources: references such as resources.a or resource names as string literals"))
			}
		}
	}
}

// literalName returns the range of a string literal's text without its
// quotes. The literal's range may cover YAML escapes (\"a\" in a
// double-quoted scalar), so the name is found in the source rather than
// computed; ok is false when it is not written there as is.
func (a *analyzer) literalName(lit *subst.StringLit) (source.Range, bool) {
	content := a.res.File.Content()
	r := lit.Rng
	if lit.Value == "" || r.Start < 0 || r.End > len(content) || r.Start >= r.End {
		return source.Range{}, false
	}
	i := bytes.Index(content[r.Start:r.End], []byte(lit.Value))
	if i < 0 {
		return source.Range{}, false
	}
	return source.R(r.Start+i, r.Start+i+len(lit.Value)), true
}
