package convert_test

import (
	"math/rand/v2"
	"os"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/bplang"
	"github.com/blueprint-ls/blueprint-ls/convert"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// TestConvertRandomEdits: a blueprint edited at random (characters that
// matter to YAML and to substitutions inserted or deleted: the probe that
// found 27 of 932 edits converting to a .bp that did not parse) either
// converts to text that parses in the target format or is refused; never
// a broken file. A text with syntax errors is refused by To itself.
func TestConvertRandomEdits(t *testing.T) {
	data, err := os.ReadFile("../testdata/examples/valid/orders-api.blueprint.yaml")
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(33, 1))
	const inserts = "${}()\"'\\,.:#[]| \n-"
	edits := 400
	if testing.Short() {
		edits = 100
	}
	converted, refused := 0, 0
	for range edits {
		text := []byte(string(data))
		for range 1 + r.IntN(3) {
			at := r.IntN(len(text))
			if r.IntN(2) == 0 {
				n := 1 + r.IntN(3)
				text = append(text[:at], text[min(at+n, len(text)):]...)
			} else {
				c := inserts[r.IntN(len(inserts))]
				text = append(text[:at], append([]byte{c}, text[at:]...)...)
			}
		}
		f := schema.Parse("edited.blueprint.yaml", text)
		for _, target := range []syntax.Format{syntax.BP, syntax.YAML, syntax.JSON} {
			out, err := convert.To(f, target)
			if err != nil {
				refused++
				continue
			}
			converted++
			var g *syntax.File
			switch target {
			case syntax.BP:
				g = bplang.Parse("out.bp", out)
			case syntax.YAML:
				g = syntax.Parse("out.yaml", out)
			default:
				g = syntax.Parse("out.json", out)
			}
			if g.HasSyntaxErrors() {
				t.Fatalf("converted to %v, the result does not parse: %v\n--- input:\n%s\n--- output:\n%s", target, g.SyntaxErrors()[0].Message, text, out)
			}
		}
	}
	t.Logf("%d conversions, %d refused", converted, refused)
	if converted < edits/2 {
		t.Errorf("only %d conversions of %d edits: the edits break too much to test anything", converted, edits)
	}
}

// TestConvertRefusesBrokenSubstitution: a YAML string holding a
// substitution that does not parse is refused for the blueprint language,
// at the string's position; YAML and JSON hold it as it is.
func TestConvertRefusesBrokenSubstitution(t *testing.T) {
	src := "version: 2025-11-02\nresources:\n  q:\n    type: aws/sqs/queue\n    spec:\n      queueName: \"${variables.x\"\n"
	f := schema.Parse("a.blueprint.yaml", []byte(src))
	_, err := convert.To(f, syntax.BP)
	const want = "6:19: unterminated substitution: expected '}' to close the '${' at offset 88: the blueprint language writes a substitution as an expression, which must parse; fix it first"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	for _, target := range []syntax.Format{syntax.YAML, syntax.JSON} {
		if _, err := convert.To(f, target); err != nil {
			t.Errorf("to %v: %v", target, err)
		}
	}
}
