package framework

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	bpcore "github.com/newstack-cloud/bluelink/libs/blueprint/core"
	"github.com/newstack-cloud/bluelink/libs/blueprint/provider"
)

// maxSchemaDepth bounds the nesting of a plugin's schema: an answer
// deeper than this is malformed (or hostile), not a resource type.
const maxSchemaDepth = 64

// resourceSchema writes a plugin's resource spec definition as a resource
// schema in the CloudFormation dialect the registry loads (typeName in
// blueprint form, kept as written): attributes become properties,
// computed ones read-only, must-recreate ones create-only, the ID field
// the primary identifier; the plugin's documentation becomes the
// descriptions. Fields flagged ComputedWhenOmitted or
// ActivatesLinkOnReference, which the dialect has no keyword for, come
// back as the fields of a provider file's overlay (docs/providers.md). A
// spec that is not an object, or a schema without a type, is an error (a
// plugin that answers nonsense is reported, not loaded).
func resourceSchema(typeName string, spec *provider.ResourceSpecDefinition, docs *provider.ResourceGetTypeDescriptionOutput) ([]byte, map[string]rawFieldFlags, error) {
	root := spec.Schema
	if root.Type != provider.ResourceDefinitionsSchemaTypeObject {
		return nil, nil, fmt.Errorf("the spec schema has type %q, want object", root.Type)
	}
	w := &schemaWriter{}
	props, required, err := w.attributes(root, "/properties", 0)
	if err != nil {
		return nil, nil, err
	}
	out := map[string]any{
		"typeName":             typeName,
		"properties":           props,
		"additionalProperties": false,
	}
	if docs != nil {
		if d := firstOf(docs.MarkdownDescription, docs.PlainTextDescription, docs.MarkdownSummary, docs.PlainTextSummary); d != "" {
			out["description"] = d
		}
	}
	if _, ok := out["description"]; !ok {
		if d := firstOf(root.FormattedDescription, root.Description); d != "" {
			out["description"] = d
		}
	}
	if len(required) > 0 {
		out["required"] = required
	}
	if len(w.readOnly) > 0 {
		out["readOnlyProperties"] = w.readOnly
	}
	if len(w.createOnly) > 0 {
		out["createOnlyProperties"] = w.createOnly
	}
	if spec.IDField != "" {
		if _, ok := root.Attributes[spec.IDField]; ok {
			out["primaryIdentifier"] = []string{"/properties/" + spec.IDField}
		}
	}
	data, err := json.Marshal(out)
	return data, w.flags, err
}

type schemaWriter struct {
	readOnly, createOnly []string
	flags                map[string]rawFieldFlags // by overlay path: a.*.b
}

// rawFieldFlags is a provider file overlay's field entry with flags only.
type rawFieldFlags struct {
	ComputedWhenOmitted      bool `json:"computedWhenOmitted,omitempty"`
	ActivatesLinkOnReference bool `json:"activatesLinkOnReference,omitempty"`
}

// attributes converts an object schema's attributes; path is the JSON
// pointer of their parent's properties.
func (w *schemaWriter) attributes(s *provider.ResourceDefinitionsSchema, path string, depth int) (map[string]any, []string, error) {
	props := map[string]any{}
	for _, name := range sortedKeys(s.Attributes) {
		a := s.Attributes[name]
		if a == nil {
			return nil, nil, fmt.Errorf("attribute %q has no schema", name)
		}
		p, err := w.schema(a, path+"/"+name, depth+1)
		if err != nil {
			return nil, nil, fmt.Errorf("attribute %q: %w", name, err)
		}
		props[name] = p
	}
	var required []string
	for _, r := range s.Required {
		if _, ok := s.Attributes[r]; ok {
			required = append(required, r)
		}
	}
	return props, required, nil
}

