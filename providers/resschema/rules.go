package resschema

import (
	"strings"

	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// Diagnostic codes of the rules the meta-schema cannot express.
var (
	CodePointer = source.NewCode("provider-schema-pointer", source.Error,
		"A JSON pointer in primaryIdentifier, additionalIdentifiers, readOnlyProperties, writeOnlyProperties, createOnlyProperties, conditionalCreateOnlyProperties, deprecatedProperties, tagging.tagProperty or a propertyTransform key names no property of the schema.",
		"\"primaryIdentifier\": [\"/properties/Nope\"]")
	CodeRef = source.NewCode("provider-schema-ref", source.Error,
		"A $ref in a resource schema names nothing in the document.",
		"\"Size\": {\"$ref\": \"#/definitions/Missing\"}")
	CodeRefCycle = source.NewCode("provider-schema-ref-cycle", source.Error,
		"A $ref leads through bare references back to itself, so it never reaches a schema.",
		"\"definitions\": {\"A\": {\"$ref\": \"#/definitions/B\"}, \"B\": {\"$ref\": \"#/definitions/A\"}}")
	CodeArrayKeyword = source.NewCode("provider-schema-array-keyword", source.Error,
		"insertionOrder or arrayType on a property that is not an array.",
		"\"Name\": {\"type\": \"string\", \"insertionOrder\": false}")
	CodeTransform = source.NewCode("provider-schema-transform", source.Error,
		"A propertyTransform expression is not a string, or uses $OR inside a string literal (it joins two whole expressions only).",
		"\"propertyTransform\": {\"/properties/E\": \"$join([E, \\\"T $OR Y\\\"])\"}")
)

// pointerLists are the top-level keywords whose values are lists of JSON
// pointers to properties (additionalIdentifiers: a list of such lists).
var pointerLists = []string{"primaryIdentifier", "readOnlyProperties", "writeOnlyProperties",
	"createOnlyProperties", "conditionalCreateOnlyProperties", "deprecatedProperties", "additionalIdentifiers"}

// rules runs the checks beside the meta-schema.
func rules(root *syntax.Mapping) []source.Diagnostic {
	var ds []source.Diagnostic
	var checkPointer func(n syntax.Node)
	checkPointer = func(n syntax.Node) {
		switch n := n.(type) {
		case *syntax.Sequence:
			for _, it := range n.Items {
				checkPointer(it)
			}
		case *syntax.Scalar:
			if n.IsString() {
				if msg := resolveProperty(root, n.Value); msg != "" {
					ds = append(ds, CodePointer.New(n.Rng, "%s", msg))
				}
			}
		}
	}
	for _, k := range pointerLists {
		checkPointer(root.Get(k))
	}
	if tg, ok := root.Get("tagging").(*syntax.Mapping); ok {
		checkPointer(tg.Get("tagProperty"))
	}
	if pt, ok := root.Get("propertyTransform").(*syntax.Mapping); ok {
		for _, e := range pt.Entries {
			if msg := resolveProperty(root, e.Key.Value); msg != "" {
				ds = append(ds, CodePointer.New(e.Key.Rng, "%s", msg))
			}
			ds = append(ds, checkTransform(e)...)
		}
	}
	ds = append(ds, checkRefs(root)...)
	ds = append(ds, checkExpansion(root)...)
	walkSchemas(root, func(m *syntax.Mapping) { ds = append(ds, arrayKeywords(m)...) })
	return ds
}

// resolveProperty says why a pointer names no property ("" when it does).
// "/properties/A/B" names B among A's properties (through $refs); "*"
// steps into an array's items. Where the schema cannot tell (no
// properties listed, patternProperties), the pointer is accepted.
func resolveProperty(root *syntax.Mapping, ptr string) string {
	rest, ok := strings.CutPrefix(ptr, "/properties/")
	if !ok {
		return "\"" + ptr + "\" is not a pointer to a property (it starts /properties/)"
	}
	toks := strings.Split(rest, "/")
	var cur syntax.Node = root
	for i, t := range toks {
		t = strings.NewReplacer("~1", "/", "~0", "~").Replace(t)
		m, _ := deref(root, cur).(*syntax.Mapping)
		if m == nil {
			return ""
		}
		if t == "*" {
			if it := m.Get("items"); it != nil {
				cur = it
				continue
			}
			return ""
		}
		if i > 0 && t == "properties" { // the spelled-out form /properties/A/properties/B
			continue
		}
		props, _ := m.Get("properties").(*syntax.Mapping)
		if props == nil || m.Get("patternProperties") != nil {
			return ""
		}
		e := props.Entry(t)
		if e == nil {
			where := "the schema's properties"
			if i > 0 {
				where = "the properties of /properties/" + strings.Join(toks[:i], "/")
			}
			return "\"" + ptr + "\" names no property: " + where + " have no \"" + t + "\""
		}
		cur = e.Value
	}
	return ""
}

// deref follows bare local $refs (at most 32, so a cycle ends).
func deref(root *syntax.Mapping, n syntax.Node) syntax.Node {
	for range 32 {
		m, ok := n.(*syntax.Mapping)
		if !ok {
			return n
		}
		ref, ok := m.Get("$ref").(*syntax.Scalar)
		if !ok || !strings.HasPrefix(ref.Value, "#") {
			return n
		}
		t, _ := target(root, ref.Value)
		if t == nil {
			return n
		}
		n = t
	}
	return nil
}

// target resolves a local reference ("#/definitions/X") in the document.
func target(root *syntax.Mapping, ref string) (syntax.Node, bool) {
	frag := strings.TrimPrefix(ref, "#")
	if frag == "" {
		return root, true
	}
	if !strings.HasPrefix(frag, "/") {
		return nil, false
	}
	var n syntax.Node = root
	for _, t := range strings.Split(frag[1:], "/") {
		t = strings.NewReplacer("~1", "/", "~0", "~").Replace(t)
		next, _ := syntax.Locate(n, []string{t})
		if next == n {
			return nil, false
		}
		n = next
	}
	return n, true
}

// checkRefs reports local $refs that resolve to nothing, and those that
// lead through bare references back to themselves.
func checkRefs(root *syntax.Mapping) []source.Diagnostic {
	var ds []source.Diagnostic
	var walk func(n syntax.Node)
	walk = func(n syntax.Node) {
		switch n := n.(type) {
		case *syntax.Mapping:
			for _, e := range n.Entries {
				if e.Key.Value == "$ref" {
					if s, ok := e.Value.(*syntax.Scalar); ok && s.IsString() && strings.HasPrefix(s.Value, "#") {
						ds = append(ds, checkRef(root, n, s)...)
					}
					continue
				}
				walk(e.Value)
			}
		case *syntax.Sequence:
			for _, it := range n.Items {
				walk(it)
			}
		}
	}
	walk(root)
	return ds
}

func checkRef(root, holder *syntax.Mapping, ref *syntax.Scalar) []source.Diagnostic {
	t, ok := target(root, ref.Value)
	if !ok {
		return []source.Diagnostic{CodeRef.New(ref.Rng, "$ref %q names nothing in this schema", ref.Value)}
	}
	seen := map[syntax.Node]bool{holder: true}
	chain := []string{ref.Value}
	for range 64 {
		m, ok := t.(*syntax.Mapping)
		if !ok {
			return nil
		}
		if m == holder {
			return []source.Diagnostic{CodeRefCycle.New(ref.Rng, "$ref cycle: %s leads back here without reaching a schema", strings.Join(chain, " → "))}
		}
		if seen[m] {
			return nil // a cycle this ref leads into; reported on its members
		}
		seen[m] = true
		next, ok := m.Get("$ref").(*syntax.Scalar)
		if !ok || !strings.HasPrefix(next.Value, "#") {
			return nil
		}
		if t, ok = target(root, next.Value); !ok {
			return nil // reported on next itself
		}
		chain = append(chain, next.Value)
	}
	return nil
}

// walkSchemas calls f on every property schema: the values of
// properties and definitions, their items and nested properties.
func walkSchemas(root *syntax.Mapping, f func(*syntax.Mapping)) {
	var schema func(n syntax.Node)
	group := func(n syntax.Node) {
		if m, ok := n.(*syntax.Mapping); ok {
			for _, e := range m.Entries {
				schema(e.Value)
			}
		}
	}
	schema = func(n syntax.Node) {
		m, ok := n.(*syntax.Mapping)
		if !ok {
			return
		}
		f(m)
		group(m.Get("properties"))
		group(m.Get("patternProperties"))
		schema(m.Get("items"))
		for _, k := range []string{"oneOf", "anyOf", "allOf"} {
			if s, ok := m.Get(k).(*syntax.Sequence); ok {
				for _, it := range s.Items {
					schema(it)
				}
			}
		}
	}
	group(root.Get("properties"))
	group(root.Get("definitions"))
}

// arrayKeywords reports insertionOrder and arrayType on a schema whose
// type is known and is not an array.
func arrayKeywords(m *syntax.Mapping) []source.Diagnostic {
	var ds []source.Diagnostic
	for _, k := range []string{"insertionOrder", "arrayType"} {
		e := m.Entry(k)
		if e == nil || mayBeArray(m) {
			continue
		}
		ds = append(ds, CodeArrayKeyword.New(e.Key.Rng, "%s applies to arrays only; this property's type is %s", k, typeText(m.Get("type"))))
	}
	return ds
}

// mayBeArray reports whether a schema's type allows an array (or it has
// no type of its own to tell).
func mayBeArray(m *syntax.Mapping) bool {
	switch t := m.Get("type").(type) {
	case nil:
		return m.Get("$ref") != nil || m.Get("items") != nil || m.Get("properties") == nil
	case *syntax.Scalar:
		return t.Value == "array"
	case *syntax.Sequence:
		for _, it := range t.Items {
			if s, ok := it.(*syntax.Scalar); ok && s.Value == "array" {
				return true
			}
		}
		return false
	}
	return true
}

func typeText(n syntax.Node) string {
	if n == nil {
		return "object"
	}
	return scalarText(n)
}

// orInString returns the offset of the first $OR inside a string
// literal of a JSONata expression, or -1.
func orInString(expr string) int {
	var quote byte
	for i := 0; i < len(expr); i++ {
		c := expr[i]
		switch {
		case quote == 0 && (c == '"' || c == '\''):
			quote = c
		case quote != 0 && c == '\\':
			i++
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0 && strings.HasPrefix(expr[i:], "$OR"):
			return i
		}
	}
	return -1
}

// checkTransform checks one propertyTransform expression.
func checkTransform(e *syntax.Entry) []source.Diagnostic {
	s, ok := e.Value.(*syntax.Scalar)
	if !ok || !s.IsString() {
		if e.Value == nil {
			return nil
		}
		return []source.Diagnostic{CodeTransform.New(e.Value.Range(), "a propertyTransform expression is a string (JSONata), not a %s", describe(e.Value))}
	}
	i := orInString(s.Value)
	if i < 0 {
		return nil
	}
	return []source.Diagnostic{CodeTransform.New(s.OffsetMap().Range(i, i+3), "$OR joins two whole expressions; inside a string literal it is not supported")}
}
