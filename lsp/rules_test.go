package lsp

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/eval"
	"github.com/blueprint-ls/blueprint-ls/internal/gen"
	"github.com/blueprint-ls/blueprint-ls/project"
	"github.com/blueprint-ls/blueprint-ls/providers/registry"
	"github.com/blueprint-ls/blueprint-ls/rules"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
)

func TestMain(m *testing.M) {
	// The other features' scenarios predate the rules; the rules' tests
	// write a config with a rules: section (defaultRulesOff).
	defaultRulesOff = true
	os.Exit(m.Run())
}

const rulesDoc = `version: 2025-11-02
resources:
  site:
    type: aws/s3/bucket
    spec:
      accessControl: PublicReadWrite
  other:
    type: aws/s3/bucket
    spec:
      accessControl: Private
`

// ruleFindings lists "line code" for the rule findings among ds, with
// the codeDescription of the first.
func ruleFindings(ds []protocol.Diagnostic, ids ...string) (out []string, href string) {
	for _, d := range ds {
		code, _ := d.Code.(protocol.String)
		for _, id := range ids {
			if string(code) == id {
				out = append(out, strconv.Itoa(int(d.Range.Start.Line))+" "+id)
				if href == "" {
					href = string(d.CodeDescription.Href)
				}
			}
		}
	}
	return out, href
}

// TestRulesInEditor: the rules' findings are published with the other
// diagnostics, linked to the rule's page; an edit to one resource
// re-checks it, and the other's findings move with it.
func TestRulesInEditor(t *testing.T) {
	dir := projectDir(t, map[string]string{project.FileName: "rules:\n  sets: [security]\n"})
	h := newHarness(t)
	h.initialize(`{"capabilities":{},"initializationOptions":{"debounceMs":0}}`)
	u := string(uri.File(filepath.Join(dir, "a.blueprint.yaml")))
	h.open(u, rulesDoc)
	got, href := ruleFindings(h.WaitDiagnostics(u, 1), "s3-bucket-public-write-acl", "s3-bucket-public-read-acl")
	if strings.Join(got, ",") != "5 s3-bucket-public-read-acl,5 s3-bucket-public-write-acl" {
		t.Errorf("version 1: %v", got)
	}
	if href != "https://github.com/blueprint-ls/blueprint-ls/blob/main/docs/rules.md#s3-bucket-public-read-acl" {
		t.Errorf("codeDescription %q", href)
	}
	// Make the other bucket public too and insert a line above both: the
	// first bucket's findings move, the second's appear.
	h.changeFull(u, 2, strings.Replace(strings.Replace(rulesDoc, "Private", "PublicRead", 1), "resources:\n", "resources:\n  # buckets\n", 1))
	got, _ = ruleFindings(h.WaitDiagnostics(u, 2), "s3-bucket-public-write-acl", "s3-bucket-public-read-acl")
	if strings.Join(got, ",") != "6 s3-bucket-public-read-acl,6 s3-bucket-public-write-acl,10 s3-bucket-public-read-acl" {
		t.Errorf("version 2: %v", got)
	}
	// Fix the first bucket only.
	v3 := strings.Replace(strings.Replace(rulesDoc, "Private", "PublicRead", 1), "PublicReadWrite", "Private", 1)
	h.changeFull(u, 3, v3)
	got, _ = ruleFindings(h.WaitDiagnostics(u, 3), "s3-bucket-public-write-acl", "s3-bucket-public-read-acl")
	if strings.Join(got, ",") != "9 s3-bucket-public-read-acl" {
		t.Errorf("version 3: %v", got)
	}
	// The plan preview lists them under the plan.
	var plan planResult
	if err := h.call(protocol.MethodWorkspaceExecuteCommand, map[string]any{"command": commandPlan, "arguments": []any{map[string]any{"uri": u}}}, &plan); err != nil {
		t.Fatal(err)
	}
	if want := "- 10:22 warning [s3-bucket-public-read-acl](https://github.com/blueprint-ls/blueprint-ls/blob/main/docs/rules.md#s3-bucket-public-read-acl): other: spec.accessControl is \"PublicRead\""; !strings.Contains(plan.Markdown, want) {
		t.Errorf("plan preview lacks %q:\n%s", want, plan.Markdown)
	}
	h.shutdown()
}

