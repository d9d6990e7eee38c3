package assembly

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/engine"
	"github.com/blueprint-ls/blueprint-ls/eval"
	"github.com/blueprint-ls/blueprint-ls/schema"
)

// planFixture plans a testdata blueprint with no inputs and returns the
// plan and its materialised blueprint.
func planFixture(t *testing.T, name string, vars ...string) (*engine.Plan, *eval.Blueprint) {
	t.Helper()
	path := "testdata/" + name
	content, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var in eval.Inputs
	for _, v := range vars {
		if err := in.AddVar(v); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	p, _, err := engine.PlanFile(ctx, path, content, in, engine.Options{})
	if err != nil || p == nil {
		t.Fatalf("plan: %v", err)
	}
	res := analysis.Analyze(ctx, schema.Parse(path, content), analysis.Options{Path: path})
	bp, err := eval.Eval(ctx, res, in, eval.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p, bp
}

func TestWriteProbe(t *testing.T) {
	p, bp := planFixture(t, "orders.blueprint.yaml")
	var buf bytes.Buffer
	if err := Write(&buf, p, WriteOptions{Blueprint: bp}); err != nil {
		t.Fatal(err)
	}
	rep := VerifyBytes(buf.Bytes(), VerifyOptions{})
	for _, pr := range rep.Problems {
		t.Logf("%s %s %s %s", pr.File, pr.Code, pr.Path, pr.Message)
	}
	m, _ := BuildManifest(p, WriteOptions{Blueprint: bp})
	t.Logf("%s", m)
}
