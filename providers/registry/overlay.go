package registry

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// A provider file's resourceTypes member adjusts resource types whose
// schemas come from elsewhere (the CloudFormation catalog), so that a
// provider that names things its own way is understood without copying
// whole schemas:
//
//	"resourceTypes": {
//	  "aws/lambda/functionVersion": {"aliasFor": "aws/lambda/version"},
//	  "aws/lambda/eventSourceMapping": {"fields": {
//	    "documentDbEventSourceConfig": {"aliasFor": "documentDBEventSourceConfig"},
//	    "destinationConfig.onSuccess": {"schema": {"type": "object"}},
//	    "state": {"schema": {"type": "string"}, "readOnly": true}
//	  }}
//	}
//
// aliasFor on a type makes the name another spelling of the target type;
// aliasFor on a field makes the field's key (the last path segment) the
// name completion offers, the target staying accepted. A field with a
// schema (CloudFormation dialect) is added; readOnly makes it state only.
// computedWhenOmitted and activatesLinkOnReference flag a field (added,
// or the type's own when the entry has neither aliasFor nor schema) with
// the framework's semantics of those names (Mark ComputedWhenOmitted,
// ActivatesLink).
// Field paths are dot-separated blueprint names, * for array items.

type rawTypeOverlay struct {
	AliasFor    string                     `json:"aliasFor"`
	Description string                     `json:"description"`
	Fields      map[string]rawFieldOverlay `json:"fields"`
}

type rawFieldOverlay struct {
	AliasFor    string     `json:"aliasFor"`
	Schema      *rawSchema `json:"schema"`
	ReadOnly    bool       `json:"readOnly"`
	Replaces    string     `json:"replaces"`
	Description string     `json:"description"`

	ComputedWhenOmitted      bool `json:"computedWhenOmitted"`
	ActivatesLinkOnReference bool `json:"activatesLinkOnReference"`
}

// flags returns the marks an overlay entry sets by flag.
func (rf rawFieldOverlay) flags() Mark {
	var m Mark
	if rf.ComputedWhenOmitted {
		m |= ComputedWhenOmitted
	}
	if rf.ActivatesLinkOnReference {
		m |= ActivatesLink
	}
	return m
}

// typeOverlay is what a provider file changes about one resource type.
type typeOverlay struct {
	description string
	fields      []fieldOverlay // in path order, so parents come first
}

type fieldOverlay struct {
	parent      []string // blueprint path of the object holding the field
	name        string
	aliasFor    string     // set for a second spelling
	schema      *rawSchema // set for an added field
	readOnly    bool
	replaces    string // a field this one stands in for (it satisfies its requirement)
	description string
	flags       Mark // ComputedWhenOmitted, ActivatesLink
}

// parseOverlays checks and converts the resourceTypes member: type
// aliases (alias → target) and the overlays keyed by the type they apply
// to.
func parseOverlays(raw map[string]rawTypeOverlay) (aliases map[string]string, overlays map[string]*typeOverlay, errs []string) {
	aliases, overlays = map[string]string{}, map[string]*typeOverlay{}
	for _, name := range sortedKeys(raw) {
		r := raw[name]
		target := name
		if r.AliasFor != "" {
			if r.AliasFor == name {
				errs = append(errs, fmt.Sprintf("resource type %s is an alias for itself", name))
				continue
			}
			aliases[name] = r.AliasFor
			target = r.AliasFor
		}
		if len(r.Fields) == 0 && r.Description == "" {
			continue
		}
		ov := overlays[target]
		if ov == nil {
			ov = &typeOverlay{}
			overlays[target] = ov
		}
		if r.Description != "" {
			ov.description = r.Description
		}
		for _, path := range sortedKeys(r.Fields) {
			rf := r.Fields[path]
			segs := strings.Split(path, ".")
			if slices.Contains(segs, "") {
				errs = append(errs, fmt.Sprintf("%s field %q: empty path segment", name, path))
				continue
			}
			if rf.AliasFor != "" && rf.Schema != nil || rf.AliasFor == "" && rf.Schema == nil && rf.flags() == 0 {
				errs = append(errs, fmt.Sprintf("%s field %q: give either aliasFor or schema, or flags only", name, path))
				continue
			}
			ov.fields = append(ov.fields, fieldOverlay{parent: segs[:len(segs)-1], name: segs[len(segs)-1],
				aliasFor: rf.AliasFor, schema: rf.Schema, readOnly: rf.ReadOnly, replaces: rf.Replaces, description: rf.Description, flags: rf.flags()})
		}
		sort.SliceStable(ov.fields, func(i, j int) bool { return len(ov.fields[i].parent) < len(ov.fields[j].parent) })
	}
	return aliases, overlays, errs
}

