package landscaper

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// blueprintSchemaJSON is apis/.schemes/core-v1alpha1-Blueprint.json of
// gardener/landscaper (Apache-2.0; see THIRD_PARTY_NOTICES.md).
//
//go:embed schemas/core-v1alpha1-Blueprint.json
var blueprintSchemaJSON []byte

// node is the part of JSON Schema the published Blueprint schema uses.
type node struct {
	Ref                  string           `json:"$ref"`
	Type                 json.RawMessage  `json:"type"`
	Description          string           `json:"description"`
	Format               string           `json:"format"`
	Required             []string         `json:"required"`
	Properties           map[string]*node `json:"properties"`
	AdditionalProperties *node            `json:"additionalProperties"`
	Items                *node            `json:"items"`
	Definitions          map[string]*node `json:"definitions"`

	types []string // Type, as a list
	keys  []string // the names of Properties, sorted (for did-you-mean)
}

// schemaSet is the decoded schema: blueprint is the Blueprint's;
// template is its SubinstallationTemplate definition, the shape of an
// InstallationTemplate file; legacy and lenient are legacyFields and
// lenientRequired over its objects.
type schemaSet struct {
	blueprint, template *node
	legacy              map[*node]map[string]string
	lenient             map[*node]string
}

// shape decodes the schema on first use, not when the process starts:
// every run of the binary paid for it (a millisecond or more and a
// quarter of a megabyte, issue 36), most of them checking no Landscaper
// file.
var shape = sync.OnceValue(func() *schemaSet {
	root, tmpl := loadSchema()
	return &schemaSet{
		blueprint: root,
		template:  tmpl,
		legacy:    legacyFields(root),
		lenient:   lenientRequired(root),
	}
})

func loadSchema() (*node, *node) {
	var root node
	if err := json.Unmarshal(blueprintSchemaJSON, &root); err != nil {
		panic("landscaper: embedded Blueprint schema: " + err.Error())
	}
	prepare(&root, root.Definitions, map[*node]bool{})
	tmpl := root.Definitions["core-v1alpha1-SubinstallationTemplate"]
	if tmpl == nil {
		panic("landscaper: embedded Blueprint schema has no SubinstallationTemplate")
	}
	return &root, tmpl
}

// prepare resolves $refs in place and fills types and keys.
func prepare(n *node, defs map[string]*node, seen map[*node]bool) {
	if n == nil || seen[n] {
		return
	}
	seen[n] = true
	if len(n.Type) > 0 {
		var one string
		if json.Unmarshal(n.Type, &one) == nil {
			n.types = []string{one}
		} else {
			_ = json.Unmarshal(n.Type, &n.types)
		}
	}
	for k, p := range n.Properties {
		n.keys = append(n.keys, k)
		n.Properties[k] = resolve(p, defs)
		prepare(n.Properties[k], defs, seen)
	}
	sortStrings(n.keys)
	n.Items = resolve(n.Items, defs)
	prepare(n.Items, defs, seen)
	n.AdditionalProperties = resolve(n.AdditionalProperties, defs)
	prepare(n.AdditionalProperties, defs, seen)
	for _, d := range defs {
		prepare(d, defs, seen)
	}
}

