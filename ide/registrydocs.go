package ide

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/providers/registry"
)

// resourceTypeMarkdown documents a resource type: its names, what AWS
// says of it, and a link to the reference page.
func resourceTypeMarkdown(rt *registry.ResourceType) string {
	md := fmt.Sprintf("**%s** (`%s`)", rt.Name, rt.Original)
	if rt.Description != "" {
		md += "\n\n" + rt.Description
	}
	if rt.SourceURL == registry.ServiceSpecURL {
		md += "\n\n*Newer than the built-in CloudFormation schemas: described from the AWS service spec, so field patterns and allowed values are not checked.*"
	}
	if rt.DocsURL != "" {
		md += "\n\n[Read more](" + rt.DocsURL + ")"
	}
	return md
}

// propertyDoc describes a registry property for hover and completion:
// AWS's text, the semantics (required, create-only, read-only,
// deprecated), the allowed values, default and pattern, and the type's
// reference page. rt may be nil.
func propertyDoc(rt *registry.ResourceType, s *registry.Schema, marks registry.Mark, required bool) string {
	var parts []string
	if s != nil && s.Description != "" {
		parts = append(parts, s.Description)
	}
	var tags []string
	if required {
		tags = append(tags, "required")
	}
	for _, m := range []struct {
		m    registry.Mark
		name string
	}{{registry.ReadOnly, "read-only"}, {registry.WriteOnly, "write-only"}, {registry.CreateOnly, "create-only (changing it replaces the resource)"}, {registry.Deprecated, "deprecated"},
		{registry.ComputedWhenOmitted, "computed by the provider when omitted (a reference to it is then known after deploy)"},
		{registry.ActivatesLink, "a reference to another resource here links the two (no linkSelector needed)"}} {
		if marks.Has(m.m) {
			tags = append(tags, m.name)
		}
	}
	if len(tags) > 0 {
		parts = append(parts, "*"+strings.Join(tags, ", ")+"*")
	}
	if s != nil {
		var facts []string
		if vals := enumTexts(s.Enum); len(vals) > 0 {
			if len(vals) > 30 {
				vals = append(vals[:30], fmt.Sprintf("… (%d in all)", len(s.Enum)))
			}
			facts = append(facts, "Allowed values: "+strings.Join(vals, ", "))
		}
		if s.Default != nil {
			if b, err := json.Marshal(s.Default); err == nil {
				facts = append(facts, "Default: `"+clip(string(b))+"`")
			}
		}
		if s.Pattern != "" {
			facts = append(facts, "Pattern: `"+clip(s.Pattern)+"`")
		}
		if len(facts) > 0 {
			parts = append(parts, strings.Join(facts, "\n\n"))
		}
	}
	if rt != nil && rt.DocsURL != "" && s != nil && s.Description != "" {
		parts = append(parts, "[Read more]("+rt.DocsURL+")")
	}
	return strings.Join(parts, "\n\n")
}

// enumTexts writes enum values as inline code.
func enumTexts(enum []any) []string {
	var out []string
	for _, e := range enum {
		switch v := e.(type) {
		case string:
			out = append(out, "`"+v+"`")
		case float64:
			out = append(out, "`"+strconv.FormatFloat(v, 'f', -1, 64)+"`")
		case bool:
			out = append(out, "`"+strconv.FormatBool(v)+"`")
		case nil:
			out = append(out, "`null`")
		}
	}
	return out
}

// stateDoc is propertyDoc for a field read from state, where an
// attribute may have text of its own.
func stateDoc(rt *registry.ResourceType, path []string, s *registry.Schema, marks registry.Mark) string {
	if text := rt.StateDoc(path); s != nil && text != s.Description {
		c := *s
		c.Description = text
		s = &c
	}
	return propertyDoc(rt, s, marks, false)
}
