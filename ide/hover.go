package ide

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/funcs"
	"github.com/blueprint-ls/blueprint-ls/providers/registry"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/subst"
)

// HoverInfo is markdown about the thing at a position and the range it
// describes.
type HoverInfo struct {
	Markdown string
	Range    source.Range
}

// Hover describes the definition, reference, function, key or registry
// type at offset.
func Hover(res *analysis.Result, offset int, opts Options) *HoverInfo {
	if res == nil || res.File == nil || res.File.Root == nil {
		return nil
	}
	ix := indexFor(res)
	if site := ix.siteAt(offset); site != nil {
		if h := hoverInSite(res, ix, site, offset, opts); h != nil {
			return h
		}
	}
	if s := ix.symbolAt(offset); s != nil {
		return &HoverInfo{Markdown: symbolMarkdown(res, s, opts), Range: s.NameRange}
	}
	return hoverStructure(res, ix, offset, opts)
}

func hoverInSite(res *analysis.Result, ix *Index, site *analysis.Site, off int, opts Options) *HoverInfo {
	if site.Kind != analysis.SiteExportField && subst.SubAt(site.Template, off) == nil {
		return nil
	}
	if call := ix.callNameAt(off); call != nil && call.Site == site {
		if f, ok := opts.funcs().Lookup(call.Expr.Name); ok {
			return &HoverInfo{Markdown: funcMarkdown(f), Range: call.Expr.NameRange}
		}
		return nil
	}
	if c := funcRefAt(res, site, off); c != nil {
		if f, ok := opts.funcs().Lookup(c.Ref.Name); ok {
			return &HoverInfo{Markdown: funcMarkdown(f), Range: c.Ref.Rng}
		}
	}
	ref := ix.refAt(off)
	if ref == nil || ref.Site != site {
		return nil
	}
	e := ref.Expr
	switch {
	case !e.Bare && e.KeywordRange().Contains(off) && (e.NameRange().Start > e.KeywordRange().End || off < e.KeywordRange().End):
		for _, ns := range namespaceDocs {
			if ns.kw == e.Namespace.Keyword() {
				return &HoverInfo{Markdown: "**" + ns.kw + "**\n\n" + ns.doc, Range: e.KeywordRange()}
			}
		}
		if e.Namespace == subst.Elem || e.Namespace == subst.Index {
			md := fmt.Sprintf("`%s`: `%s`\n\n", e.Namespace.Keyword(), typeString(ref.Type))
			if e.Namespace == subst.Elem {
				md += "The current element of the resource's `each` list."
			} else {
				md += "The index of the current element of the resource's `each` list."
			}
			return &HoverInfo{Markdown: md, Range: e.KeywordRange()}
		}
	case e.NameRange().Contains(off) && e.Name != "":
		if ref.Target == nil {
			return nil
		}
		md := symbolMarkdown(res, ref.Target, opts)
		if len(e.Path) > 0 {
			md = fmt.Sprintf("`%s`: `%s`\n\n---\n\n", subst.Print(e), typeString(ref.Type)) + md
		}
		return &HoverInfo{Markdown: md, Range: e.NameRange()}
	}
	k := accessorIndex(e.Path, off)
	if k < 0 {
		return nil
	}
	name, rng := accessorText(e.Path[k])
	if name == "" {
		return nil
	}
	if ref.Field != nil && ref.FieldRange == rng {
		owner := res
		if ref.Field.Kind == analysis.ExportSymbol {
			if ch := res.Children[e.Name]; ch != nil && ch.Result != nil {
				owner = ch.Result
			}
		}
		return &HoverInfo{Markdown: symbolMarkdown(owner, ref.Field, opts), Range: rng}
	}
	c := &completer{res: res, ix: ix, opts: opts, owner: site.Owner}
	if site.Owner != nil && site.Owner.Kind == analysis.ResourceSymbol {
		c.path = []string{dialect.Resources.Key(), site.Owner.Name}
	}
	for _, f := range c.fieldsAt(e, k) {
		if f.name == name {
			prefix := subst.Print(&subst.Ref{Namespace: e.Namespace, Bare: e.Bare, Name: e.Name, Path: e.Path[:k+1]})
			md := fmt.Sprintf("`%s`: `%s`", prefix, f.detail)
			if f.doc != "" {
				md += "\n\n" + f.doc
			}
			return &HoverInfo{Markdown: md, Range: rng}
		}
	}
	return nil
}