// resolve follows a "#/definitions/x" reference; a node that has a
// description of its own beside the $ref keeps it.
func resolve(n *node, defs map[string]*node) *node {
	if n == nil || n.Ref == "" {
		return n
	}
	target := defs[strings.TrimPrefix(n.Ref, "#/definitions/")]
	if target == nil {
		panic("landscaper: embedded Blueprint schema: unresolved " + n.Ref)
	}
	return target
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

var (
	codeUnknownField = source.NewCode("landscaper-unknown-field", source.Error,
		"A Landscaper blueprint or installation template has a field its schema does not define; Landscaper drops it.",
		"apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: Blueprint\nimprots: []")
	codeLegacyField = source.NewCode("landscaper-legacy-field", source.Warning,
		"A Landscaper blueprint uses an older field name the API still reads leniently (jsonSchema for jsonSchemaVersion).",
		"apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: Blueprint\njsonSchema: https://json-schema.org/draft-07/schema#")
	codeFieldType = source.NewCode("landscaper-field-type", source.Error,
		"A field of a Landscaper blueprint has a value of the wrong type (a list where its schema wants a mapping, a number for a string, ...).",
		"apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: Blueprint\nimports:\n  name: a")
	codeDuplicateKey = source.NewCode("landscaper-duplicate-key", source.Error,
		"A mapping of a Landscaper document has the same key twice; Landscaper keeps only one of them.",
		"apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: Blueprint\nimports: []\nimports: []")
	codeMissingField = source.NewCode("landscaper-missing-field", source.Error,
		"A Landscaper import, export, execution or subinstallation lacks a field its schema requires.",
		"apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: Blueprint\ndeployExecutions:\n- name: default\n  file: /deploy.yaml")
)

// legacyFields are the older names the Landscaper API still decodes
// leniently, by schema object: the name, and the field that replaced it.
func legacyFields(blueprint *node) map[*node]map[string]string {
	return map[*node]map[string]string{
		blueprint: {"jsonSchema": "jsonSchemaVersion"},
	}
}

// lenientRequired are required fields Landscaper loads blueprints
// without (its own integration tests have executions with no name):
// missing, they are warnings.
func lenientRequired(blueprint *node) map[*node]string {
	return map[*node]string{
		blueprint.Definitions["core-v1alpha1-TemplateExecutor"]: "name",
	}
}

// walker checks a tree against the schema.
type walker struct {
	diags []source.Diagnostic
}

// walk checks n against s. at is where a problem with n as a whole is
// reported (the key that holds it, or the node itself).
func (w *walker) walk(n syntax.Node, s *node, at source.Range) {
	if n == nil || s == nil {
		return
	}
	if sc, ok := n.(*syntax.Scalar); ok && sc.Tag == syntax.NullTag {
		return // decoded as the zero value
	}
	if len(s.types) > 0 && !hasType(n, s.types) {
		w.diags = append(w.diags, codeFieldType.New(n.Range(), "expected %s, found %s", typeList(s.types), describe(n)))
		return
	}
	switch n := n.(type) {
	case *syntax.Mapping:
		w.mapping(n, s, at)
	case *syntax.Sequence:
		for _, item := range n.Items {
			at := item.Range()
			if m, ok := item.(*syntax.Mapping); ok && len(m.Entries) > 0 && m.Entries[0].Key != nil {
				at = m.Entries[0].Key.Range() // an item's head, not its whole text
			}
			w.walk(item, s.Items, at)
		}
	}
}

func (w *walker) mapping(m *syntax.Mapping, s *node, at source.Range) {
	var first map[string]*syntax.Scalar
	for _, e := range m.Entries {
		if e.Key == nil {
			continue
		}
		if prev := first[e.Key.Value]; prev != nil {
			d := codeDuplicateKey.New(e.Key.Range(), "%q is given twice", e.Key.Value)
			d.Related = []source.Related{{Range: prev.Range(), Message: "first given here"}}
			w.diags = append(w.diags, d)
		} else {
			if first == nil {
				first = map[string]*syntax.Scalar{}
			}
			first[e.Key.Value] = e.Key
		}
		if p := s.Properties[e.Key.Value]; p != nil {
			w.walk(e.Value, p, e.Key.Range())
			continue
		}
		if s.AdditionalProperties != nil {
			w.walk(e.Value, s.AdditionalProperties, e.Key.Range())
			continue
		}
		if s.Properties == nil {
			continue // free-form (a JSON schema, a template, any JSON)
		}
		if repl, ok := shape().legacy[s][e.Key.Value]; ok {
			d := codeLegacyField.New(e.Key.Range(), "%q is the older name of %q: Landscaper reads %q only", e.Key.Value, repl, repl)
			if m.Get(repl) == nil {
				d.Suggestions = []source.Suggestion{{Title: "Rename to " + repl, Edits: []source.Edit{{Range: e.Key.ValueRange(), NewText: repl}}}}
			}
			w.diags = append(w.diags, d)
			continue
		}
		d := codeUnknownField.New(e.Key.Range(), "unknown field %q", e.Key.Value)
		if near := source.Closest(e.Key.Value, s.keys); len(near) > 0 {
			d.Message += fmt.Sprintf("; did you mean %q?", near[0])
			d.Suggestions = []source.Suggestion{{Title: "Change to " + near[0], Edits: []source.Edit{{Range: e.Key.ValueRange(), NewText: near[0]}}}}
		}
		w.diags = append(w.diags, d)
	}
	if s == shape().template && m.Get("file") != nil {
		return // a subinstallation in a file: the file has the rest
	}
	for _, r := range s.Required {
		if m.Get(r) != nil {
			continue
		}
		d := codeMissingField.New(at, "missing required field %q", r)
		if shape().lenient[s] == r {
			d.Severity = source.Warning
			d.Message += ": Landscaper's validation asks for it, though blueprints without it still load"
		}
		w.diags = append(w.diags, d)
	}
}

// hasType reports whether n is one of the JSON types.
func hasType(n syntax.Node, types []string) bool {
	for _, t := range types {
		switch n := n.(type) {
		case *syntax.Mapping:
			if t == "object" {
				return true
			}
		case *syntax.Sequence:
			if t == "array" {
				return true
			}
		case *syntax.Scalar:
			switch t {
			case "string":
				if n.Tag == syntax.StringTag {
					return true
				}
			case "number":
				if n.Tag == syntax.IntTag || n.Tag == syntax.FloatTag {
					return true
				}
			case "integer":
				if n.Tag == syntax.IntTag {
					return true
				}
			case "boolean":
				if n.Tag == syntax.BoolTag {
					return true
				}
			}
		}
	}
	return false
}

func typeList(types []string) string {
	out := make([]string, len(types))
	for i, t := range types {
		switch t {
		case "object":
			t = "a mapping"
		case "array":
			t = "a list"
		case "string":
			t = "a string"
		case "number", "integer":
			t = "a number"
		case "boolean":
			t = "a boolean"
		}
		out[i] = t
	}
	if len(out) <= 2 {
		return strings.Join(out, " or ")
	}
	return strings.Join(out[:len(out)-1], ", ") + " or " + out[len(out)-1]
}

// describe names what n is, for messages.
func describe(n syntax.Node) string {
	switch n := n.(type) {
	case *syntax.Mapping:
		return "a mapping"
	case *syntax.Sequence:
		return "a list"
	case *syntax.Scalar:
		switch n.Tag {
		case syntax.StringTag:
			return "a string"
		case syntax.BoolTag:
			return "a boolean"
		case syntax.IntTag, syntax.FloatTag:
			return "a number"
		}
	}
	return "null"
}
