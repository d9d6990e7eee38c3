package main

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/providers/registry"
)

// docRecord is a type's documentation record (the registry's
// typeDocs reads it): the type's text and, keyed by JSON pointer into the
// type's schema (/properties/Code/properties/S3Bucket,
// /definitions/Tag/properties/Key), the text of each property. Pointers
// name the place in the schema the docs belong to, so a definition used
// in many places is documented once.
type docRecord struct {
	Doc   string            `json:"doc,omitempty"`
	Props map[string]string `json:"props,omitempty"`
	// Attrs holds the attributes' own text by name (Arn, Endpoint.Port)
	// where it differs from the property's: QueueName read from state is
	// "the queue name", set in spec "a name for the queue".
	Attrs map[string]string `json:"attrs,omitempty"`
	// Defaults holds, by pointer, the JSON text of a property's default
	// where the service spec knows one (the schemas seldom do).
	Defaults map[string]string `json:"defaults,omitempty"`
}

// documentType pairs the schema document with the service spec's
// description of the same type and returns the documentation record; nil
// when there is nothing to say.
func (s *spec) documentType(schema map[string]any, r *specResource) ([]byte, error) {
	rec := docRecord{Doc: r.Documentation, Props: map[string]string{}}
	defs, _ := schema["definitions"].(map[string]any)
	w := docWalker{spec: s, defs: defs, out: rec.Props, defaults: map[string]string{}, seen: map[string]bool{}}
	w.object("", schema, r.Properties)
	if len(w.defaults) > 0 {
		rec.Defaults = w.defaults
	}
	// Attributes are the state's read-only properties; A.B names B inside
	// A.
	names := make([]string, 0, len(r.Attributes))
	for n := range r.Attributes {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		text := s.propertyText(r.Attributes[n])
		if text == "" {
			continue
		}
		if ptr, ok := w.attributePointer(schema, n); ok {
			if had, has := rec.Props[ptr]; !has {
				rec.Props[ptr] = text
			} else if had != text {
				if rec.Attrs == nil {
					rec.Attrs = map[string]string{}
				}
				rec.Attrs[n] = text
			}
		}
	}
	// The physical id, what Ref returns, is seldom among the attributes.
	if ids, _ := schema["primaryIdentifier"].([]any); len(ids) == 1 && ids[0] == "/properties/Id" {
		if _, has := rec.Props["/properties/Id"]; !has {
			rec.Props["/properties/Id"] = "The identifier of the resource, which CloudFormation's `Ref` returns."
		}
	}
	if rec.Doc == "" && len(rec.Props) == 0 {
		return nil, nil
	}
	return json.Marshal(rec)
}

type docWalker struct {
	spec *spec
	defs map[string]any
	out  map[string]string
	// defaults collects the service spec's default values of properties
	// whose schema has none.
	defaults map[string]string
	seen     map[string]bool // definition pointer + type id already walked
}

// object documents the properties of the object schema node at ptr.
func (w *docWalker) object(ptr string, node map[string]any, props map[string]*specProperty) {
	sprops, _ := node["properties"].(map[string]any)
	for name, sub := range sprops {
		sp := props[name]
		if sp == nil {
			continue
		}
		p := ptr + "/properties/" + escapePointer(name)
		if text := w.spec.propertyText(sp); text != "" {
			w.out[p] = text
		}
		m, _ := sub.(map[string]any)
		if _, has := m["default"]; !has && sp.DefaultValue != nil && json.Valid([]byte(*sp.DefaultValue)) {
			w.defaults[p] = *sp.DefaultValue
		}
		if m != nil {
			w.follow(p, m, sp.Type, 0)
		}
	}
}

