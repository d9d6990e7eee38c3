package landscaper

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

const head = "apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: Blueprint\n"

// files are written beside every case's blueprint.
var files = map[string]string{
	"deploy.yaml": "deployItems: []\n",
	"sub.yaml": "apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: InstallationTemplate\nname: fromfile\n" +
		"blueprint:\n  ref: cd://resources/sub\nimports:\n  data:\n  - name: x\n    dataRef: nowhere\n",
	"notmpl.yaml": "apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: Installation\nname: x\n",
}

// want is one expected diagnostic: its code and the exact text its range
// covers (the text of the blueprint; for a problem in a referenced file,
// the file reference).
type want struct{ code, text string }

func TestRules(t *testing.T) {
	tests := []struct {
		name, doc string
		want      []want
	}{
		{"clean", "jsonSchemaVersion: https://json-schema.org/draft-07/schema#\nimports:\n- name: cluster\n  targetType: landscaper.gardener.cloud/kubernetes-cluster\n- name: ns\n  type: data\n  schema: {type: string}\n- name: opt\n  type: data\n  required: false\n  schema: {type: boolean}\n  default: {value: false}\n  imports:\n  - name: nested\n    schema: {type: string}\nexports:\n- name: out\n  schema: {type: string}\ndeployExecutions:\n- name: default\n  type: GoTemplate\n  file: /deploy.yaml\n", nil},
		{"unknown field with did-you-mean", "improts: []\n", []want{{"landscaper-unknown-field", "improts"}}},
		{"unknown nested field", "imports:\n- name: a\n  schema: {}\n  requird: false\n", []want{{"landscaper-unknown-field", "requird"}}},
		{"duplicate key", "imports: []\nlocalTypes:\n  a: {}\n  a: {}\nimports: []\n", []want{{"landscaper-duplicate-key", "a"}, {"landscaper-duplicate-key", "imports"}}},
		{"legacy jsonSchema", "jsonSchema: https://json-schema.org/draft-07/schema#\n", []want{{"landscaper-legacy-field", "jsonSchema"}}},
		{"wrong type", "imports:\n  name: a\n", []want{{"landscaper-field-type", "name: a"}}},
		{"required not a boolean", "imports:\n- name: a\n  schema: {}\n  required: yes please\n", []want{{"landscaper-field-type", "yes please"}}},
		{"missing required field", "exports:\n- type: data\n  schema: {}\n", []want{{"landscaper-missing-field", "type"}}},
		{"execution without name is a warning", "deployExecutions:\n- type: GoTemplate\n  template: x\n", []want{{"landscaper-missing-field", "type"}}},
		{"duplicate import, nested too", "imports:\n- name: a\n  schema: {}\n  required: false\n  imports:\n  - name: a\n    schema: {}\n", []want{{"landscaper-duplicate-name", "a"}}},
		{"duplicate export", "exports:\n- name: a\n  schema: {}\n- name: a\n  schema: {}\n", []want{{"landscaper-duplicate-name", "a"}}},
		{"unknown import type", "imports:\n- name: a\n  type: dta\n  schema: {}\n", []want{{"landscaper-import-type", "dta"}}},
		{"untyped import", "imports:\n- name: a\n", []want{{"landscaper-import-type", "a"}}},
		{"data without schema", "imports:\n- name: a\n  type: data\n", []want{{"landscaper-schema-missing", "a"}}},
		{"export data without schema", "exports:\n- name: e\n  type: data\n", []want{{"landscaper-schema-missing", "e"}}},
		{"target without targetType", "imports:\n- name: c\n  type: targetList\n", []want{{"landscaper-target-type-missing", "c"}}},
		{"schema on a target", "imports:\n- name: c\n  targetType: x\n  type: target\n  schema: {}\n", []want{{"landscaper-schema-not-data", "schema"}}},
		{"targetType on data", "imports:\n- name: c\n  type: data\n  schema: {}\n  targetType: x\n", []want{{"landscaper-target-type-not-target", "targetType"}}},
		{"untyped with schema and targetType", "exports:\n- name: c\n  schema: {}\n  targetType: x\n", []want{{"landscaper-target-type-not-target", "targetType"}}},
		{"export of a target list", "exports:\n- name: c\n  type: targetList\n  targetType: x\n", []want{{"landscaper-export-type", "targetList"}}},
		{"nested under required", "imports:\n- name: a\n  schema: {}\n  imports:\n  - name: b\n    schema: {}\n", []want{{"landscaper-nested-under-required", "imports"}}},
		{"default on required", "imports:\n- name: a\n  schema: {}\n  default: {value: 1}\n", []want{{"landscaper-default-on-required", "default"}}},
		{"duplicate execution in one list", "deployExecutions:\n- name: d\n  type: Spiff\n  template: {}\n- name: d\n  type: Spiff\n  template: {}\nexportExecutions:\n- name: d\n  type: Spiff\n  template: {}\n", []want{{"landscaper-duplicate-name", "d"}}},
		{"execution type", "deployExecutions:\n- name: d\n  type: go-template\n  template: x\n", []want{{"landscaper-execution-type", "go-template"}}},
		{"file and template", "deployExecutions:\n- name: d\n  type: GoTemplate\n  file: /deploy.yaml\n  template: x\n", []want{{"landscaper-execution-source", "template"}}},
		{"neither file nor template", "deployExecutions:\n- name: d\n  type: GoTemplate\n", []want{{"landscaper-execution-source", "d"}}},
		{"missing file", "deployExecutions:\n- name: d\n  type: GoTemplate\n  file: /deploy-execution.yaml\n", []want{{"landscaper-file-missing", "/deploy-execution.yaml"}}},
		{"file outside", "deployExecutions:\n- name: d\n  type: GoTemplate\n  file: ../../etc/passwd\n", []want{{"landscaper-file-outside", "../../etc/passwd"}}},
		{"subinstallation file and inline", "subinstallations:\n- file: /sub.yaml\n  name: x\n", []want{{"landscaper-subinstallation-source", "file"}}},
		{"subinstallation in a file: its own problem on the reference", "subinstallations:\n- file: /sub.yaml\n", []want{{"landscaper-ref-unresolved", "/sub.yaml"}, {"landscaper-subinstallation-import", "/sub.yaml"}}},
		{"subinstallation file of another kind", "subinstallations:\n- file: /notmpl.yaml\n", []want{{"landscaper-subinstallation-file", "/notmpl.yaml"}}},
		{"subinstallation names", "subinstallations:\n- name: s\n  blueprint: {filesystem: {}}\n- name: s\n  blueprint: {filesystem: {}}\n", []want{{"landscaper-duplicate-name", "s"}}},
		{"subinstallation imports resolve", "imports:\n- name: c\n  targetType: x\nsubinstallations:\n- name: a\n  blueprint: {filesystem: {}}\n  exports:\n    data:\n    - {name: o, dataRef: made}\n- name: b\n  blueprint: {filesystem: {}}\n  imports:\n    data:\n    - {name: i, dataRef: made}\n    - {name: j, dataRef: mdae}\n    targets:\n    - {name: t, target: c}\n    - {name: u, target: cc}\n    - {name: v, targetListRef: c}\n    - {name: w, targetMapRef: cmap}\n", []want{{"landscaper-subinstallation-import", "mdae"}, {"landscaper-subinstallation-import", "cc"}, {"landscaper-subinstallation-import", "cmap"}}},
		{"blueprint ref malformed", "subinstallations:\n- name: s\n  blueprint:\n    ref: cd://componentReference/dns/resources/blueprint\n", []want{{"landscaper-blueprint-ref", "cd://componentReference/dns/resources/blueprint"}}},
		{"blueprint ref and filesystem", "subinstallations:\n- name: s\n  blueprint:\n    ref: cd://resources/a\n    filesystem: {}\n", []want{{"landscaper-blueprint-ref", "filesystem"}}},
		{"one information for unresolved refs", "subinstallations:\n- name: s\n  blueprint: {ref: 'cd://componentReferences/c/resources/b'}\n- name: t\n  blueprint: {ref: resource://b}\n", []want{{"landscaper-ref-unresolved", "'cd://componentReferences/c/resources/b'"}}},
	}
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := head + tt.doc
			res := Check(syntax.Parse(filepath.Join(dir, "blueprint.yaml"), []byte(doc)), Options{Dir: dir})
			var got []want
			for _, d := range res.Diagnostics {
				got = append(got, want{d.Code, doc[d.Range.Start:d.Range.End]})
			}
			if !equal(got, tt.want) {
				t.Errorf("got %v\nwant %v\n%s", got, tt.want, messages(res.Diagnostics))
			}
		})
	}
}

