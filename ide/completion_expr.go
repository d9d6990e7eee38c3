package ide

import (
	"fmt"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/funcs"
	"github.com/blueprint-ls/blueprint-ls/providers/registry"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/subst"
	"github.com/blueprint-ls/blueprint-ls/types"
)

// exprPath returns the expressions containing off, outermost first (like
// the expression path of a substitution, for an expression that is not
// in a template).
func exprPath(e subst.Expr, off int) []subst.Expr {
	var out []subst.Expr
	for e != nil && reaches(e, off) {
		out = append(out, e)
		var inner subst.Expr
		switch x := e.(type) {
		case *subst.Call:
			for _, a := range x.Args {
				if reaches(a.Value, off) {
					inner = a.Value
				}
			}
		case *subst.ArrayLit:
			for _, y := range x.Elems {
				if reaches(y, off) {
					inner = y
				}
			}
		}
		e = inner
	}
	return out
}

// reaches reports whether off is in e, counting everything after an
// unclosed call or array as inside it (the text is still being typed).
func reaches(e subst.Expr, off int) bool {
	r := e.Range()
	if r.Contains(off) {
		return true
	}
	switch x := e.(type) {
	case *subst.Call:
		return !x.Closed && off >= r.Start
	case *subst.ArrayLit:
		return !x.Closed && off >= r.Start
	}
	return false
}

// exprItems completes at c.off inside e.
func (c *completer) exprItems(e subst.Expr, field bool) []CompletionItem {
	path := exprPath(e, c.off)
	if len(path) == 0 {
		if e != nil {
			path = []subst.Expr{e}
		} else {
			return c.topItems(source.R(c.off, c.off), nil, field)
		}
	}
	inner := path[len(path)-1]
	var param *types.FuncParam
	if len(path) >= 2 {
		if call, ok := path[len(path)-2].(*subst.Call); ok {
			param = c.paramAt(call)
		}
	}
	switch x := inner.(type) {
	case *subst.Ref:
		if x.Bare && len(x.Path) == 0 {
			return c.topItems(x.NameRange(), param, field)
		}
		if x.Bare && c.off <= x.NameRange().End {
			return c.topItems(x.NameRange(), param, field)
		}
		if !x.Bare && c.off <= x.KeywordRange().End && (x.NameRange().Start == x.KeywordRange().End || !x.Namespace.NeedsName()) {
			return c.topItems(x.KeywordRange(), param, field)
		}
		if !x.Bare && x.Namespace.NeedsName() && c.off >= x.NameRange().Start && c.off <= x.NameRange().End {
			if len(x.Path) == 0 || c.off <= x.Path[0].Range().Start {
				return c.names(x.Namespace, x.NameRange())
			}
		}
		if k := accessorIndex(x.Path, c.off); k >= 0 {
			fa, ok := x.Path[k].(*subst.FieldAccessor)
			if !ok {
				return nil
			}
			rng := fa.NameRange
			if fa.Name == "" {
				rng = source.R(c.off, c.off)
			}
			return c.pathItems(x, k, rng)
		}
	case *subst.Call:
		if x.NameRange.Contains(c.off) {
			return c.topItems(x.NameRange, param, field)
		}
		if c.off >= x.Lparen.End && (!x.Closed || c.off <= x.Rparen.Start) {
			return c.topItems(source.R(c.off, c.off), c.paramAt(x), field)
		}
	case *subst.BadExpr:
		return c.topItems(source.R(c.off, c.off), param, field)
	}
	return nil
}

// paramAt returns the parameter of call the cursor is an argument of.
func (c *completer) paramAt(call *subst.Call) *types.FuncParam {
	f, ok := c.opts.funcs().Lookup(call.Name)
	if !ok {
		return nil
	}
	i := subst.ArgAt(call, c.off)
	if i < 0 {
		return nil
	}
	p, ok := f.Signature.ParamAt(i)
	if !ok {
		return nil
	}
	return &p
}

var namespaceDocs = []struct{ kw, doc string }{
	{dialect.Variables.Namespace(), "Inputs of the blueprint: `variables.<name>`."},
	{dialect.Values.Namespace(), "Values defined in the blueprint: `values.<name>`."},
	{dialect.DataSources.Namespace(), "Exported fields of data sources: `datasources.<name>.<field>`."},
	{dialect.Resources.Namespace(), "Resources: `resources.<name>.spec|state|metadata...`."},
	{dialect.Include.Namespace(), "Exports of child blueprints: `children.<name>.<export>`."},
}

