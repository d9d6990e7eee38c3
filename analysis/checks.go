package analysis

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/providers/registry"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/types"
)

// checkExports checks each export's field against its declared type, and
// each value's content against its declared type.
func (a *analyzer) checkExports() {
	// toCheck holds the sites of every unit that is not carried over
	// (all sites, in a full analysis).
	for _, s := range a.toCheck {
		if _, ok := a.carriedOver(s.Owner); ok {
			continue
		}
		switch s.Kind {
		case SiteExportField:
			exp := s.Owner
			if exp == nil || exp.Export == nil || exp.Export.Type == nil {
				continue
			}
			declared, ok := types.Declared(exp.Export.Type.Text())
			if !ok || s.Type == nil || types.IsUnknownOrAny(s.Type) {
				continue
			}
			if !strictAssignable(s.Type, declared) {
				d := codeTypeMismatch.New(exp.Export.Type.ValueRange(), "export type %s does not match the %s it exports (%s)", exp.Export.Type.Text(), s.Type.String(), strings.TrimSpace(s.Scalar.Value))
				d.Related = []source.Related{{Range: s.Scalar.ValueRange(), Message: "the exported field"}}
				if name := declaredName(s.Type); name != "" {
					d.Suggestions = []source.Suggestion{{Title: "Change the type to " + name, Edits: []source.Edit{{Range: exp.Export.Type.ValueRange(), NewText: name}}}}
				}
				a.report(d)
			}
		case SiteValue:
			v := s.Owner
			if v == nil || v.Value == nil || v.Value.Type == nil || s.Scalar != v.Value.Value.Scalar() {
				continue
			}
			declared, ok := types.Declared(v.Value.Type.Text())
			if !ok || s.Type == nil || types.IsUnknownOrAny(s.Type) || s.Type == types.None {
				continue
			}
			if !strictAssignable(s.Type, declared) {
				rng := s.Scalar.ValueRange()
				if p := s.Template.Pure(); p != nil {
					rng = p.Rng
				}
				d := codeTypeMismatch.New(rng, "value %q is declared %s but the expression yields %s", v.Name, v.Value.Type.Text(), article(s.Type))
				d.Related = []source.Related{{Range: v.Value.Type.ValueRange(), Message: "declared type"}}
				a.report(d)
			}
		}
	}
}

// strictAssignable is Assignable without the leniency for none and for
// unions: an export or value must certainly have its declared type.
func strictAssignable(from, to types.Type) bool {
	if u, ok := from.(*types.Union); ok {
		for _, m := range u.Types {
			if !strictAssignable(m, to) {
				return false
			}
		}
		return true
	}
	return types.Assignable(from, to)
}

// declaredName is the declarable type name of t, if any.
func declaredName(t types.Type) string {
	switch t := t.(type) {
	case *types.Basic:
		if types.IsPrimitive(t) {
			return t.String()
		}
	case *types.Array:
		return "array"
	case *types.Map, *types.Object:
		return "object"
	}
	return ""
}

// checkResources validates specs against the registry and checks
// conditions, each and the types of substitutions in spec fields.
func (a *analyzer) checkResources() {
	path := make([]string, 0, 16) // the spec walk's stack
	var todo []int                // the resources to check, by symbol index
	if a.reuse == nil {
		for i := a.blocks[ResourceSymbol].lo; i < a.blocks[ResourceSymbol].hi; i++ {
			todo = append(todo, i)
		}
	} else {
		todo = a.uncarried()
	}
	for _, i := range todo {
		r := a.res.syms.At(i)
		if r.Kind != ResourceSymbol {
			continue
		}
		res := r.Resource
		if res.Type != nil {
			typeName := res.Type.Text()
			if rt := a.resourceType(r); rt != nil {
				if rt.Err != nil {
					a.report(registry.SchemaError(rt, res.Type.ValueRange()))
				} else if spec := res.Spec.Node(); spec != nil {
					a.diags = append(a.diags, a.specDiagnostics(i, rt, res, spec)...)
					if !a.fannedSpecSubstitutions(i, spec) {
						a.checkSpecSubstitutions(rt, spec, path)
					}
				}
			} else if schema.IsResourceType(typeName) && !strings.Contains(typeName, "${") {
				a.reportUnknownType(typeName, res.Type.ValueRange(), a.reg.UnknownResourceType)
			}
		}
		a.checkCondition(res.Condition)
		if res.Each != nil {
			if sc := res.Each.Scalar(); sc != nil {
				if site := a.siteOf(sc); site != nil && site.Template.Pure() != nil {
					t := site.Type
					if _, ok := t.(*types.Array); !ok && !types.IsUnknownOrAny(t) && t != nil {
						a.report(codeEachType.New(site.Template.Pure().Rng, "each must be an array, but the expression yields %s", article(t)))
					}
				} else if site != nil || sc.IsString() {
					a.report(codeEachType.New(sc.Rng, "each must be an array: a ${..} substitution yielding one"))
				}
			}
		}
	}
}

