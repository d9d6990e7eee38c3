package main

import (
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// codesOf runs check --format json and returns "file:line code severity"
// for every diagnostic, file relative to dir.
func codesOf(t *testing.T, dir string, args ...string) ([]string, int) {
	t.Helper()
	code, out, errs := runArgs(append([]string{"check", "--format", "json"}, args...)...)
	if code == exitUsage {
		t.Fatalf("usage error: %s", errs)
	}
	var rep jsonReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var got []string
	for _, f := range rep.Files {
		rel, _ := filepath.Rel(dir, f.Path)
		for _, d := range f.Diagnostics {
			got = append(got, filepath.ToSlash(rel)+":"+strconv.Itoa(d.Range.Start.Line)+" "+d.Code+" "+d.Severity)
		}
	}
	return got, code
}

// labelInt gives resource q a label whose value is a number: a
// spec-scalar-not-string warning on line 8.
const labelInt = "    metadata:\n      labels:\n        n: 1\n"

const unusedVar = "variables:\n  unused:\n    type: string\n"

func TestSuppressions(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"a.blueprint.yaml": goodYAML +
			"extra: 1 # blueprint-ls:ignore spec-unknown-field\n" +
			"# blueprint-ls:ignore spec-unknown-field, unused-variable -- legacy\n" +
			"other: 2\n" +
			"third: 3 # blueprint-ls:ignore\n" +
			"fourth: 4 #blueprint-ls:ignore cycle\n" +
			"fifth: 5 # blueprint-ls:ignore spec-unknwon-field\n" +
			"sixth: 6 # blueprint-ls:ignored\n" +
			"# blueprint-ls:ignore\n",
		"b.blueprint.jsonc": "{\n  \"version\": \"2023-04-20\",\n  // blueprint-ls:ignore spec-unknown-field\n  \"extra\": 1,\n  \"more\": 2, // blueprint-ls:ignore\n  \"resources\": {\"q\": {\"type\": \"aws/sqs/queue\", \"spec\": {}}}\n}\n",
	})
	got, code := codesOf(t, dir, dir)
	want := []string{
		"a.blueprint.yaml:7 suppress-unused hint",        // unused-variable suppressed nothing on line 8
		"a.blueprint.yaml:10 spec-unknown-field warning", // cycle does not match
		"a.blueprint.yaml:10 suppress-unused hint",
		"a.blueprint.yaml:11 spec-unknown-field warning",
		"a.blueprint.yaml:11 suppress-unknown-code warning",
		"a.blueprint.yaml:12 spec-unknown-field warning", // ignored is not the directive
		"a.blueprint.yaml:13 suppress-unused hint",       // nothing on the line after the last
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
	if code != exitOK {
		t.Errorf("exit %d, want 0", code)
	}
	// Hints count against --severity-threshold hint, so an unused
	// suppression can fail a strict run.
	if _, code := codesOf(t, dir, "--severity-threshold", "hint", dir); code != exitProblems {
		t.Errorf("threshold hint: exit %d, want 1", code)
	}
}

