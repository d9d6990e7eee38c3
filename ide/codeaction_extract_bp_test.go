package ide

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/bplang"
	"github.com/blueprint-ls/blueprint-ls/eval"
	"github.com/blueprint-ls/blueprint-ls/internal/plantest"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/subst"
)

// bpExtractDoc has a resource whose spec uses an operator, a call and a
// string interpolation, with a variable and no value.
const bpExtractDoc = `version "2025-11-02"

variable env: string {
    default = "dev"
}

resource queue: aws/sqs/queue {
    spec {
        queueName = join(["orders", to_upper(variables.env)], "-")
        fifoQueue = (variables.env == "prod") || variables.env == "staging"
        tags = [{ key = "env", value = "env-${trim(variables.env)}" }]
    }
}
`

// extractAction returns the "Extract to value" action for the selection
// of the n-th (from 0) occurrence of sel in src, nil when none is offered.
func extractAction(t *testing.T, res *analysis.Result, sel string, n int) *CodeAction {
	t.Helper()
	at := offsetOf(t, string(res.File.Content()), sel, n, 0)
	for _, a := range CodeActions(res, source.R(at, at+len(sel)), nil, Options{}) {
		if a.Kind == KindRefactorExtract {
			return &a
		}
	}
	return nil
}

// editLines writes edits as "line:col-line:col text", 1-based.
func editLines(res *analysis.Result, edits []source.Edit) []string {
	var out []string
	pos := func(off int) string {
		p := res.File.Mapper.OffsetPosition(off, source.UTF8)
		return fmt.Sprintf("%d:%d", p.Line+1, p.Character+1)
	}
	for _, e := range edits {
		out = append(out, fmt.Sprintf("%s-%s %q", pos(e.Range.Start), pos(e.Range.End), e.NewText))
	}
	return out
}

// meaningParts splits meaning into its diagnostics and its plan.
func meaningParts(t *testing.T, content []byte) (diags []string, plan string) {
	m := plantest.Meaning(t, "a.bp", content)
	lines, plan, _ := strings.Cut(m, "\nplan: ")
	if lines == "" {
		return nil, plan
	}
	return strings.Split(lines, "\n"), plan
}

// newLines are the lines of after that before does not have (as many
// times as they repeat).
func newLines(before, after []string) []string {
	count := map[string]int{}
	for _, l := range before {
		count[l]++
	}
	var out []string
	for _, l := range after {
		if count[l] > 0 {
			count[l]--
			continue
		}
		out = append(out, l)
	}
	return out
}