// follow walks into the schema node at ptr along the spec type t.
func (w *docWalker) follow(ptr string, node map[string]any, t *specType, depth int) {
	if t == nil || depth > 8 {
		return
	}
	if ref, ok := node["$ref"].(string); ok {
		name, ok := strings.CutPrefix(ref, "#/definitions/")
		def, _ := w.defs[unescapePointer(name)].(map[string]any)
		if !ok || def == nil {
			return
		}
		ptr, node = "/definitions/"+name, def
	}
	switch t.Type {
	case "tag":
		// The service spec's built-in tag type has no text of its own.
		props, _ := node["properties"].(map[string]any)
		for key, text := range tagDocs {
			if _, ok := props[key]; ok {
				if _, has := w.out[ptr+"/properties/"+key]; !has {
					w.out[ptr+"/properties/"+key] = text
				}
			}
		}
	case "ref":
		td := w.spec.Types[t.Reference.Ref]
		key := ptr + "\x00" + t.Reference.Ref
		if td == nil || w.seen[key] {
			return
		}
		w.seen[key] = true
		w.object(ptr, node, td.Properties)
	case "array":
		if items, ok := node["items"].(map[string]any); ok {
			w.follow(ptr+"/items", items, t.Element, depth+1)
		}
	case "map":
		if ap, ok := node["additionalProperties"].(map[string]any); ok {
			w.follow(ptr+"/additionalProperties", ap, t.Element, depth+1)
		}
		pps, _ := node["patternProperties"].(map[string]any)
		for pat, pp := range pps {
			if m, ok := pp.(map[string]any); ok {
				w.follow(ptr+"/patternProperties/"+escapePointer(pat), m, t.Element, depth+1)
			}
		}
	}
}

// tagDocs documents the fields of a tag, for which the service spec has
// a type but no text.
var tagDocs = map[string]string{
	"Key":   "The key (name) of the tag.",
	"Value": "The value of the tag.",
}

// propertyText is a property's documentation or, lacking any, that of
// the type definition it holds (an attribute such as Endpoint is often
// documented only there).
func (s *spec) propertyText(p *specProperty) string {
	if p.Documentation != "" {
		return p.Documentation
	}
	if td := s.typeDef(p.Type); td != nil {
		return td.Documentation
	}
	return ""
}

// attributePointer finds the schema property an attribute (Arn,
// Endpoint.Address) reads.
func (w *docWalker) attributePointer(schema map[string]any, attr string) (string, bool) {
	node, ptr := schema, ""
	for _, seg := range strings.Split(attr, ".") {
		if ref, ok := node["$ref"].(string); ok {
			name, _ := strings.CutPrefix(ref, "#/definitions/")
			def, _ := w.defs[unescapePointer(name)].(map[string]any)
			if def == nil {
				return "", false
			}
			ptr, node = "/definitions/"+name, def
		}
		props, _ := node["properties"].(map[string]any)
		sub, ok := props[seg].(map[string]any)
		if !ok {
			return "", false
		}
		ptr += "/properties/" + escapePointer(seg)
		node = sub
	}
	return ptr, true
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

func unescapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
}

// synthesize writes a CloudFormation resource schema for a type the
// schema set lacks, from what the service spec knows: property types
// (through its type definitions), required properties, those whose
// change replaces the resource, deprecated ones, defaults, and the
// attributes as read-only properties. Patterns, enums and bounds are not
// in the service spec, so validation of such a type stops at types and
// names.
func (s *spec) synthesize(r *specResource) (map[string]any, error) {
	sy := synth{spec: s, defs: map[string]any{}, names: map[string]string{}}
	props := map[string]any{}
	var required, createOnly, deprecated, readOnly, primary []string
	for _, n := range sortedKeys(r.Properties) {
		p := r.Properties[n]
		props[n] = sy.property(p)
		if p.Required {
			required = append(required, n)
		}
		if p.CausesReplacement == "yes" {
			createOnly = append(createOnly, "/properties/"+escapePointer(n))
		}
		if p.Deprecated != "" {
			deprecated = append(deprecated, "/properties/"+escapePointer(n))
		}
	}
	for _, n := range sortedKeys(r.Attributes) {
		a := r.Attributes[n]
		segs := strings.Split(n, ".")
		ptr := "/properties/" + escapePointer(segs[0])
		parent := props
		for i, seg := range segs {
			if i > 0 {
				ptr += "/" + escapePointer(seg)
			}
			if i == len(segs)-1 {
				if _, ok := parent[seg]; !ok {
					parent[seg] = sy.typeSchema(a.Type)
				}
				break
			}
			obj, ok := parent[seg].(map[string]any)
			if !ok {
				obj = map[string]any{"type": "object", "properties": map[string]any{}}
				parent[seg] = obj
			}
			inner, ok := obj["properties"].(map[string]any)
			if !ok {
				// A $ref'd object: the definition holds the field.
				break
			}
			parent = inner
		}
		readOnly = append(readOnly, ptr)
	}
	for _, n := range r.PrimaryIdentifier {
		primary = append(primary, "/properties/"+strings.ReplaceAll(n, ".", "/"))
	}
	doc := map[string]any{
		"typeName":             r.CloudFormationType,
		"sourceUrl":            registry.ServiceSpecURL,
		"properties":           props,
		"additionalProperties": false,
	}
	for k, v := range map[string][]string{"required": required, "createOnlyProperties": createOnly,
		"deprecatedProperties": deprecated, "readOnlyProperties": readOnly, "primaryIdentifier": primary} {
		if len(v) > 0 {
			doc[k] = v
		}
	}
	if len(sy.defs) > 0 {
		doc["definitions"] = sy.defs
	}
	return doc, sy.err
}

