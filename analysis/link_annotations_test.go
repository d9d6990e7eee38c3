package analysis

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// TestLinkAnnotations: the annotations a linking resource carries for
// its side of a published link are checked against the link's
// definition, each at the value (quoted below), a required one missing at
// the linkSelector; values with ${..} are not judged.
func TestLinkAnnotations(t *testing.T) {
	const tail = `
  orders:
    type: aws/dynamodb/table
    metadata:
      labels: {app: orders}
    spec:
      tableName: orders
`
	fn := func(annotations string) string {
		return "version: 2025-11-02\nresources:\n  fn:\n    type: aws/lambda/function\n    metadata:\n      annotations:\n" + annotations +
			"    linkSelector:\n      byLabel: {app: orders}\n    spec:\n      role: arn\n      code: {zipFile: x}\n" + tail
	}
	tests := []struct {
		name, text string
		want       []string // "underlined text: message"
	}{
		{name: "allowed", text: fn("        aws.lambda.dynamodb.accessType: read\n        aws.lambda.function.populateEnvVars: true\n")},
		{name: "a boolean spelt as a string", text: fn("        aws.lambda.function.populateEnvVars: \"true\"\n")},
		{name: "known at deploy time", text: fn("        aws.lambda.dynamodb.accessType: ${variables.x}\n")},
		{name: "not an allowed value", text: fn("        aws.lambda.dynamodb.accessType: everything\n"), want: []string{
			`everything: annotation "aws.lambda.dynamodb.accessType" of the link between aws/lambda/function and aws/dynamodb/table is "everything", not one of read, write, readwrite`}},
		{name: "wrong type", text: fn("        aws.lambda.function.populateEnvVars: sometimes\n"), want: []string{
			`sometimes: annotation "aws.lambda.function.populateEnvVars" of the link between aws/lambda/function and aws/dynamodb/table must be a boolean, not "sometimes"`}},
		{name: "a number for a string", text: fn("        aws.lambda.dynamodb.accessType: 5\n"), want: []string{
			`5: annotation "aws.lambda.dynamodb.accessType" of the link between aws/lambda/function and aws/dynamodb/table must be a string, not the number 5`}},
		{name: "the other side's annotation is not this one's business", text: fn("        aws.dynamodb.table.envVarName: [x]\n")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := schema.Parse("a.blueprint.yaml", []byte(tt.text))
			r := Analyze(context.Background(), f, Options{})
			var got []string
			for _, d := range r.Diagnostics {
				if d.Code != codeLinkAnnotation.ID {
					continue
				}
				got = append(got, tt.text[d.Range.Start:d.Range.End]+": "+d.Message)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s\nall: %s", diff, all(r))
			}
		})
	}
}

// TestCelerityLinks: a Celerity handler linking to a datastore (and an
// API to the handler) passes; a link the published tables do not allow
// (handler to handler) is reported at the linkSelector.
func TestCelerityLinks(t *testing.T) {
	text := `version: 2025-11-02
resources:
  api:
    type: celerity/api
    linkSelector:
      byLabel: {app: orders}
    spec:
      protocols: [http]
  handler:
    type: celerity/handler
    metadata:
      labels: {app: orders}
    linkSelector:
      byLabel: {store: orders}
    spec:
      handlerName: orders
  store:
    type: celerity/datastore
    metadata:
      labels: {store: orders}
    spec:
      keys: {partitionKey: id}
  other:
    type: celerity/handler
    metadata:
      labels: {store: orders}
    spec:
      handlerName: other
`
	f := schema.Parse("a.blueprint.yaml", []byte(text))
	r := Analyze(context.Background(), f, Options{})
	var got []string
	for _, d := range r.Diagnostics {
		if strings.HasPrefix(d.Code, "link-") {
			got = append(got, text[d.Range.Start:d.Range.End]+": "+d.Code+": "+d.Message)
		}
	}
	want := []string{`byLabel: link-unsupported: linkSelector of "handler" selects "other", but the provider has no link between celerity/handler and celerity/handler`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s\nall: %s", diff, all(r))
	}
}

func all(r *Result) string {
	var b strings.Builder
	for _, d := range r.Diagnostics {
		l, c := r.File.Mapper.LineCol(d.Range.Start, source.UTF32)
		b.WriteString("\n" + fmt.Sprintf("%d:%d %s %s", l, c, d.Code, d.Message))
	}
	return b.String()
}
