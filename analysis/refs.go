package analysis

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/subst"
	"github.com/blueprint-ls/blueprint-ls/types"
)

// resolveRef resolves a reference, records it and returns its type.
func (a *analyzer) resolveRef(e *subst.Ref, s *Site) types.Type {
	if e.Bare && len(e.Path) == 0 && a.lookup(ResourceSymbol, e.Name) == nil {
		if f, ok := a.table.Lookup(e.Name); ok {
			// A function passed by name: map(xs, to_upper).
			call := a.callBlock.one()
			*call = Call{Site: s, Func: funcInfo(f), Type: f.Signature, Ref: e}
			a.addCall(s, call)
			return f.Signature
		}
	}
	ref := a.refBlock.one()
	*ref = Reference{Expr: e, Site: s, Type: types.Unknown}
	a.addRef(s, ref)
	if e.Namespace == subst.Children && s != nil && s.Owner != nil {
		a.childUsers = append(a.childUsers, int32(s.Owner.index))
	}
	if e.Name == "" && e.Namespace.NeedsName() {
		return types.Unknown // `${variables.` while typing: the parser reported it
	}
	var t types.Type
	switch e.Namespace {
	case subst.Variables:
		t = a.refVariable(e, ref)
	case subst.Values:
		t = a.refValue(e, ref)
	case subst.DataSources:
		t = a.refDataSource(e, ref)
	case subst.Resources:
		t = a.refResource(e, ref, s)
	case subst.Children:
		t = a.refChild(e, ref)
	case subst.Elem, subst.Index:
		t = a.refElem(e, s)
	default:
		t = types.Unknown
	}
	ref.Type = t
	if ref.Target != nil && s != nil && s.Owner != nil {
		edge := a.edgeBlock.one()
		*edge = Edge{From: s.Owner, To: ref.Target, Ref: ref, Range: e.Rng, Kind: EdgeReference}
		a.addEdge(s, edge)
	}
	return t
}

// target looks up the symbol of kind that e names and makes it ref's
// target. A missing name is reported with code and gives nil; the symbol the
// report suggests is taken as meant, so it is not also reported as unused.
func (a *analyzer) target(e *subst.Ref, ref *Reference, kind SymbolKind, code *source.Code) *Symbol {
	if sym := a.lookup(kind, e.Name); sym != nil {
		ref.Target = sym
		return sym
	}
	d := unknownName(code, e.NameRange(), kind.String(), e.Name, a.names(kind))
	if len(d.Suggestions) > 0 {
		if s := a.lookup(kind, d.Suggestions[0].Edits[0].NewText); s != nil {
			a.suggested[s] = true
			if ref.Site != nil && ref.Site.Owner != nil {
				u := ref.Site.Unit()
				a.suggestedBy[u] = append(a.suggestedBy[u], UnitID{Kind: s.Kind, Name: s.Name})
			}
		}
	}
	a.report(d)
	return nil
}

func (a *analyzer) lookup(k SymbolKind, name string) *Symbol { return a.res.Lookup(k, name) }

func (a *analyzer) refVariable(e *subst.Ref, ref *Reference) types.Type {
	v := a.target(e, ref, VariableSymbol, codeUnknownVariable)
	if v == nil {
		return types.Unknown
	}
	if len(e.Path) > 0 {
		rng := e.Path[0].Range().Union(e.Path[len(e.Path)-1].Range())
		d := codeVariableNested.New(rng, "variables are primitives and have no nested fields or indexes; for serialised JSON use fromjson(variables.%s, %q)", e.Name, jsonPointer(e.Path))
		a.report(d)
		return types.Unknown
	}
	return v.Type
}

// jsonPointer spells a reference path as the JSON pointer fromjson takes.
func jsonPointer(path []subst.Accessor) string {
	var b strings.Builder
	for _, acc := range path {
		switch acc := acc.(type) {
		case *subst.FieldAccessor, *subst.QuotedAccessor:
			name, _ := accessorName(acc)
			b.WriteString("/" + strings.ReplaceAll(strings.ReplaceAll(name, "~", "~0"), "/", "~1"))
		case *subst.IndexAccessor:
			b.WriteString("/" + strconv.Itoa(acc.Index))
		default:
			b.WriteString("/0")
		}
	}
	return b.String()
}

func (a *analyzer) refValue(e *subst.Ref, ref *Reference) types.Type {
	v := a.target(e, ref, ValueSymbol, codeUnknownValue)
	if v == nil {
		return types.Unknown
	}
	return a.walkPath(a.valueType(v), e.Path, exprLabel{"values.", e.Name})
}