func accessorText(a subst.Accessor) (string, source.Range) {
	switch a := a.(type) {
	case *subst.FieldAccessor:
		return a.Name, a.NameRange
	case *subst.QuotedAccessor:
		return a.Name, a.NameRange
	}
	return "", a.Range()
}

func typeString(t interface{ String() string }) string {
	if t == nil {
		return "unknown"
	}
	return t.String()
}

// funcMarkdown documents a function: signature, docs, parameters and an
// example.
func funcMarkdown(f *funcs.Func) string {
	var b strings.Builder
	b.WriteString(codeBlock(signatureText(f.Name, f.Signature)))
	b.WriteString("\n\n")
	doc := f.Doc
	if doc == "" {
		doc = f.Summary
	}
	b.WriteString(doc)
	if f.Signature != nil && len(f.ParamDocs) > 0 {
		b.WriteString("\n\n")
		for i, p := range f.Signature.Params {
			if i < len(f.ParamDocs) && f.ParamDocs[i] != "" {
				fmt.Fprintf(&b, "- `%s`: %s\n", paramName(p.Name, i), f.ParamDocs[i])
			}
		}
	}
	if len(f.Examples) > 0 {
		ex := f.Examples[0]
		b.WriteString("\n\nExample: `${" + ex.Expr + "}`")
		if ex.Result != "" {
			b.WriteString(" → `" + ex.Result + "`")
		}
	}
	return strings.TrimSpace(b.String())
}

func paramName(name string, i int) string {
	if name == "" {
		return fmt.Sprintf("arg%d", i+1)
	}
	return name
}

// masked is what secrets show instead of their value.
const masked = "(sensitive)"

// symbolMarkdown describes a definition.
func symbolMarkdown(res *analysis.Result, s *analysis.Symbol, opts Options) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** `%s`", s.Kind, s.Name)
	switch s.Kind {
	case analysis.ResourceSymbol, analysis.DataSourceSymbol, analysis.ChildSymbol:
		if d := s.Detail(); d != "" {
			fmt.Fprintf(&b, " — `%s`", d)
		}
	default:
		fmt.Fprintf(&b, ": `%s`", typeString(s.Type))
	}
	if s.Secret {
		b.WriteString(" (secret)")
	}
	if s.Doc != "" {
		b.WriteString("\n\n" + s.Doc)
	}
	switch s.Kind {
	case analysis.VariableSymbol:
		v := s.Variable
		if v.Default != nil {
			val := scalarOrText(v.Default.Node())
			if s.Secret {
				val = masked
			} else {
				val = "`" + val + "`"
			}
			b.WriteString("\n\nDefault: " + val)
		}
		if seq := v.AllowedValues.Sequence(); seq != nil {
			var vs []string
			for _, it := range seq.Items {
				vs = append(vs, "`"+scalarOrText(it)+"`")
			}
			b.WriteString("\n\nAllowed values: " + strings.Join(vs, ", "))
		}
		if v.Type != nil {
			if ct, ok := opts.registry().CustomVariableType(v.Type.Text()); ok && ct.Description != "" {
				b.WriteString("\n\n" + v.Type.Text() + ": " + ct.Description)
			}
		}
	case analysis.ValueSymbol:
		if s.Value.Value != nil {
			if s.Secret {
				b.WriteString("\n\nValue: " + masked)
			} else if sc := s.Value.Value.Scalar(); sc != nil {
				b.WriteString("\n\nValue: `" + clip(sc.Value) + "`")
			}
		}
	case analysis.ResourceSymbol:
		if s.Resource.Type != nil {
			if rt, ok := opts.registry().ResourceType(s.Resource.Type.Text()); ok && rt.Description != "" {
				b.WriteString("\n\n" + firstParagraph(rt.Description))
			}
		}
		if s.Resource.Each != nil {
			b.WriteString("\n\nOne resource per element of `each`.")
		}
	case analysis.DataSourceSymbol:
		if o, ok := s.Type.(interface{ FieldNames() []string }); ok && len(o.FieldNames()) > 0 {
			b.WriteString("\n\nExports: " + strings.Join(backquote(o.FieldNames()), ", "))
		}
	case analysis.DataSourceFieldSymbol:
		if s.Field != nil && s.Field.AliasFor != nil {
			b.WriteString("\n\nAlias for `" + s.Field.AliasFor.Text() + "`")
		}
		if s.Parent != nil {
			b.WriteString("\n\nExported by data source `" + s.Parent.Name + "`")
		}
	case analysis.ChildSymbol:
		if ch := res.Children[s.Name]; ch != nil && ch.Result != nil {
			var exps []string
			for _, e := range ch.Result.Symbols() {
				if e.Kind == analysis.ExportSymbol {
					exps = append(exps, fmt.Sprintf("- `%s`: `%s`", e.Name, typeString(exportType(ch.Result, e))))
				}
			}
			if len(exps) > 0 {
				b.WriteString("\n\nExports:\n" + strings.Join(exps, "\n"))
			}
		}
	case analysis.ExportSymbol:
		if s.Export != nil && s.Export.Field != nil {
			b.WriteString("\n\nField: `" + s.Export.Field.Text() + "`")
		}
	}
	return b.String()
}

