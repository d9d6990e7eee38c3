package eval

import (
	"fmt"
	"strings"
)

// Helpers only tests use: kept out of the production build (deadcode,
// scripts/test.sh).

// Dump renders a materialised blueprint for people and golden tests:
// every definition with its value (masked), resource instances with their
// presence, children nested.
func Dump(b *Blueprint) string {
	var s strings.Builder
	dump(&s, b, "")
	return s.String()
}

func dump(s *strings.Builder, b *Blueprint, indent string) {
	section := func(title string, items []*Named) {
		if len(items) == 0 {
			return
		}
		s.WriteString(indent + title + ":\n")
		for _, n := range items {
			s.WriteString(indent + "  " + n.Name + " = " + Text(n.Value) + "\n")
		}
	}
	section("variables", b.Variables)
	section("values", b.Values)
	if len(b.DataSources) > 0 {
		s.WriteString(indent + "datasources:\n")
		for _, d := range b.DataSources {
			s.WriteString(indent + "  " + d.Name + " (" + d.Type + ")\n")
			for _, f := range d.Fields {
				s.WriteString(indent + "    " + f.Name + " = " + Text(f.Value) + "\n")
			}
		}
	}
	if len(b.Resources) > 0 {
		s.WriteString(indent + "resources:\n")
		for _, r := range b.Resources {
			s.WriteString(indent + "  " + r.Name + " (" + r.Type + ")")
			if r.Condition != Included {
				s.WriteString(" condition: " + r.Condition.String())
			}
			if r.RemovalPolicy == "retain" {
				s.WriteString(" removalPolicy: retain")
			}
			s.WriteString("\n" + indent + "    spec = " + Text(r.Spec) + "\n")
			if m, ok := r.Metadata.Map(); ok && m.Len() > 0 {
				s.WriteString(indent + "    metadata = " + Text(r.Metadata) + "\n")
			}
		}
	}
	for _, c := range b.Children {
		s.WriteString(indent + "child " + c.Name + " with " + Text(c.Variables) + ":\n")
		if c.Blueprint != nil {
			dump(s, c.Blueprint, indent+"  ")
		}
	}
	section("exports", b.Exports)
	for _, d := range b.Diagnostics {
		fmt.Fprintf(s, "%sdiagnostic %s %s[%s]: %s\n", indent, d.Range, d.Severity, d.Code, d.Message)
	}
}
