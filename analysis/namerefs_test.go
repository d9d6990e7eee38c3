package analysis

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/blueprint-ls/blueprint-ls/schema"
)

// TestNameRefs checks that resources named as text are recorded with the
// range of the name alone: link() literals (also behind YAML escapes),
// dependsOn as a scalar and a list (a resource naming itself included),
// and linkSelector.exclude; unknown names are not.
func TestNameRefs(t *testing.T) {
	src := `version: 2025-11-02
values:
  pair:
    type: object
    value: ${link("a", resources.b)}
  quoted:
    type: object
    value: "${link(\"b\", \"nope\")}"
resources:
  a:
    type: aws/dynamodb/table
    dependsOn: a
  b:
    type: aws/lambda/function
    dependsOn: [a, nope]
    linkSelector:
      byLabel:
        app: x
      exclude: [b, a]
`
	res := Analyze(context.Background(), schema.Parse("n.yaml", []byte(src)), Options{})
	var got []string
	for _, n := range res.NameRefs() {
		l, c := res.File.Mapper.LineCol(n.Range.Start, 0)
		got = append(got, fmt.Sprintf("%d:%d %d %s->%s", l, c, n.Kind, src[n.Range.Start:n.Range.End], n.Target.Name))
	}
	want := []string{
		"5:20 3 a->a",  // link("a", ...)
		"8:22 3 b->b",  // link(\"b\", ...)
		"12:16 1 a->a", // dependsOn: a (itself)
		"15:17 1 a->a", // dependsOn: [a, ...]
		"19:17 2 b->b", // exclude: [b, ...]
		"19:20 2 a->a", // exclude: [.., a]
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("NameRefs (-want +got):\n%s", diff)
	}
}
