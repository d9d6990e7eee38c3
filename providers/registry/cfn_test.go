package registry

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/source"
)

const sharedSchemas = "../../../shared/cfn-schemas"

// sample writes a JSON value that satisfies s: required fields only
// (all settable fields when full is set), values at their bounds, the
// first enum value, and a substitution for patterned strings (whose
// values are then not checked) so that the sample is valid by
// construction.
func sample(rt *ResourceType, s *Schema, path []string, full bool, depth int) string {
	if depth > 6 {
		return `"${deep}"`
	}
	if len(s.Enum) > 0 {
		switch e := s.Enum[0].(type) {
		case string:
			if _, err := strconv.ParseFloat(e, 64); err == nil && !s.Allows("string") {
				return e // AWS::EC2::DHCPOptions: integer enum written as strings
			}
			return strconv.Quote(e)
		case float64:
			return fmtNum(e)
		case bool:
			return strconv.FormatBool(e)
		}
	}
	kind := ""
	for _, k := range []string{"object", "array", "string", "integer", "number", "boolean"} {
		if s.Allows(k) && (len(s.Types) > 0 || k == "object" && s.IsObject() || k == "array" && s.Items != nil) {
			kind = k
			break
		}
	}
	if kind == "" && len(s.OneOf)+len(s.AnyOf) > 0 {
		for _, b := range append(append([]*Schema(nil), s.OneOf...), s.AnyOf...) {
			if len(b.Types) > 0 || b.Items != nil || len(b.Properties) > 0 {
				return sample(rt, b, path, full, depth+1)
			}
		}
	}
	switch kind {
	case "object":
		s = foldConstraints(s)
		if len(s.OneOf) > 0 && !allRequiredOnly(s.OneOf) && len(s.OneOf[0].Properties) > 0 {
			return sample(rt, s.OneOf[0], path, full, depth+1)
		}
		var names []string
		seen := map[string]bool{}
		add := func(n string) {
			sub := append(append([]string(nil), path...), n)
			if !seen[n] && !rt.Marks(sub).Has(ReadOnly) && !rt.markedUnder(sub).Has(ReadOnly) {
				seen[n] = true
				names = append(names, n)
			}
		}
		for _, r := range s.Required {
			add(r)
		}
		// Satisfy the first branch of a "one of these fields" combinator.
		for _, group := range [][]*Schema{s.OneOf, s.AnyOf} {
			if len(group) > 0 && allRequiredOnly(group) {
				for _, r := range group[0].Required {
					add(r)
				}
			}
		}
		if full && len(s.OneOf)+len(s.AnyOf) == 0 {
			for _, n := range s.PropertyNames() {
				if !rt.Marks(append(append([]string(nil), path...), n)).Has(Deprecated) {
					add(n)
				}
			}
		}
		sort.Strings(names)
		var parts []string
		for _, n := range names {
			child, _, ok := s.Lookup([]string{n})
			if !ok {
				continue
			}
			parts = append(parts, strconv.Quote(n)+": "+sample(rt, child, append(append([]string(nil), path...), n), full, depth+1))
		}
		if len(parts) == 0 && len(s.PatternProperties) > 0 {
			return "{}"
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case "array":
		n := 1
		if s.MinItems != nil && *s.MinItems > n {
			n = *s.MinItems
		}
		if s.MaxItems != nil && *s.MaxItems < n {
			n = *s.MaxItems
		}
		var items []string
		for i := 0; i < n; i++ {
			if s.Items == nil {
				items = append(items, strconv.Quote(fmt.Sprintf("${item%d}", i)))
				continue
			}
			item := sample(rt, s.Items, append(append([]string(nil), path...), "*"), full, depth+1)
			if i > 0 && s.UniqueItems {
				item = `"${unique` + strconv.Itoa(i) + `}"`
			}
			items = append(items, item)
		}
		return "[" + strings.Join(items, ", ") + "]"
	case "string":
		if s.pattern != nil || s.Format != "" {
			return `"${dynamic}"`
		}
		n := 1
		if s.MinLength != nil && *s.MinLength > n {
			n = *s.MinLength
		}
		return strconv.Quote(strings.Repeat("a", n))
	case "integer", "number":
		v := 1.0
		if s.Minimum != nil {
			v = *s.Minimum
		}
		if s.ExclusiveMinimum != nil {
			v = *s.ExclusiveMinimum + 1
		}
		if s.Maximum != nil && v > *s.Maximum {
			v = *s.Maximum
		}
		return fmtNum(v)
	case "boolean":
		return "true"
	}
	return `"${anything}"`
}

// constraintOnly reports whether a combinator branch only adds
// requirements (required lists, possibly on nested properties, and
// further such combinators) rather than describing an alternative shape.
func constraintOnly(b *Schema) bool {
	if len(b.Types) > 0 || b.Items != nil || len(b.Enum) > 0 {
		return false
	}
	for _, p := range b.Properties {
		if !constraintOnly(p.Schema) {
			return false
		}
	}
	for _, g := range [][]*Schema{b.OneOf, b.AnyOf, b.AllOf} {
		for _, c := range g {
			if !constraintOnly(c) {
				return false
			}
		}
	}
	return true
}

// foldConstraints returns s with the requirements of its constraint-only
// combinators laid over its properties: every allOf branch and the first
// oneOf and anyOf branch, nested properties' required lists included
// (AWS::BillingConductor::BillingGroup requires
// AccountGrouping.ResponsibilityTransferArn in one anyOf branch).
func foldConstraints(s *Schema) *Schema {
	m := *s
	m.Required = append([]string(nil), s.Required...)
	copied := false
	var add func(b *Schema)
	add = func(b *Schema) {
		m.Required = append(m.Required, b.Required...)
		for name, p := range b.Properties {
			base, ok := m.Properties[name]
			if !ok || (len(p.Schema.Required) == 0 && len(p.Schema.AllOf)+len(p.Schema.OneOf)+len(p.Schema.AnyOf) == 0) {
				continue
			}
			if !copied {
				m.Properties = maps.Clone(m.Properties)
				copied = true
			}
			child := *base.Schema
			child.Required = append(append([]string(nil), child.Required...), p.Schema.Required...)
			child.AllOf = append(append([]*Schema(nil), child.AllOf...), p.Schema.AllOf...)
			if len(p.Schema.OneOf) > 0 {
				child.OneOf = p.Schema.OneOf
			}
			if len(p.Schema.AnyOf) > 0 {
				child.AnyOf = p.Schema.AnyOf
			}
			m.Properties[name] = &Property{Name: base.Name, Original: base.Original, Schema: &child}
		}
		for _, c := range b.AllOf {
			add(c)
		}
		for _, g := range [][]*Schema{b.OneOf, b.AnyOf} {
			if len(g) > 0 {
				add(g[0])
			}
		}
	}
	for _, c := range s.AllOf {
		if constraintOnly(c) {
			add(c)
		}
	}
	for _, g := range [][]*Schema{s.OneOf, s.AnyOf} {
		if len(g) > 0 && constraintOnly(g[0]) {
			add(g[0])
		}
	}
	return &m
}

func checkSchemaDir(t *testing.T, dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Skipf("no schema folder: %v", err)
	}
	r := New()
	if err := r.LoadDir(dir); err != nil {
		t.Fatal(err)
	}
	count := 0
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), "aws-") || !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		count++
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		_, typeName, _ := scanTopLevel(data, "typeName")
		name := ResourceTypeName(typeName)
		t.Run(name, func(t *testing.T) {
			rt, ok := r.ResourceType(name)
			if !ok || rt.Err != nil {
				t.Fatalf("load: %v %v", ok, rt.Err)
			}
			checkResourceType(t, rt)
		})
	}
	if count == 0 {
		t.Skip("no schemas")
	}
}

