package engine_test

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/blueprint-ls/blueprint-ls/engine"
	"github.com/blueprint-ls/blueprint-ls/eval"
	"github.com/blueprint-ls/blueprint-ls/funcs"
	"github.com/blueprint-ls/blueprint-ls/internal/testutil"
	"github.com/blueprint-ls/blueprint-ls/source"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// plan plans testdata/NAME.blueprint.yaml against NAME.state.json (when
// present), failing on error diagnostics.
func plan(t *testing.T, name string) *engine.Plan {
	t.Helper()
	path := filepath.Join("testdata", name+".blueprint.yaml")
	content, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var in eval.Inputs
	if st, err := eval.LoadState(filepath.Join("testdata", name+".state.json")); err == nil {
		in.State = st
	} else if !os.IsNotExist(err) {
		t.Fatal(err)
	}
	p, diags, err := engine.PlanFile(context.Background(), path, content, in, engine.Options{Env: &funcs.TestEnv{}})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range diags {
		if d.Severity == source.Error {
			t.Errorf("%s: %s: %s", d.Range, d.Code, d.Message)
		}
	}
	if p == nil {
		t.Fatal("no plan")
	}
	return p
}

// TestPlanGolden renders each test plan as text, markdown and JSON.
func TestPlanGolden(t *testing.T) {
	for _, name := range []string{"actions", "stages", "prior"} {
		t.Run(name, func(t *testing.T) {
			p := plan(t, name)
			testutil.Golden(t, filepath.Join("testdata", name+".txt"), engine.Text(p), *update)
			testutil.Golden(t, filepath.Join("testdata", name+".md"), engine.Markdown(p), *update)
			testutil.Golden(t, filepath.Join("testdata", name+".json"), string(engine.JSON(p)), *update)
			for _, out := range []string{engine.Text(p), engine.Markdown(p), string(engine.JSON(p))} {
				if strings.Contains(out, "s3cr3t") {
					t.Errorf("secret leaked:\n%s", out)
				}
			}
		})
	}
}

func TestPlanActions(t *testing.T) {
	p := plan(t, "actions")
	got := map[string]engine.Action{}
	for _, r := range p.Resources {
		got[r.Name] = r.Action
	}
	want := map[string]engine.Action{
		"newQueue":     engine.Create,
		"updatedQueue": engine.Update,
		"renamedTable": engine.Replace,
		"retypedThing": engine.Replace,
		"sameQueue":    engine.NoOp,
		"switchedOff":  engine.Retain,
		"laterQueue":   engine.Update,
		"oldQueue":     engine.Delete,
		"keptBucket":   engine.Retain,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("actions (-want +got):\n%s", diff)
	}
	for _, r := range p.Resources {
		if r.Name != "renamedTable" {
			continue
		}
		// tableName is createOnly in the AWS::DynamoDB::Table schema;
		// billingMode is not.
		forcing := map[string]bool{}
		for _, c := range r.Changes {
			forcing[c.Path] = c.ForcesReplacement
		}
		if !forcing["tableName"] || forcing["billingMode"] {
			t.Errorf("renamedTable changes: %v", forcing)
		}
		if !strings.Contains(r.Reason, "tableName") {
			t.Errorf("reason %q does not name tableName", r.Reason)
		}
	}
	if s := p.Summary().String(); s != "1 to create, 2 to update, 2 to replace, 1 to delete, 2 to detach and retain (1 unchanged)" {
		t.Errorf("summary = %s", s)
	}
	if !p.HasChanges() {
		t.Error("HasChanges is false")
	}
}

func TestPlanStages(t *testing.T) {
	p := plan(t, "stages")
	want := [][]string{{"table", "standalone"}, {"queue"}, {"fn"}, {"audit"}}
	if diff := cmp.Diff(want, p.Stages); diff != "" {
		t.Errorf("stages (-want +got):\n%s", diff)
	}
}