// reportUnknownType reports a type missing from the registry: an error
// when its provider is loaded (a typo), a warning otherwise.
func (a *analyzer) reportUnknownType(name string, rng source.Range, unknown func(string, source.Range) source.Diagnostic) {
	provider, _, _ := strings.Cut(name, "/")
	loaded := false
	for _, p := range a.reg.Providers() {
		if p == provider {
			loaded = true
		}
	}
	if loaded {
		a.report(unknown(name, rng))
		return
	}
	a.report(codeUnknownResourceTypeProvider.New(rng, "provider %q is not loaded, so type %q is not checked; add its schemas with --providers", provider, name))
}

// checkSpecSubstitutions checks the inferred type of each pure
// substitution in a spec against the schema's type for that field. path
// is a stack: callees append past its length and keep nothing.
func (a *analyzer) checkSpecSubstitutions(rt *registry.ResourceType, n schema.Node, path []string) {
	switch n := n.(type) {
	case *schema.Mapping:
		for _, e := range n.Entries {
			if e.Key != nil && e.Value != nil {
				a.checkSpecSubstitutions(rt, e.Value, append(path, e.Key.Value))
			}
		}
	case *schema.Sequence:
		for _, it := range n.Items {
			a.checkSpecSubstitutions(rt, it, append(path, "*"))
		}
	case *schema.Scalar:
		// Only a string holding "${" is a site (siteScalarsIn; a site
		// carried over keeps its scalar's text): the others need no
		// look-up, which most of a spec's scalars cost.
		if len(path) == 0 || !n.IsString() || !strings.Contains(n.Value, "${") {
			return
		}
		site := a.siteOf(n)
		if site == nil {
			return
		}
		want, ok := rt.SpecFieldType(path)
		if !ok || want == nil || types.IsUnknownOrAny(want) {
			return
		}
		a.checkSpecSite(site, want, func() []string { return path })
	}
}

// checkSpecSite checks the type of site, a spec's substitution site,
// against want, its field's known type; path says where the field is
// (called for the message only).
func (a *analyzer) checkSpecSite(site *Site, want types.Type, path func() []string) {
	t := site.Type
	if t == nil || types.IsUnknownOrAny(t) || t == types.None {
		return
	}
	if site.Template.Pure() == nil {
		t = types.String
	}
	if !types.Assignable(t, want) {
		rng := site.Scalar.ValueRange()
		if p := site.Template.Pure(); p != nil {
			rng = p.Rng
		}
		a.report(codeTypeMismatch.New(rng, "field %s expects %s, but the expression yields %s", strings.Join(path(), "."), article(want), article(t)))
	}
}

// checkCondition checks that condition strings are booleans, recursively.
func (a *analyzer) checkCondition(c schema.Condition) {
	switch c := c.(type) {
	case *schema.ConditionOp:
		for _, op := range c.Operands {
			a.checkCondition(op)
		}
	case *schema.ConditionExpr:
		if c.Scalar == nil {
			return
		}
		site := a.siteOf(c.Scalar)
		if site == nil {
			if c.Scalar.Tag == schema.BoolTag {
				return
			}
			a.report(codeConditionType.New(c.Scalar.Rng, "a condition must be a boolean: true, false or a ${..} substitution yielding one"))
			return
		}
		p := site.Template.Pure()
		if p == nil {
			a.report(codeConditionType.New(c.Scalar.ValueRange(), "a condition must be a boolean, but this interpolates text into a string"))
			return
		}
		if t := site.Type; t != nil && !types.IsUnknownOrAny(t) && !types.Assignable(t, types.Boolean) {
			a.report(codeConditionType.New(p.Rng, "a condition must be a boolean, but the expression yields %s", article(t)))
		}
	}
}

// checkDataSources checks data source types, exported fields and filter
// fields against the registry, and search values against the operators.
func (a *analyzer) checkDataSources() {
	for _, s := range a.ofKind(DataSourceSymbol) {
		if _, ok := a.carriedOver(s); s.Kind != DataSourceSymbol || ok {
			continue
		}
		d := s.DataSource
		if d.Type == nil {
			continue
		}
		dt, ok := a.reg.DataSourceType(d.Type.Text())
		if !ok {
			if name := d.Type.Text(); name != "" && !strings.Contains(name, "${") {
				a.reportUnknownType(name, d.Type.ValueRange(), a.reg.UnknownDataSourceType)
			}
			continue
		}
		for _, e := range d.Exports.Items() {
			if e.Type == nil {
				continue
			}
			declared, ok := types.Declared(e.Type.Text())
			if !ok {
				continue
			}
			field := e.Name
			rng := e.NameRange()
			if e.AliasFor != nil && e.AliasFor.Text() != "" {
				field, rng = e.AliasFor.Text(), e.AliasFor.ValueRange()
			}
			a.diags = append(a.diags, dt.CheckExport(field, declared, rng, e.Type.ValueRange())...)
		}
		for _, f := range d.Filters {
			if f.Field == nil || f.Field.Text() == "" {
				continue
			}
			if diag := dt.CheckFilterField(f.Field.Text(), f.Field.ValueRange()); diag != nil {
				a.report(*diag)
			}
			a.checkFilterSearch(dt, f)
		}
	}
}

