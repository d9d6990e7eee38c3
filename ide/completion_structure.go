package ide

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/providers/registry"
	"github.com/blueprint-ls/blueprint-ls/schema"
)

// structure completes keys and values of the document's structure.
func (c *completer) structure(sc structCtx) []CompletionItem {
	var out []CompletionItem
	if sc.key {
		out = c.keyItems(sc, sc.path)
		if sc.item && !c.json {
			// "- x": the item may be a scalar value or a mapping's first key.
			out = append(out, c.valueItems(sc, sc.path)...)
		}
		return out
	}
	return c.prefill(c.valueItems(sc, sc.path), sc)
}

func (c *completer) version() string {
	if c.res != nil && c.res.Blueprint != nil {
		return c.res.Blueprint.SpecVersion
	}
	return ""
}

// keyItems lists the keys that may be added to the mapping at path.
func (c *completer) keyItems(sc structCtx, path []string) []CompletionItem {
	var keys []keyInfo
	if kind, ok := mappingKind(path); ok {
		for _, f := range schema.Fields(kind, c.version()) {
			detail := f.Shape.String()
			if f.Required {
				detail = "required · " + detail
			}
			keys = append(keys, keyInfo{name: f.Name, detail: detail, doc: f.Doc, collection: f.Shape == schema.ShapeMapping || f.Shape == schema.ShapeSequence, required: f.Required})
		}
	} else if sp, ok := specPath(path); ok {
		keys = c.specKeys(path[1], sp)
	} else {
		keys = c.openKeys(path)
	}
	out := make([]CompletionItem, 0, len(keys))
	for _, k := range keys {
		if sc.present[k.name] {
			continue
		}
		rank := 1
		if k.required {
			rank = 0
		}
		it := CompletionItem{Label: k.name, Kind: ItemProperty, Detail: k.detail, Documentation: k.doc,
			ReplaceRange: sc.replace, SortText: sortKey(rank, k.name), Deprecated: k.deprecated}
		switch {
		case c.json && sc.quoted:
			it.InsertText = k.name
		case c.json:
			it.InsertText = strconv.Quote(k.name) + ": "
		case k.collection:
			it.InsertText = yamlKeyText(k.name) + ":"
		default:
			it.InsertText = yamlKeyText(k.name) + ": "
		}
		out = append(out, it)
	}
	return out
}

type keyInfo struct {
	name, detail, doc string
	collection        bool
	required          bool
	deprecated        bool
}

// specKeys lists the registry properties of a resource's spec at path.
func (c *completer) specKeys(resource string, path []string) []keyInfo {
	rt, sch := c.specSchema(resource, path)
	if sch == nil {
		return nil
	}
	req := map[string]bool{}
	for _, r := range sch.Required {
		req[r] = true
	}
	var out []keyInfo
	for _, name := range sch.PropertyNames() {
		p, _ := sch.Property(name)
		full := append(append([]string(nil), path...), name)
		marks := rt.Marks(full)
		if marks.Has(registry.ReadOnly) {
			continue
		}
		detail := p.Schema.TypeName()
		if req[name] {
			detail = "required · " + detail
		}
		out = append(out, keyInfo{name: name, detail: detail, doc: propertyDoc(rt, p.Schema, marks, req[name]),
			collection: p.Schema.IsObject() || p.Schema.Items != nil, required: req[name], deprecated: marks.Has(registry.Deprecated)})
	}
	return out
}

// specSchema returns the registry type of the named resource and the schema
// of its spec at path, or nil when either is unknown.
func (c *completer) specSchema(resource string, path []string) (*registry.ResourceType, *registry.Schema) {
	rt := c.resourceTypeOf(resource)
	if rt == nil {
		return nil, nil
	}
	sch, _, ok := rt.Schema.Lookup(path)
	if !ok {
		return rt, nil
	}
	return rt, sch
}

// resourceTypeOf returns the registry type of the named resource, read
// from the Result or, for a resource being written, from the text.
func (c *completer) resourceTypeOf(name string) *registry.ResourceType {
	if c.res != nil {
		if s := c.res.Lookup(analysis.ResourceSymbol, name); s != nil {
			return c.resourceType(s)
		}
	}
	if c.declType != "" && len(c.path) >= 2 && c.path[1] == name {
		if rt, ok := c.opts.registry().ResourceType(c.declType); ok && rt.Err == nil {
			return rt
		}
	}
	return nil
}

