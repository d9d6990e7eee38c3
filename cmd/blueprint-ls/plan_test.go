package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const ordersAPI = "../../testdata/examples/valid/orders-api.blueprint.yaml"

func runCmd(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestEvalCommand(t *testing.T) {
	cases := []struct {
		args []string
		code int
		out  string
		err  string
	}{
		{[]string{"eval", `${join(map(split("a,b", ","), to_upper), "-")}`}, 0, "\"A-B\"\n", ""},
		{[]string{"eval", "--format", "text", `${join(map(split("a,b", ","), to_upper), "-")}`}, 0, "A-B\n", ""},
		{[]string{"eval", `${variables.x}-y`, "--var", "x=1"}, 0, "\"1-y\"\n", ""},
		{[]string{"eval", `${resources.fn.state.arn}`, "--blueprint", ordersAPI}, 0, "{\"$unknown\":\"resources.fn.state.arn\"}\n", ""},
		{[]string{"eval", "--blueprint", ordersAPI, `${values.functionPrefix}`}, 0, "\"ordersApi-dev\"\n", ""},
		{[]string{"eval", "--blueprint", ordersAPI, "--format", "text", `${ordersTable.spec.tableName}`}, 0, "orders-dev\n", ""},
		{[]string{"eval", "--blueprint", ordersAPI, `${variables.databasePassword}`, "--var", "databasePassword=pw"}, 0, "{\"$sensitive\":true}\n", ""},
		{[]string{"eval", `${to_uper("a")}`}, 1, "", "<template>:1:3: error[eval-unknown-function]: unknown function to_uper; did you mean to_upper?\n"},
		{[]string{"eval", `${trim("a"}`}, 1, "", "<template>:1:"},
		{[]string{"eval", `${list(1, 2)[5]}`}, 1, "", "<template>:1:13: error[eval-runtime-error]: index 5 is out of range"},
		{[]string{"eval", "--blueprint", ordersAPI, "${variables.environment}", "--var", "environment=test"}, 1, "", "error[input-not-allowed]"},
		{[]string{"eval"}, 2, "", "Usage"},
		{[]string{"eval", "x", "--format", "yaml"}, 2, "", "unknown format"},
		{[]string{"eval", "x", "--blueprint", "/no/such/file"}, 2, "", "/no/such/file does not exist"},
	}
	for _, c := range cases {
		code, out, errs := runCmd(c.args...)
		if code != c.code || out != c.out || !strings.Contains(errs, c.err) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want %d, %q, containing %q", c.args, code, out, errs, c.code, c.out, c.err)
		}
	}
}

func TestPlanCommand(t *testing.T) {
	vars := "../../testdata/inputs/orders-api.vars.json"
	code, out, errs := runCmd("plan", ordersAPI, "--vars", vars)
	if code != 0 || !strings.Contains(out, "Plan: 5 to create, 0 to update, 0 to replace, 0 to delete.") {
		t.Errorf("exit %d\n%s\n%s", code, out, errs)
	}
	if strings.Contains(out, "correct-horse") {
		t.Errorf("secret leaked:\n%s", out)
	}
	for _, f := range []string{"json", "markdown"} {
		code, out, _ := runCmd("plan", "--format", f, ordersAPI, "--vars", vars)
		if code != 0 || strings.Contains(out, "correct-horse") || len(out) < 100 {
			t.Errorf("--format %s: exit %d\n%s", f, code, out)
		}
	}
	// Missing required variables: every one is listed, exit 1.
	code, _, errs = runCmd("plan", ordersAPI)
	if code != 1 || !strings.Contains(errs, `variable "databaseHost"`) || !strings.Contains(errs, `variable "databasePassword"`) || !strings.Contains(errs, "orders-api.blueprint.yaml:13:3: error[input-missing-variable]") {
		t.Errorf("missing variables: exit %d\n%s", code, errs)
	}
	// --detailed-exitcode: 2 when something changes.
	if code, _, _ := runCmd("plan", ordersAPI, "--vars", vars, "--detailed-exitcode"); code != 2 {
		t.Errorf("--detailed-exitcode with changes: exit %d", code)
	}
	// Usage and I/O failures.
	for _, args := range [][]string{{"plan"}, {"plan", "/no/such.yaml"}, {"plan", ordersAPI, "--state", "/no/state.json"}, {"plan", ordersAPI, "--format", "xml"}} {
		if code, _, _ := runCmd(args...); code != 2 {
			t.Errorf("%q: exit %d, want 2", args, code)
		}
	}
	// A blueprint with errors: exit 1, positioned.
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.blueprint.yaml")
	os.WriteFile(bad, []byte("version: 2023-04-20\nresources:\n  q:\n    type: aws/sqs/queue\n    spec:\n      queueName: ${variables.nope}\n"), 0o644)
	code, _, errs = runCmd("plan", bad)
	if code != 1 || !strings.Contains(errs, "bad.blueprint.yaml:6:") {
		t.Errorf("bad blueprint: exit %d\n%s", code, errs)
	}
}