func backquote(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = "`" + s + "`"
	}
	return out
}

func scalarOrText(n schema.Node) string {
	if sc, ok := n.(*schema.Scalar); ok {
		return clip(sc.Value)
	}
	if n == nil {
		return ""
	}
	return "(" + map[schema.Kind]string{schema.MappingKind: "mapping", schema.SequenceKind: "list"}[n.Kind()] + ")"
}

func clip(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 120 {
		return s[:117] + "..."
	}
	return s
}

func firstParagraph(s string) string {
	if i := strings.Index(s, "\n\n"); i > 0 {
		return s[:i]
	}
	return s
}

// hoverStructure describes keys (from the spec's field tables and the
// registry) and registry-backed values (types, link selectors, includes).
func hoverStructure(res *analysis.Result, ix *Index, off int, opts Options) *HoverInfo {
	path := treePath(res.File.Root, off)
	if len(path) == 0 {
		return nil
	}
	last := path[len(path)-1]
	p := segs(path)
	if last.OnKey {
		key := last.Entry.Key
		parent := p[:len(p)-1]
		if kind, ok := mappingKind(parent); ok {
			if f, ok := schema.LookupField(kind, key.Value); ok {
				md := fmt.Sprintf("**%s** (%s field", f.Name, kind)
				if f.Required {
					md += ", required"
				}
				if f.Since != "" {
					md += ", since " + f.Since
				}
				md += ")\n\n" + f.Doc
				return &HoverInfo{Markdown: md, Range: key.Rng}
			}
		}
		if sp, ok := specPath(p); ok && len(sp) > 0 {
			c := &completer{res: res, ix: ix, opts: opts}
			if rt := c.resourceTypeOf(p[1]); rt != nil {
				if f, ok := rt.Lookup(sp); ok && f.Schema != nil {
					md := fmt.Sprintf("**%s**: `%s`", key.Value, f.Schema.TypeName())
					if d := propertyDoc(rt, f.Schema, f.Marks, f.Required); d != "" {
						md += "\n\n" + d
					}
					return &HoverInfo{Markdown: md, Range: key.Rng}
				}
			}
		}
		if len(p) == 5 && inSection(p, dialect.Resources) && p[2] == "metadata" && p[3] == "annotations" {
			c := &completer{res: res, ix: ix, opts: opts}
			if rt := c.resourceTypeOf(p[1]); rt != nil {
				for _, a := range c.annotations(rt.Name) {
					if a.Name == key.Value {
						return &HoverInfo{Markdown: annotationMarkdown(a), Range: key.Rng}
					}
				}
			}
		}
		if len(p) == 4 && inSection(p, dialect.Include) && p[2] == "variables" {
			if ch := res.Children[p[1]]; ch != nil && ch.Result != nil {
				if v := ch.Result.Lookup(analysis.VariableSymbol, key.Value); v != nil {
					return &HoverInfo{Markdown: symbolMarkdown(ch.Result, v, opts), Range: key.Rng}
				}
			}
		}
		return nil
	}
	sc, ok := last.Node.(*schema.Scalar)
	if !ok {
		return nil
	}
	reg := opts.registry()
	if sp, ok := specPath(p); ok && len(sp) > 0 {
		return hoverSpecValue(res, ix, p, sp, sc, opts)
	}
	switch {
	case len(p) == 3 && inSection(p, dialect.Resources) && p[2] == "type":
		if rt, ok := reg.ResourceType(sc.Value); ok {
			return &HoverInfo{Markdown: resourceTypeMarkdown(rt), Range: sc.Rng}
		}
	case len(p) == 3 && inSection(p, dialect.DataSources) && p[2] == "type":
		if dt, ok := reg.DataSourceType(sc.Value); ok {
			md := fmt.Sprintf("**%s** (data source type)\n\n%s", dt.Name, dt.Description)
			if names := dt.ExportNames(); len(names) > 0 {
				md += "\n\nFields: " + strings.Join(backquote(names), ", ")
			}
			return &HoverInfo{Markdown: md, Range: sc.Rng}
		}
	case len(p) == 3 && inSection(p, dialect.Variables) && p[2] == "type":
		if ct, ok := reg.CustomVariableType(sc.Value); ok {
			labels := ct.Labels()
			if len(labels) > 20 {
				labels = append(labels[:20], "...")
			}
			md := fmt.Sprintf("**%s** (custom variable type)\n\n%s\n\nOptions: %s", ct.Name, ct.Description, strings.Join(labels, ", "))
			return &HoverInfo{Markdown: md, Range: sc.Rng}
		}
	case len(p) == 5 && inSection(p, dialect.Resources) && p[2] == "linkSelector" && p[3] == "byLabel":
		for _, l := range res.Links() {
			if l.From.Name == p[1] {
				var names []string
				for _, s := range l.Selected {
					names = append(names, fmt.Sprintf("- `%s` (%s)", s.Name, s.Detail()))
				}
				md := fmt.Sprintf("Selects %d resource(s):\n%s", len(names), strings.Join(names, "\n"))
				return &HoverInfo{Markdown: md, Range: sc.Rng}
			}
		}
	case len(p) >= 4 && inSection(p, dialect.Resources) && (p[2] == "dependsOn" || p[2] == "linkSelector" && p[3] == "exclude"):
		if s := res.Lookup(analysis.ResourceSymbol, sc.Value); s != nil {
			return &HoverInfo{Markdown: symbolMarkdown(res, s, opts), Range: sc.Rng}
		}
	case len(p) == 3 && inSection(p, dialect.Include) && p[2] == "path":
		if s := res.Lookup(analysis.ChildSymbol, p[1]); s != nil {
			md := symbolMarkdown(res, s, opts)
			if ch := res.Children[p[1]]; ch != nil && ch.Path != "" {
				md += "\n\nResolved: `" + ch.Path + "`"
			}
			return &HoverInfo{Markdown: md, Range: sc.Rng}
		}
	}
	return nil
}