// openKeys lists keys of free-form mappings that the blueprint or the
// registry suggest: label keys, link annotations, child variables, data
// source exports.
func (c *completer) openKeys(path []string) []keyInfo {
	var out []keyInfo
	switch {
	case len(path) == 4 && inSection(path, dialect.Resources) && (path[2] == "metadata" && path[3] == "labels" || path[2] == "linkSelector" && path[3] == "byLabel"):
		if c.ix == nil {
			return nil
		}
		for _, k := range slices.Sorted(maps.Keys(c.ix.all().labels)) {
			out = append(out, keyInfo{name: k, detail: "label", doc: "Used with values: " + strings.Join(c.ix.all().labels[k], ", ")})
		}
	case len(path) == 4 && inSection(path, dialect.Resources) && path[2] == "metadata" && path[3] == "annotations":
		rt := ""
		if c.res != nil {
			if s := c.res.Lookup(analysis.ResourceSymbol, path[1]); s != nil {
				rt = s.Resource.Type.Text()
			}
		}
		for _, a := range c.annotations(rt) {
			out = append(out, keyInfo{name: a.Name, detail: a.Type.String(), doc: a.Description})
		}
	case len(path) == 3 && inSection(path, dialect.Include) && path[2] == "variables":
		if c.res == nil {
			return nil
		}
		if ch := c.res.Children[path[1]]; ch != nil && ch.Result != nil {
			for _, s := range ch.Result.Symbols() {
				if s.Kind == analysis.VariableSymbol {
					out = append(out, keyInfo{name: s.Name, detail: s.Detail(), doc: s.Doc, required: s.Variable.Default == nil})
				}
			}
		}
	case len(path) == 3 && inSection(path, dialect.DataSources) && path[2] == "exports":
		if dt := c.dataSourceType(path[1]); dt != nil {
			for _, n := range dt.ExportNames() {
				f := dt.Exports[n]
				out = append(out, keyInfo{name: n, detail: f.Type.String(), doc: f.Description, collection: true})
			}
		}
	}
	return out
}

// annotations returns the link annotations a resource of type rt may
// carry: those read from the "from" side of its links and from the "to"
// side of links to it.
func (c *completer) annotations(rt string) []*registry.Annotation {
	if rt == "" {
		return nil
	}
	reg := c.opts.registry()
	seen := map[string]bool{}
	var out []*registry.Annotation
	add := func(l *registry.LinkDefinition, side string) {
		for _, n := range l.AnnotationNames() {
			a := l.Annotations[n]
			if (a.On == "" || a.On == side) && !seen[n] {
				seen[n] = true
				out = append(out, a)
			}
		}
	}
	for _, l := range reg.LinksFrom(rt) {
		add(l, "from")
	}
	for _, from := range reg.ResourceTypeNames() {
		if l, ok := reg.Link(from, rt); ok {
			add(l, "to")
		}
	}
	return out
}

func (c *completer) dataSourceType(name string) *registry.DataSourceType {
	if c.res == nil {
		return nil
	}
	s := c.res.Lookup(analysis.DataSourceSymbol, name)
	if s == nil || s.DataSource.Type == nil {
		return nil
	}
	dt, _ := c.opts.registry().DataSourceType(s.DataSource.Type.Text())
	return dt
}

// valueItems lists the values that fit the field at path.
func (c *completer) valueItems(sc structCtx, path []string) []CompletionItem {
	vals := c.values(path)
	out := make([]CompletionItem, 0, len(vals))
	for i, v := range vals {
		it := CompletionItem{Label: v.text, Kind: v.kind, Detail: v.detail, Documentation: v.doc,
			ReplaceRange: sc.replace, SortText: sortKey(0, strconv.Itoa(1000+i))}
		if v.kind == 0 {
			it.Kind = ItemEnum
		}
		switch {
		case c.json && sc.quoted:
			it.InsertText = v.text
		case c.json && v.str:
			it.InsertText = strconv.Quote(v.text)
		case c.bp && v.str && !strings.HasSuffix(strings.Join(path, "."), ".type"):
			it.InsertText = `"` + strings.ReplaceAll(v.text, `"`, `\"`) + `"`
		default:
			it.InsertText = v.text
			if !c.json && !c.bp && v.str {
				it.InsertText = yamlScalarText(v.text)
			}
		}
		it.FilterText = v.text
		out = append(out, it)
	}
	return out
}

type valueInfo struct {
	text, detail, doc string
	str               bool // a string (quote where needed)
	kind              ItemKind
}

func enumValues(names []string, detail string) []valueInfo {
	out := make([]valueInfo, len(names))
	for i, n := range names {
		out[i] = valueInfo{text: n, detail: detail, str: true}
	}
	return out
}