// TestRulesRecheckOnlyWhatAnEditReaches: after an edit the memo
// evaluates and checks the edited resource and those whose references
// reach it; an edit of a variable, those that read it.
func TestRulesRecheckOnlyWhatAnEditReaches(t *testing.T) {
	doc := `version: 2025-11-02
variables:
  env:
    type: string
    default: dev
values:
  name:
    type: string
    value: ${resources.a.spec.bucketName}-x
resources:
  a:
    type: aws/s3/bucket
    spec:
      bucketName: aaa-${variables.env}
  b:
    type: aws/s3/bucket
    spec:
      bucketName: bbb
  c:
    type: aws/s3/bucket
    spec:
      bucketName: ${values.name}
`
	m := &ruleMemo{}
	run := func(text string) []string {
		t.Helper()
		res := analyzed(text)
		ds := m.update(context.Background(), res, []byte(text), ruleKey{}, nil, eval.Inputs{}, nil)
		var out []string
		for _, d := range ds {
			if d.Code == "s3-bucket-versioning" {
				out = append(out, text[d.Range.Start:d.Range.End])
			}
		}
		return out
	}
	if got := run(doc); m.checked != 3 || len(got) != 3 {
		t.Fatalf("open: checked %d, findings %v", m.checked, got)
	}
	edited := strings.Replace(doc, "aaa-", "aaaa-", 1) // a, and c through values.name
	if got := run(edited); m.checked != 2 || len(got) != 3 {
		t.Errorf("edit a: checked %d (want a and c), findings %v", m.checked, got)
	}
	edited = strings.Replace(edited, "bucketName: bbb", "bucketName: bbbb\n      versioningConfiguration: {status: Enabled}", 1)
	if got := run(edited); m.checked != 1 || len(got) != 2 {
		t.Errorf("edit b: checked %d (want b), findings %v", m.checked, got)
	}
	if got := run(strings.Replace(edited, "default: dev", "default: prod", 1)); m.checked != 2 || len(got) != 2 {
		t.Errorf("edit a variable: checked %d (want a, and c through values.name), findings %v", m.checked, got)
	}
}

// BenchmarkRulesEdit1000 times the rules' share of one edit's full phase
// on the 1,000-resource generated blueprint: the edit changes one
// resource, whose rules alone are re-run.
//
//	go test ./lsp -run '^$' -bench RulesEdit1000
func BenchmarkRulesEdit1000(b *testing.B) {
	doc := string(gen.Blueprint(1000, "yaml"))
	i := strings.Index(doc, "Resource 500 of")
	if i < 0 {
		b.Fatal("no resource 500")
	}
	texts := []string{doc, doc[:i] + "Resource 500 (edited) of" + doc[i+len("Resource 500 of"):]}
	var results []*analysis.Result
	for _, text := range texts {
		f := schema.Parse("/tmp/g.blueprint.yaml", []byte(text))
		results = append(results, analysis.Analyze(context.Background(), f, analysis.Options{Path: "/tmp/g.blueprint.yaml"}))
	}
	m := &ruleMemo{}
	m.update(context.Background(), results[0], []byte(texts[0]), ruleKey{}, nil, eval.Inputs{}, nil)
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		n++
		m.update(context.Background(), results[n%2], []byte(texts[n%2]), ruleKey{}, nil, eval.Inputs{}, nil)
	}
	if m.checked != 1 {
		b.Errorf("checked %d resources, want 1", m.checked)
	}
}