// checkFilterSearch applies "Operator Behaviours" when the data source
// type declares the filtered field's type (decision 23).
func (a *analyzer) checkFilterSearch(dt *registry.DataSourceType, f *schema.Filter) {
	ff, ok := dt.FilterField(f.Field.Text())
	if !ok || ff.Type == nil || f.Operator == nil || f.Search == nil {
		return
	}
	op := f.Operator.Text()
	field := ff.Type
	var searches []*schema.Scalar
	if seq := f.Search.Sequence(); seq != nil {
		for _, it := range seq.Items {
			if sc, ok := it.(*schema.Scalar); ok {
				searches = append(searches, sc)
			}
		}
	} else if sc := f.Search.Scalar(); sc != nil {
		searches = append(searches, sc)
	}
	for _, sc := range searches {
		if a.flaggedBySchema(sc.Rng) {
			continue // schema already rejected this search value's shape
		}
		st := a.scalarType(sc)
		if types.IsUnknownOrAny(st) {
			continue
		}
		if msg := operatorMismatch(op, field, st); msg != "" {
			a.report(codeFilterSearchType.New(sc.Rng, "%s", msg))
		}
	}
}

// flaggedBySchema reports whether the parser or the structural rules
// already reported a problem at exactly rng.
func (a *analyzer) flaggedBySchema(rng source.Range) bool {
	if a.schemaRanges == nil {
		a.schemaRanges = map[source.Range]bool{}
		for _, d := range a.res.Diagnostics {
			if d.Severity == source.Error {
				a.schemaRanges[d.Range] = true
			}
		}
	}
	return a.schemaRanges[rng]
}

var codeFilterSearchType = source.NewCode("datasource-filter-search-type", source.Error,
	"A filter's search value does not fit the operator and the filtered field's type (see Operator Behaviours).", "")

// scalarType is the type of a scalar as written or as its substitution
// yields.
func (a *analyzer) scalarType(sc *schema.Scalar) types.Type {
	if site := a.siteOf(sc); site != nil {
		if site.Type != nil {
			return site.Type
		}
		return types.Unknown
	}
	return a.literalType(sc)
}

// operatorMismatch explains why a search of type search can not be used
// with op on a field of type field, or returns "".
func operatorMismatch(op string, field, search types.Type) string {
	switch op {
	case "=", "!=", "in", "not in":
		if types.IsPrimitive(field) && types.IsPrimitive(search) && !types.Assignable(search, field) {
			return fmt.Sprintf("%q compares a %s field with a %s search value; they must be the same type", op, field, search)
		}
		if !types.IsPrimitive(field) {
			return fmt.Sprintf("%q compares primitive values, but the field is %s", op, article(field))
		}
	case "has key", "not has key":
		if _, ok := field.(*types.Map); !ok {
			if _, ok := field.(*types.Object); !ok {
				return fmt.Sprintf("%q needs a mapping field, but the field is %s", op, article(field))
			}
		}
		if search != types.String {
			return fmt.Sprintf("%q takes a string key as its search value, not %s", op, article(search))
		}
	case "contains", "not contains":
		switch ft := field.(type) {
		case *types.Array:
			if types.IsPrimitive(ft.Elem) && !types.Assignable(search, ft.Elem) {
				return fmt.Sprintf("%q on an %s field takes a %s search value, not %s", op, field, ft.Elem, search)
			}
		case *types.Map:
			if types.IsPrimitive(ft.Elem) && !types.Assignable(search, ft.Elem) {
				return fmt.Sprintf("%q on a %s field takes a %s search value, not %s", op, field, ft.Elem, search)
			}
		default:
			if field == types.String && search != types.String {
				return fmt.Sprintf("%q on a string field takes a string search value, not %s", op, article(search))
			}
			if field != types.String {
				return fmt.Sprintf("%q needs a string, array or mapping field, but the field is %s", op, article(field))
			}
		}
	case "starts with", "not starts with", "ends with", "not ends with":
		if field != types.String {
			return fmt.Sprintf("%q needs a string field, but the field is %s", op, article(field))
		}
		if search != types.String {
			return fmt.Sprintf("%q takes a string search value, not %s", op, article(search))
		}
	}
	return ""
}

// parseNumber reports whether s is a YAML-style integer or float.
func parseNumber(s string) (isInt, isFloat bool) {
	if _, err := strconv.ParseInt(s, 0, 64); err == nil {
		return true, true
	}
	if _, err := strconv.ParseFloat(s, 64); err == nil {
		return false, true
	}
	return false, false
}