var boolValues = []valueInfo{{text: "true", detail: "boolean"}, {text: "false", detail: "boolean"}}

// values computes the candidates for the value at path.
func (c *completer) values(path []string) []valueInfo {
	reg := c.opts.registry()
	n := len(path)
	if n == 0 {
		return nil
	}
	last := path[n-1]
	if n == 1 {
		switch last {
		case "version":
			return enumValues(schema.Versions, "spec version")
		case "transform":
			return c.transforms()
		}
		return nil
	}
	if n >= 2 && path[n-2] == "transform" && n == 2 {
		return c.transforms()
	}
	sec := dialect.SectionOf(path[0])
	if last == "secret" && n == 3 {
		return boolValues
	}
	switch sec {
	case dialect.Variables:
		if n == 3 && last == "type" {
			out := enumValues(schema.VariableCoreTypes, "core type")
			for _, t := range reg.CustomVariableTypeNames() {
				ct, _ := reg.CustomVariableType(t)
				out = append(out, valueInfo{text: t, detail: "custom type", doc: ct.Description, str: true, kind: ItemType})
			}
			return out
		}
		if n == 3 && last == "default" || n == 4 && path[2] == "allowedValues" && last == "*" {
			return c.variableValues(path[1], last == "default")
		}
	case dialect.Values:
		if n == 3 && last == "type" {
			return enumValues(schema.ValueTypes, "value type")
		}
	case dialect.Exports:
		if n == 3 && last == "type" {
			return enumValues(schema.ExportTypes, "export type")
		}
	case dialect.DataSources:
		switch {
		case n == 3 && last == "type":
			var out []valueInfo
			for _, t := range reg.DataSourceTypeNames() {
				dt, _ := reg.DataSourceType(t)
				out = append(out, valueInfo{text: t, detail: "data source type", doc: dt.Description, str: true, kind: ItemType})
			}
			return out
		case n >= 4 && path[2] == "filter" && last == "operator":
			return enumValues(schema.FilterOperators, "filter operator")
		case n >= 4 && path[2] == "filter" && last == "field":
			if dt := c.dataSourceType(path[1]); dt != nil {
				var out []valueInfo
				for _, f := range dt.FilterFieldNames() {
					ff := dt.FilterFields[f]
					out = append(out, valueInfo{text: f, detail: ff.Type.String(), doc: ff.Description, str: true, kind: ItemField})
				}
				return out
			}
		case n == 5 && path[2] == "exports" && last == "type":
			return enumValues(schema.DataSourceExportTypes, "export type")
		case n == 5 && path[2] == "exports" && last == "aliasFor":
			if dt := c.dataSourceType(path[1]); dt != nil {
				var out []valueInfo
				for _, f := range dt.ExportNames() {
					ff := dt.Exports[f]
					out = append(out, valueInfo{text: f, detail: ff.Type.String(), doc: ff.Description, str: true, kind: ItemField})
				}
				return out
			}
		}
	case dialect.Resources:
		switch {
		case n == 3 && last == "type":
			var out []valueInfo
			names := reg.ResourceTypeNames()
			out = make([]valueInfo, 0, len(names))
			for _, t := range names {
				out = append(out, valueInfo{text: t, detail: resourceTypeDetail, doc: typeSummaryDoc(reg, t), str: true, kind: ItemType})
			}
			return out
		case n == 3 && last == "removalPolicy":
			return enumValues(schema.RemovalPolicies, "removal policy")
		case n >= 3 && path[2] == "dependsOn" || n == 5 && path[2] == "linkSelector" && path[3] == "exclude":
			return c.resourceNames(path[1])
		case n == 5 && (path[2] == "metadata" && path[3] == "labels" || path[2] == "linkSelector" && path[3] == "byLabel"):
			if c.ix != nil {
				return enumValues(c.ix.all().labels[last], "label value")
			}
		case n >= 4 && path[2] == "spec":
			return c.specValues(path[1], path[3:])
		}
	}
	return nil
}

func (c *completer) transforms() []valueInfo {
	reg := c.opts.registry()
	var out []valueInfo
	for _, t := range reg.TransformNames() {
		tr, _ := reg.Transform(t)
		out = append(out, valueInfo{text: t, detail: "transform", doc: tr.Description, str: true})
	}
	return out
}

