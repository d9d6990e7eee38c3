package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const convertYAML = `# the queue blueprint
version: 2025-11-02
variables:
  env:
    type: string # where it runs
    default: staging
resources:
  q:
    type: aws/sqs/queue
    spec:
      queueName: ${variables.env}-orders
      delaySeconds: ${max(1, 2)}
    condition: ${eq(variables.env, "production")}
`

const convertBP = `# the queue blueprint
version "2025-11-02"

variable env: string {
    # where it runs
    default = "staging"
}

resource q: aws/sqs/queue {
    spec {
        queueName = "${variables.env}-orders"
        delaySeconds = max(1, 2)
    }
    condition = eq(variables.env, "production")
}
`

// TestConvert: YAML to the language and back, comments kept, the
// language's operators written as the calls they are in YAML; the exit
// statuses of the failures.
func TestConvert(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"q.blueprint.yaml": convertYAML,
		"op.bp":            "version \"2025-11-02\"\nvalue v: boolean { value = !variables.a && 1 < 2 }\n",
		"bad.bp":           "resource {\n",
		"odd.yaml":         "version: 2025-11-02\nresourcez: {}\n",
	})
	code, out, errs := runArgs("convert", filepath.Join(dir, "q.blueprint.yaml"), "--to", "bp")
	if code != 0 || out != convertBP {
		t.Fatalf("to bp: exit %d, stderr %q\n%s", code, errs, out)
	}
	bp := filepath.Join(dir, "q.bp")
	if code, _, errs := runArgs("convert", "--to", "yaml", "-o", bp, filepath.Join(dir, "q.blueprint.yaml")); code != 0 {
		t.Fatalf("-o: exit %d %s", code, errs)
	}
	if b, _ := os.ReadFile(bp); !strings.HasPrefix(string(b), "# the queue blueprint\nversion: 2025-11-02\n") {
		t.Fatalf("-o wrote\n%s", b)
	}
	if err := os.WriteFile(bp, []byte(convertBP), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ = runArgs("convert", bp, "--to", "yaml")
	for _, want := range []string{"# the queue blueprint\n", "    type: string\n    # where it runs\n    default: staging\n", "      queueName: ${variables.env}-orders\n", `    condition: ${eq(variables.env, "production")}` + "\n"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("back to yaml (exit %d) lacks %q:\n%s", code, want, out)
		}
	}
	code, out, _ = runArgs("convert", filepath.Join(dir, "op.bp"), "--to", "json")
	if code != 0 || !strings.Contains(out, `"value": "${and(not(variables.a), lt(1, 2))}"`) {
		t.Errorf("operators to json: exit %d\n%s", code, out)
	}
	for _, tc := range []struct {
		args []string
		code int
		err  string
	}{
		{[]string{filepath.Join(dir, "bad.bp"), "--to", "yaml"}, 1, "bad.bp: 1:10: "},
		{[]string{filepath.Join(dir, "odd.yaml"), "--to", "bp"}, 1, `the top-level key "resourcez" is no blueprint section`},
		{[]string{filepath.Join(dir, "q.blueprint.yaml"), "--to", "toml"}, 2, `--to must be bp, yaml or json, not "toml"`},
		{[]string{filepath.Join(dir, "missing.yaml"), "--to", "bp"}, 2, "missing.yaml"},
	} {
		code, _, errs := runArgs(append([]string{"convert"}, tc.args...)...)
		if code != tc.code || !strings.Contains(errs, tc.err) {
			t.Errorf("convert %v: exit %d, stderr %q; want %d with %q", tc.args, code, errs, tc.code, tc.err)
		}
	}
}

// TestFmtLanguage: fmt lays a .bp file out canonically, found by
// discovery like the other blueprint names.
func TestFmtLanguage(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"project.bp": "version \"2025-11-02\"\nvariable env: string {default = \"staging\"  # kept\n}\n",
	})
	code, out, errs := runArgs("fmt", dir)
	want := "version \"2025-11-02\"\n\nvariable env: string {\n    default = \"staging\" # kept\n}\n"
	if code != 0 || out != want {
		t.Fatalf("exit %d %s\n%q\nwant\n%q", code, errs, out, want)
	}
	if code, out, _ := runArgs("fmt", "--check", dir); code != 1 || !strings.HasSuffix(out, "project.bp\n") {
		t.Errorf("--check: exit %d %q", code, out)
	}
}

// TestConvertRefusalKeepsTarget: a blueprint the language cannot hold (a
// substitution that does not parse) is refused with its position and
// exit status 1, and -o leaves the existing file as it was (it used to be
// replaced by a .bp that did not parse).
func TestConvertRefusalKeepsTarget(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"q.blueprint.yaml": "version: 2025-11-02\nresources:\n  q:\n    type: aws/sqs/queue\n    spec:\n      queueName: \"${variables.x\"\n",
		"q.bp":             convertBP,
	})
	bp := filepath.Join(dir, "q.bp")
	code, out, errs := runArgs("convert", filepath.Join(dir, "q.blueprint.yaml"), "--to", "bp", "-o", bp)
	want := filepath.Join(dir, "q.blueprint.yaml") + ": 6:19: unterminated substitution: expected '}' to close the '${' at offset 88: the blueprint language writes a substitution as an expression, which must parse; fix it first\n"
	if code != 1 || out != "" || errs != want {
		t.Errorf("exit %d, stdout %q, stderr %q; want 1 and %q", code, out, errs, want)
	}
	if b, _ := os.ReadFile(bp); string(b) != convertBP {
		t.Errorf("the target was changed:\n%s", b)
	}
	if code, out, _ := runArgs("convert", filepath.Join(dir, "q.blueprint.yaml"), "--to", "bp"); code != 1 || out != "" {
		t.Errorf("without -o: exit %d, printed %q", code, out)
	}
}
