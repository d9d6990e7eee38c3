package ide

import (
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// applyEdits applies one document's edits to content.
func applyEdits(content []byte, edits []source.Edit) string {
	es := append([]source.Edit(nil), edits...)
	sort.Slice(es, func(i, j int) bool { return es[i].Range.Start > es[j].Range.Start })
	out := string(content)
	for _, e := range es {
		out = out[:e.Range.Start] + e.NewText + out[e.Range.End:]
	}
	return out
}

func TestRename(t *testing.T) {
	src := basicSource(t)
	res := analyze(t, "basic.yaml", src)
	tests := []struct {
		name     string
		at       string
		delta    int
		newName  string
		contains []string
		absent   []string
	}{
		{"variable from reference", "variables.environment}", 12, "stage", []string{"  stage:\n", "orders-${variables.stage}", "search: ${variables.stage}", "trim(variables.stage)"}, []string{"environment:"}},
		{"resource everywhere", "table:", 1, "ordersTable", []string{"  ordersTable:\n", "dependsOn: [ordersTable]", "${ordersTable.spec.tableName}", "field: resources.ordersTable.spec.tableName"}, []string{"[table]"}},
		{"value", "prefix:", 1, "namePrefix", []string{"  namePrefix:\n", "${values.namePrefix}-table", "${values.namePrefix}-${"}, nil},
		{"data source field", "subnets:", 1, "subnetIds", []string{"      subnetIds:\n"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			off := offsetOf(t, src, tc.at, 0, tc.delta)
			if _, _, ok := PrepareRename(res, off); !ok {
				t.Fatal("prepareRename refused")
			}
			w, err := Rename(res, off, tc.newName, nil, Options{})
			if err != nil {
				t.Fatal(err)
			}
			got := applyEdits(res.File.Content(), w.Changes[res.URI])
			for _, c := range tc.contains {
				if !strings.Contains(got, c) {
					t.Errorf("result lacks %q", c)
				}
			}
			for _, a := range tc.absent {
				if strings.Contains(got, a) {
					t.Errorf("result still has %q", a)
				}
			}
			// The renamed document analyses without new errors.
			after := analyze(t, "basic.yaml", got)
			for _, d := range after.Diagnostics {
				if d.Severity == source.Error {
					t.Errorf("after rename: %s %s", d.Code, d.Message)
				}
			}
		})
	}
}

func TestRenameRejects(t *testing.T) {
	src := basicSource(t)
	res := analyze(t, "basic.yaml", src)
	off := offsetOf(t, src, "environment:", 0, 1)
	for _, name := range []string{"1abc", "a.b", "", "region", "values"} {
		if _, err := Rename(res, off, name, nil, Options{}); err == nil {
			t.Errorf("%q accepted", name)
		}
	}
	if _, err := Rename(res, offsetOf(t, src, "table:", 0, 1), "trim", nil, Options{}); err == nil {
		t.Error("resource renamed to a function name")
	}
	if _, _, ok := PrepareRename(res, offsetOf(t, src, "billingMode", 0, 1)); ok {
		t.Error("spec key is renamable")
	}
}

func TestRenameAcrossFiles(t *testing.T) {
	parent := analyzeFile(t, "parent.yaml")
	child := parent.Children["core"].Result
	csrc := string(child.File.Content())
	open := []*analysis.Result{parent}
	base := func(uri string) string { return filepath.Base(uri) }

	// A child's export: the parent's children.core.<export> follow.
	w, err := Rename(child, offsetOf(t, csrc, "queueUrl:", 0, 1), "url", open, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for uri, es := range w.Changes {
		content := child.File.Content()
		if base(uri) == "parent.yaml" {
			content = parent.File.Content()
		}
		got[base(uri)] = applyEdits(content, es)
	}
	if !strings.Contains(got["child.yaml"], "\n  url:\n") {
		t.Errorf("child:\n%s", got["child.yaml"])
	}
	if strings.Count(got["parent.yaml"], "children.core.url") != 2 {
		t.Errorf("parent:\n%s", got["parent.yaml"])
	}

	// A child's variable: the include's variables key follows.
	w, err = Rename(child, offsetOf(t, csrc, "stage:", 0, 1), "phase", open, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for uri := range w.Changes {
		files = append(files, base(uri))
	}
	sort.Strings(files)
	if d := cmp.Diff([]string{"child.yaml", "parent.yaml"}, files); d != "" {
		t.Fatalf("files (-want +got):\n%s", d)
	}
	for uri, es := range w.Changes {
		if base(uri) == "parent.yaml" {
			if out := applyEdits(parent.File.Content(), es); !strings.Contains(out, "      phase: ${variables.env}") {
				t.Errorf("parent:\n%s", out)
			}
		}
	}

	// Renaming from the parent's include key works the same way.
	psrc := string(parent.File.Content())
	w, err = Rename(parent, offsetOf(t, psrc, "stage:", 0, 1), "phase", nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Changes) != 2 {
		t.Errorf("from the parent: %d files changed", len(w.Changes))
	}
}

func TestRenameJSON(t *testing.T) {
	res := analyze(t, "doc.json", jsonDoc)
	off := offsetOf(t, jsonDoc, `"env"`, 0, 2)
	r, ph, ok := PrepareRename(res, off)
	if !ok || ph != "env" || text(res, r) != "env" {
		t.Fatalf("prepare: %v %q %v", r, ph, ok)
	}
	w, err := Rename(res, off, "stage", nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := applyEdits(res.File.Content(), w.Changes[res.URI])
	if !strings.Contains(got, `"stage": {"type"`) || !strings.Contains(got, `${variables.stage}-q`) {
		t.Errorf("got:\n%s", got)
	}
}

// namesSource names the resource "a" as text in every place a blueprint
// can: link() string literals (bare and in a double-quoted scalar with
// YAML escapes), dependsOn as a scalar and as a list, and
// linkSelector.exclude.
const namesSource = `version: 2025-11-02
values:
  pair:
    type: object
    value: ${link("a", resources.b)}
  quoted:
    type: object
    value: "${link(\"a\", \"b\")}"
resources:
  a:
    type: aws/dynamodb/table
    metadata:
      labels:
        app: orders
    spec:
      tableName: t
  b:
    type: aws/lambda/function
    dependsOn: a
    spec:
      functionName: f
  c:
    type: aws/lambda/function
    dependsOn: [a, b]
    linkSelector:
      byLabel:
        app: orders
      exclude: [a]
    spec:
      functionName: g
`

func TestRenameResourceNamesInStrings(t *testing.T) {
	res := analyze(t, "names.yaml", namesSource)
	want := strings.NewReplacer(
		"  a:\n", "  store:\n",
		`link("a"`, `link("store"`,
		`link(\"a\"`, `link(\"store\"`,
		"dependsOn: a\n", "dependsOn: store\n",
		"dependsOn: [a, b]", "dependsOn: [store, b]",
		"exclude: [a]", "exclude: [store]",
	).Replace(namesSource)
	// Rename from the definition and from each place the name is written.
	for _, at := range []struct {
		name, text string
		delta      int
	}{
		{"definition", "  a:\n", 2},
		{"link literal", `link("a"`, 6},
		{"link literal with YAML escapes", `link(\"a\"`, 7},
		{"dependsOn scalar", "dependsOn: a", 11},
		{"dependsOn list", "dependsOn: [a", 12},
		{"exclude", "exclude: [a", 10},
	} {
		t.Run(at.name, func(t *testing.T) {
			off := offsetOf(t, namesSource, at.text, 0, at.delta)
			rng, placeholder, ok := PrepareRename(res, off)
			if !ok || placeholder != "a" || namesSource[rng.Start:rng.End] != "a" {
				t.Fatalf("PrepareRename = %v %q %v, want the range of a", rng, placeholder, ok)
			}
			w, err := Rename(res, off, "store", nil, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, applyEdits(res.File.Content(), w.Changes[res.URI])); diff != "" {
				t.Errorf("renamed (-want +got):\n%s", diff)
			}
			refs := References(res, off, false, nil)
			if len(refs) != 5 {
				t.Errorf("References: %d locations, want 5: %v", len(refs), refs)
			}
			hl := DocumentHighlight(res, off)
			if len(hl) != 6 {
				t.Errorf("DocumentHighlight: %d, want 6", len(hl))
			}
		})
	}
	// The renamed document has the same problems as before (the specs
	// are incomplete on purpose), none about names.
	messages := func(r *analysis.Result) []string {
		var out []string
		for _, d := range r.Diagnostics {
			out = append(out, d.Code+" "+d.Message)
		}
		return out
	}
	if diff := cmp.Diff(messages(res), messages(analyze(t, "names.yaml", want))); diff != "" {
		t.Errorf("diagnostics after rename (-before +after):\n%s", diff)
	}
}

// TestRenameKeepsQuotes renames a value referenced with its name in
// double and in single quotes; each keeps its quote character.
func TestRenameKeepsQuotes(t *testing.T) {
	src := "version: 2023-04-20\nvalues:\n  cfg:\n    type: string\n    value: x\nresources:\n  q:\n    type: aws/sqs/queue\n    spec:\n      queueName: ${values['cfg']}-${values[\"cfg\"]}-${values.cfg}\n"
	res := analyze(t, "q.yaml", src)
	off := offsetOf(t, src, "cfg:", 0, 1)
	w, err := Rename(res, off, "conf", nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := applyEdits(res.File.Content(), w.Changes[res.URI])
	want := "queueName: ${values['conf']}-${values[\"conf\"]}-${values.conf}\n"
	if !strings.Contains(got, want) || !strings.Contains(got, "  conf:\n") {
		t.Errorf("got:\n%s\nwant it to contain %q", got, want)
	}
}
