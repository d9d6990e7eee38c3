package registry

import (
	"github.com/blueprint-ls/blueprint-ls/providers/resschema"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/types"
)

// Schema is one node of a property schema in the CloudFormation resource
// schema dialect of JSON Schema (draft-07). Property names are in blueprint
// form (lowerCamelCase); the CloudFormation names are kept in
// Property.Original for documentation. A $ref into the schema's own
// definitions or properties is resolved when the type is loaded: every
// Schema reachable from a ResourceType is already resolved, with keywords
// written beside a $ref laid over the target's, and recursive definitions
// become pointer cycles (walk them with a visited set).
type Schema struct {
	// Types lists the JSON Schema types allowed ("string", "integer",
	// "number", "boolean", "object", "array", "null"); empty allows any.
	Types       []string
	Description string
	Format      string
	Default     any

	// Objects.
	Properties        map[string]*Property // keyed by blueprint name
	Required          []string             // blueprint names
	PatternProperties []*PatternProperty
	// AdditionalProperties is the schema for keys matching no property or
	// pattern; nil with NoAdditional false allows anything.
	AdditionalProperties *Schema
	NoAdditional         bool // additionalProperties: false

	// Arrays.
	Items          *Schema
	MinItems       *int
	MaxItems       *int
	UniqueItems    bool
	InsertionOrder bool // defaults to true
	ArrayType      string

	// Scalars.
	Enum             []any // JSON values: string, float64, bool, nil
	Pattern          string
	MinLength        *int
	MaxLength        *int
	Minimum          *float64
	Maximum          *float64
	ExclusiveMinimum *float64
	ExclusiveMaximum *float64

	// Combinators.
	OneOf []*Schema
	AnyOf []*Schema
	AllOf []*Schema

	// Ref is the $ref as written, kept for documentation; a reference
	// outside the document cannot be followed and leaves the schema open.
	Ref string

	pattern *regexp.Regexp    // nil when Pattern is empty or not RE2
	names   []string          // sorted property names
	aliases map[string]string // other accepted spellings → property name (overlay.go)
	// satisfies maps a provider's field to the field it stands in for,
	// whose requirement it meets (overlay.go).
	satisfies map[string]string
	target    *Schema // $ref target before flattening
}

// Property is a named member of an object schema.
type Property struct {
	Name     string // blueprint form: functionName
	Original string // CloudFormation form: FunctionName
	Schema   *Schema
}

// PatternProperty gives the schema of keys matching a pattern (keys of
// such maps are user data and keep their spelling).
type PatternProperty struct {
	Pattern string
	Schema  *Schema
	re      *regexp.Regexp
}

// Matches reports whether key matches the pattern; a pattern Go cannot
// compile matches everything.
func (p *PatternProperty) Matches(key string) bool {
	return p.re == nil || p.re.MatchString(key)
}

// PatternRegexp returns the compiled pattern, or nil when the pattern is
// empty or uses syntax RE2 does not support (look-arounds, back
// references); such patterns are not checked.
func (s *Schema) PatternRegexp() *regexp.Regexp { return s.pattern }

// PropertyNames returns the property names in sorted order.
func (s *Schema) PropertyNames() []string { return s.names }

// Property returns the named property.
func (s *Schema) Property(name string) (*Property, bool) {
	p, ok := s.Properties[name]
	return p, ok
}

// Allows reports whether JSON type t is allowed; "number" allows
// "integer".
func (s *Schema) Allows(t string) bool {
	if len(s.Types) == 0 {
		return true
	}
	for _, have := range s.Types {
		if have == t || (have == "number" && t == "integer") {
			return true
		}
	}
	return false
}

// IsObject reports whether the schema describes a mapping.
func (s *Schema) IsObject() bool {
	if len(s.Types) == 0 {
		return len(s.Properties) > 0 || len(s.PatternProperties) > 0
	}
	return s.Allows("object")
}

// valueSchema returns the schema of key in a mapping described by s, and
// whether the key is allowed at all.
func (s *Schema) valueSchema(key string) (*Schema, *Property, bool) {
	if p, ok := s.Properties[key]; ok {
		return p.Schema, p, true
	}
	if p, ok := s.Properties[s.aliases[key]]; ok {
		return p.Schema, p, true
	}
	for _, pp := range s.PatternProperties {
		if pp.Matches(key) {
			return pp.Schema, nil, true
		}
	}
	if s.AdditionalProperties != nil {
		return s.AdditionalProperties, nil, true
	}
	if s.NoAdditional {
		return nil, nil, false
	}
	return nil, nil, true
}

