package lsp

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// brokenYAML has an unclosed quote on line 5 (inside variable env) and a
// substitution being typed twenty lines below.
const brokenYAML = `version: 2023-04-20
variables:
  env:
    type: string
    description: "the environment
  region:
    type: string
    default: eu-west-1
values:
  prefix:
    type: string
    value: ${variables.region}-app
  suffix:
    type: string
    value: x
resources:
  queue:
    type: aws/sqs/queue
    spec:
      queueName: ${values.prefix}
  other:
    type: aws/sqs/queue
    spec:
      queueName: ${values.suffix}
      visibilityTimeout: 30
      tags:
        - key: region
          value: ${variables.
`

// blankLines turns lines first..last (1-based) into blanks of the same
// length: the document with that entry left out.
func blankLines(text string, first, last int) string {
	lines := strings.SplitAfter(text, "\n")
	for i := first - 1; i < last; i++ {
		lines[i] = strings.Repeat(" ", len(strings.TrimRight(lines[i], "\n"))) + "\n"
	}
	return strings.Join(lines, "")
}

// posOf is the position of the n-th byte of needle's first occurrence.
func posOf(t *testing.T, text, needle string, n int) protocol.Position {
	t.Helper()
	i := strings.Index(text, needle)
	if i < 0 {
		t.Fatalf("%q not in the text", needle)
	}
	before := text[:i+n]
	line := strings.Count(before, "\n")
	return pos(uint32(line), uint32(len(before)-strings.LastIndex(before, "\n")-1))
}

type brokenCase struct {
	name, ext     string
	broken, fixed string
	probes        []string // text whose end is a position away from the break
	typing        string   // text the cursor is at the end of, for completion
	want          string   // a completion label there
}

func init() {
	// The half-typed key goes before values (line 9).
	c := &brokenCases[1]
	c.broken = strings.Replace(c.broken, "values:\n", "resou\nvalues:\n", 1)
	c.fixed = blankLines(c.broken, 9, 9)
}

var brokenCases = []brokenCase{
	// The quote is read as ending at its line's end (analysis/repair_typing.go).
	{name: "unclosed quote", ext: "yaml", broken: brokenYAML, fixed: strings.Replace(brokenYAML, `description: "the environment`, `description:  the environment`, 1),
		probes: []string{"${variables.region", "${values.prefix", "${values.suff", "  prefix", "queue:"},
		typing: "value: ${variables.", want: "region"},
	{name: "half-typed top-level key", ext: "yaml",
		broken: strings.Replace(brokenYAML, "    description: \"the environment\n", "    description: the environment\n", 1),
		fixed:  blankLines(strings.Replace(brokenYAML, "    description: \"the environment\n", "    description: the environment\n", 1), 9, 9),
		probes: []string{"${variables.region", "${values.prefix", "  env", "queue:"},
		typing: "value: ${variables.", want: "env"},
	{name: "unterminated flow mapping", ext: "yaml",
		broken: strings.Replace(brokenYAML, "    description: \"the environment\n", "    description: the environment\n", 1) +
			"  third:\n    type: aws/sqs/queue\n    spec: {queueName: a\n",
		fixed: blankLines(strings.Replace(brokenYAML, "    description: \"the environment\n", "    description: the environment\n", 1)+
			"  third:\n    type: aws/sqs/queue\n    spec: {queueName: a\n", 29, 31),
		probes: []string{"${variables.region", "${values.prefix", "  env", "queue:"},
		typing: "value: ${variables.", want: "env"},
	{name: "JSON trailing comma and no closing brace", ext: "json",
		broken: brokenJSON, fixed: strings.Replace(brokenJSON, `"default": "x"},`, `"default": "x"} `, 1) + "}}",
		probes: []string{`${variables.env`, `"env"`, `"prefix"`},
		typing: `"value": "${variables.`, want: "env"},
}