// inEach reports whether the cursor is in a resource that has each
// (elem and i are defined there).
func (c *completer) inEach() bool {
	if c.owner != nil && c.owner.Kind == analysis.ResourceSymbol && c.owner.Resource.Each != nil {
		return len(c.path) < 3 || c.path[2] != "each"
	}
	return false
}

// topItems lists what may start an expression: namespaces, functions and
// bare resource names; in an argument, references and functions whose
// type fits the parameter come first.
func (c *completer) topItems(rng source.Range, param *types.FuncParam, field bool) []CompletionItem {
	var out []CompletionItem
	var want types.Type
	if param != nil {
		want = param.Type
	}
	for _, ns := range namespaceDocs {
		out = append(out, CompletionItem{Label: ns.kw, Kind: ItemNamespace, Documentation: ns.doc,
			InsertText: ns.kw + ".", Retrigger: true, ReplaceRange: rng, SortText: sortKey(3, ns.kw)})
	}
	if c.inEach() {
		out = append(out,
			CompletionItem{Label: "elem", Kind: ItemKeyword, Detail: "the current element of each", InsertText: "elem", ReplaceRange: rng, SortText: sortKey(2, "elem")},
			CompletionItem{Label: "i", Kind: ItemKeyword, Detail: "integer: the index of the current element", InsertText: "i", ReplaceRange: rng, SortText: sortKey(2, "i")})
	}
	if !field {
		for _, f := range c.opts.funcs().All() {
			rank := 4
			if want != nil && fits(funcResult(f), want) {
				rank = 1
			}
			out = append(out, c.funcItem(f, rng, rank))
		}
	}
	if param != nil {
		for _, kw := range []string{"true", "false", "none"} {
			t := types.Type(types.Boolean)
			if kw == "none" {
				t = types.None
			}
			rank := 6
			if kw != "none" && fits(t, want) {
				rank = 2
			}
			out = append(out, CompletionItem{Label: kw, Kind: ItemKeyword, Detail: t.String(), InsertText: kw, ReplaceRange: rng, SortText: sortKey(rank, kw)})
		}
		// Whole references of variables and values, fitting ones first.
		if c.res != nil {
			for _, s := range c.res.Symbols() {
				if s.Kind != analysis.VariableSymbol && s.Kind != analysis.ValueSymbol {
					continue
				}
				label := s.Kind.Namespace() + "." + s.Name
				rank := 5
				if fits(s.Type, want) {
					rank = 0
				}
				it := c.symbolItem(s, rng)
				it.Label, it.InsertText, it.SortText = label, label, sortKey(rank, label)
				out = append(out, it)
			}
		}
	}
	if c.res != nil {
		for _, s := range c.res.Symbols() {
			if s.Kind == analysis.ResourceSymbol {
				it := c.symbolItem(s, rng)
				it.SortText = sortKey(5, s.Name)
				out = append(out, it)
			}
		}
	}
	return out
}

// fits reports whether a value of type t clearly suits want (any and
// unknown on either side say nothing, so they do not rank first).
func fits(t, want types.Type) bool {
	if t == nil || want == nil || types.IsUnknownOrAny(t) || types.IsUnknownOrAny(want) {
		return false
	}
	if _, ok := want.(*types.Param); ok {
		return false
	}
	return types.Assignable(t, types.Substitute(want, types.Bindings{}))
}

func funcResult(f *funcs.Func) types.Type {
	if f.Signature == nil {
		return nil
	}
	return f.Signature.Result
}

// funcItem is a function with a snippet that fills its parameters.
func (c *completer) funcItem(f *funcs.Func, rng source.Range, rank int) CompletionItem {
	it := CompletionItem{Label: f.Name, Kind: ItemFunction, Detail: signatureText(f.Name, f.Signature),
		Documentation: f.Summary, ReplaceRange: rng, SortText: sortKey(rank, f.Name), InsertText: f.Name + "("}
	if c.opts.Snippets && f.Signature != nil {
		var ps []string
		for i, p := range f.Signature.Params {
			if p.Optional || p.Variadic {
				break
			}
			name := p.Name
			if name == "" {
				name = fmt.Sprintf("arg%d", i+1)
			}
			ps = append(ps, fmt.Sprintf("${%d:%s}", i+1, name))
		}
		it.InsertText = f.Name + "(" + strings.Join(ps, ", ") + ")$0"
		it.Snippet = true
	}
	return it
}