// valueType infers a value's type from its content when the declared type
// is general (array, object) and the content is a pure substitution; a
// value in a reference cycle is unknown (the cycle is reported).
func (a *analyzer) valueType(v *Symbol) types.Type {
	switch a.valueState[v] {
	case 1:
		return types.Unknown
	case 2:
		return v.Type
	}
	a.valueState[v] = 1
	declared := v.Type
	shared := a.reuse != nil && a.reuse.get(v.index).share
	for _, site := range a.recsOf(v).sites {
		if site.Kind != SiteValue {
			continue
		}
		a.checkSite(site)
		if shared {
			continue // its type is the previous version's, final
		}
		if site.Scalar == v.Value.Value.Scalar() && site.Type != nil && !types.IsUnknownOrAny(site.Type) {
			if declared == types.Unknown || refines(site.Type, declared) {
				v.Type = site.Type
			}
		}
	}
	a.valueState[v] = 2
	return v.Type
}

// refines reports whether inferred is a more precise form of declared
// (array[string] for array, an object for object).
func refines(inferred, declared types.Type) bool {
	switch d := declared.(type) {
	case *types.Array:
		_, ok := inferred.(*types.Array)
		return ok && d.Elem == types.Any
	case *types.Map:
		switch inferred.(type) {
		case *types.Map, *types.Object:
			return d.Elem == types.Any
		}
	}
	return false
}

func (a *analyzer) refDataSource(e *subst.Ref, ref *Reference) types.Type {
	d := a.target(e, ref, DataSourceSymbol, codeUnknownDataSource)
	if d == nil {
		return types.Unknown
	}
	if len(e.Path) == 0 {
		a.report(a.missingField(codeDataSourceField, e, "a data source reference must name one of its exported fields", a.fieldNames(d)))
		return types.Unknown
	}
	name, rng := accessorName(e.Path[0])
	if name == "" {
		if _, bad := e.Path[0].(*subst.BadAccessor); bad || rng.Len() == 0 {
			return types.Unknown
		}
		a.report(codeDataSourceField.New(e.Path[0].Range(), "a data source is read by exported field name: datasources.%s.<field>", e.Name))
		return types.Unknown
	}
	ref.FieldName, ref.FieldRange = name, rng
	var t types.Type
	field := a.dsFields[d][name]
	switch {
	case field != nil:
		ref.Field = field
		t = field.Type
	case d.DataSource.ExportAll:
		t = types.Any
		if dt, ok := a.reg.DataSourceType(d.DataSource.Type.Text()); ok {
			if f, ok := dt.Export(name); ok {
				t = f.Type
			}
		}
	default:
		obj, _ := d.Type.(*types.Object)
		var valid []string
		if obj != nil {
			valid = obj.FieldNames()
		}
		diag := unknownFieldDiag(rng, name, "data source "+e.Name, valid)
		diag.Code, diag.Severity = codeDataSourceField.ID, codeDataSourceField.Severity
		diag.Message = "field " + quote(name) + " is not exported by data source " + quote(e.Name) + trimPrefixMsg(diag.Message)
		a.report(diag)
		return types.Unknown
	}
	rest := e.Path[1:]
	if len(rest) == 0 {
		return t
	}
	// One index on an array field, nothing else.
	if len(rest) == 1 {
		switch rest[0].(type) {
		case *subst.IndexAccessor, *subst.FirstAccessor:
			if arr, ok := t.(*types.Array); ok {
				return arr.Elem
			}
			if types.IsUnknownOrAny(t) {
				return types.Any
			}
			a.report(codeNotIndexable.New(rest[0].Range(), "data source field %s.%s is %s, not an array: only arrays can be indexed", e.Name, name, article(t)))
			return types.Unknown
		}
	}
	rng2 := rest[0].Range().Union(rest[len(rest)-1].Range())
	a.report(codeDataSourcePath.New(rng2, "a data source field takes at most one index; datasources.%s.%s has no nested fields", e.Name, name))
	return types.Unknown
}

func quote(s string) string { return "\"" + s + "\"" }

// trimPrefixMsg keeps the did-you-mean tail of an unknownFieldDiag message.
func trimPrefixMsg(msg string) string {
	for i := 0; i+1 < len(msg); i++ {
		if msg[i] == ';' {
			return msg[i:]
		}
	}
	return ""
}