// TestPoliciesInEditor: the example policies of testdata/policies are
// published at the fields they name; a broken policy file is reported on
// the blueprint's first line, pointing at the mistake.
func TestPoliciesInEditor(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "testdata", "policies"))
	if err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile(filepath.Join(dir, "app.blueprint.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t)
	h.initialize(`{"capabilities":{},"initializationOptions":{"debounceMs":0}}`)
	u := string(uri.File(filepath.Join(dir, "app.blueprint.yaml")))
	h.open(u, string(text))
	var got []string
	for _, d := range h.WaitDiagnostics(u, 1) {
		code, _ := d.Code.(protocol.String)
		got = append(got, strconv.Itoa(int(d.Range.Start.Line))+":"+strconv.Itoa(int(d.Range.Start.Character))+" "+string(code)+" "+diagMessage(d))
	}
	want := []string{
		"7:4 policy-warn queue orders has no dead-letter queue (spec.redrivePolicy) (policy policies.queues.warn)",
		"12:6 policy-deny audit has no owner label (policy policies.owner.deny)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	bad := projectDir(t, map[string]string{
		project.FileName:    "rules:\n  sets: [none]\n  policies: policies\n",
		"policies/bad.rego": "package p.bad\n\ndeny contains msg if {\n  msg := http.send({\"method\": \"get\", \"url\": \"https://example.com\"})\n}\n",
	})
	u2 := string(uri.File(filepath.Join(bad, "b.blueprint.yaml")))
	h.open(u2, oneQueueDoc)
	ds := h.WaitDiagnostics(u2, 1)
	if len(ds) != 1 || !strings.Contains(diagMessage(ds[0]), "policy file bad.rego:4:10:") || ds[0].Range.Start.Line != 0 {
		t.Errorf("broken policy: %+v", ds)
	}
	h.shutdown()
}

const oneQueueDoc = "version: 2025-11-02\nresources:\n  q:\n    type: aws/sqs/queue\n    spec:\n      queueName: q\n"

func diagMessage(d protocol.Diagnostic) string {
	if s, ok := d.Message.(protocol.String); ok {
		return string(s)
	}
	return ""
}

// BenchmarkEditInResourceRules is BenchmarkEditInResource with every
// rule on, asked for by the project config (so at every size: the
// editor's bound on blueprints without a rules: section does not apply):
// the edit re-checks the edited resource (and its users whose evaluated
// value changed), and every version publishes the most severe findings
// of all the others again.
//
//	go test ./lsp -run '^$' -bench 'EditInResourceRules/(1000|5000)$'
func BenchmarkEditInResourceRules(b *testing.B) {
	defaultRulesOff = false
	defer func() { defaultRulesOff = true }()
	for _, n := range []int{100, 1000, 5000, 20000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			dir := projectDir(b, map[string]string{project.FileName: "rules:\n  sets: [all]\n"})
			name := string(uri.File(filepath.Join(dir, "bench.blueprint.yaml")))
			content := string(gen.Blueprint(n, "yaml"))
			h := newHarness(b)
			h.initialize(benchInit)
			h.open(name, content)
			h.WaitDiagnostics(name, 1)
			typeAndUndoIn(b, h, name, content, func(content string) protocol.Position {
				return middle(b, content, "visibilityTimeout: 45", len("visibilityTimeout: 45"))
			}, "x")
		})
	}
}

// TestRulesExportInEditor: the blueprint-level rule over exports runs in
// the editor too, and its finding stays while a resource is edited.
func TestRulesExportInEditor(t *testing.T) {
	doc := "version: 2025-11-02\nvariables:\n  pw:\n    type: string\n    secret: true\n    default: x\nresources:\n  q:\n    type: aws/sqs/queue\n    spec:\n      queueName: \"${variables.pw}\"\nexports:\n  name:\n    type: string\n    field: resources.q.spec.queueName\n"
	m := &ruleMemo{}
	run := func(text string) []string {
		t.Helper()
		res := analyzed(text)
		var out []string
		for _, d := range m.update(context.Background(), res, []byte(text), ruleKey{}, nil, eval.Inputs{}, nil) {
			if d.Code == "export-secret-value" {
				out = append(out, text[d.Range.Start:d.Range.End])
			}
		}
		return out
	}
	if got := run(doc); strings.Join(got, ",") != "resources.q.spec.queueName" {
		t.Errorf("open: %v", got)
	}
	if got := run(strings.Replace(doc, "type: aws/sqs/queue", "type: aws/sqs/queue\n    description: orders", 1)); strings.Join(got, ",") != "resources.q.spec.queueName" || m.checked != 1 {
		t.Errorf("after an edit of q: %v (checked %d)", got, m.checked)
	}
}