const brokenJSON = `{
  "version": "2023-04-20",
  "variables": {
    "env": {"type": "string", "default": "dev"}
  },
  "values": {
    "prefix": {"type": "string", "value": "${variables.env}-app"},
    "other": {"type": "string", "value": "${variables.}"}
  },
  "resources": {
    "queue": {"type": "aws/sqs/queue", "spec": {"queueName": "${values.prefix}"}},
    "q2": {"type": "aws/sqs/queue", "default": "x"},
`

// On each kind of breakage, the features at positions away from the break
// answer as they do on the document repaired by hand, completion in the
// text being typed offers what the text implies, and the syntax error is
// the first diagnostic, for pushing and pulling clients alike.
func TestBrokenTextFeatures(t *testing.T) {
	for _, tc := range brokenCases {
		t.Run(tc.name, func(t *testing.T) {
			for _, pull := range []bool{false, true} {
				h := newHarness(t)
				init := fastInit
				if pull {
					init = `{"capabilities":{"textDocument":{"diagnostic":{}}},"initializationOptions":{"debounceMs":0}}`
				}
				h.initialize(init)
				bu, fu := "broken.blueprint."+tc.ext, "fixed.blueprint."+tc.ext
				h.open(bu, tc.broken)
				h.open(fu, tc.fixed)
				var diags []protocol.Diagnostic
				if pull {
					var rep protocol.DocumentDiagnosticReport
					if err := h.call(protocol.MethodTextDocumentDiagnostic, &protocol.DocumentDiagnosticParams{TextDocument: protocol.TextDocumentIdentifier{URI: docURI(bu)}}, &rep); err != nil {
						t.Fatal(err)
					}
					full, _ := rep.(*protocol.RelatedFullDocumentDiagnosticReport)
					if full != nil {
						diags = full.Items
					}
				} else {
					diags = h.WaitDiagnostics(bu, 1)
					h.WaitDiagnostics(fu, 1)
				}
				if len(diags) == 0 || !strings.HasSuffix(codeOf(diags[0]), "syntax") {
					t.Fatalf("pull=%v: the syntax error is not first: %v", pull, diags)
				}
				same := func(what string, method string, params func(u string) any) string {
					t.Helper()
					var a, b json.RawMessage
					if err := h.call(method, params(bu), &a); err != nil {
						t.Fatalf("%s: %v", what, err)
					}
					if err := h.call(method, params(fu), &b); err != nil {
						t.Fatalf("%s: %v", what, err)
					}
					fixedURI, brokenURI := string(docURI(fu)), string(docURI(bu))
					if got, want := string(a), strings.ReplaceAll(string(b), fixedURI, brokenURI); got != want {
						t.Errorf("pull=%v %s:\n broken %s\n fixed  %s", pull, what, got, want)
					}
					return string(a)
				}
				td := func(u string) protocol.TextDocumentIdentifier { return protocol.TextDocumentIdentifier{URI: docURI(u)} }
				for _, probe := range tc.probes {
					p := posOf(t, tc.broken, probe, len(probe)-1)
					at := func(u string) any {
						return &protocol.TextDocumentPositionParams{TextDocument: td(u), Position: p}
					}
					same("hover at "+probe, protocol.MethodTextDocumentHover, at)
					same("definition at "+probe, protocol.MethodTextDocumentDefinition, at)
					same("highlight at "+probe, protocol.MethodTextDocumentDocumentHighlight, at)
					same("completion at "+probe, protocol.MethodTextDocumentCompletion, at)
					same("references at "+probe, protocol.MethodTextDocumentReferences, func(u string) any {
						return &protocol.ReferenceParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: td(u), Position: p},
							Context: protocol.ReferenceContext{IncludeDeclaration: true}}
					})
				}
				whole := func(u string) any { return map[string]any{"textDocument": td(u)} }
				// The same symbols at the same places (a JSON repair's closers
				// lie past the end of the broken text, where its last
				// section's range ends instead).
				var sb, sf []protocol.SymbolInformation
				if h.call(protocol.MethodTextDocumentDocumentSymbol, whole(bu), &sb) != nil || h.call(protocol.MethodTextDocumentDocumentSymbol, whole(fu), &sf) != nil {
					t.Fatal("symbols failed")
				}
				outline := func(syms []protocol.SymbolInformation) (out []string) {
					for _, s := range syms {
						out = append(out, fmt.Sprintf("%s %d %v %v", s.Name, s.Kind, deref(s.ContainerName), s.Location.Range.Start))
					}
					return out
				}
				if got, want := strings.Join(outline(sb), "\n"), strings.Join(outline(sf), "\n"); got != want || len(sb) < 6 {
					t.Errorf("pull=%v: outline\n%s\nwant\n%s", pull, got, want)
				}
				// Folding reads the recovering tree, which keeps the broken
				// entry's well-formed lines: every fold of the repaired text starts
				// one of the broken text's, which may reach further.
				var fb, ff []protocol.FoldingRange
				if h.call(protocol.MethodTextDocumentFoldingRange, whole(bu), &fb) != nil || h.call(protocol.MethodTextDocumentFoldingRange, whole(fu), &ff) != nil {
					t.Fatal("folding failed")
				}
				starts := map[uint32]bool{}
				for _, f := range fb {
					starts[f.StartLine] = true
				}
				for _, f := range ff {
					if !starts[f.StartLine] {
						t.Errorf("pull=%v: fold %d-%d missing on the broken text: %v", pull, f.StartLine, f.EndLine, fb)
					}
				}
				var tb, tf protocol.SemanticTokens // their result ids differ
				if h.call(protocol.MethodTextDocumentSemanticTokensFull, whole(bu), &tb) != nil || h.call(protocol.MethodTextDocumentSemanticTokensFull, whole(fu), &tf) != nil {
					t.Fatal("semantic tokens failed")
				}
				if fmt.Sprint(tb.Data) != fmt.Sprint(tf.Data) || len(tb.Data) == 0 {
					t.Errorf("pull=%v: semantic tokens\n%v\nwant\n%v", pull, tb.Data, tf.Data)
				}
				if hover := same("hover on a reference", protocol.MethodTextDocumentHover, func(u string) any {
					return &protocol.TextDocumentPositionParams{TextDocument: td(u), Position: posOf(t, tc.broken, "${values.prefix", 12)}
				}); hover == "null" {
					t.Errorf("no hover on ${values.prefix}")
				}
				comp := same("completion being typed", protocol.MethodTextDocumentCompletion, func(u string) any {
					return &protocol.TextDocumentPositionParams{TextDocument: td(u), Position: posOf(t, tc.broken, tc.typing, len(tc.typing))}
				})
				if !strings.Contains(comp, `"label":"`+tc.want+`"`) {
					t.Errorf("completion after %q does not offer %s: %s", tc.typing, tc.want, comp)
				}
			}
		})
	}
}

// Completion on the broken line itself reads the text before the cursor.
func TestCompletionOnTheBrokenLine(t *testing.T) {
	h := newHarness(t)
	h.initialize(fastInit)
	text := strings.Replace(brokenYAML, "    description: \"the environment\n", "    description: the environment\n", 1)
	text = strings.Replace(text, "      queueName: ${values.prefix}\n", "      queueName: \"${variables.\n", 1)
	h.open("b.blueprint.yaml", text)
	h.WaitDiagnostics("b.blueprint.yaml", 1)
	var list protocol.CompletionList
	if err := h.call(protocol.MethodTextDocumentCompletion, &protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: docURI("b.blueprint.yaml")},
		Position:     posOf(t, text, `"${variables.`, len(`"${variables.`)),
	}, &list); err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, it := range list.Items {
		labels = append(labels, it.Label)
	}
	if got := strings.Join(labels, ","); got != "env,region" {
		t.Errorf("completion on the broken line = %s, want env,region", got)
	}
}

func codeOf(d protocol.Diagnostic) string {
	if d.Code == nil {
		return ""
	}
	b, _ := json.Marshal(d.Code)
	return strings.Trim(string(b), `"`)
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
