package landscaper

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// at splits a document written with § at the cursor.
func at(doc string) (string, int) {
	i := strings.Index(doc, "§")
	return doc[:i] + doc[i+len("§"):], i
}

func labels(cs []Completion) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Label)
	}
	return out
}

const ideDoc = head + "localTypes:\n  port: {type: integer}\n  name: {type: string}\nimports:\n- name: cluster\n  targetType: landscaper.gardener.cloud/kubernetes-cluster\n- name: ns\n  schema: {type: string}\n"

func TestComplete(t *testing.T) {
	tests := []struct {
		name, doc string
		want      []string
		replaced  string // the text the first item replaces
	}{
		{"top-level keys less those given", ideDoc + "exp§", []string{"annotations", "deployExecutions", "exportExecutions", "exports", "importExecutions", "jsonSchemaVersion", "subinstallationExecutions", "subinstallations"}, "exp"},
		{"an import's keys", ideDoc + "- name: x\n  sch§", []string{"default", "imports", "required", "schema", "targetType", "type"}, "sch"},
		{"a new list item", ideDoc + "- §", []string{"default", "imports", "name", "required", "schema", "targetType", "type"}, ""},
		{"an execution's keys", ideDoc + "deployExecutions:\n- name: d\n  §", []string{"file", "template", "type"}, ""},
		{"inside a free-form schema: nothing", ideDoc + "- name: x\n  schema:\n    ty§", nil, ""},
		{"import names in a GoTemplate", ideDoc + "deployExecutions:\n- name: d\n  type: GoTemplate\n  template: |\n    ns: {{ .imports.n§ }}\n", []string{"cluster", "ns"}, "n"},
		{"fields of a data import", head + "localTypes:\n  addr: {type: object, properties: {host: {type: string}, port: {type: integer}}}\nimports:\n- name: db\n  schema:\n    type: object\n    properties:\n      addr: {$ref: 'local://addr'}\n      user: {type: string, description: the login}\ndeployExecutions:\n- name: d\n  type: GoTemplate\n  template: |\n    a: {{ .imports.db.§ }}\n    b: {{ .imports.db.addr.h }}\n", []string{"addr", "user"}, ""},
		{"fields of a local type below an import", head + "localTypes:\n  addr: {type: object, properties: {host: {type: string}, port: {type: integer}}}\nimports:\n- name: db\n  schema:\n    type: object\n    properties:\n      addr: {$ref: 'local://addr'}\ndeployExecutions:\n- name: d\n  type: GoTemplate\n  template: |\n    b: {{ .imports.db.addr.h§ }}\n", []string{"host", "port"}, "h"},
		{"no schema properties: nothing", head + "imports:\n- name: db\n  schema: {type: object}\ndeployExecutions:\n- name: d\n  type: GoTemplate\n  template: |\n    a: {{ .imports.db.§ }}\n", nil, ""},
		{"undeclared import: nothing", head + "deployExecutions:\n- name: d\n  type: GoTemplate\n  template: |\n    a: {{ .imports.db.§ }}\n", nil, ""},
		{"no local types: nothing", head + "imports:\n- name: p\n  schema: {$ref: 'local://§'}\n", nil, ""},
		{"import names in Spiff", ideDoc + "deployExecutions:\n- name: d\n  type: Spiff\n  template:\n    ns: (( imports.§ ))\n", []string{"cluster", "ns"}, ""},
		{"local types", ideDoc + "- name: p\n  schema: {$ref: 'local://po§'}\n", []string{"name", "port"}, "po"},
		{"execution types", ideDoc + "deployExecutions:\n- name: d\n  type: Go§", []string{"GoTemplate", "Spiff"}, "Go"},
		{"import types", ideDoc + "- name: x\n  type: §", []string{"data", "target", "targetList", "targetMap"}, ""},
		{"target types", ideDoc + "- name: x\n  targetType: §", []string{"landscaper.gardener.cloud/kubernetes-cluster"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, off := at(tt.doc)
			got := Complete(syntax.Parse("blueprint.yaml", []byte(doc)), off)
			if !reflect.DeepEqual(labels(got), tt.want) {
				t.Fatalf("got %v, want %v", labels(got), tt.want)
			}
			if len(got) > 0 && doc[got[0].Replace.Start:got[0].Replace.End] != tt.replaced {
				t.Errorf("replaces %q, want %q", doc[got[0].Replace.Start:got[0].Replace.End], tt.replaced)
			}
		})
	}
}