// TestPlanColor checks --color: ANSI colours by action with always, none
// with never, none by default when stdout is not a terminal (auto and
// NO_COLOR are decided by check's colorFor).
func TestPlanColor(t *testing.T) {
	vars := "../../testdata/inputs/orders-api.vars.json"
	code, out, errs := runCmd("plan", ordersAPI, "--vars", vars, "--color", "always")
	if code != 0 || !strings.Contains(out, "\x1b[32m+ ordersTable\x1b[0m (aws/dynamodb/table) will be created") {
		t.Errorf("--color always: exit %d\n%q\n%s", code, out, errs)
	}
	_, plain, _ := runCmd("plan", ordersAPI, "--vars", vars, "--color", "never")
	if strings.Contains(plain, "\x1b[") || !strings.Contains(plain, "+ ordersTable (aws/dynamodb/table)") {
		t.Errorf("--color never:\n%q", plain)
	}
	if stripped := strings.NewReplacer("\x1b[32m", "", "\x1b[0m", "").Replace(out); stripped != plain {
		t.Errorf("coloured output differs from plain output beyond its colours:\n%s\n%s", stripped, plain)
	}
	if _, auto, _ := runCmd("plan", ordersAPI, "--vars", vars); strings.Contains(auto, "\x1b[") {
		t.Errorf("auto colours output that is not a terminal:\n%q", auto)
	}
	if _, json, _ := runCmd("plan", ordersAPI, "--vars", vars, "--color", "always", "--format", "json"); strings.Contains(json, "\x1b[") {
		t.Errorf("JSON output coloured")
	}
	if code, _, _ := runCmd("plan", ordersAPI, "--vars", vars, "--color", "sometimes"); code != 2 {
		t.Errorf("--color sometimes: exit %d, want 2", code)
	}
}

// planDocExample is the command docs/plan.md shows, run from the
// repository root.
var planDocExample = []string{"plan", "testdata/examples/valid/orders-api.blueprint.yaml", "--vars", "testdata/inputs/orders-api.vars.json", "--data", "testdata/inputs/orders-api.data.json"}

// TestPlanDocFresh checks that the example in docs/plan.md is the real
// command's output (regenerate with -update).
func TestPlanDocFresh(t *testing.T) {
	wd, _ := os.Getwd()
	if err := os.Chdir("../.."); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	code, out, errs := runCmd(planDocExample...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	doc, err := os.ReadFile("docs/plan.md")
	if err != nil {
		t.Fatal(err)
	}
	const begin, end = "<!-- plan example: begin -->\n", "<!-- plan example: end -->"
	i, j := bytes.Index(doc, []byte(begin)), bytes.Index(doc, []byte(end))
	if i < 0 || j < i {
		t.Fatal("docs/plan.md lacks the example markers")
	}
	want := "```console\n$ blueprint-ls " + strings.Join(planDocExample[:1], " ") + " \\\n    " + strings.Join(planDocExample[1:], " ") + "\n" + out + "```\n"
	got := string(doc[i+len(begin) : j])
	if got == want {
		return
	}
	if *update {
		fresh := string(doc[:i+len(begin)]) + want + string(doc[j:])
		if err := os.WriteFile("docs/plan.md", []byte(fresh), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("docs/plan.md example is stale; run: go test ./cmd/blueprint-ls -run TestPlanDocFresh -update\n%s", cmp.Diff(want, got))
}