func equal(a, b []want) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func messages(ds []source.Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString(d.Severity.String() + " " + d.Code + ": " + d.Message + "\n")
	}
	return b.String()
}

// A referenced file that is a symbolic link leading out of the
// blueprint's folder is refused, not read; one inside it is followed.
func TestFileLinkOutside(t *testing.T) {
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret.yaml")
	if err := os.WriteFile(secret, []byte("deployItems: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Symlink(secret, filepath.Join(dir, "deploy.yaml")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "real.yaml"), []byte("deployItems: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "real.yaml"), filepath.Join(dir, "inside.yaml")); err != nil {
		t.Fatal(err)
	}
	doc := head + "deployExecutions:\n- name: a\n  type: GoTemplate\n  file: /deploy.yaml\n- name: b\n  type: GoTemplate\n  file: inside.yaml\n"
	res := Check(syntax.Parse(filepath.Join(dir, "blueprint.yaml"), []byte(doc)), Options{Dir: dir})
	if len(res.Diagnostics) != 1 || res.Diagnostics[0].Code != codeFileOutside.ID || doc[res.Diagnostics[0].Range.Start:res.Diagnostics[0].Range.End] != "/deploy.yaml" {
		t.Errorf("got %s", messages(res.Diagnostics))
	}
}

// A JSON blueprint is checked the same way, at JSON positions.
func TestJSONBlueprint(t *testing.T) {
	doc := `{"apiVersion": "landscaper.gardener.cloud/v1alpha1", "kind": "Blueprint",
 "imports": [{"name": "a", "type": "data"}, {"name": "a", "schema": {}}], "exprots": []}`
	res := Check(syntax.Parse("blueprint.json", []byte(doc)), Options{})
	var got []want
	for _, d := range res.Diagnostics {
		got = append(got, want{d.Code, doc[d.Range.Start:d.Range.End]})
	}
	exp := []want{{"landscaper-schema-missing", `"a"`}, {"landscaper-duplicate-name", `"a"`}, {"landscaper-unknown-field", `"exprots"`}}
	if !equal(got, exp) {
		t.Errorf("got %v, want %v\n%s", got, exp, messages(res.Diagnostics))
	}
}

