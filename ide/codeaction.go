package ide

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/providers/registry"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/subst"
	"github.com/blueprint-ls/blueprint-ls/types"
)

// Code action kinds (the protocol's strings).
const (
	KindQuickFix        = "quickfix"
	KindRefactorExtract = "refactor.extract"
)

// CodeAction is a fix or refactoring with its edits.
type CodeAction struct {
	Title       string
	Kind        string
	Diagnostics []source.Diagnostic
	Edit        WorkspaceEdit
	Preferred   bool
}

// CodeActions returns quick fixes for the diagnostics given (their own
// suggestions, adding missing required fields, declaring a missing
// variable), for a selection inside ${..}, "Extract to value", for one
// on a literal, "Extract to variable", and the
// document in the other syntax as a new file (codeaction_convert.go).
func CodeActions(res *analysis.Result, rng source.Range, diags []source.Diagnostic, opts Options) []CodeAction {
	if res == nil || res.File == nil || res.File.Root == nil {
		return nil
	}
	out := SuggestedFixes(res, diags)
	for _, d := range diags {
		switch d.Code {
		case "spec-missing-field", "resource-missing-field":
			if a, ok := addMissingFields(res, d, opts); ok {
				out = append(out, a)
			}
		case "ref-unknown-variable":
			if a, ok := declareVariable(res, d, opts); ok {
				out = append(out, a)
			}
		}
	}
	if rng.Len() > 0 {
		if a, ok := extractToValue(res, rng, opts); ok {
			out = append(out, a)
		}
		if a, ok := extractToVariable(res, rng); ok {
			out = append(out, a)
		}
	}
	return append(out, convertActions(res, opts)...)
}

// SuggestedFixes returns the quick fixes the diagnostics carry (their
// Suggestions), nothing else. They are edits of the text as it is, so
// they apply to a repaired Result too (a bp-syntax error's missing comma),
// where the other code actions, which read the tree, are not offered.
func SuggestedFixes(res *analysis.Result, diags []source.Diagnostic) []CodeAction {
	var out []CodeAction
	for _, d := range diags {
		for i, s := range d.Suggestions {
			a := CodeAction{Title: s.Title, Kind: KindQuickFix, Diagnostics: []source.Diagnostic{d}, Preferred: i == 0 && len(d.Suggestions) == 1}
			for _, e := range s.Edits {
				a.Edit.add(res, e)
			}
			out = append(out, a)
		}
	}
	return out
}

// fieldPlaceholder is the value written for a new field of a shape.
func fieldPlaceholder(json bool, kind string) string {
	switch kind {
	case "object", "mapping":
		return "{}"
	case "array", "list":
		return "[]"
	case "integer", "float", "number":
		return "0"
	case "boolean":
		return "false"
	}
	return `""`
}

// addMissingFields adds every required field missing from the mapping
// the diagnostic is about.
func addMissingFields(res *analysis.Result, d source.Diagnostic, opts Options) (CodeAction, bool) {
	path := treePath(res.File.Root, d.Range.Start)
	var m *schema.Mapping
	var at []step
	for j := len(path) - 1; j >= 0; j-- {
		st := path[j]
		if st.Entry != nil && st.Entry.Key.Rng == d.Range {
			m, _ = st.Entry.Value.(*schema.Mapping)
			at = path[:j+1]
			break
		}
	}
	if m == nil {
		for j := len(path) - 1; j >= 0; j-- {
			if mm, ok := path[j].Node.(*schema.Mapping); ok {
				m, at = mm, path[:j+1]
				break
			}
		}
	}
	if m == nil || len(m.Entries) == 0 || m.Flow && res.File.Format == schema.YAML {
		return CodeAction{}, false
	}
	p := segs(at)
	present := keysOf(m)
	var fields [][2]string // name, placeholder
	json := res.File.Format != schema.YAML
	if kind, ok := mappingKind(p); ok {
		version := ""
		if res.Blueprint != nil {
			version = res.Blueprint.SpecVersion
		}
		for _, f := range schema.Fields(kind, version) {
			if f.Required && !present[f.Name] {
				shape := "string"
				switch f.Shape {
				case schema.ShapeMapping:
					shape = "mapping"
				case schema.ShapeSequence:
					shape = "list"
				}
				fields = append(fields, [2]string{f.Name, fieldPlaceholder(json, shape)})
			}
		}
	} else if sp, ok := specPath(p); ok {
		c := &completer{res: res, opts: opts}
		_, sch := c.specSchema(p[1], sp)
		if sch == nil {
			return CodeAction{}, false
		}
		for _, name := range sch.Required {
			if present[name] {
				continue
			}
			kind := "string"
			if pr, ok := sch.Property(name); ok {
				kind = schemaKind(pr)
			}
			fields = append(fields, [2]string{name, fieldPlaceholder(json, kind)})
		}
	}
	if len(fields) == 0 {
		return CodeAction{}, false
	}
	var names []string
	for _, f := range fields {
		names = append(names, f[0])
	}
	a := CodeAction{Title: "Add missing fields: " + strings.Join(names, ", "), Kind: KindQuickFix, Diagnostics: []source.Diagnostic{d}, Preferred: true}
	a.Edit.add(res, appendEntries(res, m, fields))
	return a, true
}

