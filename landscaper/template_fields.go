package landscaper

import (
	"fmt"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

var codeTemplateField = source.NewCode("landscaper-template-field", source.Warning,
	"A Landscaper GoTemplate reads a field of a data import (.imports.X.field) that the import's schema does not declare among its properties.",
	"imports:\n- name: db\n  schema:\n    type: object\n    properties:\n      host: {type: string}\ndeployExecutions:\n- name: default\n  type: GoTemplate\n  template: |\n    host: {{ .imports.db.hots }}")

// importField checks the fields a chain reads below a data import
// (.imports.X.a.b) against the properties its schema declares, where it
// declares them; pos is where the chain's node is.
func (c *checker) importField(ex *execution, ident []string, pos int) {
	if len(ident) < 3 || ident[0] != "imports" || c.fieldSchemas[ident[1]] == nil {
		return
	}
	s := c.fieldSchemas[ident[1]]
	ref := "imports." + ident[1]
	at := strings.LastIndex(ex.text[:min(len(ex.text), pos+len(ref)+1)], ref)
	if at < 0 {
		return
	}
	at += len(ref)
	for _, field := range ident[2:] {
		at += 1 + len(field)
		m := resolveLocal(s, c.localTypes, 0)
		props, _ := m.Get("properties").(*syntax.Mapping)
		if props == nil {
			return // the schema says nothing of its fields
		}
		if e := props.Entry(field); e != nil {
			s = e.Value
			continue
		}
		if ap := m.Get("additionalProperties"); ap != nil {
			if b, ok := ap.(*syntax.Scalar); !ok || b.Value != "false" {
				return // other fields are allowed
			}
		}
		var names []string
		for _, e := range props.Entries {
			if e.Key != nil {
				names = append(names, e.Key.Value)
			}
		}
		msg := fmt.Sprintf("import %q has no field %q: its schema declares %s", ident[1], field, strings.Join(names, ", "))
		if near := source.Closest(field, names); len(near) > 0 {
			msg += fmt.Sprintf("; did you mean %q?", near[0])
		}
		ex.report(c, codeTemplateField, at-len(field), at, "%s", msg)
		return
	}
}

// resolveLocal follows $ref: local://name to the local type (a few
// levels at most: a cycle is the compiler's to report).
func resolveLocal(n syntax.Node, local map[string]syntax.Node, depth int) *syntax.Mapping {
	m, _ := n.(*syntax.Mapping)
	if m == nil || depth > 8 {
		return m
	}
	if r, ok := m.Get("$ref").(*syntax.Scalar); ok && strings.HasPrefix(r.Value, "local://") {
		if t := local[strings.TrimPrefix(r.Value, "local://")]; t != nil {
			return resolveLocal(t, local, depth+1)
		}
	}
	return m
}
