package lsp

import (
	"encoding/json"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// halfTypedYAML is well formed; each case breaks one line of it the way a
// line is left while being typed.
const halfTypedYAML = `version: 2023-04-20
variables:
  env:
    type: string
    description: the environment
  region:
    type: string
    default: eu-west-1
values:
  prefix:
    type: string
    value: ${variables.region}-app
resources:
  queue:
    type: aws/sqs/queue
    spec:
      queueName: app
      visibilityTimeout: 30
  other:
    type: aws/sqs/queue
    spec:
      queueName: ${trim(values.prefix)}
      delaySeconds: 30
      tags:
        - key: region
          value: ${variables.
`

// Below (and on) a line with a quote opened and not closed, or a key
// whose colon is not typed yet, completion, hover, signature help and
// definition answer as on the text with the line finished (the quote
// closed at its end, the colon typed), and the first diagnostic is the
// syntax error, on the broken line.
func TestHalfTypedLines(t *testing.T) {
	cases := []struct {
		name, line, broken, fixed string
		probes                    []string // completion, hover, definition and signature help after each
	}{
		{"unclosed double quote", "    description: the environment", `    description: "the environment`, `    description: "the environment"`,
			[]string{"${trim(", "${trim(values.pre", "value: ${variables.", "      delaySeconds: 30\n", "  other:\n    ty"}},
		{"unclosed single quote", "    description: the environment", `    description: 'the environment`, `    description: 'the environment'`,
			[]string{"${trim(values.pre", "value: ${variables.", "      delaySeconds: 30\n"}},
		{"unclosed quote in a spec with quotes below", "      queueName: app", `      queueName: "app`, `      queueName: "app"`,
			[]string{"${trim(values.pre", "value: ${variables.", "      delaySeconds: 30\n", "      visibilityTimeout: 30\n"}},
		{"unclosed quote around a reference", "      queueName: ${trim(values.prefix)}", `      queueName: "${trim(values.prefix)}`, `      queueName: "${trim(values.prefix)}"`,
			[]string{"${trim(", "${trim(values.pre", "value: ${variables.", "      delaySeconds: 30\n"}},
		{"key without its colon in a definition", "    description: the environment", "    descriptio", "    descriptio:",
			[]string{"${trim(values.pre", "value: ${variables.", "      delaySeconds: 30\n", "    descriptio"}},
		{"key without its colon in a spec", "      visibilityTimeout: 30", "      visibilityTimeou", "      visibilityTimeou:",
			[]string{"${trim(values.pre", "value: ${variables.", "      visibilityTimeou", "      delaySeconds: 30\n"}},
	}
	h := newHarness(t)
	h.initialize(fastInit)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			broken := strings.Replace(halfTypedYAML, tc.line+"\n", tc.broken+"\n", 1)
			fixed := strings.Replace(halfTypedYAML, tc.line+"\n", tc.fixed+"\n", 1)
			if broken == halfTypedYAML {
				t.Fatalf("%q not in the text", tc.line)
			}
			name := strings.ReplaceAll(tc.name, " ", "-")
			bu, fu := "broken-"+name+".blueprint.yaml", "fixed-"+name+".blueprint.yaml"
			h.open(bu, broken)
			h.open(fu, fixed)
			diags := h.WaitDiagnostics(bu, 1)
			h.WaitDiagnostics(fu, 1)
			brokenLine := uint32(strings.Count(broken[:strings.Index(broken, tc.broken+"\n")], "\n"))
			if len(diags) == 0 || codeOf(diags[0]) != "yaml-syntax" || diags[0].Range.Start.Line != brokenLine {
				t.Fatalf("the first diagnostic is not the syntax error on line %d: %v", brokenLine, diags)
			}
			for _, probe := range tc.probes {
				at := func(u, text string) *protocol.TextDocumentPositionParams {
					return &protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: docURI(u)}, Position: posOf(t, text, probe, len(probe))}
				}
				for _, method := range []string{protocol.MethodTextDocumentCompletion, protocol.MethodTextDocumentHover, protocol.MethodTextDocumentDefinition, protocol.MethodTextDocumentSignatureHelp} {
					var a, b json.RawMessage
					if err := h.call(method, at(bu, broken), &a); err != nil {
						t.Fatal(err)
					}
					if err := h.call(method, at(fu, fixed), &b); err != nil {
						t.Fatal(err)
					}
					got, want := comparable(t, method, a, bu), comparable(t, method, b, fu)
					if got != want {
						t.Errorf("%s after %q:\n broken %s\n fixed  %s", method, probe, got, want)
					}
					if method == protocol.MethodTextDocumentCompletion && strings.HasSuffix(probe, "${variables.") && !strings.HasPrefix(got, "env ") {
						t.Errorf("completion after %q does not offer env: %s", probe, got)
					}
				}
			}
		})
	}
}

// comparable is what a feature's answer says, the same for the broken and
// the finished text: completion's labels, kinds and details (ranges on the
// broken line differ by the character not yet typed), and the other
// answers whole with the document's name taken out.
func comparable(t *testing.T, method string, raw json.RawMessage, u string) string {
	t.Helper()
	if method != protocol.MethodTextDocumentCompletion {
		return strings.ReplaceAll(string(raw), string(docURI(u)), "DOC")
	}
	var l protocol.CompletionList
	if err := protocol.Unmarshal(raw, &l); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, it := range l.Items {
		d, _ := it.Detail.Get()
		out = append(out, it.Label+" "+d)
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, ",")
}