func schemaKind(p *registry.Property) string {
	if p.Schema == nil || len(p.Schema.Types) == 0 {
		if p.Schema != nil && p.Schema.IsObject() {
			return "object"
		}
		return "string"
	}
	return p.Schema.Types[0]
}

// column returns the column (in bytes) of off on its line.
func column(res *analysis.Result, off int) int {
	m := res.File.Mapper
	return off - m.LineStart(m.Line(off))
}

// appendEntries inserts entries (already formatted values) after the last
// entry of a non-empty mapping, in the document's syntax.
func appendEntries(res *analysis.Result, m *schema.Mapping, entries [][2]string) source.Edit {
	last := m.Entries[len(m.Entries)-1]
	end := entryRange(last).End
	ind := strings.Repeat(" ", column(res, last.Key.Rng.Start))
	var b strings.Builder
	if res.File.Format == schema.BP {
		for _, e := range entries {
			b.WriteString("\n" + ind + bpKey(e[0]) + " = " + e[1])
		}
		return source.Edit{Range: source.R(end, end), NewText: b.String()}
	}
	if res.File.Format != schema.YAML {
		for _, e := range entries {
			b.WriteString(",\n" + ind + strconv.Quote(e[0]) + ": " + e[1])
		}
		return source.Edit{Range: source.R(end, end), NewText: b.String()}
	}
	for _, e := range entries {
		b.WriteString("\n" + ind + yamlKeyText(e[0]) + ": " + e[1])
	}
	return source.Edit{Range: source.R(end, end), NewText: b.String()}
}

// definitionFields renders a new definition's fields: YAML lines at
// indent or a JSON object.
func insertDefinition(res *analysis.Result, section dialect.Section, name string, fields [][2]string) (source.Edit, bool) {
	if res.File.Format == schema.BP {
		return bpDeclaration(res, section, name, fields), true
	}
	json := res.File.Format != schema.YAML
	root := res.Blueprint.Root
	sec := root.Entry(section.Key())
	if sec != nil {
		m, ok := sec.Value.(*schema.Mapping)
		if ok && len(m.Entries) > 0 && !(m.Flow && !json) {
			var body string
			if json {
				var parts []string
				for _, f := range fields {
					parts = append(parts, strconv.Quote(f[0])+": "+f[1])
				}
				body = "{" + strings.Join(parts, ", ") + "}"
				return appendEntries(res, m, [][2]string{{name, body}}), true
			}
			ind := strings.Repeat(" ", column(res, m.Entries[0].Key.Rng.Start))
			var b strings.Builder
			b.WriteString("\n" + ind + yamlKeyText(name) + ":")
			for _, f := range fields {
				b.WriteString("\n" + ind + "  " + f[0] + ": " + f[1])
			}
			end := entryRange(m.Entries[len(m.Entries)-1]).End
			return source.Edit{Range: source.R(end, end), NewText: b.String()}, true
		}
		return source.Edit{}, false // an empty or flow section: rare enough to leave to the user
	}
	// No section: add one at the end of the root mapping.
	if len(root.Entries) == 0 {
		return source.Edit{}, false
	}
	if json {
		var parts []string
		for _, f := range fields {
			parts = append(parts, strconv.Quote(f[0])+": "+f[1])
		}
		ind := strings.Repeat(" ", column(res, root.Entries[0].Key.Rng.Start))
		body := "{\n" + ind + ind + strconv.Quote(name) + ": {" + strings.Join(parts, ", ") + "}\n" + ind + "}"
		return appendEntries(res, root, [][2]string{{section.Key(), body}}), true
	}
	var b strings.Builder
	b.WriteString("\n" + section.Key() + ":\n  " + yamlKeyText(name) + ":")
	for _, f := range fields {
		b.WriteString("\n    " + f[0] + ": " + f[1])
	}
	end := entryRange(root.Entries[len(root.Entries)-1]).End
	return source.Edit{Range: source.R(end, end), NewText: b.String()}, true
}

