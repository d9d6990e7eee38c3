package ide

import (
	"fmt"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/providers/registry"
	"github.com/blueprint-ls/blueprint-ls/schema"
)

// Prefilled definitions: completing a resource's type, when the resource
// has no spec yet, writes the type and then a spec holding the fields its
// schema requires, each a snippet placeholder (a choice for an enum or a
// boolean); completing a data source's type writes its filter (field,
// operator, search: choices where the type documents them) and one export.
// The way each format writes them: YAML keys under the definition's,
// JSON members after the type's, blocks of the blueprint language.
//
// A resource type's schema is loaded on first use, and loading the
// catalog's 1,800 takes seconds: only the types the text typed so far
// names (a substring of theirs) are prefilled, at most prefillLimit of
// them; when more match, the list says it is incomplete, and the client
// asks again as the user types on.

// prefillLimit is the most resource types one list prefills.
const prefillLimit = 48

// prefillDepth bounds how deep required objects are written out.
const prefillDepth = 3

// prefill rewrites the type items at sc (a definition's type) as
// snippets, where the client takes them and the definition lacks what
// they would write.
func (c *completer) prefill(items []CompletionItem, sc structCtx) []CompletionItem {
	if !c.opts.Snippets || len(c.path) != 3 || c.path[2] != "type" || len(items) == 0 {
		return items
	}
	sec := dialect.SectionOf(c.path[0])
	if sec != dialect.Resources && sec != dialect.DataSources {
		return items
	}
	w, ok := c.prefillWriter(sc)
	if !ok {
		return items
	}
	reg := c.opts.registry()
	prefix := strings.ToLower(strings.TrimSpace(strings.Trim(sc.prefix, `"'`)))
	matching := 0
	for _, it := range items {
		if strings.Contains(strings.ToLower(it.Label), prefix) {
			matching++
		}
	}
	if sec == dialect.Resources && matching > prefillLimit {
		c.incomplete = true
		return items
	}
	for i := range items {
		it := &items[i]
		if it.Kind != ItemType || !strings.Contains(strings.ToLower(it.Label), prefix) {
			continue
		}
		var body []field
		if sec == dialect.Resources {
			rt, ok := reg.ResourceType(it.Label)
			if !ok || rt.Schema == nil {
				continue
			}
			spec := requiredFields(rt, rt.Schema, nil, 0)
			if len(spec) == 0 {
				continue
			}
			body = []field{{name: "spec", kind: "object", fields: spec}}
		} else {
			dt, ok := reg.DataSourceType(it.Label)
			if !ok {
				continue
			}
			body = dataSourceFields(dt)
		}
		var kept []field
		for _, f := range body {
			if !w.present[f.name] {
				kept = append(kept, f)
			}
		}
		if len(kept) == 0 {
			continue
		}
		it.InsertText = w.write(it.Label, kept)
		it.Snippet = true
		it.ReplaceRange.End = w.end
		it.Detail = strings.TrimSpace(it.Detail + " · fills required fields")
	}
	return items
}

// field is one key a prefilled definition writes: a placeholder value
// (enum: a choice) or the fields of a mapping.
type field struct {
	name   string
	kind   string // string, number, boolean, array, object (fields, or empty)
	enum   []string
	fields []field
}

// requiredFields lists the fields sch requires (read-only ones aside),
// path being where sch is in the resource's spec.
func requiredFields(rt *registry.ResourceType, sch *registry.Schema, path []string, depth int) []field {
	var out []field
	for _, name := range sch.Required {
		p, ok := sch.Property(name)
		if !ok || p.Schema == nil {
			continue
		}
		full := append(append([]string(nil), path...), name)
		if rt.Marks(full).Has(registry.ReadOnly) {
			continue
		}
		out = append(out, fieldOf(rt, name, p.Schema, full, depth))
	}
	return out
}

