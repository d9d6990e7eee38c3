package ide

import (
	"context"
	"strings"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/providers/registry"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// providerFunctionDoc calls a provider function: the built-in aws
// provider's aws_arn, and acme_sprocket, which a provider file (as the
// plugin host writes a plugin's) adds.
const providerFunctionDoc = `version: 2025-11-02
resources:
  archive:
    type: aws/s3/bucket
    spec:
      bucketName: ${aws_arn("s3", acme_sprocket(<>))}
`

const acmeFunctions = `{"provider": "acme", "functions": {"acme_sprocket": {
  "description": "Names the sprocket of a widget.",
  "params": [{"name": "widget", "type": "string", "description": "The widget's name."},
             {"name": "size", "type": "integer", "optional": true, "description": "Its size."}],
  "result": "string"}}}`

// TestProviderFunctions: a provider's functions (a provider file's or a
// plugin's) are completed, hovered, signed and type checked like the
// core ones.
func TestProviderFunctions(t *testing.T) {
	reg := registry.NewBuiltin()
	if err := reg.AddProvider([]byte(acmeFunctions)); err != nil {
		t.Fatal(err)
	}
	opts := Options{Registry: reg}
	analyse := func(src string) *analysis.Result {
		f := schema.Parse("fn.yaml", []byte(src))
		return analysis.Analyze(context.Background(), f, analysis.Options{Registry: reg, Funcs: analysis.DefaultTable(reg)})
	}
	src, off := cursor(t, providerFunctionDoc)

	res := analyse(strings.Replace(src, "acme_sprocket()", `acme_sprocket("w", "3")`, 1))
	var got []string
	for _, d := range res.Diagnostics {
		if d.Code == "func-arg-type" || d.Code == "func-unknown" {
			got = append(got, d.Code+" "+text(res, d.Range)+": "+d.Message)
		}
	}
	if want := `func-arg-type "3": argument 2 (size) of acme_sprocket must be an integer, not string`; strings.Join(got, "\n") != want {
		t.Errorf("diagnostics:\n%s\nwant %s", strings.Join(got, "\n"), want)
	}

	res = analyse(src)
	sh := SignatureHelp(res, source.NewText([]byte(src)), off, opts)
	if sh == nil || sh.Label != "acme_sprocket(widget string, size integer?) -> string" || sh.ActiveParameter != 0 ||
		!strings.Contains(sh.Documentation, "Names the sprocket of a widget.") || sh.Params[0].Documentation != "The widget's name." {
		t.Errorf("signature help %+v", sh)
	}
	h := Hover(res, strings.Index(src, "aws_arn")+2, opts)
	if h == nil || !strings.Contains(h.Markdown, "Builds an ARN from its parts") || text(res, h.Range) != "aws_arn" {
		t.Errorf("hover on aws_arn: %+v", h)
	}
	h = Hover(res, strings.Index(src, "acme_sprocket")+2, opts)
	if h == nil || !strings.Contains(h.Markdown, "Names the sprocket of a widget.") {
		t.Errorf("hover on acme_sprocket: %+v", h)
	}

	partial := strings.Replace(src, "acme_sprocket()", "acme_spr", 1)
	items := Completion(analyse(partial), []byte(partial), strings.Index(partial, "acme_spr")+len("acme_spr"), opts)
	found := false
	for _, it := range items {
		if it.Label == "acme_sprocket" {
			found = true
			if !strings.Contains(it.Detail+it.Documentation, "Names the sprocket") && !strings.Contains(it.Detail, "string") {
				t.Errorf("completion item %+v", it)
			}
		}
	}
	if !found {
		t.Errorf("no acme_sprocket in the completion of acme_spr")
	}
}
