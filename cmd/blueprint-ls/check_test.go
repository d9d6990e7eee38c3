package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/blueprint-ls/blueprint-ls/internal/safefs"

	"github.com/blueprint-ls/blueprint-ls/internal/testutil"
	"github.com/blueprint-ls/blueprint-ls/source"
)

var update = flag.Bool("update", false, "regenerate docs/diagnostics.md and the golden files of testdata/golden")

func runArgs(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const goodYAML = "version: 2023-04-20\nresources:\n  q:\n    type: aws/sqs/queue\n    spec: {}\n"

func TestCheckValidExamples(t *testing.T) {
	code, out, errs := runArgs("check", filepath.Join("..", "..", "testdata", "examples", "valid"))
	if code != exitOK {
		t.Errorf("exit %d, want 0\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
}

func TestCheckText(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"a.blueprint.yaml":              "version: 2023-04-20\nresources:\n  q:\n    type: AWS::SQS::Queue\n    spec: {}\n",
		"sub/blueprint.json":            `{"version": "2023-04-20", "resources": {"q": {"type": "aws/sqs/queue", "spec": {}}}, "exprots": {}}`,
		"node_modules/x.blueprint.yaml": "not: [checked",
		"notes.yaml":                    "ignored: true",
		"c.blueprint.yml":               "# ünïcode\nversion: 2023-04-20\nresources:\n  q:\n    type: aws/sqs/queue\n    spec: {}\n    déscription: x\n    metadata:\n      labels:\n        ü: 1\n",
	})
	code, out, errs := runArgs("check", dir)
	if code != exitProblems {
		t.Errorf("exit %d, want 1 (stderr %s)", code, errs)
	}
	want := strings.Join([]string{
		dir + "/a.blueprint.yaml:4:11: error[resource-type-format]: resource type \"AWS::SQS::Queue\" must look like {provider}/{service}/{resourceType} or {provider}/{resourceType} (such as aws/lambda/function); each part a letter followed by letters, digits or -; did you mean \"aws/sqs/queue\"?",
		dir + "/c.blueprint.yml:7:5: warning[spec-unknown-field]: unknown field \"déscription\" in resource \"q\"; did you mean \"description\"?",
		dir + "/c.blueprint.yml:10:12: warning[spec-scalar-not-string]: labels \"ü\" should be a string, found the integer 1; it is used as its text",
		dir + "/sub/blueprint.json:1:86: warning[spec-unknown-field]: unknown field \"exprots\" in the blueprint; did you mean \"exports\"?",
		"",
	}, "\n")
	if diff := cmp.Diff(want, out); diff != "" {
		t.Errorf("output (-want +got):\n%s", diff)
	}
}

func TestCheckExitCodes(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"ok.blueprint.yaml":   goodYAML,
		"warn.blueprint.yaml": goodYAML + "extra: 1\n",
		"bad.blueprint.yaml":  "resources: {}\n",
		"empty/readme.md":     "",
	})
	tests := []struct {
		name string
		args []string
		want int
	}{
		{"clean file", []string{"check", filepath.Join(dir, "ok.blueprint.yaml")}, exitOK},
		{"warnings only", []string{"check", filepath.Join(dir, "warn.blueprint.yaml")}, exitOK},
		{"errors", []string{"check", filepath.Join(dir, "bad.blueprint.yaml")}, exitProblems},
		{"missing path", []string{"check", filepath.Join(dir, "nope.yaml")}, exitUsage},
		{"no blueprints", []string{"check", filepath.Join(dir, "empty")}, exitUsage},
		{"bad format", []string{"check", "--format", "xml", dir}, exitUsage},
		{"bad flag", []string{"check", "--nope", dir}, exitUsage},
		{"help", []string{"check", "-h"}, exitOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if code, out, errs := runArgs(tt.args...); code != tt.want {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.want, out, errs)
			}
		})
	}
}

func TestCheckUnreadable(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root can read any file")
	}
	dir := writeFiles(t, map[string]string{"x.blueprint.yaml": goodYAML})
	p := filepath.Join(dir, "x.blueprint.yaml")
	if err := os.Chmod(p, 0); err != nil {
		t.Fatal(err)
	}
	if code, _, _ := runArgs("check", p); code != exitUsage {
		t.Errorf("exit %d, want 2", code)
	}
}

func TestCheckJSON(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"a.blueprint.yaml": "version: 2023-04-20\nresources:\n  q:\n    type: aws/sqs/queue\n    spec: {}\n  q:\n    type: aws/sqs/queue\n    spec: {}\n",
		"b.blueprint.yaml": goodYAML,
	})
	code, out, errs := runArgs("check", "--format", "json", dir)
	if code != exitProblems {
		t.Fatalf("exit %d, want 1 (stderr %s)", code, errs)
	}
	var got jsonReport
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	want := jsonReport{
		Files: []jsonFile{
			{Path: filepath.Join(dir, "a.blueprint.yaml"), Diagnostics: []jsonDiagnostic{{
				Code: "spec-duplicate-key", Severity: "error",
				Message: `duplicate key "q": keys must be unique within a mapping`,
				Range:   jsonRange{Start: jsonPos{Line: 6, Column: 3, Offset: 75}, End: jsonPos{Line: 6, Column: 4, Offset: 76}},
				Related: []jsonRelated{{
					Range:   jsonRange{Start: jsonPos{Line: 3, Column: 3, Offset: 33}, End: jsonPos{Line: 3, Column: 4, Offset: 34}},
					Message: `"q" is first defined here`,
				}},
			}}},
			{Path: filepath.Join(dir, "b.blueprint.yaml"), Diagnostics: []jsonDiagnostic{}},
		},
		Summary: jsonSummary{Files: 2, Errors: 1},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("JSON report (-want +got):\n%s", diff)
	}
}

