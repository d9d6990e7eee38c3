package analysis

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/subst"
)

// TestDiagnosticBudget: 1,500 broken variables (an unknown type and an
// unused variable each: 3,000 diagnostics) give 1,000 diagnostics and
// a summary with the severity of the worst left out, at the first one
// left out.
func TestDiagnosticBudget(t *testing.T) {
	var b strings.Builder
	b.WriteString("version: 2023-04-20\nvariables:\n")
	for i := range 1500 {
		fmt.Fprintf(&b, "  v%d:\n    type: nope\n", i)
	}
	b.WriteString("resources: {}\n")
	res := Analyze(context.Background(), schema.Parse("/x/a.blueprint.yaml", []byte(b.String())), Options{})
	if len(res.Diagnostics) != MaxDiagnostics+1 {
		t.Fatalf("%d diagnostics, want %d", len(res.Diagnostics), MaxDiagnostics+1)
	}
	last := res.Diagnostics[MaxDiagnostics]
	got := describeDiag(res, last) + " " + last.Severity.String() + ": " + last.Message
	want := `1003:3-1003:7 too-many-diagnostics "v500" error: 2001 more diagnostics in this document are not shown (at most 1000 are reported)`
	if got != want {
		t.Errorf("summary\n got %s\nwant %s", got, want)
	}
}

// TestNestingBudget: 100,000 nested array literals are one diagnostic
// about the depth (and the few the first 200 levels earn), not 100,001.
func TestNestingBudget(t *testing.T) {
	n := 100_000
	doc := "version: 2023-04-20\nresources:\n  q:\n    type: aws/sqs/queue\n    spec:\n      queueName: ${" + strings.Repeat("[", n) + strings.Repeat("]", n) + "}\n"
	res := Analyze(context.Background(), schema.Parse("/x/a.blueprint.yaml", []byte(doc)), Options{})
	var deep []string
	for _, d := range res.Diagnostics {
		if d.Code == subst.CodeTooDeep.ID {
			deep = append(deep, describeDiag(res, d)+" "+d.Message)
		}
	}
	want := fmt.Sprintf(`6:220-6:221 subst-too-deep "[" the expression is nested more than %d levels deep; the rest of the substitution is not read`, subst.MaxDepth)
	if len(deep) != 1 || deep[0] != want {
		t.Errorf("got %q\nwant %q", deep, want)
	}
	if len(res.Diagnostics) > subst.MaxDepth+2 {
		t.Errorf("%d diagnostics", len(res.Diagnostics))
	}
}