// TestRulesEditorBounds: a blueprint too large for the rules to keep up
// with typing is not checked by them in the editor unless its project
// config asks, and what is shown is capped, the most severe first.
func TestRulesEditorBounds(t *testing.T) {
	defaultRulesOff = false
	defer func() { defaultRulesOff = true }()
	ruleCodes := func(ds []protocol.Diagnostic) (n int, capped bool) {
		for _, d := range ds {
			code := fmt.Sprint(d.Code)
			if _, ok := rules.Lookup(code); ok {
				n++
			}
			capped = capped || code == codeRulesCapped.ID
		}
		return n, capped
	}
	big := string(gen.Blueprint(editorRulesResources+1, "yaml"))
	h := newHarness(t)
	h.initialize(`{"capabilities":{},"initializationOptions":{"debounceMs":0}}`)
	h.open("big.blueprint.yaml", big)
	if n, _ := ruleCodes(h.WaitDiagnostics("big.blueprint.yaml", 1)); n != 0 {
		t.Errorf("%d rule findings on a blueprint of %d resources without a rules config", n, editorRulesResources+1)
	}
	// The same with the rules asked for: capped.
	dir := projectDir(t, map[string]string{project.FileName: "rules:\n  sets: [all]\n"})
	u := string(uri.File(filepath.Join(dir, "big.blueprint.yaml")))
	h.open(u, big)
	n, capped := ruleCodes(h.WaitDiagnostics(u, 1))
	if n != editorRuleFindings || !capped {
		t.Errorf("%d rule findings shown (capped %v), want %d and a note", n, capped, editorRuleFindings)
	}
}

func TestCapFindings(t *testing.T) {
	var ds []source.Diagnostic
	for i, sev := range []source.Severity{source.Hint, source.Error, source.Hint, source.Warning, source.Information} {
		ds = append(ds, source.Diagnostic{Range: source.R(i*10, i*10+1), Severity: sev, Code: fmt.Sprint(i)})
	}
	got := capFindings(ds, 3)
	var codes []string
	for _, d := range got {
		codes = append(codes, d.Code)
	}
	if strings.Join(codes, ",") != codeRulesCapped.ID+",1,3,4" {
		t.Errorf("kept %v", codes)
	}
	if note := got[0]; note.Range != source.R(0, 0) || note.Severity != source.Information ||
		note.Message != "2 more best-practice findings are not shown: the editor shows the 3 most severe; run blueprint-ls check for every one, or narrow the rules in .blueprint-ls.yaml" {
		t.Errorf("note %v %v %q", note.Range, note.Severity, note.Message)
	}
	if len(capFindings(ds, 5)) != 5 {
		t.Error("capped a list within the limit")
	}
}

// TestRulesMemoOutsideResources: an edit of a value, a variable or an
// export re-runs only the rules whose inputs it changed, and what the
// memo returns is what a fresh one computes for the same text.
func TestRulesMemoOutsideResources(t *testing.T) {
	doc := `version: 2025-11-02
variables:
  versioning: {type: string, default: Enabled}
  pw: {type: string, secret: true, default: x}
values:
  status:
    type: string
    value: ${variables.versioning}
  label:
    type: string
    value: plain
resources:
  a:
    type: aws/s3/bucket
    spec:
      versioningConfiguration:
        status: ${values.status}
  b:
    type: aws/s3/bucket
    spec:
      bucketName: ${values.label}
      versioningConfiguration:
        status: Enabled
exports:
  name:
    type: string
    field: variables.versioning
`
	m := &ruleMemo{}
	run := func(text string) []string {
		t.Helper()
		res := analyzed(text)
		got := m.update(context.Background(), res, []byte(text), ruleKey{}, nil, eval.Inputs{}, nil)
		want := (&ruleMemo{}).update(context.Background(), res, []byte(text), ruleKey{}, nil, eval.Inputs{}, nil)
		if d := gocmp.Diff(want, got); d != "" {
			t.Fatalf("the memo differs from a fresh run (-fresh +memo):\n%s", d)
		}
		var out []string
		for _, d := range got {
			if d.Code == "s3-bucket-versioning" || d.Code == "export-secret-value" {
				out = append(out, d.Code+" "+text[d.Range.Start:d.Range.End])
			}
		}
		return out
	}
	if got := run(doc); m.checked != 2 || len(got) != 0 {
		t.Fatalf("open: checked %d, findings %v", m.checked, got)
	}
	steps := []struct {
		name, from, to string
		checked        int
		want           string
	}{
		// The value's evaluated result changes: a's finding appears
		// without a's text changing, and b, which reads another
		// value, is not checked.
		{"value changes a's setting", "value: ${variables.versioning}", "value: Suspended", 1, "s3-bucket-versioning ${values.status}"},
		{"value changes it back", "value: Suspended", "value: ${variables.versioning}", 1, ""},
		// The value's text changes, its evaluated result does not.
		{"value text, same result", "value: ${variables.versioning}", "value: \"${variables.versioning}\"", 0, ""},
		{"variable default", "default: Enabled", "default: Disabled", 1, "s3-bucket-versioning ${values.status}"},
		{"variable description", "type: string, default: Disabled", "type: string, description: how, default: Disabled", 0, "s3-bucket-versioning ${values.status}"},
		{"the other value from the secret", "value: plain", "value: ${variables.pw}", 1, "s3-bucket-versioning ${values.status}"},
		{"export of a secret", "field: variables.versioning", "field: resources.b.spec.bucketName", 0, "s3-bucket-versioning ${values.status}|export-secret-value resources.b.spec.bucketName"},
		{"export fixed", "field: resources.b.spec.bucketName", "field: variables.versioning", 0, "s3-bucket-versioning ${values.status}"},
		{"variable default back", "default: Disabled", "default: Enabled", 1, ""},
		{"the other value back", "value: ${variables.pw}", "value: plain", 1, ""},
	}
	text := doc
	for _, st := range steps {
		if !strings.Contains(text, st.from) {
			t.Fatalf("%s: no %q", st.name, st.from)
		}
		text = strings.Replace(text, st.from, st.to, 1)
		got := strings.Join(run(text), "|")
		if got != st.want || m.checked != st.checked {
			t.Errorf("%s: checked %d (want %d), findings %q (want %q)", st.name, m.checked, st.checked, got, st.want)
		}
	}
}

