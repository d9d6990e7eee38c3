package analysis

import (
	"fmt"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/funcs"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/subst"
	"github.com/blueprint-ls/blueprint-ls/types"
)

// checkSite infers the types of a site's substitutions, records its
// references and calls, and applies the checks that depend on where the
// site is.
func (a *analyzer) checkSite(s *Site) {
	if a.settled(s) {
		// Its records are made already; from now on it counts as
		// checked here too (typeSoFar).
		if a.touched == nil {
			a.touched = map[*Site]bool{}
		}
		a.touched[s] = true
		return
	}
	if a.siteDone[s.index] {
		return
	}
	a.siteDone[s.index] = true
	pure := s.Template.Pure()
	if s.Kind == SiteExportField {
		pure = s.Template.Parts[0].(*subst.Sub) // collectExport's one part
	}
	for _, part := range s.Template.Parts { // its substitutions, without a list of them
		sub, ok := part.(*subst.Sub)
		if !ok || sub.Expr == nil {
			continue
		}
		t := a.infer(sub.Expr, s)
		if sub == pure {
			s.Type = t
			if _, isFunc := t.(*types.Func); isFunc {
				a.report(codeFuncValue.New(sub.Expr.Range(), "%s is a function; call it to get a value", describeExpr(sub.Expr)))
				s.Type = types.Unknown
			}
			continue
		}
		switch {
		case types.IsComplex(t):
			a.report(codeInterpolateComplex.New(sub.Range(), "%s is %s, which can not be interpolated into a string; pass it whole (make ${..} the only content) or pick a field", describeExpr(sub.Expr), article(t)))
		case isFunc(t):
			a.report(codeFuncValue.New(sub.Expr.Range(), "%s is a function; call it to get a value", describeExpr(sub.Expr)))
		}
	}
	if pure == nil {
		s.Type = types.String
	}
}

func isFunc(t types.Type) bool {
	_, ok := t.(*types.Func)
	return ok
}

// article renders a type with a leading noun phrase for messages.
func article(t types.Type) string {
	switch t.(type) {
	case *types.Array:
		return "an array (" + t.String() + ")"
	case *types.Map:
		return "a mapping (" + t.String() + ")"
	case *types.Object:
		return "an object"
	}
	s := t.String()
	if strings.IndexAny(s[:1], "aeiou") == 0 {
		return "an " + s
	}
	return "a " + s
}

func describeExpr(e subst.Expr) string {
	switch e := e.(type) {
	case *subst.Ref:
		return subst.Print(e)
	case *subst.Call:
		return e.Name + "(..)"
	}
	return "the expression"
}

// infer returns the type of e, resolving references and checking calls on
// the way.
func (a *analyzer) infer(e subst.Expr, s *Site) (t types.Type) {
	defer func() { a.noteExprType(e, s, t) }()
	switch e := e.(type) {
	case *subst.StringLit:
		return types.String
	case *subst.IntLit:
		return types.Integer
	case *subst.FloatLit:
		return types.Float
	case *subst.BoolLit:
		return types.Boolean
	case *subst.NoneLit:
		return types.None
	case *subst.ArrayLit:
		var ts []types.Type
		for _, el := range e.Elems {
			ts = append(ts, a.valueOf(el, s))
		}
		a.checkSameItems(codeTypeMismatch, "array items", "item", e.Elems, ts)
		return &types.Array{Elem: joinOrAny(ts)}
	case *subst.Ref:
		return a.resolveRef(e, s)
	case *subst.Call:
		return a.checkCall(e, s)
	}
	return types.Unknown // BadExpr: already reported
}

// valueOf infers e where a value (not a function) is required.
func (a *analyzer) valueOf(e subst.Expr, s *Site) types.Type {
	t := a.infer(e, s)
	if isFunc(t) {
		a.report(codeFuncValue.New(e.Range(), "%s is a function; call it to get a value", describeExpr(e)))
		return types.Unknown
	}
	return t
}

func joinOrAny(ts []types.Type) types.Type {
	if len(ts) == 0 {
		return types.Any
	}
	return types.Join(ts...)
}

// walkPath applies accessors to t, reporting the first step that does not
// fit. what names the thing being walked for messages.
func (a *analyzer) walkPath(t types.Type, path []subst.Accessor, what exprLabel) types.Type {
	for i, acc := range path {
		if types.IsUnknownOrAny(t) {
			return t
		}
		switch acc := acc.(type) {
		case *subst.FieldAccessor, *subst.QuotedAccessor:
			name, rng := accessorName(acc)
			if name == "" {
				return types.Unknown // being typed; the parser reported it
			}
			switch tt := t.(type) {
			case *types.Object:
				f, ok := tt.Field(name)
				if !ok {
					if tt.Open {
						return types.Any
					}
					a.report(unknownFieldDiag(rng, name, what.along(path[:i]), tt.FieldNames()))
					return types.Unknown
				}
				t = f.Type
			case *types.Map:
				t = tt.Elem
			case *types.Union:
				t = types.Any
			default:
				a.report(codeNotIndexable.New(acc.Range(), "%s is %s and has no field %q", what.along(path[:i]), article(t), name))
				return types.Unknown
			}
		case *subst.IndexAccessor, *subst.FirstAccessor:
			switch tt := t.(type) {
			case *types.Array:
				t = tt.Elem
			case *types.Union:
				t = types.Any
			default:
				a.report(codeNotIndexable.New(acc.Range(), "%s is %s, not an array: only arrays can be indexed", what.along(path[:i]), article(t)))
				return types.Unknown
			}
		default:
			return types.Unknown // BadAccessor, reported by the parser
		}
	}
	return t
}