// signatureText renders name(p1 type, p2 type?) -> result.
func signatureText(name string, sig *types.Func) string {
	if sig == nil {
		return name + "(..)"
	}
	label, _ := signatureLabel(name, sig)
	return label + " -> " + sig.Result.String()
}

// signatureLabel renders name(params) and each parameter's span in it.
func signatureLabel(name string, sig *types.Func) (string, [][2]int) {
	var b strings.Builder
	b.WriteString(name)
	b.WriteByte('(')
	var spans [][2]int
	for i, p := range sig.Params {
		if i > 0 {
			b.WriteString(", ")
		}
		start := b.Len()
		if p.Name != "" {
			b.WriteString(p.Name)
			b.WriteByte(' ')
		}
		b.WriteString(p.Type.String())
		if p.Optional {
			b.WriteByte('?')
		}
		if p.Variadic {
			b.WriteString("...")
		}
		spans = append(spans, [2]int{start, b.Len()})
	}
	b.WriteByte(')')
	return b.String(), spans
}

// itemKindOf gives the item kind of each kind of definition a reference
// names.
var itemKindOf = map[analysis.SymbolKind]ItemKind{
	analysis.VariableSymbol: ItemVariable, analysis.ValueSymbol: ItemValue, analysis.DataSourceSymbol: ItemDataSource,
	analysis.ResourceSymbol: ItemResource, analysis.ChildSymbol: ItemChild, analysis.ExportSymbol: ItemField,
	analysis.DataSourceFieldSymbol: ItemField,
}

// symbolItem is a definition named in a reference.
func (c *completer) symbolItem(s *analysis.Symbol, rng source.Range) CompletionItem {
	return CompletionItem{Label: s.Name, Kind: itemKindOf[s.Kind], Detail: s.Detail(), Documentation: symbolDoc(s),
		InsertText: nameText(s.Name), ReplaceRange: rng, SortText: sortKey(0, s.Name)}
}

// symbolDoc is the documentation of an item naming s.
func symbolDoc(s *analysis.Symbol) string {
	if s.Secret {
		return strings.TrimSpace(s.Doc + "\n\n(secret)")
	}
	return s.Doc
}

// nameText is a name as written after a dot; names that are not plain
// identifiers need the ["name"] form, which the caller's dot already
// precedes, so they are inserted as is.
func nameText(name string) string { return name }

// names lists the definitions of a namespace (after "variables.").
func (c *completer) names(ns subst.Namespace, rng source.Range) []CompletionItem {
	if c.res == nil {
		return nil
	}
	var kind analysis.SymbolKind
	switch ns {
	case subst.Variables:
		kind = analysis.VariableSymbol
	case subst.Values:
		kind = analysis.ValueSymbol
	case subst.DataSources:
		kind = analysis.DataSourceSymbol
	case subst.Resources:
		kind = analysis.ResourceSymbol
	case subst.Children:
		kind = analysis.ChildSymbol
	default:
		return nil
	}
	var out []CompletionItem
	for _, s := range c.res.Symbols() {
		if s.Kind == kind {
			it := c.symbolItem(s, rng)
			if kind == analysis.ResourceSymbol || kind == analysis.DataSourceSymbol || kind == analysis.ChildSymbol {
				it.InsertText += "."
				it.Retrigger = true
				if kind == analysis.ResourceSymbol && s.Resource.Each != nil {
					it.InsertText = s.Name + "[0]."
				}
			}
			out = append(out, it)
		}
	}
	return out
}