// TestKindMisspelled: a Landscaper document whose kind misspells one of
// ours (read as a Bluelink blueprint before, with "no version" and "needs
// at least one resource" at 1:1) gets one diagnostic at the kind's value,
// with a did-you-mean and its fix, and is checked as the kind it meant.
func TestKindMisspelled(t *testing.T) {
	tests := []struct {
		kind, near string
		rest       string
		want       []want // beside the kind's own
	}{
		{"Blueprnt", "Blueprint", "imports: []\nimprots: []\n", []want{{"landscaper-unknown-field", "improts"}}},
		{"blueprint", "Blueprint", "imports: []\n", nil},
		{"InstalationTemplate", "InstallationTemplate", "name: a\nblueprint:\n  ref: cd://resources/x\n", []want{{"landscaper-ref-unresolved", "cd://resources/x"}}},
	}
	for _, tt := range tests {
		t.Run(tt.kind, func(t *testing.T) {
			src := "apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: " + tt.kind + "\n" + tt.rest
			res := Check(syntax.Parse("blueprint.yaml", []byte(src)), Options{})
			start := strings.Index(src, "kind: ") + len("kind: ")
			rng := source.R(start, start+len(tt.kind))
			var got []want
			var kindDiag *source.Diagnostic
			for i, d := range res.Diagnostics {
				if d.Code == "landscaper-kind" {
					kindDiag = &res.Diagnostics[i]
					continue
				}
				got = append(got, want{d.Code, src[d.Range.Start:d.Range.End]})
			}
			if kindDiag == nil {
				t.Fatalf("no landscaper-kind diagnostic in %v", res.Diagnostics)
			}
			msg := `kind "` + tt.kind + `" is not a Landscaper Blueprint or InstallationTemplate; did you mean "` + tt.near + `"?`
			if kindDiag.Range != rng || kindDiag.Message != msg {
				t.Errorf("got %v %q, want %v %q", kindDiag.Range, kindDiag.Message, rng, msg)
			}
			if len(kindDiag.Suggestions) != 1 || kindDiag.Suggestions[0].Edits[0] != (source.Edit{Range: rng, NewText: tt.near}) {
				t.Errorf("fix %+v, want %q at %v", kindDiag.Suggestions, tt.near, rng)
			}
			if res.Kind != tt.near {
				t.Errorf("checked as %q, want %q", res.Kind, tt.near)
			}
			if len(got) != len(tt.want) || (len(got) > 0 && got[0] != tt.want[0]) {
				t.Errorf("other diagnostics %v, want %v", got, tt.want)
			}
		})
	}
}