func fieldOf(rt *registry.ResourceType, name string, s *registry.Schema, path []string, depth int) field {
	f := field{name: name, kind: "string"}
	for _, e := range s.Enum {
		if v, ok := e.(string); ok && !strings.ContainsAny(v, ",|$}\\\n") {
			f.enum = append(f.enum, v)
		}
	}
	switch {
	case len(f.enum) > 0:
	case s.Allows("string"):
	case s.Allows("boolean"):
		f.kind, f.enum = "boolean", []string{"false", "true"}
	case s.Allows("integer") || s.Allows("number"):
		f.kind = "number"
	case s.Items != nil || s.Allows("array"):
		f.kind = "array"
	case s.IsObject():
		f.kind = "object"
		if depth+1 < prefillDepth {
			f.fields = requiredFields(rt, s, path, depth+1)
		}
	}
	return f
}

// dataSourceFields is what a data source of type dt needs: a filter and
// an export.
func dataSourceFields(dt *registry.DataSourceType) []field {
	return []field{
		{name: "filter", kind: "object", fields: []field{
			{name: "field", enum: dt.FilterFieldNames(), kind: "string"},
			{name: "operator", enum: []string{"="}, kind: "string"},
			{name: "search", kind: "string"},
		}},
		{name: "exports", kind: "object", fields: []field{{name: "", enum: dt.ExportNames(), kind: "export"}}},
	}
}

// prefillWriter writes a prefilled definition in one format.
type prefillWriter struct {
	format  schema.Format
	indent  string // the definition's keys'
	step    string // one level deeper
	present map[string]bool
	end     int // where the item's edit ends
	n       int // the last placeholder's number
}

// prefillWriter sets up writing at the cursor: only where nothing
// follows the type on its line but a closing quote, and with the keys
// the definition already has.
func (c *completer) prefillWriter(sc structCtx) (*prefillWriter, bool) {
	ls, le := textLine(c.src, c.off)
	end := sc.replace.End
	if end < c.off {
		end = c.off
	}
	if c.json && end < le && c.src.At(end) == '"' {
		end++
	}
	if rest := strings.TrimSpace(c.src.String(end, le)); rest != "" && !(c.json && rest == ",") {
		return nil, false
	}
	line := c.src.String(ls, le)
	indent := line[:len(line)-len(strings.TrimLeft(line, " \t"))]
	w := &prefillWriter{indent: indent, step: "  ", end: end, present: map[string]bool{}}
	switch {
	case c.bp:
		w.format, w.step = schema.BP, "    "
	case c.json:
		w.format = schema.JSON
		w.present = c.jsonKeysAround(c.off)
	default:
		w.format = schema.YAML
		col := len(indent)
		if strings.HasPrefix(strings.TrimLeft(line, " "), "- ") {
			return nil, false
		}
		w.present = yamlSiblings(c.src, ls, col, false)
	}
	return w, true
}

// jsonKeysAround collects the keys of the JSON object whose member's
// value holds off: those before it, read at the member's key, and after.
func (c *completer) jsonKeysAround(off int) map[string]bool {
	keys := map[string]bool{}
	ls, _ := textLine(c.src, off)
	k := strings.LastIndex(c.src.String(ls, off), `"type"`)
	if k >= 0 {
		for key := range c.jsonStruct(ls + k + 1).present {
			keys[key] = true
		}
	}
	jsonKeysAfter(c.src, off, keys)
	return keys
}

// write is the snippet for typ and its fields.
func (w *prefillWriter) write(typ string, fields []field) string {
	var b strings.Builder
	b.WriteString(typ)
	switch w.format {
	case schema.JSON:
		b.WriteString(`",`)
		w.jsonFields(&b, fields, w.indent)
		return strings.TrimSuffix(b.String(), ",") + "$0"
	case schema.BP:
		b.WriteString(" {")
		w.bpFields(&b, fields, w.indent+w.step, false)
		b.WriteString("\n" + w.indent + "}$0")
		return b.String()
	}
	w.yamlFields(&b, fields, w.indent)
	b.WriteString("$0")
	return b.String()
}