func TestNoChanges(t *testing.T) {
	dir := t.TempDir()
	bp := filepath.Join(dir, "x.blueprint.yaml")
	os.WriteFile(bp, []byte("version: 2023-04-20\nresources:\n  q:\n    type: aws/sqs/queue\n    spec:\n      queueName: q\n"), 0o644)
	st, _ := eval.ParseState([]byte(`{"resources": {"q": {"type": "aws/sqs/queue", "spec": {"queueName": "q"}}}}`))
	content, _ := os.ReadFile(bp)
	p, _, err := engine.PlanFile(context.Background(), bp, content, eval.Inputs{State: st}, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p.HasChanges() || len(p.Stages) != 0 {
		t.Errorf("changes in an unchanged plan: %s", engine.Text(p))
	}
}

func TestPlanFileSyntaxError(t *testing.T) {
	p, diags, err := engine.PlanFile(context.Background(), "x.yaml", []byte("a: [\n"), eval.Inputs{}, engine.Options{})
	if err != nil || p != nil || len(diags) == 0 {
		t.Errorf("plan %v, diags %v, err %v", p, diags, err)
	}
}

// TestPriorStateReferences checks which deployed state fields references
// read: all of an unchanged producer's, only the primary identifier of
// an updated one, none of a replaced one.
func TestPriorStateReferences(t *testing.T) {
	p := plan(t, "prior")
	field := func(name, path string) string {
		for _, r := range p.Resources {
			if r.Name != name {
				continue
			}
			v := r.Spec
			for _, k := range strings.Split(path, ".") {
				m, _ := v.Map()
				v, _ = m.Get(k)
			}
			return eval.Text(v)
		}
		t.Fatalf("no resource %s", name)
		return ""
	}
	for _, c := range []struct{ name, path, want string }{
		{"fromKept", "redrivePolicy.deadLetterTargetArn", `"arn:aws:sqs:eu-west-1:123456789012:kept"`},
		{"fromKeptSame", "redrivePolicy.deadLetterTargetArn", `"arn:aws:sqs:eu-west-1:123456789012:kept"`},
		{"fromChanged", "redrivePolicy.deadLetterTargetArn", eval.UnknownText},
		{"fromRenamed", "redrivePolicy.deadLetterTargetArn", eval.UnknownText},
	} {
		if got := field(c.name, c.path); got != c.want {
			t.Errorf("%s %s = %s, want %s", c.name, c.path, got, c.want)
		}
	}
	if got := field("fromChanged", "tags"); !strings.Contains(got, `value: "https://sqs.eu-west-1.amazonaws.com/123456789012/changed"`) {
		t.Errorf("fromChanged does not read the updated queue's queueUrl (its primary identifier): %s", got)
	}
	actions := map[string]engine.Action{}
	for _, r := range p.Resources {
		actions[r.Name] = r.Action
	}
	want := map[string]engine.Action{
		"keptQueue": engine.NoOp, "changedQueue": engine.Update, "renamedQueue": engine.Replace,
		"fromKept": engine.Create, "fromKeptSame": engine.NoOp, "fromChanged": engine.Create, "fromRenamed": engine.Update,
		"labelled": engine.Create,
	}
	if diff := cmp.Diff(want, actions); diff != "" {
		t.Errorf("actions (-want +got):\n%s", diff)
	}
}

// TestTextStyled checks that a styler sees every action-bearing part,
// and that without its decorations the text is Text's.
func TestTextStyled(t *testing.T) {
	p := plan(t, "actions")
	var seen []string
	styled := engine.TextStyled(p, func(a engine.Action, s string) string {
		seen = append(seen, string(a)+"|"+s)
		return "<" + string(a) + ">" + s + "</>"
	})
	plain := regexp.MustCompile(`</?[a-z-]*>`).ReplaceAllString(styled, "")
	if diff := cmp.Diff(engine.Text(p), plain); diff != "" {
		t.Errorf("styled text without decorations differs from Text (-want +got):\n%s", diff)
	}
	for _, want := range []string{
		"create|+ newQueue", "update|~ updatedQueue", "replace|-/+ renamedTable",
		"retain|~/- keptBucket", "delete|- oldQueue",
		"update|~ delaySeconds", "delete|- visibilityTimeout", "create|+ queueName",
		"replace|# forces replacement", "create|+ laterArn", "delete|- gone",
	} {
		if !slices.Contains(seen, want) {
			t.Errorf("the styler did not see %q; it saw %q", want, seen)
		}
	}
	if got := engine.TextStyled(p, nil); got != engine.Text(p) {
		t.Error("TextStyled with a nil styler differs from Text")
	}
}