// knownNames returns the property names of s and of its combinator
// branches, sorted: the names an unknown-field check accepts.
func (s *Schema) knownNames() []string {
	if len(s.OneOf)+len(s.AnyOf)+len(s.AllOf) == 0 {
		return s.names
	}
	seen := map[string]bool{}
	for _, n := range s.names {
		seen[n] = true
	}
	for _, group := range [][]*Schema{s.OneOf, s.AnyOf, s.AllOf} {
		for _, b := range group {
			for _, n := range b.names {
				seen[n] = true
			}
		}
	}
	out := make([]string, 0, len(seen))
	for n := range seen {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// branchProperty finds a property declared only in a combinator branch.
func (s *Schema) branchProperty(name string) (*Property, bool) {
	for _, group := range [][]*Schema{s.OneOf, s.AnyOf, s.AllOf} {
		for _, b := range group {
			if p, ok := b.Properties[name]; ok {
				return p, true
			}
		}
	}
	return nil, false
}

// Lookup follows path from s: property names for objects, "*", "[]" or
// an index for array items, any key for pattern or additional
// properties. It returns the schema at the end and the last named
// property passed (nil when the path ends in items or map values).
func (s *Schema) Lookup(path []string) (*Schema, *Property, bool) {
	cur := s
	var prop *Property
	for _, seg := range path {
		if cur == nil {
			return nil, nil, false
		}
		if cur.Items != nil && isItemSegment(seg) {
			cur, prop = cur.Items, nil
			continue
		}
		next, p, ok := cur.valueSchema(seg)
		if !ok || next == nil {
			if bp, found := cur.branchProperty(seg); found {
				next, p, ok = bp.Schema, bp, true
			}
		}
		if !ok || next == nil {
			return nil, nil, false
		}
		cur, prop = next, p
	}
	return cur, prop, true
}

func isItemSegment(seg string) bool {
	if seg == "*" || seg == "[]" {
		return true
	}
	// Only a sign or a digit can start what Atoi accepts; ruling the rest
	// out here spares building an error for every property name.
	if seg == "" || seg[0] != '+' && seg[0] != '-' && (seg[0] < '0' || seg[0] > '9') {
		return false
	}
	_, err := strconv.Atoi(seg)
	return err == nil
}

// Type converts the schema to the substitution language's type: string,
// integer, float (number), boolean, array[T], object{...} for objects
// with properties (closed when additionalProperties is false), map[T] for
// pattern or additional properties, unions for type lists and oneOf/anyOf,
// and any where the schema says nothing. Recursive schemas become any at
// the point of recursion.
func (s *Schema) Type() types.Type {
	t, _ := newTypeConv(nil, nil).typeOf(s, nil)
	return t
}

// maxTypeNodes bounds a converted type, counted as the tree it prints as:
// definitions that each reference the next more than once make a tree
// exponential in their depth (40 levels: 2^40 fields), though the
// schema is small. A subtree past the budget is cut to its shallow type
// (an open map, a list of any, any) and the conversion notes the cut;
// the schema check (resschema) warns on the $ref where that happens.
const maxTypeNodes = resschema.MaxRefExpansion

// typeConv converts schemas to types. A schema's type depends on its
// path only through drop, so a schema met at a path below which nothing
// is dropped is converted once (memo) and its type shared; without
// that, converting a schema whose definitions fan out is exponential.
type typeConv struct {
	// drop reports paths to leave out of objects (read-only fields in
	// a spec, write-only fields in state).
	drop func(path []string) bool
	// dropsUnder holds every prefix (joined by "/") of a path drop may
	// report: below any other path nothing is dropped.
	dropsUnder map[string]bool
	visiting   map[*Schema]bool
	memo       map[*Schema]sizedType
	// cut is set when a subtree was cut at maxTypeNodes.
	cut bool
}

// sizedType is a type and the number of nodes of the tree it prints as.
type sizedType struct {
	t types.Type
	n int
}

// newTypeConv is a converter dropping the paths drop reports, all of
// which are among (or below) the slash-joined keys of dropped.
func newTypeConv(drop func(path []string) bool, dropped []string) *typeConv {
	c := &typeConv{drop: drop, dropsUnder: map[string]bool{}, visiting: map[*Schema]bool{}, memo: map[*Schema]sizedType{}}
	for _, k := range dropped {
		segs := strings.Split(k, "/")
		for i := 0; i <= len(segs); i++ {
			c.dropsUnder[strings.Join(segs[:i], "/")] = true
		}
	}
	return c
}

// typeOf converts s at path, within maxTypeNodes.
func (c *typeConv) typeOf(s *Schema, path []string) (types.Type, int) {
	if s == nil {
		return types.Any, 1
	}
	if c.visiting[s] {
		return shallowType(s), 1
	}
	shared := c.drop == nil || !c.dropsUnder[strings.Join(path, "/")]
	if shared {
		if st, ok := c.memo[s]; ok {
			return st.t, st.n
		}
	}
	c.visiting[s] = true
	t, n := c.convert(s, path)
	delete(c.visiting, s)
	if n > maxTypeNodes {
		t, n, c.cut = shallowType(s), 1, true
	}
	if shared {
		c.memo[s] = sizedType{t, n}
	}
	return t, n
}

func (c *typeConv) convert(s *Schema, path []string) (types.Type, int) {
	if len(s.Types) == 0 {
		var alts []types.Type
		n := 1
		for _, group := range [][]*Schema{s.OneOf, s.AnyOf} {
			for _, b := range group {
				if len(b.Types) > 0 || len(b.Properties) > 0 || b.Items != nil {
					t, m := c.typeOf(b, path)
					alts, n = append(alts, t), saturatingAdd(n, m)
				}
			}
		}
		switch {
		case len(s.Properties) > 0 || len(s.PatternProperties) > 0:
			return c.objectType(s, path)
		case s.Items != nil:
			t, m := c.typeOf(s.Items, append(path, "*"))
			return &types.Array{Elem: t}, saturatingAdd(m, 1)
		case len(alts) > 0:
			return union(alts, n)
		}
		return types.Any, 1
	}
	var ts []types.Type
	n := 1
	for _, t := range s.Types {
		switch t {
		case "string":
			ts = append(ts, types.String)
		case "integer":
			ts = append(ts, types.Integer)
		case "number":
			ts = append(ts, types.Float)
		case "boolean":
			ts = append(ts, types.Boolean)
		case "array":
			et, m := c.typeOf(s.Items, append(path, "*"))
			ts, n = append(ts, &types.Array{Elem: et}), saturatingAdd(n, m)
		case "object":
			ot, m := c.objectType(s, path)
			ts, n = append(ts, ot), saturatingAdd(n, m)
		}
	}
	if len(ts) == 0 {
		return types.Any, 1
	}
	return union(ts, n)
}

// union is types.NewUnion of ts, whose trees count n nodes; one type is
// itself (NewUnion would print it to compare it with nothing).
func union(ts []types.Type, n int) (types.Type, int) {
	if len(ts) == 1 {
		return ts[0], n
	}
	if n > maxTypeNodes {
		// NewUnion compares its members by their text, which is as
		// large as their trees; typeOf cuts this one anyway.
		return types.Any, n
	}
	return types.NewUnion(ts...), n
}

func (c *typeConv) objectType(s *Schema, path []string) (types.Type, int) {
	if len(s.Properties) == 0 {
		var elems []types.Type
		n := 1
		for _, pp := range s.PatternProperties {
			t, m := c.typeOf(pp.Schema, append(path, "*"))
			elems, n = append(elems, t), saturatingAdd(n, m)
		}
		if s.AdditionalProperties != nil {
			t, m := c.typeOf(s.AdditionalProperties, append(path, "*"))
			elems, n = append(elems, t), saturatingAdd(n, m)
		}
		if len(elems) == 0 {
			return &types.Map{Elem: types.Any}, 1
		}
		et, n := union(elems, n)
		return &types.Map{Elem: et}, n
	}
	fields := make([]types.Field, 0, len(s.Properties))
	n := 1
	for _, name := range s.names {
		p := s.Properties[name]
		sub := append(append([]string(nil), path...), name)
		if c.drop != nil && c.drop(sub) {
			continue
		}
		t, m := c.typeOf(p.Schema, sub)
		n = saturatingAdd(n, m)
		fields = append(fields, types.Field{Name: name, Type: t, Doc: p.Schema.Description})
	}
	open := !s.NoAdditional || len(s.PatternProperties) > 0 || s.AdditionalProperties != nil
	return types.NewObject(open, fields...), n
}

func saturatingAdd(a, b int) int {
	if s := a + b; s >= a && s >= b {
		return s
	}
	return int(^uint(0) >> 1)
}

// TypeName renders the allowed JSON types the way blueprint messages
// name them: float for number, object for a mapping.
func (s *Schema) TypeName() string {
	if len(s.Types) == 0 {
		if s.IsObject() {
			return "object"
		}
		if s.Items != nil {
			return "array"
		}
		return "any"
	}
	parts := make([]string, 0, len(s.Types))
	for _, t := range s.Types {
		if t == "number" {
			t = "float"
		}
		parts = append(parts, t)
	}
	return strings.Join(parts, " | ")
}

func sortStrings(s []string) { sort.Strings(s) }

// shallowType is the type of a schema met again while converting it: its
// kind without its members, so a recursive tree stays finite.
func shallowType(s *Schema) types.Type {
	switch {
	case s.Items != nil || (len(s.Types) == 1 && s.Types[0] == "array"):
		return &types.Array{Elem: types.Any}
	case s.IsObject():
		return &types.Map{Elem: types.Any}
	}
	return types.Any
}