// declareVariable adds a variables entry for an unknown variable, typed
// from where it is used.
func declareVariable(res *analysis.Result, d source.Diagnostic, opts Options) (CodeAction, bool) {
	if res.Blueprint == nil || res.Blueprint.Root == nil || d.Range.End > len(res.File.Content()) {
		return CodeAction{}, false
	}
	name := string(res.File.Content()[d.Range.Start:d.Range.End])
	if !validName(name) {
		return CodeAction{}, false
	}
	typ := "string"
	if ref := indexFor(res).refAt(d.Range.Start); ref != nil {
		if t := expectedType(res, ref, opts); t != nil {
			typ = t.String()
		}
	}
	json := res.File.Format != schema.YAML
	tv := typ
	if json {
		tv = strconv.Quote(typ)
	}
	e, ok := insertDefinition(res, dialect.Variables, name, [][2]string{{"type", tv}})
	if !ok {
		return CodeAction{}, false
	}
	a := CodeAction{Title: fmt.Sprintf("Declare variable %q (%s)", name, typ), Kind: KindQuickFix, Diagnostics: []source.Diagnostic{d}}
	a.Edit.add(res, e)
	return a, true
}

// expectedType is the primitive type the place of a reference asks for:
// the parameter of the call it is an argument of, or the registry type of
// the spec field it fills alone.
func expectedType(res *analysis.Result, ref *analysis.Reference, opts Options) types.Type {
	prim := func(t types.Type) types.Type {
		if types.IsPrimitive(t) {
			return t
		}
		return nil
	}
	site := ref.Site
	if site == nil {
		return nil
	}
	for _, sub := range site.Template.Subs() {
		path := exprPath(sub.Expr, ref.Expr.Rng.Start)
		for j := len(path) - 2; j >= 0; j-- {
			call, ok := path[j].(*subst.Call)
			if !ok || path[j+1] != subst.Expr(ref.Expr) {
				continue
			}
			f, ok := opts.funcs().Lookup(call.Name)
			if !ok {
				return nil
			}
			if p, ok := f.Signature.ParamAt(subst.ArgAt(call, ref.Expr.Rng.Start)); ok {
				return prim(p.Type)
			}
		}
		if sub.Expr == subst.Expr(ref.Expr) && site.Template.IsPure() && site.Kind == analysis.SiteResourceSpec {
			p := segs(treePath(res.File.Root, site.Scalar.Rng.Start))
			if sp, ok := specPath(p); ok {
				c := &completer{res: res, opts: opts}
				if rt := c.resourceTypeOf(p[1]); rt != nil {
					if f, ok := rt.LookupSpec(sp); ok && f.Schema != nil {
						return prim(f.Schema.Type())
					}
				}
			}
		}
	}
	return nil
}

// declaredTypeName names a type as a value definition declares it.
func declaredTypeName(t types.Type) string {
	switch t := t.(type) {
	case *types.Array:
		return "array"
	case *types.Map, *types.Object:
		return "object"
	case *types.Basic:
		if types.IsPrimitive(t) {
			return t.String()
		}
	}
	return "string"
}