// TestCapFindingsKeepsTheMostSevere: the one-pass cap keeps what a stable
// sort by severity would, in position order.
func TestCapFindingsKeepsTheMostSevere(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 500 {
		var ds []source.Diagnostic
		for i := range rng.IntN(30) {
			ds = append(ds, source.Diagnostic{Range: source.R(i, i+1), Severity: source.Severity(1 + rng.IntN(4)), Code: fmt.Sprint(i)})
		}
		limit := 1 + rng.IntN(20)
		want := slices.Clone(ds)
		slices.SortStableFunc(want, func(a, b source.Diagnostic) int { return cmp.Compare(a.Severity, b.Severity) })
		if len(want) > limit {
			want = want[:limit]
		}
		source.SortDiagnostics(want)
		got := capFindings(ds, limit)
		if len(ds) > limit {
			got = got[1:] // the note
		}
		if d := gocmp.Diff(want, got); d != "" {
			t.Fatalf("limit %d (-want +got):\n%s", limit, d)
		}
	}
}

// analyzed is text analysed as the blueprint /tmp/r.blueprint.yaml.
func analyzed(text string) *analysis.Result {
	f := schema.Parse("/tmp/r.blueprint.yaml", []byte(text))
	return analysis.Analyze(context.Background(), f, analysis.Options{Path: "/tmp/r.blueprint.yaml"})
}

// update is updateCapped with every finding (the tests' entry).
func (m *ruleMemo) update(ctx context.Context, res *analysis.Result, content []byte, key any, cfg *rules.Config, in eval.Inputs, reg *registry.Registry) []source.Diagnostic {
	return m.updateCapped(ctx, res, source.NewText(content), key, cfg, in, reg, 0)
}