func TestHoverAndDefinition(t *testing.T) {
	doc := ideDoc + "- name: p\n  schema: {$ref: 'local://port'}\ndeployExecutions:\n- name: d\n  type: GoTemplate\n  file: /deploy.yaml\n- name: e\n  type: GoTemplate\n  template: |\n    ns: {{ .imports.ns }}\n- name: s\n  type: Spiff\n  template:\n    c: (( imports.cluster ))\n"
	f := syntax.Parse("blueprint.yaml", []byte(doc))
	off := func(s string, n int) int { return strings.Index(doc, s) + n }

	h := Hover(f, off(".imports.ns", 10))
	if h == nil || doc[h.Range.Start:h.Range.End] != "ns" || !strings.Contains(h.Markdown, "**import ns** (data, required)") || !strings.Contains(h.Markdown, "schema: {type: string}") {
		t.Errorf("hover on an import use: %+v", h)
	}
	h = Hover(f, off("imports.cluster", 9))
	if h == nil || doc[h.Range.Start:h.Range.End] != "cluster" || !strings.Contains(h.Markdown, "(target, required)") {
		t.Errorf("hover on a Spiff import use: %+v", h)
	}
	fdoc := head + "imports:\n- name: db\n  schema:\n    type: object\n    properties:\n      user: {type: string, description: the login}\ndeployExecutions:\n- name: d\n  type: GoTemplate\n  template: |\n    a: {{ .imports.db.user }}\n"
	h = Hover(syntax.Parse("blueprint.yaml", []byte(fdoc)), strings.Index(fdoc, "db.user")+4)
	if h == nil || fdoc[h.Range.Start:h.Range.End] != "user" || h.Markdown != "**user** (string) of import db\n\nthe login" {
		t.Errorf("hover on a field of an import: %+v", h)
	}
	h = Hover(f, off("targetType", 2))
	if h == nil || doc[h.Range.Start:h.Range.End] != "targetType" || !strings.Contains(h.Markdown, "**targetType** (a string)") {
		t.Errorf("hover on a field: %+v", h)
	}
	if h := Hover(f, off("GoTemplate", 3)); h != nil {
		t.Errorf("hover on a plain value: %+v", h)
	}

	dir := t.TempDir()
	def := func(o int) []Target { return Definition(f, o, dir) }
	if d := def(off("{{ .imports.ns", 13)); len(d) != 1 || d[0].Path != "" || doc[d[0].Range.Start:d[0].Range.End] != "ns" || d[0].Range.Start != off("name: ns", 6) {
		t.Errorf("definition of an import use: %+v", d)
	}
	if d := def(off("(( imports.cluster", 12)); len(d) != 1 || d[0].Range.Start != off("name: cluster", 6) {
		t.Errorf("definition of a Spiff import use: %+v", d)
	}
	if d := def(off("local://port", 9)); len(d) != 1 || d[0].Range.Start != off("port: {type", 0) {
		t.Errorf("definition of a local type: %+v", d)
	}
	if d := def(off("/deploy.yaml", 3)); len(d) != 1 || d[0].Path != filepath.Join(dir, "deploy.yaml") {
		t.Errorf("definition of a file: %+v", d)
	}
}

func TestTokens(t *testing.T) {
	doc := head + "imports:\n- name: ns\n  schema: {type: string}\ndeployExecutions:\n- name: d\n  type: GoTemplate\n  template: |\n    a: {{ if .imports.ns }}{{ .imports.ns | quote }}{{ end }} {{ $x := 3 }}\n- name: s\n  type: Spiff\n  template:\n    b: (( join(\",\", imports.ns) ))\n"
	var got []string
	for _, tk := range Tokens(syntax.Parse("blueprint.yaml", []byte(doc))) {
		got = append(got, doc[tk.Range.Start:tk.Range.End]+"="+[]string{"", "keyword", "function", "import", "variable", "string", "number"}[tk.Kind])
	}
	want := []string{"if=keyword", ".imports.=variable", "ns=import", ".imports.=variable", "ns=import", "quote=function", "end=keyword", "$x=variable", "3=number",
		"((=keyword", "join=function", `","=string`, "imports.ns=import", "))=keyword"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %v\nwant %v", got, want)
	}
}

// Every editor feature answers at every offset of every corpus
// blueprint, and of each cut short, without a panic; render of each with
// no values ends (with problems, most of them).
func TestIDEEverywhere(t *testing.T) {
	paths, _ := filepath.Glob("../testdata/landscaper/*/blueprint.yaml")
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		abs, _ := filepath.Abs(p)
		for _, text := range [][]byte{data, data[:len(data)/2]} {
			f := syntax.Parse(abs, text)
			for off := 0; off <= len(text); off += 7 {
				Complete(f, off)
				Hover(f, off)
				Definition(f, off, filepath.Dir(abs))
			}
			Tokens(f)
			Render(f, map[string]any{}, RenderOptions{Options: Options{Dir: filepath.Dir(abs)}})
		}
	}
}
