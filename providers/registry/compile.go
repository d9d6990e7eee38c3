package registry

import (
	"cmp"
	"encoding/json"
	"errors"
	"regexp"
	"sort"
	"strings"
)

// rawSchema is a property schema as written in JSON. Fields whose JSON
// shape varies (type, items, additionalProperties) stay raw.
type rawSchema struct {
	Type                 json.RawMessage       `json:"type"`
	Description          string                `json:"description"`
	Format               string                `json:"format"`
	Default              any                   `json:"default"`
	Properties           map[string]*rawSchema `json:"properties"`
	Required             []string              `json:"required"`
	PatternProperties    map[string]*rawSchema `json:"patternProperties"`
	AdditionalProperties json.RawMessage       `json:"additionalProperties"`
	Items                json.RawMessage       `json:"items"`
	MinItems             *float64              `json:"minItems"`
	MaxItems             *float64              `json:"maxItems"`
	UniqueItems          bool                  `json:"uniqueItems"`
	InsertionOrder       *bool                 `json:"insertionOrder"`
	ArrayType            string                `json:"arrayType"`
	Enum                 []any                 `json:"enum"`
	Const                json.RawMessage       `json:"const"`
	Pattern              string                `json:"pattern"`
	MinLength            *float64              `json:"minLength"`
	MaxLength            *float64              `json:"maxLength"`
	Minimum              *float64              `json:"minimum"`
	Maximum              *float64              `json:"maximum"`
	ExclusiveMinimum     json.RawMessage       `json:"exclusiveMinimum"`
	ExclusiveMaximum     json.RawMessage       `json:"exclusiveMaximum"`
	OneOf                []*rawSchema          `json:"oneOf"`
	AnyOf                []*rawSchema          `json:"anyOf"`
	AllOf                []*rawSchema          `json:"allOf"`
	Ref                  string                `json:"$ref"`
}

// rawResource is a CloudFormation resource schema document.
type rawResource struct {
	rawSchema
	TypeName             string                `json:"typeName"`
	SourceURL            string                `json:"sourceUrl"`
	DocumentationURL     string                `json:"documentationUrl"`
	Definitions          map[string]*rawSchema `json:"definitions"`
	ReadOnlyProperties   []string              `json:"readOnlyProperties"`
	WriteOnlyProperties  []string              `json:"writeOnlyProperties"`
	CreateOnlyProperties []string              `json:"createOnlyProperties"`
	DeprecatedProperties []string              `json:"deprecatedProperties"`
	ConditionalCreate    []string              `json:"conditionalCreateOnlyProperties"`
	PrimaryIdentifier    []string              `json:"primaryIdentifier"`
	ReplacementStrategy  string                `json:"replacementStrategy"`
}

// decodeLenient unmarshals data into v, tolerating values of an
// unexpected JSON type (encoding/json skips those fields and carries on);
// only malformed JSON is an error.
func decodeLenient(data []byte, v any) error {
	err := json.Unmarshal(data, v)
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return nil
	}
	return err
}

// compiler turns raw schemas into Schemas for one document. Definitions
// are compiled on first reference and memoized, so a recursive definition
// becomes a pointer cycle rather than endless recursion.
type compiler struct {
	doc      *rawResource
	defs     map[string]*Schema // by definition name
	props    map[string]*Schema // top-level properties by original name, for #/properties refs
	withRefs []*Schema
}

func newCompiler(doc *rawResource) *compiler {
	return &compiler{doc: doc, defs: map[string]*Schema{}, props: map[string]*Schema{}}
}

func (c *compiler) compile(r *rawSchema) *Schema {
	s := &Schema{InsertionOrder: true}
	if r != nil {
		c.fill(s, r)
	}
	return s
}