func TestCodeActionExtractToValueBP(t *testing.T) {
	withValue := strings.Replace(bpExtractDoc, "resource queue", "value prefix: string {\n    value = \"orders\"\n} # the queue's\n\nresource queue", 1)
	noVariable := strings.NewReplacer("variables.env", "\"dev\"", "variable env: string {\n    default = \"dev\"\n}\n\n", "").Replace(bpExtractDoc)
	usesValue := strings.Replace(withValue, `["orders",`, `[values.prefix,`, 1)
	foreach := strings.Replace(bpExtractDoc, "    spec {", "    foreach variables.names\n    spec {", 1)
	foreach = strings.Replace(foreach, "to_upper(variables.env)", "to_upper(elem)", 1)
	foreach = strings.Replace(foreach, "variable env", "variable names: array {\n    default = [\"a\"]\n}\n\nvariable env", 1)
	inValue := strings.Replace(withValue, "resource queue", "value label: string {\n    value = \"${values.prefix}-${to_upper(variables.env)}\"\n}\n\nresource queue", 1)
	secret := strings.Replace(bpExtractDoc, `default = "dev"`, "default = \"dev\"\n    secret = true", 1)
	multiline := strings.Replace(bpExtractDoc, `join(["orders", to_upper(variables.env)], "-")`, "join(\n            [\"orders\", to_upper(variables.env)],\n            \"-\"\n        )", 1)
	tests := []struct {
		name, src, sel string
		n              int
		want           []string // the edits; none when not offered
	}{
		{"whole bare expression", bpExtractDoc, `join(["orders", to_upper(variables.env)], "-")`, 0, []string{
			"9:21-9:67 \"values.newValue\"",
			"5:2-5:2 \"\\n\\nvalue newValue: string {\\n    value = join([\\\"orders\\\", to_upper(variables.env)], \\\"-\\\")\\n}\""}},
		{"argument of a call", bpExtractDoc, `to_upper(variables.env)`, 0, []string{
			"9:37-9:60 \"values.newValue\"",
			"5:2-5:2 \"\\n\\nvalue newValue: string {\\n    value = to_upper(variables.env)\\n}\""}},
		{"part of an argument picks the argument", bpExtractDoc, `upper(var`, 0, []string{
			"9:37-9:60 \"values.newValue\"",
			"5:2-5:2 \"\\n\\nvalue newValue: string {\\n    value = to_upper(variables.env)\\n}\""}},
		{"operand of an operator", bpExtractDoc, `variables.env == "staging"`, 0, []string{
			"10:50-10:76 \"values.newValue\"",
			"5:2-5:2 \"\\n\\nvalue newValue: boolean {\\n    value = variables.env == \\\"staging\\\"\\n}\""}},
		{"parenthesised operand", bpExtractDoc, `(variables.env == "prod")`, 0, []string{
			"10:21-10:46 \"values.newValue\"",
			"5:2-5:2 \"\\n\\nvalue newValue: boolean {\\n    value = variables.env == \\\"prod\\\"\\n}\""}},
		{"inside the parentheses", bpExtractDoc, `variables.env == "prod"`, 0, []string{
			"10:21-10:46 \"values.newValue\"",
			"5:2-5:2 \"\\n\\nvalue newValue: boolean {\\n    value = variables.env == \\\"prod\\\"\\n}\""}},
		{"operator picks the whole", bpExtractDoc, `||`, 0, []string{
			"10:21-10:76 \"values.newValue\"",
			"5:2-5:2 \"\\n\\nvalue newValue: boolean {\\n    value = (variables.env == \\\"prod\\\") || variables.env == \\\"staging\\\"\\n}\""}},
		{"inside an interpolation", bpExtractDoc, `trim(variables.env)`, 0, []string{
			"11:47-11:66 \"values.newValue\"",
			"5:2-5:2 \"\\n\\nvalue newValue: string {\\n    value = trim(variables.env)\\n}\""}},
		{"after the last value and its comment", withValue, `to_upper(variables.env)`, 0, []string{
			"13:37-13:60 \"values.newValue\"",
			"9:16-9:16 \"\\n\\nvalue newValue: string {\\n    value = to_upper(variables.env)\\n}\""}},
		{"after version", noVariable, `to_upper("dev")`, 0, []string{
			"5:37-5:52 \"values.newValue\"",
			"1:21-1:21 \"\\n\\nvalue newValue: string {\\n    value = to_upper(\\\"dev\\\")\\n}\""}},
		{"multi-line expression", multiline, "join(\n", 0, []string{
			"9:21-12:10 \"values.newValue\"",
			"5:2-5:2 \"\\n\\nvalue newValue: string {\\n    value = join(\\n        [\\\"orders\\\", to_upper(variables.env)],\\n        \\\"-\\\"\\n    )\\n}\""}},
		{"crlf", strings.ReplaceAll(bpExtractDoc, "\n", "\r\n"), `to_upper(variables.env)`, 0, []string{
			"9:37-9:60 \"values.newValue\"",
			"5:2-5:2 \"\\r\\n\\r\\nvalue newValue: string {\\r\\n    value = to_upper(variables.env)\\r\\n}\""}},
		{"the whole interpolation", bpExtractDoc, `${trim(variables.env)}`, 0, []string{
			"11:47-11:66 \"values.newValue\"",
			"5:2-5:2 \"\\n\\nvalue newValue: string {\\n    value = trim(variables.env)\\n}\""}},
		{"multi-line crlf", strings.ReplaceAll(multiline, "\n", "\r\n"), "join(\r\n", 0, []string{
			"9:21-12:10 \"values.newValue\"",
			"5:2-5:2 \"\\r\\n\\r\\nvalue newValue: string {\\r\\n    value = join(\\r\\n        [\\\"orders\\\", to_upper(variables.env)],\\r\\n        \\\"-\\\"\\r\\n    )\\r\\n}\""}},
		{"literal text of a string", bpExtractDoc, `env-`, 0, nil},
		{"reads a secret", secret, `trim(variables.env)`, 0, []string{
			`12:47-12:66 "values.newValue"`,
			`6:2-6:2 "\n\nvalue newValue: string {\n    value = trim(variables.env)\n    secret = true\n}"`}},
		{"array literal", bpExtractDoc, `["orders", to_upper(variables.env)]`, 0, []string{
			`9:26-9:61 "values.newValue"`,
			`5:2-5:2 "\n\nvalue newValue: array {\n    value = list(\"orders\", to_upper(variables.env))\n}"`}},
		{"in a value", inValue, `to_upper(variables.env)`, 0, []string{
			`12:33-12:56 "values.newValue"`,
			`13:2-13:2 "\n\nvalue newValue: string {\n    value = to_upper(variables.env)\n}"`}},
		{"a value already", usesValue, `values.prefix`, 0, nil},
		{"the element of a foreach", foreach, `elem`, 0, nil},
	}
	if m := plantest.Meaning(t, "a.bp", []byte(bpExtractDoc)); !strings.Contains(m, `"queueName": "orders-DEV"`) {
		t.Fatalf("the plan does not evaluate the spec, so comparing it proves nothing:\n%s", m)
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := analyze(t, "a.bp", tc.src)
			a := extractAction(t, res, tc.sel, tc.n)
			var got []string
			if a != nil {
				got = editLines(res, a.Edit.Changes[res.URI])
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("edits:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			if a == nil {
				return
			}
			if want := "Extract to value newValue"; a.Title != want {
				t.Errorf("title %q, want %q", a.Title, want)
			}
			out := applyEdits(res.File.Content(), a.Edit.Changes[res.URI])
			f, _ := bplang.Format(res.File.Content())
			canonical := string(f) == strings.ReplaceAll(tc.src, "\r\n", "\n")
			if !canonical && tc.src == bpExtractDoc {
				t.Fatalf("fmt changes the document:\n%s", f)
			}
			checkExtracted(t, tc.name, res.File.Content(), []byte(out), canonical)
		})
	}
}