// pathItems lists the fields that may follow ref.Path[:k].
func (c *completer) pathItems(ref *subst.Ref, k int, rng source.Range) []CompletionItem {
	fields := c.fieldsAt(ref, k)
	out := make([]CompletionItem, 0, len(fields))
	for _, f := range fields {
		it := CompletionItem{Label: f.name, Kind: ItemField, Detail: f.detail, Documentation: f.doc,
			InsertText: f.name, ReplaceRange: rng, SortText: sortKey(0, f.name), Deprecated: f.deprecated}
		if f.container {
			it.Retrigger = true
		}
		out = append(out, it)
	}
	return out
}

// fieldInfo is one field offered after a dot.
type fieldInfo struct {
	name, detail, doc string
	container         bool // an object: more fields may follow
	deprecated        bool
}

// fieldsAt returns the fields of the value ref.Path[:k] denotes.
func (c *completer) fieldsAt(ref *subst.Ref, k int) []fieldInfo {
	names := make([]string, 0, k)
	for _, a := range ref.Path[:k] {
		switch a := a.(type) {
		case *subst.FieldAccessor:
			names = append(names, a.Name)
		case *subst.QuotedAccessor:
			names = append(names, a.Name)
		case *subst.IndexAccessor, *subst.FirstAccessor:
			names = append(names, "*")
		default:
			return nil
		}
	}
	if c.res == nil {
		return nil
	}
	switch ref.Namespace {
	case subst.Resources:
		s := c.res.Lookup(analysis.ResourceSymbol, ref.Name)
		if s == nil {
			return nil
		}
		if s.Resource.Each != nil {
			if len(names) == 0 || names[0] != "*" {
				return nil
			}
			names = names[1:]
		}
		return c.resourceFields(s, names)
	case subst.DataSources:
		s := c.res.Lookup(analysis.DataSourceSymbol, ref.Name)
		if s == nil || len(names) > 0 {
			return nil
		}
		var out []fieldInfo
		for _, f := range c.ix.all().dataFlds[s] {
			out = append(out, fieldInfo{name: f.Name, detail: f.Type.String(), doc: f.Doc})
		}
		if s.DataSource.ExportAll {
			if dt, ok := c.opts.registry().DataSourceType(s.DataSource.Type.Text()); ok {
				for _, n := range dt.ExportNames() {
					f := dt.Exports[n]
					out = append(out, fieldInfo{name: n, detail: f.Type.String(), doc: f.Description})
				}
			}
		}
		return out
	case subst.Children:
		child := c.res.Children[ref.Name]
		if child == nil || child.Result == nil {
			return nil
		}
		if len(names) == 0 {
			var out []fieldInfo
			for _, s := range child.Result.Symbols() {
				if s.Kind == analysis.ExportSymbol {
					out = append(out, fieldInfo{name: s.Name, detail: s.Type.String(), doc: s.Doc})
				}
			}
			return out
		}
		if exp := child.Result.Lookup(analysis.ExportSymbol, names[0]); exp != nil {
			return typeFields(walkType(exportType(child.Result, exp), names[1:]))
		}
	case subst.Values:
		if s := c.res.Lookup(analysis.ValueSymbol, ref.Name); s != nil {
			return typeFields(walkType(s.Type, names))
		}
	case subst.Elem:
		return typeFields(walkType(c.elemType(), names))
	}
	return nil
}

// elemType is the element type of the each of the cursor's resource.
func (c *completer) elemType() types.Type {
	if !c.inEach() {
		return nil
	}
	if sc := c.owner.Resource.Each.Scalar(); sc != nil {
		if site := c.ix.siteOf(sc); site != nil {
			if a, ok := site.Type.(*types.Array); ok {
				return a.Elem
			}
		}
	}
	return nil
}

// exportType is an export's declared type, refined by its field's
// inferred type when that is more precise.
func exportType(res *analysis.Result, exp *analysis.Symbol) types.Type {
	for _, s := range res.Sites() {
		if s.Kind == analysis.SiteExportField && s.Owner == exp && s.Type != nil && !types.IsUnknownOrAny(s.Type) {
			return s.Type
		}
	}
	return exp.Type
}

// walkType follows field names ("*" for an index) through a type.
func walkType(t types.Type, names []string) types.Type {
	for _, n := range names {
		switch tt := t.(type) {
		case *types.Object:
			f, ok := tt.Field(n)
			if !ok {
				return nil
			}
			t = f.Type
		case *types.Map:
			t = tt.Elem
		case *types.Array:
			if n != "*" {
				return nil
			}
			t = tt.Elem
		default:
			return nil
		}
	}
	return t
}

