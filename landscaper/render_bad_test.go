package landscaper

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/blueprint-ls/blueprint-ls/internal/testutil"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// renderIn renders head+doc as dir/blueprint.yaml with values.
func renderIn(t *testing.T, doc string, values map[string]any, opts RenderOptions) (*Rendered, []string, bool) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "part.tmpl"), []byte("part: {{ .x }}"), 0o644); err != nil {
		t.Fatal(err)
	}
	opts.Dir = dir
	out, diags, problems := Render(syntax.Parse(filepath.Join(dir, "blueprint.yaml"), []byte(head+doc)), values, opts)
	return out, problems, len(diags) > 0
}

func TestRenderProblems(t *testing.T) {
	const imp = "imports:\n- name: ns\n  schema: {type: string, maxLength: 5}\n- name: cluster\n  targetType: landscaper.gardener.cloud/kubernetes-cluster\n- name: opt\n  required: false\n  schema: {type: integer}\n"
	deploy := func(tmpl string) string {
		return imp + "deployExecutions:\n- name: d\n  type: GoTemplate\n  template: |\n" + indent(tmpl, "    ")
	}
	ok := map[string]any{"ns": "demo", "cluster": map[string]any{}}
	tests := []struct {
		name   string
		doc    string
		values map[string]any
		opts   RenderOptions
		want   string // a part of the one problem
	}{
		{"value against the schema", deploy("deployItems: []\n"), map[string]any{"ns": "toolong", "cluster": map[string]any{}}, RenderOptions{}, `import "ns": maxLength: got 7, want 5`},
		{"required import missing", deploy("deployItems: []\n"), map[string]any{"cluster": map[string]any{}}, RenderOptions{}, `import "ns" is required and has no value`},
		{"value for no import", deploy("deployItems: []\n"), map[string]any{"ns": "a", "cluster": map[string]any{}, "nss": 1}, RenderOptions{}, `"nss" is not an import of the blueprint; did you mean "ns"?`},
		{"target not a mapping", deploy("deployItems: []\n"), map[string]any{"ns": "a", "cluster": "c"}, RenderOptions{}, `import "cluster" is a target: its value is a mapping`},
		{"loop past the time budget", deploy("{{ range $i := until 1000000 }}{{ range $j := until 1000000 }}{{ end }}{{ end }}\n"), ok, RenderOptions{Timeout: 50 * time.Millisecond}, "stopped: the template ran past its time budget"},
		{"output past the size budget", deploy("{{ range until 100000 }}xxxxxxxxxxxxxxxx{{ end }}\n"), ok, RenderOptions{MaxOutput: 1000}, "stopped: the template's output passed its size budget"},
		{"range over a huge number", deploy("{{ range 1000000000000 }}{{ end }}\n"), ok, RenderOptions{}, "refused: range over 1000000000000"},
		{"a list too long", deploy("{{ $x := until 100000000 }}\n"), ok, RenderOptions{}, "stopped: the template's output passed its size budget"},
		{"one call building a huge string", deploy("{{ $s := repeat 2000000000 \"ab\" }}\n"), ok, RenderOptions{}, "stopped: the template's output passed its size budget"},
		{"indent by a huge count", deploy("{{ indent 2000000000 \"x\" }}\n"), ok, RenderOptions{}, "stopped: the template's output passed its size budget"},
		{"a string doubled past the budget", deploy("{{ $s := \"ab\" }}{{ range until 60 }}{{ $s = cat $s $s }}{{ end }}\n"), ok, RenderOptions{}, "stopped: the template's output passed its size budget"},
		{"replace multiplying its input", deploy("{{ $s := repeat 100000 \"a\" }}{{ replace \"\" $s $s }}\n"), ok, RenderOptions{}, "stopped: the template's output passed its size budget"},
		{"a list of references to one large string", deploy("{{ $s := repeat 1000000 \"a\" }}{{ $l := list }}{{ range until 100000 }}{{ $l = append $l $s }}{{ end }}{{ join \"\" $l }}\n"), ok, RenderOptions{}, "stopped: the template's output passed its size budget"},
		{"a list nested in a loop", deploy("{{ $l := list }}{{ range until 100000 }}{{ $l = list $l }}{{ end }}{{ toYaml $l }}\n"), ok, RenderOptions{}, "stopped: a value of the template is nested more than 1000 levels deep"},
		{"a dict holding itself", deploy("{{ $d := dict }}{{ $_ := set $d \"self\" $d }}{{ toJson $d }}\n"), ok, RenderOptions{}, "stopped: a value of the template is nested more than 1000 levels deep"},
		{"nested ranges calling nothing", deploy("{{ range 1000000 }}{{ range 1000000 }}{{ end }}{{ end }}\n"), ok, RenderOptions{Timeout: 50 * time.Millisecond}, "stopped: the template ran past its time budget"},
		{"include outside the folder", deploy("{{ include (printf \"../../etc/%s\" \"passwd\") . }}\n"), ok, RenderOptions{}, `"../../etc/passwd" is outside the blueprint's folder`},
		{"output not YAML", deploy("deployItems: [\n"), ok, RenderOptions{}, "deployExecutions/d: the output is not YAML: 1:"},
		{"export not declared", imp + "exports:\n- name: url\n  schema: {type: string}\nexportExecutions:\n- name: e\n  type: GoTemplate\n  template: |\n    exports:\n      ulr: x\n", ok, RenderOptions{}, `export "ulr" is not declared under exports; did you mean "url"?`},
		{"export against its schema", imp + "exports:\n- name: url\n  schema: {type: string}\nexportExecutions:\n- name: e\n  type: GoTemplate\n  template: |\n    exports:\n      url: 3\n", ok, RenderOptions{}, `export "url": got number, want string`},
		{"import execution errors", imp + "importExecutions:\n- name: i\n  type: GoTemplate\n  template: |\n    errors:\n    - ns is wrong\n", ok, RenderOptions{}, `import execution "i": ns is wrong`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, problems, _ := renderIn(t, tt.doc, tt.values, tt.opts)
			if out != nil || len(problems) != 1 || !strings.Contains(problems[0], tt.want) {
				t.Errorf("got %v (output %v), want one problem with %q", problems, out != nil, tt.want)
			}
		})
	}
}

