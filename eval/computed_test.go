package eval_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/eval"
	"github.com/blueprint-ls/blueprint-ls/funcs"
	"github.com/blueprint-ls/blueprint-ls/providers/registry"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// evalValues evaluates the blueprint src with the registry reg (nil: the
// built-in one) and returns its values as "name = JSON".
func evalValues(t *testing.T, src string, reg *registry.Registry) ([]string, *eval.Blueprint, *analysis.Result) {
	t.Helper()
	res := analysis.Analyze(context.Background(), schema.Parse("a.blueprint.yaml", []byte(src)), analysis.Options{Registry: reg})
	bp, err := eval.Eval(context.Background(), res, eval.Inputs{}, eval.Options{Env: &funcs.TestEnv{}, Registry: reg})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, v := range bp.Values {
		got = append(got, v.Name+" = "+string(eval.JSON(v.Value)))
	}
	return got, bp, res
}

// TestOmittedSpecFields: a reference to a spec field the blueprint leaves
// out is known after deploy when the provider computes the field when it
// is omitted (the auto-named bucketName), the field's default when its
// schema has one, and otherwise an eval-missing-field error at the
// field's accessor; a field that is set reads its value.
func TestOmittedSpecFields(t *testing.T) {
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
values:
  set: {type: string, value: "${resources.named.spec.bucketName}"}
  computed: {type: string, value: "${resources.unnamed.spec.bucketName}"}
  interpolated: {type: string, value: "arn:aws:s3:::${resources.unnamed.spec.bucketName}"}
  nested: {type: string, value: "${resources.unnamed.spec.versioningConfiguration.status}"}
  missing: {type: string, value: "q-${resources.queue.spec.queueName}"}
`
	got, bp, res := evalValues(t, src, nil)
	for _, d := range bp.Diagnostics {
		l1, c1 := res.File.Mapper.LineCol(d.Range.Start, source.UTF16)
		l2, c2 := res.File.Mapper.LineCol(d.Range.End, source.UTF16)
		got = append(got, fmt.Sprintf("%d:%d-%d:%d %s: %s", l1, c1, l2, c2, d.Code, d.Message))
	}
	want := []string{
		`set = "orders"`,
		`computed = {"$unknown":"resources.unnamed.spec.bucketName"}`,
		`interpolated = {"$unknown":"arn:aws:s3:::${resources.unnamed.spec.bucketName}"}`,
		`nested = "Enabled"`,
		`missing = {"$unknown":"q-${resources.queue.spec.queueName}"}`,
		`20:59-20:69 eval-missing-field: resources.queue.spec.queueName is not set in the blueprint, and aws/sqs/queue neither gives it a default nor computes it when it is omitted: the deploy engine fails on this reference`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

// TestOmittedSpecFieldDefault: an omitted field whose schema has a
// default reads the default, and a plugin-style flag makes a field
// computed when omitted.
func TestOmittedSpecFieldDefault(t *testing.T) {
	reg := registry.New()
	if err := reg.AddResourceSchema("box.json", []byte(`{"typeName": "Test::Net::Box", "properties": {"Size": {"type": "integer", "default": 3}, "Name": {"type": "string"}, "Label": {"type": "string"}}}`)); err != nil {
		t.Fatal(err)
	}
	if err := reg.AddProvider([]byte(`{"provider": "test", "resourceTypes": {"test/net/box": {"fields": {"name": {"computedWhenOmitted": true}}}}}`)); err != nil {
		t.Fatal(err)
	}
	src := "version: 2025-11-02\nresources:\n  box:\n    type: test/net/box\n    spec:\n      label: x\nvalues:\n  size: {type: integer, value: \"${resources.box.spec.size}\"}\n  name: {type: string, value: \"${resources.box.spec.name}\"}\n"
	got, bp, _ := evalValues(t, src, reg)
	want := []string{`size = 3`, `name = {"$unknown":"resources.box.spec.name"}`}
	if diff := cmp.Diff(want, got); diff != "" || len(bp.Diagnostics) != 0 {
		t.Errorf("(-want +got)\n%s\n%v", diff, bp.Diagnostics)
	}
}