func (c *compiler) fill(s *Schema, r *rawSchema) {
	s.Types = decodeTypes(r.Type)
	s.Description = r.Description
	s.Format = r.Format
	s.Default = r.Default
	if len(r.Properties) > 0 {
		s.Properties = make(map[string]*Property, len(r.Properties))
		for orig, pr := range r.Properties {
			name := LowerCamel(orig)
			if _, dup := s.Properties[name]; dup {
				// Two spellings fold to one name; keep the original
				// spelling of the second so both stay reachable.
				name = orig
			}
			s.Properties[name] = &Property{Name: name, Original: orig, Schema: c.compile(pr)}
		}
		s.names = make([]string, 0, len(s.Properties))
		for n := range s.Properties {
			s.names = append(s.names, n)
		}
		sort.Strings(s.names)
	}
	for _, req := range r.Required {
		s.Required = append(s.Required, s.blueprintName(req))
	}
	if len(r.PatternProperties) > 0 {
		keys := make([]string, 0, len(r.PatternProperties))
		for k := range r.PatternProperties {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			pp := &PatternProperty{Pattern: k, Schema: c.compile(r.PatternProperties[k])}
			pp.re, _ = regexp.Compile(k)
			s.PatternProperties = append(s.PatternProperties, pp)
		}
	}
	if ap := strings.TrimSpace(string(r.AdditionalProperties)); ap != "" {
		switch ap {
		case "false":
			s.NoAdditional = true
		case "true":
		default:
			var sub rawSchema
			if decodeLenient(r.AdditionalProperties, &sub) == nil {
				s.AdditionalProperties = c.compile(&sub)
			}
		}
	}
	if len(r.Items) > 0 {
		var sub rawSchema
		if decodeLenient(r.Items, &sub) == nil {
			s.Items = c.compile(&sub)
		} else {
			// A tuple form (not allowed by CloudFormation): use the first.
			var subs []*rawSchema
			if decodeLenient(r.Items, &subs) == nil && len(subs) > 0 {
				s.Items = c.compile(subs[0])
			}
		}
	}
	s.MinItems, s.MaxItems = intPtr(r.MinItems), intPtr(r.MaxItems)
	s.UniqueItems = r.UniqueItems
	if r.InsertionOrder != nil {
		s.InsertionOrder = *r.InsertionOrder
	}
	s.ArrayType = r.ArrayType
	s.Enum = r.Enum
	if len(r.Const) > 0 {
		var v any
		if json.Unmarshal(r.Const, &v) == nil {
			s.Enum = []any{v}
		}
	}
	s.Pattern = r.Pattern
	if r.Pattern != "" {
		s.pattern, _ = regexp.Compile(r.Pattern)
	}
	s.MinLength, s.MaxLength = intPtr(r.MinLength), intPtr(r.MaxLength)
	s.Minimum, s.Maximum = r.Minimum, r.Maximum
	s.ExclusiveMinimum = exclusiveBound(r.ExclusiveMinimum, &s.Minimum)
	s.ExclusiveMaximum = exclusiveBound(r.ExclusiveMaximum, &s.Maximum)
	for _, b := range r.OneOf {
		s.OneOf = append(s.OneOf, c.compile(b))
	}
	for _, b := range r.AnyOf {
		s.AnyOf = append(s.AnyOf, c.compile(b))
	}
	for _, b := range r.AllOf {
		s.AllOf = append(s.AllOf, c.compile(b))
	}
	if r.Ref != "" {
		s.Ref = r.Ref
		s.target = c.resolveRef(r.Ref)
		c.withRefs = append(c.withRefs, s)
	}
}

// blueprintName maps an original property name listed in required to the
// name it was stored under.
func (s *Schema) blueprintName(orig string) string {
	name := LowerCamel(orig)
	if p, ok := s.Properties[name]; ok && p.Original != orig {
		if _, ok := s.Properties[orig]; ok {
			return orig
		}
	}
	return name
}

// refTarget returns the compiled schema of raws[name], compiled once into
// memo; nil when there is no such schema. The schema is memoised before it
// is filled, so a recursive reference finds it.
func (c *compiler) refTarget(memo map[string]*Schema, raws map[string]*rawSchema, name string) *Schema {
	if s, ok := memo[name]; ok {
		return s
	}
	raw, ok := raws[name]
	if !ok {
		return nil
	}
	s := &Schema{InsertionOrder: true}
	memo[name] = s
	c.fill(s, raw)
	return s
}

// resolveRef follows a reference inside the document: #/definitions/X or
// #/properties/X, optionally further into /properties/Y of the target.
// References to other documents are left open.
func (c *compiler) resolveRef(ref string) *Schema {
	if !strings.HasPrefix(ref, "#/") {
		return nil
	}
	segs := strings.Split(ref[2:], "/")
	if len(segs) < 2 {
		return nil
	}
	for i, seg := range segs {
		segs[i] = strings.ReplaceAll(strings.ReplaceAll(seg, "~1", "/"), "~0", "~")
	}
	var s *Schema
	switch segs[0] {
	case "definitions":
		s = c.refTarget(c.defs, c.doc.Definitions, segs[1])
	case "properties":
		s = c.refTarget(c.props, c.doc.Properties, segs[1])
	}
	if s == nil {
		return nil
	}
	for i := 2; i+1 < len(segs) && segs[i] == "properties"; i += 2 {
		p, ok := s.Properties[LowerCamel(segs[i+1])]
		if !ok {
			return nil
		}
		s = p.Schema
	}
	return s
}