func TestRenderOutput(t *testing.T) {
	const imp = "imports:\n- name: ns\n  schema: {type: string}\n- name: opt\n  required: false\n  schema: {type: integer}\n  default: {value: 3}\n"
	doc := imp + "exports:\n- name: url\n  schema: {type: string}\n" +
		"deployExecutions:\n- name: d\n  type: GoTemplate\n  template: |\n" +
		"    deployItems:\n    - name: {{ .imports.ns }}\n      replicas: {{ .imports.opt }}\n      inc: {{ include \"part.tmpl\" (dict \"x\" .imports.ns) | quote }}\n      key: {{ getResourceKey \"cd://resources/x\" }}\n      kc: {{ getShootAdminKubeconfig \"a\" \"b\" 1 .imports.ns }}\n" +
		"- name: e\n  type: GoTemplate\n  template: |\n    deployItems:\n    {{ $r := getResource .cd \"name\" \"x\" }}\n" +
		"exportExecutions:\n- name: x\n  type: Spiff\n  template:\n    exports:\n      url: (( \"http://\" imports.ns ))\n"
	out, problems, _ := renderIn(t, doc, map[string]any{"ns": "demo"}, RenderOptions{})
	if out == nil {
		t.Fatalf("problems: %v", problems)
	}
	y, err := out.YAML()
	if err != nil {
		t.Fatal(err)
	}
	want := `deployItems:
  - inc: 'part: demo'
    kc: <unknown:getShootAdminKubeconfig>
    key: <unknown:getResourceKey>
    name: demo
    replicas: 3
exports:
  url: http://demo
subinstallations: []
unknown:
  - where: deployExecutions/d
    reason: 'getResourceKey is not evaluated: it reads the component descriptor, which render does not fetch'
  - where: deployExecutions/d
    reason: 'getShootAdminKubeconfig is not evaluated: it would reach a cluster'
  - where: deployExecutions/e
    reason: 'the component descriptor is not fetched: .cd, .components and .componentDescriptorDef are empty'
  - where: deployExecutions/e
    reason: 'getResource is not evaluated: it reads the component descriptor, which render does not fetch: its output is left out'
  - where: exportExecutions
    reason: 'the values deploy items and subinstallations export come from their deployers and are not known: .values.deployitems, .values.dataobjects and .values.targets are empty'
`
	if string(y) != want {
		t.Errorf("got\n%s\nwant\n%s", y, want)
	}
	j, err := out.JSON()
	if err != nil || !strings.Contains(string(j), `"replicas": 3`) {
		t.Errorf("JSON: %v\n%s", err, j)
	}
}

// A blueprint with errors is not rendered: its diagnostics say why.
func TestRenderBlueprintErrors(t *testing.T) {
	out, _, diags := renderIn(t, "imports:\n- name: a\n  type: dta\n", nil, RenderOptions{})
	if out != nil || !diags {
		t.Errorf("rendered a blueprint with errors")
	}
}