// variableValues offers a variable's allowed values, its custom type's
// option labels, or true/false.
func (c *completer) variableValues(name string, isDefault bool) []valueInfo {
	if c.res == nil || c.res.Blueprint == nil {
		return nil
	}
	v := c.res.Blueprint.Variables.Get(name)
	if v == nil || v.Type == nil {
		return nil
	}
	t := v.Type.Text()
	if isDefault {
		if seq := v.AllowedValues.Sequence(); seq != nil {
			var out []valueInfo
			for _, it := range seq.Items {
				if sc, ok := it.(*schema.Scalar); ok {
					out = append(out, valueInfo{text: sc.Value, detail: "allowed value", str: t == "string" || schema.IsCustomType(t)})
				}
			}
			return out
		}
		if t == "boolean" {
			return boolValues
		}
	}
	if ct, ok := c.opts.registry().CustomVariableType(t); ok {
		var out []valueInfo
		for _, o := range ct.Options {
			doc := o.Description
			if o.Value != "" && o.Value != o.Label {
				doc = strings.TrimSpace(doc + "\n\nValue: `" + o.Value + "`")
			}
			out = append(out, valueInfo{text: o.Label, detail: t, doc: doc, str: true})
		}
		return out
	}
	return nil
}

// resourceNames offers the other resources (dependsOn, exclude).
func (c *completer) resourceNames(self string) []valueInfo {
	if c.res == nil {
		return nil
	}
	var out []valueInfo
	for _, s := range c.res.Symbols() {
		if s.Kind == analysis.ResourceSymbol && s.Name != self {
			out = append(out, valueInfo{text: s.Name, detail: s.Detail(), doc: symbolDoc(s), str: true, kind: ItemResource})
		}
	}
	return out
}

// specValues offers the enum values (or booleans) of a spec field, each
// documented by the field.
func (c *completer) specValues(resource string, path []string) []valueInfo {
	rt, sch := c.specSchema(resource, path)
	if sch == nil {
		return nil
	}
	doc := propertyDoc(rt, sch, rt.Marks(path), false)
	var out []valueInfo
	for _, e := range sch.Enum {
		switch v := e.(type) {
		case string:
			out = append(out, valueInfo{text: v, detail: sch.TypeName(), doc: doc, str: true})
		case float64:
			out = append(out, valueInfo{text: strconv.FormatFloat(v, 'f', -1, 64), detail: sch.TypeName(), doc: doc})
		case bool:
			out = append(out, valueInfo{text: strconv.FormatBool(v), detail: sch.TypeName(), doc: doc})
		}
	}
	if len(out) == 0 && len(sch.Types) == 1 && sch.Types[0] == "boolean" {
		return boolValues
	}
	return out
}

// yamlKeyText quotes a key when plain YAML would read it differently.
func yamlKeyText(s string) string { return yamlScalarText(s) }

// yamlScalarText writes a string so that YAML reads it back as that
// string: plain when safe, double-quoted otherwise.
func yamlScalarText(s string) string {
	if s == "" {
		return `""`
	}
	if len(s) > len("infinity") && plainWord(s) {
		// No YAML keyword or number is a word this long (the 1,500 type
		// names after type: take this path).
		return s
	}
	switch strings.ToLower(s) {
	case "true", "false", "yes", "no", "on", "off", "null", "~", "y", "n", ".inf", "-.inf", "+.inf", ".nan":
		return strconv.Quote(s)
	}
	if _, err := strconv.ParseFloat(s, 64); err == nil {
		return strconv.Quote(s)
	}
	if strings.ContainsAny(s[:1], "!&*{}[]|>'\"%@`#,?:") || s[0] == '-' && (len(s) == 1 || s[1] == ' ') ||
		strings.Contains(s, ": ") || strings.Contains(s, " #") || strings.HasSuffix(s, ":") || s != strings.TrimSpace(s) {
		return strconv.Quote(s)
	}
	return s
}

// plainWord reports whether s is a letter followed by letters, digits
// and / _ . - only: text YAML reads as a plain string unless it is a
// keyword or a number.
func plainWord(s string) bool {
	c := s[0]
	if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '/' || c == '_' || c == '.' || c == '-') {
			return false
		}
	}
	return true
}

// resourceTypeDetail is the detail of a resource type's completion item.
const resourceTypeDetail = "resource type"

// typeSummaryDoc documents a resource type from the registry's index (its
// CloudFormation name and reference page), without opening its schema.
func typeSummaryDoc(reg *registry.Registry, name string) string {
	sum, ok := reg.ResourceTypeSummary(name)
	if !ok || sum.Original == "" {
		return ""
	}
	doc := "`" + sum.Original + "`"
	if sum.DocsURL != "" {
		doc += " · [AWS documentation](" + sum.DocsURL + ")"
	}
	return doc
}