func (a *analyzer) refChild(e *subst.Ref, ref *Reference) types.Type {
	c := a.target(e, ref, ChildSymbol, codeUnknownChild)
	if c == nil {
		return types.Unknown
	}
	child := a.res.Children[e.Name]
	if len(e.Path) == 0 {
		var exports []string
		if child.loaded() {
			exports = child.Result.exportNames()
		}
		a.report(a.missingField(codeChildExport, e, "a child blueprint reference must name one of the child's exports", exports))
		return types.Unknown
	}
	name, rng := accessorName(e.Path[0])
	if name == "" {
		switch e.Path[0].(type) {
		case *subst.IndexAccessor, *subst.FirstAccessor:
			a.report(codeChildExport.New(e.Path[0].Range(), "a child blueprint is read by export name (children.%s.<export>), not by index", e.Name))
		}
		return types.Unknown
	}
	if !child.loaded() {
		return types.Unknown // not loaded or not parsed: reported on the include
	}
	ref.FieldName, ref.FieldRange = name, rng
	exp := child.Result.Lookup(ExportSymbol, name)
	if exp == nil {
		d := unknownName(codeChildExport, rng, "export", name, child.Result.exportNames())
		d.Message = "child blueprint " + quote(e.Name) + " has no export " + quote(name) + trimPrefixMsg(d.Message)
		a.report(d)
		return types.Unknown
	}
	ref.Field = exp
	return a.walkPath(exp.Type, e.Path[1:], exprLabel{"children.", e.Name, ".", name})
}

// missingField reports a data source or child reference that stops at
// the definition's name, where the grammar requires a field after it;
// each of the first few fields is offered as a fix.
func (a *analyzer) missingField(code *source.Code, e *subst.Ref, why string, fields []string) source.Diagnostic {
	what, list := "<field>", "fields"
	if e.Namespace == subst.Children {
		what, list = "<export>", "exports"
	}
	d := code.New(e.Rng, "%s: %s.%s.%s", why, e.Namespace.Keyword(), e.Name, what)
	if len(fields) > 0 && len(fields) <= 12 {
		d.Message += "; " + list + ": " + strings.Join(fields, ", ")
	}
	for i, f := range fields {
		if i == 5 {
			break
		}
		at := e.Rng.End
		d.Suggestions = append(d.Suggestions, source.Suggestion{Title: fmt.Sprintf("Read %q", f), Edits: []source.Edit{{Range: source.R(at, at), NewText: nameAccessor(f)}}})
	}
	return d
}

// nameAccessor spells the accessor that reads name: .name, or ["name"]
// when name is not a plain name (topic.v2).
func nameAccessor(name string) string {
	return strings.TrimPrefix(subst.Print(&subst.Ref{Namespace: subst.Values, Name: name}), "values")
}

// fieldNames lists a data source's exported fields in declaration order.
func (a *analyzer) fieldNames(d *Symbol) []string {
	var out []string
	for _, s := range a.ofKind(DataSourceFieldSymbol) {
		if s.Kind == DataSourceFieldSymbol && s.Parent == d {
			out = append(out, s.Name)
		}
	}
	return out
}

func (r *Result) exportNames() []string {
	var out []string
	for _, s := range r.Symbols() {
		if s.Kind == ExportSymbol {
			out = append(out, s.Name)
		}
	}
	return out
}

func (a *analyzer) refElem(e *subst.Ref, s *Site) types.Type {
	var owner *Symbol
	if s != nil {
		owner = s.Owner
	}
	if owner == nil || owner.Kind != ResourceSymbol || owner.Resource.Each == nil || s.Kind == SiteEach {
		what := "resource"
		if owner != nil {
			what = owner.Kind.String() + " " + quote(owner.Name)
		}
		msg := e.Namespace.Keyword() + " is only defined inside a resource with each"
		if owner != nil && owner.Kind == ResourceSymbol && s.Kind != SiteEach {
			msg += "; " + what + " has no each"
		}
		a.report(codeElemOutsideEach.New(e.Rng, "%s", msg))
		return types.Unknown
	}
	if e.Namespace == subst.Index {
		return types.Integer
	}
	return a.walkPath(a.eachElemType(owner), e.Path, exprLabel{"elem"})
}

// eachElemType returns the element type of a resource's each.
func (a *analyzer) eachElemType(r *Symbol) types.Type {
	if t, ok := a.eachElem[r]; ok {
		return t
	}
	a.eachElem[r] = types.Unknown // guards self-reference
	t := types.Type(types.Unknown)
	if sc := r.Resource.Each.Scalar(); sc != nil {
		if site := a.siteOf(sc); site != nil {
			a.checkSite(site)
			switch st := site.Type.(type) {
			case *types.Array:
				t = st.Elem
			default:
				if types.IsUnknownOrAny(st) {
					t = types.Any
				}
			}
		}
	} else if seq := r.Resource.Each.Sequence(); seq != nil {
		t = types.Any
	}
	a.eachElem[r] = t
	return t
}
