package eval_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/eval"
	"github.com/blueprint-ls/blueprint-ls/funcs"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/subst"
)

// TestComputedWhenOmitted: a reference to a field the blueprint leaves
// out is known after deploy when the provider computes the field when it
// is omitted (an auto-named bucket), and none otherwise; a field that is
// set reads its value. Each row gives the value and the diagnostics
// (line:col-line:col of the template) evaluating it reports.
func TestComputedWhenOmitted(t *testing.T) {
	src := `version: 2025-11-02
resources:
  named:
    type: aws/s3/bucket
    spec:
      bucketName: orders
  unnamed:
    type: aws/s3/bucket
    spec:
      versioningConfiguration: {status: Enabled}
  queue:
    type: aws/sqs/queue
    spec:
      delaySeconds: 5
`
	res := analysis.Analyze(context.Background(), schema.Parse("a.blueprint.yaml", []byte(src)), analysis.Options{})
	scope, _ := eval.NewScope(context.Background(), res, eval.Inputs{}, eval.Options{Env: &funcs.TestEnv{}})
	for _, c := range []struct {
		text, want string
		diags      []string
	}{
		{text: `${resources.named.spec.bucketName}`, want: `"orders"`},
		{text: `${resources.unnamed.spec.bucketName}`, want: `{"$unknown":"resources.unnamed.spec.bucketName"}`},
		{text: `arn:aws:s3:::${resources.unnamed.spec.bucketName}`, want: `{"$unknown":"arn:aws:s3:::${resources.unnamed.spec.bucketName}"}`},
		{text: `${len(resources.unnamed.spec.bucketName)}`, want: `{"$unknown":"len(..)"}`},
		{text: `${resources.queue.spec.queueName}`, want: `null`}, // not computed when omitted: none
		{text: `${resources.unnamed.spec.versioningConfiguration.status}`, want: `"Enabled"`},
	} {
		tmpl := subst.ParseTemplate(c.text, nil)
		v, ds := scope.Template(tmpl)
		var got []string
		for _, d := range ds {
			got = append(got, fmt.Sprintf("%d-%d %s", d.Range.Start, d.Range.End, d.Code))
		}
		if s := string(eval.JSON(v)); s != c.want || fmt.Sprint(got) != fmt.Sprint(c.diags) {
			t.Errorf("%s = %s %v, want %s %v", c.text, s, got, c.want, c.diags)
		}
	}
}