// A rendered deploy item's configuration is checked against its
// deployer's provider configuration schema: unknown fields and wrong
// types are warnings; the output stays.
func TestRenderDeployerConfig(t *testing.T) {
	doc := "deployExecutions:\n- name: d\n  type: GoTemplate\n  template: |\n" +
		"    deployItems:\n" +
		"    - name: web\n      type: landscaper.gardener.cloud/kubernetes-manifest\n      config:\n        apiVersion: manifest.deployer.landscaper.gardener.cloud/v1alpha2\n        kind: ProviderConfiguration\n        updateStrategy: 3\n        manifest:\n        - policy: manage\n          manifest: {apiVersion: v1, kind: ConfigMap}\n        manifests:\n        - policy: manage\n          manifets: {}\n" +
		"    - name: chart\n      type: landscaper.gardener.cloud/helm\n      config:\n        apiVersion: helm.deployer.landscaper.gardener.cloud/v1alpha1\n        kind: ProviderConfiguration\n        name: x\n        namespace: y\n        chart: {ref: '{{ getResourceKey \"cd://resources/chart\" }}'}\n        values: {anything: [1, 2]}\n" +
		"    - name: other\n      type: landscaper.gardener.cloud/mock\n      config: {whatever: 1}\n"
	out, problems, _ := renderIn(t, doc, nil, RenderOptions{})
	if out == nil {
		t.Fatalf("problems: %v", problems)
	}
	want := []string{
		`deploy item "web": config: unknown field "manifest"; did you mean "manifests"?`,
		`deploy item "web": config.manifests[0]: unknown field "manifets"; did you mean "manifest"?`,
		`deploy item "web": config.updateStrategy: expected a string, found a number`,
	}
	if strings.Join(out.Warnings, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(out.Warnings, "\n"), strings.Join(want, "\n"))
	}
}

func TestSpiffEval(t *testing.T) {
	binding := map[string]any{"imports": map[string]any{"ns": "demo", "port": json.Number("8080"), "cfg": map[string]any{"a": "b"}}}
	tests := []struct {
		expr string
		want any
		ok   bool
	}{
		{`"x"`, "x", true},
		{`3`, json.Number("3"), true},
		{`true`, true, true},
		{`~`, nil, true},
		{`~~`, dropped{}, true},
		{`imports.ns`, "demo", true},
		{`imports.cfg`, map[string]any{"a": "b"}, true},
		{`"http://" imports.ns ":" imports.port`, "http://demo:8080", true},
		{`imports.nope || "fallback"`, "fallback", true},
		{`imports.nope || imports.ns`, "demo", true},
		{`imports.nope || ~~`, dropped{}, true},
		{`imports.nope`, nil, false},
		{`imports.cfg "x"`, nil, false},
		{`join(",", imports.ns)`, nil, false},
		{`imports.port + 1`, nil, false},
		{`"open`, nil, false},
	}
	for _, tt := range tests {
		got, ok := spiffEval(tt.expr, binding)
		if ok != tt.ok || tt.ok && !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: got %v, %v; want %v, %v", tt.expr, got, ok, tt.want, tt.ok)
		}
	}
}

// TestRenderStopsLoopsThatCallNothing shows that a run stopped at its
// time budget ends even when its loops call no function and write
// nothing: without the tick at the start of each range body the nested
// ranges below would go on for 10^12 iterations after render returned.
func TestRenderStopsLoopsThatCallNothing(t *testing.T) {
	before := runtime.NumGoroutine()
	doc := "deployExecutions:\n- name: d\n  type: GoTemplate\n  template: |\n    {{ range 1000000 }}{{ range 1000000 }}{{ end }}{{ end }}\n"
	_, problems, _ := renderIn(t, doc, nil, RenderOptions{Timeout: 20 * time.Millisecond})
	if len(problems) != 1 || !strings.Contains(problems[0], "time budget") {
		t.Fatalf("problems %v, want the time budget", problems)
	}
	// Wait for the abandoned run to end; it ends at its next iteration.
	deadline := time.Now().Add(30 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			t.Fatalf("the stopped template run is still going: %d goroutines, %d before", runtime.NumGoroutine(), before)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestRenderStringBuildersInBudget: a string doubled inside a range by
// any function that builds text from its arguments (text/template's
// print, printf and println, which are not in the function map, and
// sprig's) stops at the size budget; before print was guarded, the
// doubling ran the process out of memory. Each run is made in a child
// process with a heap and time budget.
func TestRenderStringBuildersInBudget(t *testing.T) {
	for _, call := range []string{
		"print $s $s",
		"printf \"%s%s\" $s $s",
		"println $s $s",
		"printf \"%v\" (list $s $s)",
		"cat $s $s",
		"join \"\" (list $s $s)",
		"print $s $s | html",
		"print $s $s | js",
		"print $s $s | urlquery",
		// fmt caps a width at 10^6; a thousand verbs padded to it
		// build a gigabyte in one call.
		"printf (repeat 1000 \"%[1]999999d\") 1",
		"printf (repeat 1000 \"%[1]*[2]d\") 999999 1",
	} {
		t.Run(call, func(t *testing.T) {
			doc := "deployExecutions:\n- name: d\n  type: GoTemplate\n  template: |\n    {{ $s := \"ab\" }}{{ range until 80 }}{{ $s = " + call + " }}{{ end }}\n"
			spent := testutil.WithinBudget(t, testutil.Budget{Time: 5 * time.Second, Heap: 512 << 20}, func(t testing.TB) {
				_, problems, _ := renderIn(t.(*testing.T), doc, nil, RenderOptions{})
				if len(problems) != 1 || !strings.Contains(problems[0], "size budget") {
					t.Errorf("problems %v, want the size budget", problems)
				}
			})
			t.Logf("%s: %v, heap %d MiB", call, spent.Time, spent.Heap>>20)
		})
	}
}