// placeholder is the next placeholder for f's value, quoted when the
// format quotes strings.
func (w *prefillWriter) placeholder(f field, quote bool) string {
	w.n++
	var p string
	switch {
	case len(f.enum) == 1:
		p = fmt.Sprintf("${%d:%s}", w.n, f.enum[0])
	case len(f.enum) > 1 && len(f.enum) <= 24:
		p = fmt.Sprintf("${%d|%s|}", w.n, strings.Join(f.enum, ","))
	case f.kind == "number":
		p = fmt.Sprintf("${%d:0}", w.n)
	default:
		p = fmt.Sprintf("${%d}", w.n)
	}
	if quote && f.kind != "number" && f.kind != "boolean" {
		return `"` + p + `"`
	}
	return p
}

func (w *prefillWriter) yamlFields(b *strings.Builder, fields []field, indent string) {
	for _, f := range fields {
		switch {
		case f.kind == "export":
			b.WriteString("\n" + indent + w.placeholder(f, false) + ":\n" + indent + w.step + "type: string")
			continue
		case f.kind == "object" && len(f.fields) > 0:
			b.WriteString("\n" + indent + f.name + ":")
			w.yamlFields(b, f.fields, indent+w.step)
		case f.kind == "object":
			w.n++
			fmt.Fprintf(b, "\n%s%s: {$%d}", indent, f.name, w.n)
		case f.kind == "array":
			b.WriteString("\n" + indent + f.name + ":\n" + indent + w.step + "- " + w.placeholder(f, false))
		default:
			b.WriteString("\n" + indent + f.name + ": " + w.placeholder(f, false))
		}
	}
}

func (w *prefillWriter) jsonFields(b *strings.Builder, fields []field, indent string) {
	for i, f := range fields {
		b.WriteString("\n" + indent)
		switch {
		case f.kind == "export":
			b.WriteString(w.placeholder(f, true) + `: {"type": "string"}`)
		case f.kind == "object":
			b.WriteString(`"` + f.name + `": {`)
			if len(f.fields) > 0 {
				w.jsonFields(b, f.fields, indent+w.step)
				b.WriteString("\n" + indent)
			} else {
				w.n++
				fmt.Fprintf(b, "$%d", w.n)
			}
			b.WriteString("}")
		case f.kind == "array":
			b.WriteString(`"` + f.name + `": [` + w.placeholder(f, true) + "]")
		default:
			b.WriteString(`"` + f.name + `": ` + w.placeholder(f, true))
		}
		if i < len(fields)-1 || indent == w.indent {
			b.WriteString(",")
		}
	}
}

// bpFields writes fields as a block's (one a line) or, in an object
// literal, comma separated.
func (w *prefillWriter) bpFields(b *strings.Builder, fields []field, indent string, literal bool) {
	for i, f := range fields {
		b.WriteString("\n" + indent)
		switch {
		case f.name == "filter":
			b.WriteString(`filter "` + w.placeholder(f.fields[0], false) + `" == ` + w.placeholder(f.fields[2], true))
		case f.name == "exports":
			b.WriteString("export " + w.placeholder(f.fields[0], false) + ": string")
		case f.kind == "object" && !literal && indent == w.indent+w.step:
			b.WriteString(f.name + " {")
			w.bpFields(b, f.fields, indent+w.step, false)
			b.WriteString("\n" + indent + "}")
		case f.kind == "object":
			b.WriteString(f.name + " = {")
			w.bpFields(b, f.fields, indent+w.step, true)
			b.WriteString("\n" + indent + "}")
		case f.kind == "array":
			b.WriteString(f.name + " = [" + w.placeholder(f, true) + "]")
		default:
			b.WriteString(f.name + " = " + w.placeholder(f, true))
		}
		if literal && i < len(fields)-1 {
			b.WriteString(",")
		}
	}
}