type synth struct {
	spec  *spec
	defs  map[string]any    // definition name → schema
	names map[string]string // type definition $id → definition name
	err   error
}

func (sy *synth) property(p *specProperty) map[string]any {
	out := sy.typeSchema(p.Type)
	if p.DefaultValue != nil {
		var v any
		if json.Unmarshal([]byte(*p.DefaultValue), &v) == nil {
			out["default"] = v
		}
	}
	return out
}

// typeSchema is the JSON schema of a service spec type; a kind it does
// not know accepts anything.
func (sy *synth) typeSchema(t *specType) map[string]any {
	switch t.Type {
	case "string", "integer", "number", "boolean":
		return map[string]any{"type": t.Type}
	case "date-time":
		return map[string]any{"type": "string", "format": "date-time"}
	case "tag":
		if _, ok := sy.defs["Tag"]; !ok {
			sy.defs["Tag"] = map[string]any{"type": "object", "additionalProperties": false, "required": []string{"Key", "Value"},
				"properties": map[string]any{"Key": map[string]any{"type": "string"}, "Value": map[string]any{"type": "string"}}}
		}
		return map[string]any{"$ref": "#/definitions/Tag"}
	case "array":
		return map[string]any{"type": "array", "items": sy.typeSchema(t.Element)}
	case "map":
		return map[string]any{"type": "object", "additionalProperties": sy.typeSchema(t.Element)}
	case "union":
		var alts []any
		for _, u := range t.Types {
			alts = append(alts, sy.typeSchema(u))
		}
		return map[string]any{"anyOf": alts}
	case "ref":
		return map[string]any{"$ref": "#/definitions/" + escapePointer(sy.definition(t.Reference.Ref))}
	}
	return map[string]any{}
}

// definition returns the name of the definition of a type definition,
// adding it (and what it uses) on first use.
func (sy *synth) definition(id string) string {
	if n, ok := sy.names[id]; ok {
		return n
	}
	td := sy.spec.Types[id]
	if td == nil {
		sy.err = fmt.Errorf("reference %s leads to no type definition", id)
		sy.names[id] = "Missing" + id
		sy.defs["Missing"+id] = map[string]any{}
		return "Missing" + id
	}
	name := td.Name
	for i := 2; sy.defs[name] != nil; i++ {
		name = fmt.Sprintf("%s%d", td.Name, i)
	}
	sy.names[id] = name
	def := map[string]any{"type": "object", "additionalProperties": false}
	sy.defs[name] = def
	props := map[string]any{}
	var required []string
	for _, n := range sortedKeys(td.Properties) {
		p := td.Properties[n]
		props[n] = sy.property(p)
		if p.Required {
			required = append(required, n)
		}
	}
	def["properties"] = props
	if len(required) > 0 {
		def["required"] = required
	}
	return name
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