// hoverSpecValue describes a value in a resource's spec by the field
// holding it; a value of an enumerated field is named as one of its
// allowed values.
// annotationMarkdown documents a link annotation: its type, default,
// allowed values and description.
func annotationMarkdown(a *registry.Annotation) string {
	md := fmt.Sprintf("**%s**: `%s` (link annotation", a.Name, a.Type)
	if a.Required {
		md += ", required"
	}
	md += ")"
	if a.Description != "" {
		md += "\n\n" + a.Description
	}
	if a.Default != nil {
		md += fmt.Sprintf("\n\nDefault: `%v`", a.Default)
	}
	if len(a.AllowedValues) > 0 {
		md += fmt.Sprintf("\n\nAllowed values: %v", a.AllowedValues)
	}
	return md
}

func hoverSpecValue(res *analysis.Result, ix *Index, p, sp []string, sc *schema.Scalar, opts Options) *HoverInfo {
	c := &completer{res: res, ix: ix, opts: opts}
	rt := c.resourceTypeOf(p[1])
	if rt == nil {
		return nil
	}
	f, ok := rt.Lookup(sp)
	if !ok || f.Schema == nil || len(f.Schema.Enum) == 0 {
		return nil
	}
	allowed := false
	for _, e := range f.Schema.Enum {
		if fmt.Sprint(e) == sc.Value {
			allowed = true
		}
	}
	name := sp[len(sp)-1]
	if isItemSegment(name) && len(sp) > 1 {
		name = sp[len(sp)-2]
	}
	md := fmt.Sprintf("`%s`: one of the allowed values of **%s**", sc.Value, name)
	if !allowed {
		md = fmt.Sprintf("`%s`: not one of the allowed values of **%s**", sc.Value, name)
	}
	if d := propertyDoc(rt, f.Schema, f.Marks, f.Required); d != "" {
		md += "\n\n" + d
	}
	return &HoverInfo{Markdown: md, Range: sc.Rng}
}

// isItemSegment reports whether a spec path segment is an array index.
func isItemSegment(s string) bool {
	if s == "*" {
		return true
	}
	_, err := strconv.Atoi(s)
	return err == nil
}