func TestConfig(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		configName:                       "severity:\n  spec-unknown-field: error\n  unused-variable: off\nignore:\n  - generated/**\n  - '*.skip.blueprint.yaml'\n",
		"app/a.blueprint.yaml":           goodYAML + "extra: 1\n" + unusedVar,
		"generated/x/b.blueprint.yaml":   "not: [valid",
		"app/c.skip.blueprint.yaml":      "not: [valid",
		"team/" + configName:             "# an empty config: the parent's does not apply below here\n",
		"team/d.blueprint.yaml":          goodYAML + "extra: 1\n",
		"strict/" + configName:           "strictTypes: true\n",
		"strict/e.blueprint.yaml":        goodYAML + labelInt,
		"strict/nested/f.blueprint.yaml": goodYAML + labelInt,
		"custom/" + configName:           "severity: {spec-unknown-field: hint}\n",
		"custom/nested/g.blueprint.yaml": goodYAML + "extra: 1\n",
		"alt-config.yaml":                "ignore: [app]\n",
	})
	got, code := codesOf(t, dir, dir)
	want := []string{
		"app/a.blueprint.yaml:6 spec-unknown-field error",
		"custom/nested/g.blueprint.yaml:6 spec-unknown-field hint",
		"strict/e.blueprint.yaml:8 spec-scalar-not-string error",
		"strict/nested/f.blueprint.yaml:8 spec-scalar-not-string error",
		"team/d.blueprint.yaml:6 spec-unknown-field warning",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
	if code != exitProblems {
		t.Errorf("exit %d, want 1", code)
	}

	// --config replaces discovery for every file.
	got, _ = codesOf(t, dir, "--config", filepath.Join(dir, "alt-config.yaml"), filepath.Join(dir, "team"), filepath.Join(dir, "app"))
	if diff := cmp.Diff([]string{"team/d.blueprint.yaml:6 spec-unknown-field warning"}, got); diff != "" {
		t.Errorf("--config (-want +got):\n%s", diff)
	}

	// Without strictTypes the coerced scalar is a warning; --strict-types
	// makes it an error whatever the config says.
	loose := writeFiles(t, map[string]string{"h.blueprint.yaml": goodYAML + labelInt})
	if got, _ := codesOf(t, loose, loose); len(got) != 1 || !strings.HasSuffix(got[0], "warning") {
		t.Errorf("without strict types: %v", got)
	}
	if got, code := codesOf(t, loose, "--strict-types", loose); len(got) != 1 || !strings.HasSuffix(got[0], "error") || code != exitProblems {
		t.Errorf("--strict-types: %v exit %d", got, code)
	}
}

func TestConfigErrors(t *testing.T) {
	tests := []struct{ config, want string }{
		{"severity:\n  spec-unknwon-field: off\n", `2:3: severity: unknown diagnostic code "spec-unknwon-field"; did you mean "spec-unknown-field"?`},
		{"severity:\n  cycle: loud\n", `2:10: severity of cycle must be error, warning, information, hint or off, not "loud"`},
		{"ignores: []\n", `1:1: unknown field "ignores"`},
		{"providers: ./p\n", "1:12: providers must be a list of strings"},
		{"strictTypes: yes\n", "1:14: strictTypes must be true or false"},
		{"ignore: ['[']\n", `1:9: ignore: bad glob "["`},
		{"severity: [\n", "yaml"},
		{"- a\n", "1:1: the config must be a mapping"},
		{"inputs:\n  vars: [dev.json]\n  state: x\n", `3:3: unknown field "state" in inputs`},
	}
	for _, tt := range tests {
		t.Run(tt.config, func(t *testing.T) {
			dir := writeFiles(t, map[string]string{configName: tt.config, "a.blueprint.yaml": goodYAML})
			code, _, errs := runArgs("check", dir)
			if code != exitUsage || !strings.Contains(errs, configName) || !strings.Contains(errs, tt.want) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, errs, tt.want)
			}
		})
	}
}

func TestIgnoreFlag(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"keep/a.blueprint.yaml":    goodYAML + "extra: 1\n",
		"vendor/b.blueprint.yaml":  "not: [valid",
		"keep/c.gen.blueprint.yml": "not: [valid",
	})
	got, code := codesOf(t, dir, "--ignore", "vendor", "--ignore", "*.gen.blueprint.yml", dir)
	if diff := cmp.Diff([]string{"keep/a.blueprint.yaml:6 spec-unknown-field warning"}, got); diff != "" || code != exitOK {
		t.Errorf("exit %d, diagnostics (-want +got):\n%s", code, diff)
	}
	// A file named explicitly is ignored too: pre-commit passes every
	// changed file.
	code, _, errs := runArgs("check", "--ignore", "**/vendor/**", filepath.Join(dir, "vendor", "b.blueprint.yaml"))
	if code != exitOK || !strings.Contains(errs, "ignored") {
		t.Errorf("explicit ignored file: exit %d, stderr %q", code, errs)
	}
	if code, _, _ := runArgs("check", "--ignore", "[", dir); code != exitUsage {
		t.Errorf("bad glob: exit %d, want 2", code)
	}
}