// TestCodeActionExtractToValueBPCorpus selects every expression of every
// document of testdata/bp and, where "Extract to value" is offered,
// checks the document it makes.
func TestCodeActionExtractToValueBPCorpus(t *testing.T) {
	paths, err := filepath.Glob("../testdata/bp/*.bp")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no corpus: %v", err)
	}
	offered, sites := 0, 0
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		res := analyze(t, filepath.Base(p), string(data))
		canonical := false
		if f, err := bplang.Format(data); err == nil && string(f) == string(data) {
			canonical = true
		}
		for _, site := range indexFor(res).all().sites {
			for _, sub := range site.Template.Subs() {
				sites++
				walkExpr(sub.Expr, func(e subst.Expr) {
					a, ok := extractToValue(res, e.Range(), Options{})
					if !ok {
						return
					}
					offered++
					out := []byte(applyEdits(res.File.Content(), a.Edit.Changes[res.URI]))
					checkExtracted(t, fmt.Sprintf("%s at %v", filepath.Base(p), e.Range()), data, out, canonical)
				})
			}
		}
	}
	t.Logf("%d documents, %d expressions, extraction offered %d times", len(paths), sites, offered)
	if offered < 50 {
		t.Errorf("offered only %d times", offered)
	}
}

// checkExtracted checks the document an extraction made: it parses, fmt
// leaves it as it is when it left the document before as it was (CRLF
// aside: fmt writes LF), it has no diagnostic the document before had
// not, the same plan, and every value and export evaluates as before.
func checkExtracted(t *testing.T, where string, before, after []byte, canonical bool) {
	t.Helper()
	f, err := bplang.Format(after)
	if err != nil {
		t.Errorf("%s: the result does not parse: %v\n%s", where, err, after)
		return
	}
	if lf := strings.ReplaceAll(string(after), "\r\n", "\n"); canonical && string(f) != lf {
		t.Errorf("%s: fmt changes the result:\n%s\nto\n%s", where, lf, f)
	}
	d0, p0 := meaningParts(t, before)
	d1, p1 := meaningParts(t, after)
	if extra := newLines(d0, d1); len(extra) > 0 {
		t.Errorf("%s: new diagnostics:\n%s\nthe document:\n%s", where, strings.Join(extra, "\n"), after)
	}
	if p1 != p0 {
		t.Errorf("%s: the plan changed:\n%s\nbefore:\n%s\nthe document:\n%s", where, p1, p0, after)
	}
	e0, e1 := evaluated(t, before), evaluated(t, after)
	for name, v := range e0 {
		// An unknown value names the expression it comes from.
		unknown := `{"$unknown":`
		if e1[name] != v && !(strings.HasPrefix(v, unknown) && strings.HasPrefix(e1[name], unknown)) {
			t.Errorf("%s: %s evaluates to %s, before to %s; the document:\n%s", where, name, e1[name], v, after)
		}
	}
}

// evaluated is the value of each value and export of a document, as
// JSON, by "value name" and "export name".
func evaluated(t *testing.T, content []byte) map[string]string {
	t.Helper()
	bp, err := eval.Eval(context.Background(), analyze(t, "a.bp", string(content)), eval.Inputs{}, eval.Options{})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, v := range bp.Values {
		out["value "+v.Name] = string(eval.JSON(v.Value))
	}
	for _, x := range bp.Exports {
		out["export "+x.Name] = string(eval.JSON(x.Value))
	}
	return out
}