// apply changes a freshly compiled type (nobody else holds it). A field
// whose parent the schema lacks is skipped: the catalog may have moved on
// since the table was written, and a stale line must not break the type.
func (ov *typeOverlay) apply(rt *ResourceType) {
	if ov.description != "" && rt.Description == "" {
		rt.Description = ov.description
	}
	for _, f := range ov.fields {
		parent, _, ok := rt.Schema.Lookup(f.parent)
		if !ok || parent == nil {
			continue
		}
		if f.flags != 0 {
			rt.flag(f)
		}
		if f.aliasFor != "" {
			rt.aliasField(parent, f)
			continue
		}
		if f.schema == nil {
			continue // flags only
		}
		c := newCompiler(&rawResource{})
		s := c.link(c.compile(f.schema))
		if f.description != "" {
			s.Description = f.description
		}
		if old, ok := parent.Properties[f.name]; ok {
			// The type has the field: the provider's shape becomes an
			// accepted alternative (a map where CloudFormation has a list).
			s = &Schema{InsertionOrder: true, AnyOf: []*Schema{old.Schema, s}, Description: cmp.Or(f.description, old.Schema.Description)}
		}
		parent.addProperty(&Property{Name: f.name, Original: f.name, Schema: s})
		if f.replaces != "" {
			if parent.satisfies == nil {
				parent.satisfies = map[string]string{}
			}
			parent.satisfies[f.name] = f.replaces
		}
		if f.readOnly {
			path := append(slices.Clone(f.parent), f.name)
			rt.marks[markKey(path)] |= ReadOnly
			rt.ReadOnlyPaths = append(rt.ReadOnlyPaths, path)
		}
	}
	rt.finish()
}

// flag sets the marks f flags on its path.
func (rt *ResourceType) flag(f fieldOverlay) {
	path := append(slices.Clone(f.parent), f.name)
	rt.marks[markKey(path)] |= f.flags
	if f.flags.Has(ComputedWhenOmitted) {
		rt.ComputedWhenOmittedPaths = append(rt.ComputedWhenOmittedPaths, path)
	}
	if f.flags.Has(ActivatesLink) {
		rt.ActivatingPaths = append(rt.ActivatingPaths, path)
	}
}

// aliasField makes f.name the offered spelling of parent's property
// f.aliasFor, which stays accepted, with the marks of both.
func (rt *ResourceType) aliasField(parent *Schema, f fieldOverlay) {
	p, ok := parent.Properties[f.aliasFor]
	if !ok {
		return
	}
	delete(parent.Properties, f.aliasFor)
	parent.names = slices.DeleteFunc(parent.names, func(n string) bool { return n == f.aliasFor })
	parent.addProperty(&Property{Name: f.name, Original: p.Original, Schema: p.Schema})
	for i, r := range parent.Required {
		if r == f.aliasFor {
			parent.Required[i] = f.name
		}
	}
	if parent.aliases == nil {
		parent.aliases = map[string]string{}
	}
	parent.aliases[f.aliasFor] = f.name
	old := markKey(append(slices.Clone(f.parent), f.aliasFor))
	renamed := markKey(append(slices.Clone(f.parent), f.name))
	for k, m := range rt.marks {
		if k == old || strings.HasPrefix(k, old+"/") {
			rt.marks[renamed+k[len(old):]] |= m
		}
	}
}

// addProperty adds or replaces a property, keeping the names sorted.
func (s *Schema) addProperty(p *Property) {
	if s.Properties == nil {
		s.Properties = map[string]*Property{}
	}
	if _, ok := s.Properties[p.Name]; !ok {
		s.names = append(slices.Clone(s.names), p.Name)
		sort.Strings(s.names)
	}
	s.Properties[p.Name] = p
	if len(s.Types) == 0 && len(s.OneOf)+len(s.AnyOf)+len(s.AllOf) == 0 {
		s.Types = []string{"object"}
	}
}

// canonical returns the offered spelling of a property key written with
// another spelling a provider table accepts.
func (s *Schema) canonical(key string) string {
	if c, ok := s.aliases[key]; ok {
		return c
	}
	return key
}