func TestProvidersFlag(t *testing.T) {
	schema := `{"typeName": "Acme::Thing::Box", "description": "A box.",
 "properties": {"Size": {"type": "integer"}, "Label": {"type": "string"}},
 "required": ["Size"], "primaryIdentifier": ["/properties/Label"], "additionalProperties": false}`
	bp := "version: 2023-04-20\nresources:\n  b:\n    type: acme/thing/box\n    spec:\n      label: x\n"
	dir := writeFiles(t, map[string]string{
		"providers/box.json":        schema,
		"a/a.blueprint.yaml":        bp,
		"b/" + configName:           "providers: [../providers]\nroots: [../providers]\n", // outside b: allowed by roots
		"b/b.blueprint.yaml":        bp,
		"c/c.blueprint.yaml":        bp,
		"c/" + configName + ".orig": "",
	})
	got, _ := codesOf(t, dir, filepath.Join(dir, "a"))
	if len(got) != 1 || !strings.Contains(got[0], "resource-unknown-provider") {
		t.Errorf("without providers: %v", got)
	}
	want := []string{"a/a.blueprint.yaml:5 resource-missing-field error"}
	if got, _ := codesOf(t, dir, "--providers", filepath.Join(dir, "providers"), filepath.Join(dir, "a")); !cmp.Equal(want, got) {
		t.Errorf("--providers: %v, want %v", got, want)
	}
	want = []string{"b/b.blueprint.yaml:5 resource-missing-field error"}
	if got, _ := codesOf(t, dir, filepath.Join(dir, "b")); !cmp.Equal(want, got) {
		t.Errorf("config providers: %v, want %v", got, want)
	}
	if code, _, errs := runArgs("check", "--providers", filepath.Join(dir, "missing"), filepath.Join(dir, "a")); code != exitUsage {
		t.Errorf("missing provider dir: exit %d (%s)", code, errs)
	}
}

func TestGitHubEscaping(t *testing.T) {
	if got, want := escapeGitHubData("50% done\r\nnext: a,b"), "50%25 done%0D%0Anext: a,b"; got != want {
		t.Errorf("data: %q, want %q", got, want)
	}
	if got, want := escapeGitHubProperty("dir:a,b%/x\ny"), "dir%3Aa%2Cb%25/x%0Ay"; got != want {
		t.Errorf("property: %q, want %q", got, want)
	}
	dir := writeFiles(t, map[string]string{"we,ird:name.blueprint.yaml": goodYAML + "extra: 1\n"})
	t.Chdir(dir)
	code, out, _ := runArgs("check", "--format", "github", ".")
	want := "::warning file=we%2Cird%3Aname.blueprint.yaml,line=6,col=1,endLine=6,endColumn=6,title=spec-unknown-field::unknown field \"extra\" in the blueprint"
	if code != exitOK || !strings.HasPrefix(out, want) {
		t.Errorf("exit %d, output:\n%s\nwant prefix:\n%s", code, out, want)
	}
}

func TestMaxProblemsKeepsExitStatus(t *testing.T) {
	dir := writeFiles(t, map[string]string{"a.blueprint.yaml": "resources: {}\n", "b.blueprint.yaml": "resources: {}\n"})
	code, out, _ := runArgs("check", "--max-problems", "1", dir)
	if code != exitProblems || strings.Count(out, "\n") != 1 {
		t.Errorf("exit %d, output:\n%s", code, out)
	}
	code, out, _ = runArgs("check", "--format", "json", "--max-problems", "1", dir)
	var rep jsonReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != exitProblems || rep.Summary.Omitted == 0 || rep.Summary.Errors != rep.Summary.Omitted+1 {
		t.Errorf("json: exit %d, summary %+v (%v)", code, rep.Summary, err)
	}
}
