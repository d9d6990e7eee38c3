package landscaper

import (
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

var (
	codeDuplicateName = source.NewCode("landscaper-duplicate-name", source.Error,
		"Two imports, two exports, two executions of one list or two subinstallations of a Landscaper blueprint have the same name.",
		"imports:\n- name: cluster\n  type: target\n  targetType: landscaper.gardener.cloud/kubernetes-cluster\n- name: cluster\n  type: data\n  schema: {type: string}")
	codeImportType = source.NewCode("landscaper-import-type", source.Error,
		"A Landscaper import's type is not data, target, targetList or targetMap, or the import says nothing its type could be inferred from.",
		"imports:\n- name: replicas\n  type: number")
	codeExportType = source.NewCode("landscaper-export-type", source.Error,
		"A Landscaper export's type is not data or target: only data objects and targets can be exported.",
		"exports:\n- name: clusters\n  type: targetList\n  targetType: landscaper.gardener.cloud/kubernetes-cluster")
	codeSchemaMissing = source.NewCode("landscaper-schema-missing", source.Error,
		"A Landscaper data import or export has no schema.",
		"imports:\n- name: namespace\n  type: data")
	codeTargetTypeMissing = source.NewCode("landscaper-target-type-missing", source.Error,
		"A Landscaper target, targetList or targetMap import or target export has no targetType.",
		"imports:\n- name: cluster\n  type: target")
	codeSchemaNotData = source.NewCode("landscaper-schema-not-data", source.Error,
		"A Landscaper import or export that is not data has a schema; only data is validated against one.",
		"imports:\n- name: cluster\n  type: target\n  targetType: landscaper.gardener.cloud/kubernetes-cluster\n  schema: {type: object}")
	codeTargetTypeNotTarget = source.NewCode("landscaper-target-type-not-target", source.Error,
		"A Landscaper data import or export has a targetType (or an untyped one has both schema and targetType): only targets have one.",
		"imports:\n- name: ns\n  schema: {type: string}\n  targetType: landscaper.gardener.cloud/kubernetes-cluster")
	codeNestedRequired = source.NewCode("landscaper-nested-under-required", source.Error,
		"A Landscaper import has conditional (nested) imports but is required; nested imports belong to optional imports only.",
		"imports:\n- name: monitoring\n  type: data\n  schema: {type: boolean}\n  imports:\n  - name: endpoint\n    type: data\n    schema: {type: string}")
	codeDefaultRequired = source.NewCode("landscaper-default-on-required", source.Warning,
		"A Landscaper import is required and has a default; the default is only used for an optional import.",
		"imports:\n- name: replicas\n  type: data\n  schema: {type: integer}\n  default: {value: 1}")
)

// importTypes are the import types of Landscaper v1alpha1; the value says
// whether the type is a target type (needs targetType).
var importTypes = map[string]bool{"data": false, "target": true, "targetList": true, "targetMap": true}

// declType is an import's or export's effective type: its type field, or
// the one Landscaper infers from schema (data) or targetType (target).
func declType(m *syntax.Mapping) (string, *syntax.Scalar) {
	if t, s := str(m, "type"); s != nil {
		return t, s
	}
	switch {
	case m.Get("schema") != nil:
		return "data", nil
	case m.Get("targetType") != nil:
		return "target", nil
	}
	return "", nil
}

// names collects the names of one namespace and reports duplicates.
type names struct {
	what  string
	first map[string]*syntax.Scalar
}

func newNames(what string) *names { return &names{what: what, first: map[string]*syntax.Scalar{}} }

func (n *names) add(c *checker, m *syntax.Mapping) {
	name, s := str(m, "name")
	if s == nil {
		return
	}
	if prev := n.first[name]; prev != nil {
		d := codeDuplicateName.New(s.Range(), "%s %q is declared twice", n.what, name)
		d.Related = []source.Related{{Range: prev.Range(), Message: "first declared here"}}
		c.report(d)
		return
	}
	n.first[name] = s
}

func (n *names) has(name string) bool { return n.first[name] != nil }

// imports checks a list of import definitions, nested ones included, with
// one namespace for all of them.
func (c *checker) imports(list []*syntax.Mapping, seen *names) {
	for _, m := range list {
		seen.add(c, m)
		t, _ := c.declTypeChecked(m, "import")
		if t != "" {
			c.schemaAndTarget(m, t, "import")
		}
		required := true
		if _, r := str(m, "required"); r != nil && r.Tag == syntax.BoolTag {
			required = r.Value == "true"
		}
		if required {
			if e := m.Entry("imports"); e != nil && e.Key != nil {
				c.report(codeNestedRequired.New(e.Key.Range(), "import %s has nested imports but is required: set required: false", quoted(m)))
			}
			if e := m.Entry("default"); e != nil && e.Key != nil {
				c.report(codeDefaultRequired.New(e.Key.Range(), "import %s is required: its default is never used", quoted(m)))
			}
		}
		c.imports(items(m, "imports"), seen)
	}
}

// declTypeChecked is declType, reporting an unknown import type.
func (c *checker) declTypeChecked(m *syntax.Mapping, what string) (string, *syntax.Scalar) {
	t, ts := declType(m)
	if t == "" {
		c.report(codeImportType.New(nameAt(m), "%s %s has no type, schema or targetType: its type cannot be told", what, quoted(m)))
		return "", nil
	}
	if _, ok := importTypes[t]; !ok {
		d := codeImportType.New(ts.Range(), "unknown import type %q: one of data, target, targetList, targetMap", t)
		if near := source.Closest(t, []string{"data", "target", "targetList", "targetMap"}); len(near) > 0 {
			d.Message += "; did you mean " + `"` + near[0] + `"?`
		}
		c.report(d)
		return "", nil
	}
	return t, ts
}

// schemaAndTarget checks that data has a schema and targets a
// targetType, and that only data has a schema.
func (c *checker) schemaAndTarget(m *syntax.Mapping, t, what string) {
	if t == "data" {
		if m.Get("schema") == nil {
			c.report(codeSchemaMissing.New(nameAt(m), "data %s %s has no schema", what, quoted(m)))
		}
		if e := m.Entry("targetType"); e != nil && e.Key != nil {
			msg := "data %s %s has a targetType: only targets have one"
			if m.Get("type") == nil {
				msg = "%s %s has both schema and targetType: give one (or a type)"
			}
			c.report(codeTargetTypeNotTarget.New(e.Key.Range(), msg, what, quoted(m)))
		}
		return
	}
	if m.Get("targetType") == nil {
		c.report(codeTargetTypeMissing.New(nameAt(m), "%s %s %s has no targetType", t, what, quoted(m)))
	}
	if e := m.Entry("schema"); e != nil && e.Key != nil {
		c.report(codeSchemaNotData.New(e.Key.Range(), "%s %s %s is not data: its schema is not used", t, what, quoted(m)))
	}
}

// exports checks the export definitions.
func (c *checker) exports(list []*syntax.Mapping) {
	seen := newNames("export")
	c.exported = seen
	for _, m := range list {
		seen.add(c, m)
		t, ts := declType(m)
		switch t {
		case "":
			c.report(codeImportType.New(nameAt(m), "export %s has no type, schema or targetType: its type cannot be told", quoted(m)))
		case "data", "target":
			c.schemaAndTarget(m, t, "export")
		default:
			c.report(codeExportType.New(ts.Range(), "export type %q: exports are data or target", t))
		}
	}
}

// quoted is an item's name in quotes, for messages.
func quoted(m *syntax.Mapping) string {
	name, _ := str(m, "name")
	return `"` + name + `"`
}