func TestCheckPanicRecovered(t *testing.T) {
	dir := writeFiles(t, map[string]string{"a.blueprint.yaml": goodYAML, "b.blueprint.yaml": goodYAML})
	results := checkAllWith([]string{filepath.Join(dir, "a.blueprint.yaml"), filepath.Join(dir, "b.blueprint.yaml")},
		func(path string) ([]source.Diagnostic, *source.Mapper, error) {
			if strings.HasSuffix(path, "a.blueprint.yaml") {
				panic("boom")
			}
			return newChecker(nil, nil, safefs.Limits{}, nil, nil)(path)
		})
	if len(results[0].diags) != 1 || results[0].diags[0].Code != "internal-error" || !strings.Contains(results[0].diags[0].Message, "boom") {
		t.Errorf("panic not turned into an internal-error diagnostic: %+v", results[0])
	}
	if results[1].err != nil || len(results[1].diags) != 0 {
		t.Errorf("other file affected: %+v", results[1])
	}
}

// TestDiagnosticsDocFresh fails when docs/diagnostics.md does not match
// the registered codes; run with -update to regenerate it.
func TestDiagnosticsDocFresh(t *testing.T) {
	testutil.Golden(t, filepath.Join("..", "..", "docs", "diagnostics.md"), diagnosticsDoc(), *update)
}

func diagnosticsDoc() string {
	var b strings.Builder
	b.WriteString("# Diagnostics\n\n")
	b.WriteString("<!-- Generated from source.Codes() by TestDiagnosticsDocFresh in cmd/blueprint-ls; do not edit.\n")
	b.WriteString("     Regenerate: go test ./cmd/blueprint-ls -run TestDiagnosticsDocFresh -update -->\n\n")
	b.WriteString("Every problem blueprint-ls reports has a stable code. The severity is the default;\n")
	b.WriteString("a few diagnostics report a different one where the message says so. Where the\n")
	b.WriteString("specification and the reference implementation disagree, see\n")
	b.WriteString("[Differences from the reference implementation](#differences-from-the-reference-implementation).\n\n")
	b.WriteString("| code | severity | summary |\n|---|---|---|\n")
	var codes []*source.Code
	for _, c := range source.Codes() {
		if c.Doc == "" { // the rules have their own page, docs/rules.md
			codes = append(codes, c)
		}
	}
	for _, c := range codes {
		fmt.Fprintf(&b, "| [`%s`](#%s) | %s | %s |\n", c.ID, c.ID, c.Severity, strings.ReplaceAll(c.Summary, "|", `\|`))
	}
	writeReferenceDifferences(&b)
	for _, c := range codes {
		fmt.Fprintf(&b, "\n## %s\n\n%s\n\nSeverity: %s.\n", c.ID, c.Summary, c.Severity)
		if c.Example != "" {
			fmt.Fprintf(&b, "\nExample:\n\n```yaml\n%s\n```\n", strings.TrimRight(c.Example, "\n"))
		}
	}
	return b.String()
}

// checkAllWith checks files with check and no project policy, in parallel;
// results come back in the order of files.
func checkAllWith(files []string, check checkFunc) []fileResult {
	jobs := make([]job, len(files))
	for i, f := range files {
		jobs[i] = job{path: f, check: check, policy: &policy{}}
	}
	return runJobs(jobs, nil)
}

// TestCheckBrokenProviderFiles: a provider directory's broken files are
// reported on themselves, at the syntax error, and its other files still
// serve the check (exit 1, not a usage failure).
func TestCheckBrokenProviderFiles(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"providers/broken.json":  `{"typeName": "Acme::Shop::Widget", "properties": {`,
		"providers/garbage.json": "not json",
		"providers/good.json":    `{"typeName": "Acme::Shop::Gadget", "description": "A gadget.", "properties": {"Size": {"type": "integer"}}, "primaryIdentifier": ["/properties/Size"], "additionalProperties": false}`,
		"app.blueprint.yaml":     "version: 2025-11-02\nresources:\n  g:\n    type: acme/shop/gadget\n    spec:\n      size: x\n",
	})
	code, out, errs := runArgs("check", "--no-summary", "--providers", filepath.Join(dir, "providers"), filepath.Join(dir, "app.blueprint.yaml"))
	if code != exitProblems {
		t.Fatalf("exit %d, want 1\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		got = append(got, strings.TrimPrefix(filepath.ToSlash(line), filepath.ToSlash(dir)+"/"))
	}
	want := []string{
		"app.blueprint.yaml:6:13: error[resource-field-type]: spec.size expects integer, found string",
		"providers/broken.json:1:51: error[provider-file-invalid]: cannot load this provider file: unexpected end of JSON input; the directory's other files still load",
		"providers/garbage.json:1:2: error[provider-file-invalid]: cannot load this provider file: invalid character 'o' in literal null (expecting 'u'); the directory's other files still load",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("output (-want +got):\n%s", diff)
	}
}
