package eval_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/eval"
	"github.com/blueprint-ls/blueprint-ls/funcs"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// TestLogicChecksEveryOperand evaluates and/or calls and condition
// objects whose deciding operand comes before a mistaken one: the mistake
// is an error at that operand even though it can not change the result.
func TestLogicChecksEveryOperand(t *testing.T) {
	src := `version: 2023-04-20
variables:
  on:
    type: boolean
    default: true
resources:
  a:
    type: aws/sqs/queue
    condition: ${or(variables.on, 985043)}
    spec:
      queueName: a
  b:
    type: aws/sqs/queue
    condition:
      and:
        - ${not(variables.on)}
        - ${len("x")}
    spec:
      queueName: b
  c:
    type: aws/sqs/queue
    condition:
      or:
        - ${variables.on}
        - ${"yes"}
    spec:
      queueName: c-${and(false, list(1))}
`
	f := schema.Parse("logic.blueprint.yaml", []byte(src))
	res := analysis.Analyze(context.Background(), f, analysis.Options{})
	bp, err := eval.Eval(context.Background(), res, eval.Inputs{}, eval.Options{Env: &funcs.TestEnv{}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range bp.Diagnostics {
		if d.Severity != source.Error {
			continue
		}
		l1, c1 := f.Mapper.LineCol(d.Range.Start, source.UTF32)
		l2, c2 := f.Mapper.LineCol(d.Range.End, source.UTF32)
		got = append(got, fmt.Sprintf("%d:%d-%d:%d %s %q", l1, c1, l2, c2, d.Code, src[d.Range.Start:d.Range.End]))
	}
	want := []string{
		`9:35-9:41 eval-runtime-error "985043"`,
		`17:11-17:22 eval-runtime-error "${len(\"x\")}"`,
		`25:11-25:19 eval-runtime-error "${\"yes\"}"`,
		`27:33-27:40 eval-runtime-error "list(1)"`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
		for _, d := range bp.Diagnostics {
			t.Logf("%s %s", d.Code, d.Message)
		}
	}
}