func typeFields(t types.Type) []fieldInfo {
	o, ok := t.(*types.Object)
	if !ok {
		return nil
	}
	out := make([]fieldInfo, 0, len(o.Fields))
	for _, f := range o.Fields {
		_, obj := f.Type.(*types.Object)
		out = append(out, fieldInfo{name: f.Name, detail: f.Type.String(), doc: f.Doc, container: obj})
	}
	return out
}

var resourceParts = []fieldInfo{
	{name: "spec", detail: "the resource's specification", doc: "The fields set in the blueprint (or computed by the provider).", container: true},
	{name: "state", detail: "the deployed resource's state", doc: "Fields known after deployment, including read-only ones such as ARNs.", container: true},
	{name: "metadata", detail: "displayName, labels, annotations, custom", doc: "The resource's metadata.", container: true},
}

var metadataParts = []fieldInfo{
	{name: "displayName", detail: "string", doc: "The name shown for the resource in UI and CLI tools."},
	{name: "labels", detail: "map[string]", doc: "Labels that link selectors match."},
	{name: "annotations", detail: "map[any]", doc: "Extra context for links and providers."},
	{name: "custom", detail: "map[any]", doc: "Free-form metadata outside the spec."},
}

// resourceFields lists what follows resources.x<names>.
func (c *completer) resourceFields(s *analysis.Symbol, names []string) []fieldInfo {
	if len(names) == 0 {
		return resourceParts
	}
	part, rest := names[0], names[1:]
	if part == "metadata" {
		if len(rest) == 0 {
			return metadataParts
		}
		// Labels, annotations and custom metadata have the keys the
		// blueprint writes for the resource.
		var f *schema.Field
		if m := s.Resource.Metadata; m != nil {
			switch rest[0] {
			case "labels":
				f = m.Labels
			case "annotations":
				f = m.Annotations
			case "custom":
				f = m.Custom
			}
		}
		return literalFields(nodeAtPath(f.Node(), rest[1:]))
	}
	if part != "spec" && part != "state" {
		return nil
	}
	rt := c.resourceType(s)
	if rt == nil {
		if part == "spec" {
			return literalFields(nodeAtPath(s.Resource.Spec.Node(), rest))
		}
		return nil
	}
	return schemaFields(rt, rest, part == "state")
}

func (c *completer) resourceType(s *analysis.Symbol) *registry.ResourceType {
	if s == nil || s.Resource == nil || s.Resource.Type == nil {
		return nil
	}
	rt, ok := c.opts.registry().ResourceType(s.Resource.Type.Text())
	if !ok || rt.Err != nil {
		return nil
	}
	return rt
}

// schemaFields lists the properties of the registry schema at path, for
// spec (no read-only) or state (no write-only).
func schemaFields(rt *registry.ResourceType, path []string, state bool) []fieldInfo {
	sch, _, ok := rt.Schema.Lookup(path)
	if !ok || sch == nil {
		return nil
	}
	var out []fieldInfo
	for _, name := range sch.PropertyNames() {
		p, _ := sch.Property(name)
		full := append(append([]string(nil), path...), name)
		marks := rt.Marks(full)
		if state && marks.Has(registry.WriteOnly) || !state && marks.Has(registry.ReadOnly) {
			continue
		}
		doc := propertyDoc(rt, p.Schema, marks, false)
		if state {
			doc = stateDoc(rt, full, p.Schema, marks)
		}
		out = append(out, fieldInfo{name: name, detail: p.Schema.TypeName(), doc: doc,
			container: p.Schema.IsObject(), deprecated: marks.Has(registry.Deprecated)})
	}
	return out
}

// literalFields lists the keys of a spec mapping written in the blueprint
// (resources whose type the registry does not know).
func literalFields(n schema.Node) []fieldInfo {
	m, ok := n.(*schema.Mapping)
	if !ok {
		return nil
	}
	var out []fieldInfo
	for _, e := range m.Entries {
		if e.Key == nil {
			continue
		}
		_, obj := e.Value.(*schema.Mapping)
		out = append(out, fieldInfo{name: e.Key.Value, detail: "as written", container: obj})
	}
	return out
}
