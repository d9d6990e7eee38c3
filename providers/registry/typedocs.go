package registry

import (
	"encoding/json"
	"fmt"
	"strings"
)

// ServiceSpecURL is the source of the AWS service spec
// (@aws-cdk/aws-service-spec); a built-in type whose schema was built
// from it, for want of a CloudFormation schema, has it as its SourceURL.
// Such a schema knows property names, types, required and create-only
// properties and attributes, but no patterns, enums or bounds.
const ServiceSpecURL = "https://github.com/cdklabs/awscdk-service-spec"

// typeDocs is a type's documentation record from the built-in catalog
// (builtin/catalog/README.md): the type's text and each property's,
// keyed by JSON pointer into the type's schema
// (/properties/Code/properties/S3Bucket, /definitions/Tag/properties/Key).
// The CloudFormation schemas the catalog holds carry no descriptions; the
// generator takes these from the AWS service spec.
type typeDocs struct {
	Doc   string            `json:"doc"`
	Props map[string]string `json:"props"`
	Attrs map[string]string `json:"attrs"` // an attribute's text where it differs from the property's
	// Defaults is the JSON text of defaults the schema does not state.
	Defaults map[string]string `json:"defaults"`
}

func parseTypeDocs(data []byte) (*typeDocs, error) {
	if len(data) == 0 {
		return nil, nil
	}
	var d typeDocs
	if err := json.Unmarshal(data, &d); err != nil {
		return nil, fmt.Errorf("documentation record: %w", err)
	}
	return &d, nil
}

// apply writes the descriptions into the compiled, not yet linked,
// schemas: linking copies a $ref site's description over its target's,
// so a property keeps its own text while the definition's properties
// are shared by every place using it. A description the schema has
// already is kept; a pointer that leads nowhere is skipped.
func (d *typeDocs) apply(c *compiler, root *Schema, doc *rawResource) {
	if doc.Description == "" {
		doc.Description = d.Doc
	}
	for ptr, text := range d.Props {
		if s := c.schemaAt(root, ptr); s != nil && s.Description == "" {
			s.Description = text
		}
	}
	for ptr, text := range d.Defaults {
		var v any
		if s := c.schemaAt(root, ptr); s != nil && s.Default == nil && json.Unmarshal([]byte(text), &v) == nil {
			s.Default = v
		}
	}
}

// applyAttributes records the attributes' own text on the linked type.
func (d *typeDocs) applyAttributes(rt *ResourceType) {
	for name, text := range d.Attrs {
		path := pointerPath(rt.Schema, "/properties/"+strings.ReplaceAll(name, ".", "/"))
		if len(path) == 0 {
			continue
		}
		if rt.attrDocs == nil {
			rt.attrDocs = map[string]string{}
		}
		rt.attrDocs[strings.Join(path, "/")] = text
	}
}

// StateDoc is the documentation of the field at path as state shows it:
// an attribute's own text where AWS documents it apart from the spec
// property of the same name, else the field's description.
func (rt *ResourceType) StateDoc(path []string) string {
	if text, ok := rt.attrDocs[markKey(path)]; ok {
		return text
	}
	if f, ok := rt.LookupState(path); ok && f.Schema != nil {
		return f.Schema.Description
	}
	return ""
}

// schemaAt follows a JSON pointer (/properties/..., /definitions/...)
// through compiled schemas; a definition nothing references was never
// compiled and yields nil.
func (c *compiler) schemaAt(root *Schema, ptr string) *Schema {
	segs := strings.Split(strings.TrimPrefix(ptr, "/"), "/")
	for i, seg := range segs {
		segs[i] = strings.ReplaceAll(strings.ReplaceAll(seg, "~1", "/"), "~0", "~")
	}
	s := root
	if len(segs) >= 2 && segs[0] == "definitions" {
		s = c.defs[segs[1]]
		segs = segs[2:]
	}
	for len(segs) > 0 && s != nil {
		switch segs[0] {
		case "properties":
			if len(segs) < 2 {
				return nil
			}
			p := findOriginal(s, segs[1])
			if p == nil {
				return nil
			}
			s, segs = p.Schema, segs[2:]
		case "patternProperties":
			if len(segs) < 2 {
				return nil
			}
			var next *Schema
			for _, pp := range s.PatternProperties {
				if pp.Pattern == segs[1] {
					next = pp.Schema
				}
			}
			s, segs = next, segs[2:]
		case "items":
			s, segs = s.Items, segs[1:]
		case "additionalProperties":
			s, segs = s.AdditionalProperties, segs[1:]
		default:
			return nil
		}
	}
	return s
}
