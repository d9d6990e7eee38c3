package format

import (
	"strings"

	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/subst"
)

// substEdits normalises the spacing inside ${..} of string values to
// subst.Print's canonical form. A substitution is rewritten only when
// every condition for an exact rewrite holds:
//
//   - the string's template parses without any diagnostic;
//   - the substitution is written verbatim in the source (no escape, no
//     line break, no doubled quote), so source and decoded text coincide;
//   - the canonical text differs from the original only in whitespace
//     outside string literals;
//   - the canonical text needs no escaping in the scalar's style (no
//     quote or backslash in a quoted or JSON string) and, in a plain YAML
//     scalar, adds no `: ` or ` #`.
//
// Keys are left alone, and so are YAML block scalars and scalars inside
// YAML flow collections.
func substEdits(f *schema.File, opts Options) []kedit {
	var out []kedit
	var walk func(n schema.Node, flow bool)
	walk = func(n schema.Node, flow bool) {
		switch n := n.(type) {
		case *schema.Mapping:
			for _, e := range n.Entries {
				walk(e.Value, flow || n.Flow)
			}
		case *schema.Sequence:
			for _, it := range n.Items {
				walk(it, flow || n.Flow)
			}
		case *schema.Scalar:
			if f.Format == schema.YAML && flow {
				return
			}
			out = append(out, scalarSubstEdits(f.Content(), n)...)
		}
	}
	walk(f.Root, false)
	return out
}

func scalarSubstEdits(c []byte, s *schema.Scalar) []kedit {
	if !s.IsString() || !strings.Contains(s.Value, "${") {
		return nil
	}
	var forbidden string
	switch s.Style {
	case schema.Plain:
	case schema.SingleQuoted:
		forbidden = "'"
	case schema.DoubleQuoted, schema.JSONString:
		forbidden = `"\`
	default:
		return nil
	}
	t := subst.ParseTemplate(s.Value, s.OffsetMap())
	if len(t.Diagnostics()) > 0 {
		return nil
	}
	var out []kedit
	for _, sub := range t.Subs() {
		r := sub.Rng
		if r.Start < s.ValueRange().Start || r.End > s.ValueRange().End || r.End > len(c) {
			continue
		}
		old := string(c[r.Start:r.End])
		if strings.ContainsAny(old, "\r\n\\") || strings.ContainsAny(old, forbidden) {
			continue
		}
		text := "${" + subst.Print(sub.Expr) + "}"
		if text == old || stripSubSpace(text) != stripSubSpace(old) {
			continue
		}
		if strings.ContainsAny(text, "\r\n\t") || strings.ContainsAny(text, forbidden) {
			continue
		}
		if s.Style == schema.Plain && (strings.Count(text, ": ") > strings.Count(old, ": ") ||
			strings.Count(text, " #") > strings.Count(old, " #")) {
			continue
		}
		if e, ok := replace(c, r.Start, r.End, text, kindSubst); ok {
			out = append(out, e)
		}
	}
	return out
}

// stripSubSpace removes the whitespace of a substitution's text that lies
// outside string literals: two substitutions with the same stripped text
// differ only in insignificant spacing.
func stripSubSpace(s string) string {
	var b strings.Builder
	inString := false
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case inString && ch == '\\' && i+1 < len(s):
			b.WriteByte(ch)
			i++
			ch = s[i]
		case ch == '"':
			inString = !inString
		case !inString && (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r'):
			continue
		}
		b.WriteByte(ch)
	}
	return b.String()
}

// normalizeValue returns a string value with the spacing inside its
// substitutions removed, so values that differ only there compare equal.
// A value whose template has errors is returned as it is.
func normalizeValue(v string) string {
	if !strings.Contains(v, "${") {
		return v
	}
	t := subst.ParseTemplate(v, nil)
	if t.HasErrors() {
		return v
	}
	var b strings.Builder
	last := 0
	for _, sub := range t.Subs() {
		r := sub.Rng
		b.WriteString(v[last:r.Start])
		b.WriteString(stripSubSpace(v[r.Start:r.End]))
		last = r.End
	}
	b.WriteString(v[last:])
	return b.String()
}

// Equal reports whether two document trees are the same document: the
// same shapes (block or flow), keys, tags, styles and values, in the same
// order, where string values may differ in the whitespace inside ${..}
// outside string literals.
func Equal(a, b schema.Node) bool {
	switch a := a.(type) {
	case nil:
		return b == nil
	case *schema.Mapping:
		b, ok := b.(*schema.Mapping)
		if !ok || a.Flow != b.Flow || len(a.Entries) != len(b.Entries) {
			return false
		}
		for i, e := range a.Entries {
			f := b.Entries[i]
			if !Equal(e.Key, f.Key) || !Equal(e.Value, f.Value) {
				return false
			}
		}
		return true
	case *schema.Sequence:
		b, ok := b.(*schema.Sequence)
		if !ok || a.Flow != b.Flow || len(a.Items) != len(b.Items) {
			return false
		}
		for i, it := range a.Items {
			if !Equal(it, b.Items[i]) {
				return false
			}
		}
		return true
	case *schema.Scalar:
		b, ok := b.(*schema.Scalar)
		if !ok || a.Tag != b.Tag || a.Style != b.Style {
			return false
		}
		if a.Value == b.Value {
			return true
		}
		return a.IsString() && normalizeValue(a.Value) == normalizeValue(b.Value)
	}
	return false
}