// TestRulesMemoCappedEqualsFresh edits a generated blueprint whose
// findings outnumber the editor's cap, at random: text typed and deleted
// inside resources (which moves every resource after the edit, and the
// findings a memo keeps where they were found) and a finding fixed and
// broken again. After every edit, what a memo kept from the versions
// before gives, capped at several limits (each cutting at another
// severity, with or without room left at it) and uncapped, must be what
// a fresh memo computes for the same text; and the memo must have
// re-checked only what the edit reached.
func TestRulesMemoCappedEqualsFresh(t *testing.T) {
	t.Run("resources", func(t *testing.T) { rulesMemoCappedEqualsFresh(t, string(gen.Blueprint(120, "yaml")), false) })
	// Findings outside every resource (exports of a secret) go between
	// the resources' findings: exports written after the resources, and
	// before them.
	doc := strings.Replace(string(gen.Blueprint(120, "yaml")), "variables:\n", "variables:\n  pw:\n    type: string\n    secret: true\n    default: x\n", 1)
	doc = strings.Replace(doc, "functionName: ${values.prefix}-lambda-function-0", "functionName: ${variables.pw}-lambda-function-0", 1)
	doc += "  leak:\n    type: string\n    field: resources.r0.spec.functionName\n"
	t.Run("exports after", func(t *testing.T) { rulesMemoCappedEqualsFresh(t, doc, true) })
	at, ex := strings.Index(doc, "\nresources:\n")+1, strings.Index(doc, "\nexports:\n")+1
	doc = doc[:at] + doc[ex:] + doc[at:ex]
	t.Run("exports before", func(t *testing.T) { rulesMemoCappedEqualsFresh(t, doc, true) })
}

func rulesMemoCappedEqualsFresh(t *testing.T, doc string, global bool) {
	const n = 120
	limits := []int{0, 5, 60, 200, editorRuleFindings}
	memos := make([]*ruleMemo, len(limits))
	for i := range memos {
		memos[i] = &ruleMemo{}
	}
	fix := "    spec:\n      publicAccessBlockConfiguration:\n        blockPublicAcls: true\n"
	rnd := rand.New(rand.NewPCG(7, 36))
	steps, partial := 40, 0
	if testing.Short() {
		steps = 12
	}
	text := doc
	for step := 0; step <= steps; step++ {
		if step > 0 {
			text = editForRules(rnd, text, fix)
		}
		res := analyzed(text)
		capped := 0
		for i, limit := range limits {
			got := memos[i].updateCapped(context.Background(), res, source.NewText([]byte(text)), ruleKey{}, nil, eval.Inputs{}, nil, limit)
			if limit == 0 && step > 0 && memos[i].checked < n {
				partial++
			}
			// The oracle: every finding of a fresh memo, capped by capFindings.
			want := (&ruleMemo{}).updateCapped(context.Background(), res, source.NewText([]byte(text)), ruleKey{}, nil, eval.Inputs{}, nil, 0)
			if limit > 0 {
				want = capFindings(want, limit)
			}
			if limit > 0 && len(want) > 0 && want[0].Code == codeRulesCapped.ID {
				capped++
			}
			if diff := gocmp.Diff(want, got); diff != "" {
				t.Fatalf("step %d, limit %d: the memo's findings differ from a fresh memo's (-fresh +memo):\n%s", step, limit, diff)
			}
		}
		if step == 0 && global && len(memos[0].global) == 0 {
			t.Fatal("no finding outside the resources")
		}
		if step == 0 && capped != len(limits)-1 {
			t.Fatalf("only %d of the limits cap the open's findings: the blueprint has too few", capped)
		}
	}
	if partial < steps/2 {
		t.Errorf("the memo re-checked only what an edit reached in %d of %d edits", partial, steps)
	}
}

// editForRules makes one random edit of a generated blueprint: a
// character typed into or deleted from a resource's description, or the
// fix of an S3 bucket's public-access finding put into or taken out of
// its spec.
func editForRules(rnd *rand.Rand, text, fix string) string {
	switch rnd.IntN(4) {
	case 0, 1:
		descs := strings.Split(text, "description: 'Resource ")
		k := 1 + rnd.IntN(len(descs)-1)
		at := len(strings.Join(descs[:k], "description: 'Resource ")) + len("description: 'Resource ") + rnd.IntN(3)
		if rnd.IntN(2) == 0 {
			return text[:at] + "x" + text[at:]
		}
		return text[:at] + text[at+1:]
	case 2:
		if i := strings.Index(text, fix); i >= 0 {
			return text[:i] + "    spec:\n" + text[i+len(fix):]
		}
		fallthrough
	default:
		buckets := strings.Split(text, "type: aws/s3/bucket\n")
		k := 1 + rnd.IntN(len(buckets)-1)
		at := len(strings.Join(buckets[:k], "type: aws/s3/bucket\n")) + len("type: aws/s3/bucket\n")
		i := strings.Index(text[at:], "    spec:\n")
		if i < 0 {
			return text
		}
		return text[:at+i] + fix + text[at+i+len("    spec:\n"):]
	}
}