// checkResourceType checks what every real schema must give: a primary
// identifier, sample specs (required fields only, and every settable
// field) that validate against the type, a read-only property rejected
// at its key, and state look-ups of the read-only paths.
func checkResourceType(t *testing.T, rt *ResourceType) {
	t.Helper()
	// Abstract (celerity/...) types have none, nor do a few retired ones
	// only the service spec still describes.
	if len(rt.PrimaryIdentifier) == 0 && strings.Contains(rt.Original, "::") && rt.SourceURL != ServiceSpecURL {
		t.Error("no primary identifier") // abstract (celerity/...) types have none
	}
	for _, full := range []bool{false, true} {
		spec := sample(rt, rt.Schema, nil, full, 0)
		if ds := rt.ValidateSpec(tn(parseJSONNode(spec)), where); len(errorsOnly(ds)) > 0 {
			t.Errorf("sample spec (full=%v) %s\nreported %v", full, spec, ds)
		}
	}
	// Setting a read-only top-level property is an error at its key.
	for _, p := range rt.ReadOnlyPaths {
		if len(p) != 1 {
			continue
		}
		spec := sample(rt, rt.Schema, nil, false, 0)
		spec = strings.TrimSuffix(spec, "}")
		if spec != "{" {
			spec += ", "
		}
		spec += strconv.Quote(p[0]) + `: "${x}"}`
		n := parseJSONNode(spec)
		ds := rt.ValidateSpec(tn(n), where)
		if len(ds) != 1 || ds[0].Code != "resource-read-only" || ds[0].Range != n.keyRange(p[0]) {
			t.Errorf("read-only %s: %v", p[0], ds)
		}
		break
	}
	// Every readable path resolves in the state type.
	for _, p := range rt.ReadOnlyPaths {
		if rt.markedUnder(p).Has(WriteOnly) {
			continue // under a write-only object (AWS::Athena::WorkGroup's deprecated WorkGroupConfigurationUpdates)
		}
		if _, ok := rt.LookupState(p); !ok {
			t.Errorf("state lookup %v failed", p)
		}
	}
}

func errorsOnly(ds []source.Diagnostic) []source.Diagnostic {
	var out []source.Diagnostic
	for _, d := range ds {
		if d.Severity == source.Error {
			out = append(out, d)
		}
	}
	return out
}

// TestSharedSchemas loads every schema of the shared sample folder and
// validates generated specs; it is skipped in a fresh clone.
func TestSharedSchemas(t *testing.T) {
	if _, err := os.Stat(sharedSchemas); err != nil {
		t.Skipf("shared schemas absent: %v", err)
	}
	checkSchemaDir(t, sharedSchemas)
}

func TestTestdataSchemaSample(t *testing.T) {
	rt := gadget(t)
	for _, full := range []bool{false, true} {
		spec := sample(rt, rt.Schema, nil, full, 0)
		if ds := rt.ValidateSpec(tn(parseJSONNode(spec)), where); len(ds) > 0 {
			t.Errorf("sample %s: %v", spec, ds)
		}
	}
}