// exprLabel names what a path walk starts from ("values.x",
// "resources.r.spec") in parts, joined only for a message: walkPath runs
// for every reference, its messages for few.
type exprLabel [4]string

// along returns the label of what the accessors walked lead to from l
// (each a field or an index that fitted): "values.x.a[..]".
func (l exprLabel) along(walked []subst.Accessor) string {
	s := l[0] + l[1] + l[2] + l[3]
	for _, acc := range walked {
		if name, _ := accessorName(acc); name != "" {
			s = s + "." + name
		} else {
			s += "[..]"
		}
	}
	return s
}

func accessorName(acc subst.Accessor) (string, source.Range) {
	switch acc := acc.(type) {
	case *subst.FieldAccessor:
		return acc.Name, acc.NameRange
	case *subst.QuotedAccessor:
		return acc.Name, acc.NameRange
	}
	return "", acc.Range()
}

// unknownFieldDiag reports a missing field with did-you-mean.
func unknownFieldDiag(rng source.Range, name, what string, valid []string) source.Diagnostic {
	msg := fmt.Sprintf("%s has no field %q", what, name)
	d := codeUnknownField.New(rng, "%s", msg)
	if best := source.Closest(name, valid); len(best) > 0 {
		d.Message += fmt.Sprintf("; did you mean %q?", best[0])
		for _, b := range best {
			d.Suggestions = append(d.Suggestions, source.Suggestion{Title: fmt.Sprintf("Change to %q", b), Edits: []source.Edit{{Range: rng, NewText: b}}})
		}
	} else if len(valid) > 0 && len(valid) <= 12 {
		d.Message += "; fields: " + strings.Join(valid, ", ")
	}
	return d
}

// unknownName reports a name missing from its namespace with did-you-mean.
func unknownName(code *source.Code, rng source.Range, kind, name string, valid []string) source.Diagnostic {
	d := code.New(rng, "unknown %s %q", kind, name)
	if best := source.Closest(name, valid); len(best) > 0 {
		d.Message += fmt.Sprintf("; did you mean %q?", best[0])
		for _, b := range best {
			d.Suggestions = append(d.Suggestions, source.Suggestion{Title: fmt.Sprintf("Change to %q", b), Edits: []source.Edit{{Range: rng, NewText: b}}})
		}
	}
	return d
}

func (a *analyzer) names(k SymbolKind) []string {
	var out []string
	for _, s := range a.ofKind(k) {
		if s.Kind == k {
			out = append(out, s.Name)
		}
	}
	return out
}

// funcInfo converts a table entry.
func funcInfo(f *funcs.Func) FuncInfo {
	return FuncInfo{Name: f.Name, Signature: f.Signature, Summary: f.Summary, Doc: f.Doc, ParamDocs: f.ParamDocs, Known: true}
}

// checkSameItems reports the items of list(..) or an array literal whose
// type differs from the first item with a known type, as evaluating them
// would: integers and floats mix; none, any and unknown items are not
// judged.
func (a *analyzer) checkSameItems(code *source.Code, what, item string, exprs []subst.Expr, ts []types.Type) {
	first, firstClass := -1, ""
	for i, t := range ts {
		c := itemClass(t)
		switch {
		case c == "":
		case first < 0:
			first, firstClass = i, c
		case c != firstClass:
			a.report(code.New(exprs[i].Range(), "%s must have the same type: %s %d is %s, %s %d is %s", what, item, i+1, article(t), item, first+1, article(ts[first])))
		}
	}
}

// itemClass is the runtime kind a value of type t has, as list() compares
// items: "" when the type does not decide it.
func itemClass(t types.Type) string {
	switch t := t.(type) {
	case *types.Array:
		return "array"
	case *types.Map, *types.Object:
		return "mapping"
	case *types.Union:
		c := ""
		for i, m := range t.Types {
			mc := itemClass(m)
			if mc == "" || i > 0 && mc != c {
				return ""
			}
			c = mc
		}
		return c
	}
	switch t {
	case types.String:
		return "string"
	case types.Integer, types.Float:
		return "number"
	case types.Boolean:
		return "boolean"
	case types.Binary:
		return "binary"
	}
	return ""
}
