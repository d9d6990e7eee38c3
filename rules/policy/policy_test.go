package policy_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/eval"
	"github.com/blueprint-ls/blueprint-ls/rules/policy"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// run checks the blueprint at path with the policies of dir, and renders
// each finding as "line:col code: message (at text)".
func run(t *testing.T, dir, path string, opts policy.Options) ([]string, *policy.Set) {
	t.Helper()
	ctx := context.Background()
	set, err := policy.Load(ctx, dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	content, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f := schema.Parse(path, content)
	res := analysis.Analyze(ctx, f, analysis.Options{Path: path})
	bp, err := eval.Eval(ctx, res, eval.Inputs{}, eval.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range set.Check(ctx, bp, f.Mapper) {
		l, c := f.Mapper.LineCol(d.Range.Start, source.UTF32)
		out = append(out, itoa(l)+":"+itoa(c)+" "+d.Code+": "+d.Message+" (at "+string(content[d.Range.Start:d.Range.End])+")")
	}
	return out, set
}

func itoa(i int) string { return strings.TrimSpace(strings.Repeat(" ", 0) + fmtInt(i)) }

func fmtInt(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return fmtInt(i/10) + string(rune('0'+i%10))
}

// TestExamplePolicies: the two example policies of testdata/policies
// report at the fields they name.
func TestExamplePolicies(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "policies")
	got, set := run(t, dir, filepath.Join(dir, "app.blueprint.yaml"), policy.Options{})
	if len(set.Problems) > 0 {
		t.Fatalf("problems: %+v", set.Problems)
	}
	want := []string{
		"8:5 policy-warn: queue orders has no dead-letter queue (spec.redrivePolicy) (policy policies.queues.warn) (at spec)",
		"13:7 policy-deny: audit has no owner label (policy policies.owner.deny) (at labels)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func write(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const oneQueue = "version: 2025-11-02\nresources:\n  q:\n    type: aws/sqs/queue\n    spec:\n      queueName: q\n"

// TestBadPolicies: a file that does not parse, one that does not
// compile and one that reaches for the network are each reported at
// their line; the good file still runs.
func TestBadPolicies(t *testing.T) {
	dir := write(t, map[string]string{
		"syntax.rego":        "package p.syntax\n\ndeny contains msg if {\n  msg := \n}\n",
		"compile.rego":       "package p.compile\n\ndeny contains msg if {\n  msg := undefined_function(1)\n}\n",
		"net.rego":           "package p.net\n\ndeny contains msg if {\n  r := http.send({\"method\": \"get\", \"url\": \"https://example.com\"})\n  msg := r.body\n}\n",
		"good.rego":          "package p.good\n\ndeny contains \"always\" if { true }\n",
		"app.blueprint.yaml": oneQueue,
	})
	got, set := run(t, dir, filepath.Join(dir, "app.blueprint.yaml"), policy.Options{})
	if len(got) != 1 || !strings.Contains(got[0], "always (policy p.good.deny)") {
		t.Errorf("the good policy's findings: %v", got)
	}
	lines := map[string]string{}
	for _, p := range set.Problems {
		for _, d := range p.Diagnostics {
			l, c := p.Mapper.LineCol(d.Range.Start, source.UTF32)
			lines[filepath.Base(p.Path)] = itoa(l) + ":" + itoa(c) + " " + d.Code + " " + d.Message
		}
	}
	for file, want := range map[string]string{
		"syntax.rego":  "5:1 policy-invalid",
		"compile.rego": "4:10 policy-invalid",
		"net.rego":     "4:8 policy-invalid",
	} {
		if !strings.HasPrefix(lines[file], want) {
			t.Errorf("%s: %q, want %q...", file, lines[file], want)
		}
	}
	if !strings.Contains(lines["net.rego"], "http.send") {
		t.Errorf("net.rego: %q should name http.send", lines["net.rego"])
	}
}

// TestRunawayPolicyStopped: a policy iterating without practical end is
// stopped by its budget and reported; the other policy still reports.
func TestRunawayPolicyStopped(t *testing.T) {
	dir := write(t, map[string]string{
		"loop.rego":          "package p.loop\n\ndeny contains msg if {\n  some i in numbers.range(1, 100000)\n  some j in numbers.range(1, 100000)\n  i * j == -1\n  msg := \"never\"\n}\n",
		"good.rego":          "package p.good\n\nwarn contains \"still here\" if { true }\n",
		"app.blueprint.yaml": oneQueue,
	})
	start := time.Now()
	got, _ := run(t, dir, filepath.Join(dir, "app.blueprint.yaml"), policy.Options{Budget: 200 * time.Millisecond})
	if time.Since(start) > 20*time.Second {
		t.Errorf("the runaway policy was not stopped in time: %s", time.Since(start))
	}
	joined := strings.Join(got, "\n")
	if !strings.Contains(joined, "policy-budget: policy data.p.loop.deny was stopped after 200ms, its budget") || !strings.Contains(joined, "still here") {
		t.Errorf("got\n%s", joined)
	}
}