func (w *schemaWriter) schema(s *provider.ResourceDefinitionsSchema, path string, depth int) (map[string]any, error) {
	if depth > maxSchemaDepth {
		return nil, errors.New("nested too deep")
	}
	out := map[string]any{}
	if d := firstOf(s.FormattedDescription, s.Description); d != "" {
		out["description"] = d
	}
	if s.Computed {
		w.readOnly = append(w.readOnly, path)
	}
	if s.MustRecreate {
		w.createOnly = append(w.createOnly, path)
	}
	// ComputedWhenOmitted means nothing on a computed field (the
	// framework's rule).
	if f := (rawFieldFlags{ComputedWhenOmitted: s.ComputedWhenOmitted && !s.Computed, ActivatesLinkOnReference: s.ActivatesLinkOnReference}); f != (rawFieldFlags{}) {
		if w.flags == nil {
			w.flags = map[string]rawFieldFlags{}
		}
		w.flags[strings.ReplaceAll(strings.TrimPrefix(path, "/properties/"), "/", ".")] = f
	}
	switch s.Type {
	case provider.ResourceDefinitionsSchemaTypeString:
		out["type"] = "string"
		if s.MinLength > 0 {
			out["minLength"] = s.MinLength
		}
		if s.MaxLength > 0 {
			out["maxLength"] = s.MaxLength
		}
		if s.Pattern != "" {
			out["pattern"] = s.Pattern
		}
	case provider.ResourceDefinitionsSchemaTypeInteger, provider.ResourceDefinitionsSchemaTypeFloat:
		out["type"] = "integer"
		if s.Type == provider.ResourceDefinitionsSchemaTypeFloat {
			out["type"] = "number"
		}
		if s.Minimum != nil {
			out["minimum"] = scalarJSON(s.Minimum)
		}
		if s.Maximum != nil {
			out["maximum"] = scalarJSON(s.Maximum)
		}
	case provider.ResourceDefinitionsSchemaTypeBoolean:
		out["type"] = "boolean"
	case provider.ResourceDefinitionsSchemaTypeObject:
		props, required, err := w.attributes(s, path, depth)
		if err != nil {
			return nil, err
		}
		out["type"] = "object"
		out["properties"] = props
		out["additionalProperties"] = false
		if len(required) > 0 {
			out["required"] = required
		}
	case provider.ResourceDefinitionsSchemaTypeMap:
		if s.MapValues == nil {
			return nil, errors.New("a map without a schema for its values")
		}
		v, err := w.schema(s.MapValues, path+"/*", depth+1)
		if err != nil {
			return nil, err
		}
		out["type"] = "object"
		out["patternProperties"] = map[string]any{"^.*$": v}
		out["additionalProperties"] = false
	case provider.ResourceDefinitionsSchemaTypeArray:
		if s.Items == nil {
			return nil, errors.New("an array without a schema for its items")
		}
		v, err := w.schema(s.Items, path+"/*", depth+1)
		if err != nil {
			return nil, err
		}
		out["type"] = "array"
		out["items"] = v
	case provider.ResourceDefinitionsSchemaTypeUnion:
		var alts []any
		for i, alt := range s.OneOf {
			if alt == nil {
				return nil, fmt.Errorf("union member %d has no schema", i)
			}
			v, err := w.schema(alt, path, depth+1)
			if err != nil {
				return nil, err
			}
			alts = append(alts, v)
		}
		if len(alts) == 0 {
			return nil, errors.New("a union of nothing")
		}
		out["oneOf"] = alts
	case "":
		return nil, errors.New("a schema without a type")
	default:
		return nil, fmt.Errorf("unknown schema type %q", s.Type)
	}
	if len(s.AllowedValues) > 0 {
		var enum []any
		for _, v := range s.AllowedValues {
			if v != nil {
				enum = append(enum, nodeJSON(v, 0))
			}
		}
		out["enum"] = enum
	}
	if s.Default != nil {
		out["default"] = nodeJSON(s.Default, 0)
	}
	return out, nil
}

func scalarJSON(v *bpcore.ScalarValue) any {
	switch {
	case v.IntValue != nil:
		return *v.IntValue
	case v.FloatValue != nil:
		return *v.FloatValue
	case v.BoolValue != nil:
		return *v.BoolValue
	case v.StringValue != nil:
		return *v.StringValue
	}
	return nil
}

func nodeJSON(n *bpcore.MappingNode, depth int) any {
	if n == nil || depth > maxSchemaDepth {
		return nil
	}
	switch {
	case n.Scalar != nil:
		return scalarJSON(n.Scalar)
	case n.Fields != nil:
		m := map[string]any{}
		for k, v := range n.Fields {
			m[k] = nodeJSON(v, depth+1)
		}
		return m
	case n.Items != nil:
		a := make([]any, 0, len(n.Items))
		for _, v := range n.Items {
			a = append(a, nodeJSON(v, depth+1))
		}
		return a
	}
	return nil
}