// link replaces every $ref node reachable from root with its flattened
// form (the target with the sibling keywords laid over it), so consumers
// never see an unresolved reference.
func (c *compiler) link(root *Schema) *Schema {
	flat := map[*Schema]*Schema{}
	var flatten func(s *Schema, depth int) *Schema
	flatten = func(s *Schema, depth int) *Schema {
		if s == nil || s.target == nil {
			return s
		}
		if f, ok := flat[s]; ok {
			return f
		}
		if depth > 32 { // a cycle of bare references: leave it open
			return &Schema{InsertionOrder: true, Ref: s.Ref, Description: s.Description}
		}
		t := flatten(s.target, depth+1)
		merged := overlay(t, s)
		flat[s] = merged
		return merged
	}
	visited := map[*Schema]bool{}
	var walk func(s *Schema) *Schema
	walk = func(s *Schema) *Schema {
		s = flatten(s, 0)
		if s == nil || visited[s] {
			return s
		}
		visited[s] = true
		for _, p := range s.Properties {
			p.Schema = walk(p.Schema)
		}
		for _, pp := range s.PatternProperties {
			pp.Schema = walk(pp.Schema)
		}
		s.AdditionalProperties = walk(s.AdditionalProperties)
		s.Items = walk(s.Items)
		for _, group := range [][]*Schema{s.OneOf, s.AnyOf, s.AllOf} {
			for i := range group {
				group[i] = walk(group[i])
			}
		}
		return s
	}
	return walk(root)
}

// overlay returns a copy of target with the keywords written beside the
// $ref in s laid over it. CloudFormation schemas use such siblings
// (minItems next to a $ref, say) even though draft-07 ignores them.
func overlay(target, s *Schema) *Schema {
	m := &Schema{InsertionOrder: true}
	if target != nil {
		*m = *target
	}
	m.Ref, m.target = s.Ref, nil
	if len(s.Types) > 0 && (len(m.Types) == 0 || overlaps(m.Types, s.Types)) {
		// A sibling type that contradicts the definition's is a slip in
		// the schema (AWS::MemoryDB::Cluster's DataTiering: "type":
		// "object" beside a $ref to a string enum); the definition wins.
		m.Types = s.Types
	}
	if s.Description != "" {
		m.Description = s.Description
	}
	if s.Format != "" {
		m.Format = s.Format
	}
	if s.Default != nil {
		m.Default = s.Default
	}
	if s.Properties != nil {
		m.Properties, m.names = s.Properties, s.names
	}
	if len(s.Required) > 0 {
		m.Required = append(append([]string(nil), m.Required...), s.Required...)
	}
	if s.PatternProperties != nil {
		m.PatternProperties = s.PatternProperties
	}
	if s.AdditionalProperties != nil {
		m.AdditionalProperties = s.AdditionalProperties
	}
	m.NoAdditional = m.NoAdditional || s.NoAdditional
	if s.Items != nil {
		m.Items = s.Items
	}
	m.MinItems = cmp.Or(s.MinItems, m.MinItems)
	m.MaxItems = cmp.Or(s.MaxItems, m.MaxItems)
	m.UniqueItems = m.UniqueItems || s.UniqueItems
	if !s.InsertionOrder {
		m.InsertionOrder = false
	}
	if s.Enum != nil {
		m.Enum = s.Enum
	}
	if s.Pattern != "" {
		m.Pattern, m.pattern = s.Pattern, s.pattern
	}
	m.MinLength = cmp.Or(s.MinLength, m.MinLength)
	m.MaxLength = cmp.Or(s.MaxLength, m.MaxLength)
	m.Minimum = cmp.Or(s.Minimum, m.Minimum)
	m.Maximum = cmp.Or(s.Maximum, m.Maximum)
	m.ExclusiveMinimum = cmp.Or(s.ExclusiveMinimum, m.ExclusiveMinimum)
	m.ExclusiveMaximum = cmp.Or(s.ExclusiveMaximum, m.ExclusiveMaximum)
	if s.OneOf != nil {
		m.OneOf = s.OneOf
	}
	if s.AnyOf != nil {
		m.AnyOf = s.AnyOf
	}
	if s.AllOf != nil {
		m.AllOf = s.AllOf
	}
	return m
}

func intPtr(f *float64) *int {
	if f == nil {
		return nil
	}
	n := int(*f)
	return &n
}

// exclusiveBound reads draft-07 exclusiveMinimum/Maximum (a number) and
// the draft-04 boolean form, which makes *bound exclusive.
func exclusiveBound(raw json.RawMessage, bound **float64) *float64 {
	switch strings.TrimSpace(string(raw)) {
	case "":
		return nil
	case "true":
		if *bound != nil {
			b := *bound
			*bound = nil
			return b
		}
		return nil
	case "false":
		return nil
	}
	var f float64
	if json.Unmarshal(raw, &f) != nil {
		return nil
	}
	return &f
}

func decodeTypes(raw json.RawMessage) []string {
	if len(raw) == 0 {
		return nil
	}
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return []string{one}
	}
	var many []string
	if json.Unmarshal(raw, &many) == nil {
		return many
	}
	return nil
}

func overlaps(a, b []string) bool {
	for _, x := range a {
		for _, y := range b {
			if x == y || x == "number" && y == "integer" || x == "integer" && y == "number" {
				return true
			}
		}
	}
	return false
}
