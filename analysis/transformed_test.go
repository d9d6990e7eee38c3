package analysis

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/blueprint-ls/blueprint-ls/providers/pluginhost"
	"github.com/blueprint-ls/blueprint-ls/schema"
)

// fakeTransformer answers every transform named "fake" with its canned
// answer, as a transformer plugin would through the plugin host.
type fakeTransformer struct{ answer *pluginhost.Transformed }

func (f fakeTransformer) Has(name string) bool { return name == "fake" }
func (f fakeTransformer) Transform(_ context.Context, _, _ string, _ []byte) *pluginhost.Transformed {
	return f.answer
}

const abstractSrc = `version: 2025-11-02
transform: fake
resources:
  orders:
    type: aws/s3/bucket
    spec:
      bucketName: orders
`

// TestAnalyzeTransformed: the problems of the resources a transformer
// made are reported on the abstract resource's name (the text they
// cover quoted), the others dropped; a failure or a note of the
// transformer is on the transform field.
func TestAnalyzeTransformed(t *testing.T) {
	made := `{"version": "2025-11-02", "resources": {
  "ordersQueue": {"type": "aws/sqs/queue", "spec": {"delaySeconds": 9999}},
  "orders": {"type": "aws/s3/bucket", "spec": {"bucketName": 7}}}}`
	tests := []struct {
		name   string
		answer *pluginhost.Transformed
		want   []string
	}{
		{"made resource", &pluginhost.Transformed{Blueprint: []byte(made), Origins: map[string]string{"ordersQueue": "orders"}}, []string{
			`transformed-resource error "orders": ordersQueue (made by the transform): spec.delaySeconds must be at most 900, found 9999 [resource-bounds]`,
		}},
		{"failure", &pluginhost.Transformed{Error: "transform: no answer within 3s; gave up"}, []string{
			`transform-failed error "fake": transform fake failed: transform: no answer within 3s; gave up`,
		}},
		{"notes", &pluginhost.Transformed{Blueprint: []byte(`{"version": "2025-11-02", "resources": {}}`),
			Diagnostics: []pluginhost.TransformNote{{Error: true, Message: "orders: no handler"}, {Message: "deprecated"}}}, []string{
			`transform-diagnostic warning "fake": transform fake: deprecated`,
			`transform-diagnostic error "fake": transform fake: orders: no handler`,
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := schema.Parse("bp.yaml", []byte(abstractSrc))
			res := Analyze(context.Background(), f, Options{})
			tr := AnalyzeTransformed(context.Background(), res, Options{}, fakeTransformer{tc.answer})
			if tr == nil {
				t.Fatal("no transform")
			}
			var got []string
			for _, d := range tr.Diagnostics {
				got = append(got, fmt.Sprintf("%s %s %q: %s", d.Code, d.Severity, abstractSrc[d.Range.Start:d.Range.End], d.Message))
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
		})
	}
	f := schema.Parse("bp.yaml", []byte(abstractSrc))
	res := Analyze(context.Background(), f, Options{})
	if tr := AnalyzeTransformed(context.Background(), res, Options{}, nil); tr != nil {
		t.Errorf("no transformer: %+v", tr)
	}
	other := schema.Parse("bp.yaml", []byte(abstractSrc[:len("version: 2025-11-02\n")]+"transform: other\n"+abstractSrc[len("version: 2025-11-02\ntransform: fake\n"):]))
	if tr := AnalyzeTransformed(context.Background(), Analyze(context.Background(), other, Options{}), Options{}, fakeTransformer{}); tr != nil {
		t.Errorf("a transform no transformer implements: %+v", tr)
	}
}
