package lsp

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

const editYAML = `version: 2023-04-20
variables:
  environment:
    type: string
resources:
  queue:
    type: aws/sqs/queue
    spec:
      queueName: ${variables.environment}
`

const editJSON = `{
  "version": "2023-04-20",
  "variables": {"environment": {"type": "string"}},
  "resources": {
    "queue": {
      "type": "aws/sqs/queue",
      "spec": {"queueName": "${variables.environment}"}
    }
  }
}
`

const editBP = `version "2025-11-02"

variable environment: string {
    default = "staging"
}

resource queue: aws/sqs/queue {
    spec {
        queueName = variables.environment
        delaySeconds = max(1, 2)
    }
}
`

// Accepting a completion with the cursor in the middle of a word leaves
// exactly the chosen word, in a client that applies the item's textEdit
// as it is and, through the replace range of an InsertReplaceEdit, in one
// that offers insert or replace; the insert range ends at the cursor.
func TestCompletionEditsInTheMiddleOfAWord(t *testing.T) {
	cases := []struct {
		name, file, text string
		at               string // the cursor is after the first occurrence of at
		label            string
		replaced         string // the line of the cursor after replacing
		inserted         string // the line after inserting (insert range)
	}{
		{"yaml reference segment", "b.blueprint.yaml", editYAML, "${variables.e", "environment",
			"      queueName: ${variables.environment}", "      queueName: ${variables.environmentnvironment}"},
		{"yaml start of a segment", "b.blueprint.yaml", editYAML, "${variables.", "environment",
			"      queueName: ${variables.environment}", "      queueName: ${variables.environmentenvironment}"},
		{"yaml namespace keyword", "b.blueprint.yaml", editYAML, "${vari", "variables",
			"      queueName: ${variables.environment}", "      queueName: ${variables.ables.environment}"},
		{"yaml key", "b.blueprint.yaml", editYAML, "    ty", "type",
			"    type: string", "    type: pe: string"},
		{"yaml value", "b.blueprint.yaml", editYAML, "type: aws/s", "aws/sqs/queue",
			"    type: aws/sqs/queue", "    type: aws/sqs/queueqs/queue"},
		{"json reference segment", "b.blueprint.json", editJSON, "${variables.env", "environment",
			`      "spec": {"queueName": "${variables.environment}"}`, `      "spec": {"queueName": "${variables.environmentironment}"}`},
		{"json quoted key", "b.blueprint.json", editJSON, `"ty`, "type",
			`  "variables": {"environment": {"type": "string"}},`, `  "variables": {"environment": {"typepe": "string"}},`},
		{"json value", "b.blueprint.json", editJSON, `"type": "aws/sq`, "aws/sqs/queue",
			`      "type": "aws/sqs/queue",`, `      "type": "aws/sqs/queues/queue",`},
		{"bp reference segment", "b.bp", editBP, "= variables.en", "environment",
			"        queueName = variables.environment", "        queueName = variables.environmentvironment"},
		{"bp function", "b.bp", editBP, "= ma", "max",
			"        delaySeconds = max(1, 2)", "        delaySeconds = max(x(1, 2)"},
	}
	for _, insertReplace := range []bool{false, true} {
		h := newHarness(t)
		h.initialize(fmt.Sprintf(`{"capabilities":{"textDocument":{"completion":{"completionItem":{"insertReplaceSupport":%v}}}},"initializationOptions":{"debounceMs":0}}`, insertReplace))
		for _, tc := range cases {
			t.Run(fmt.Sprintf("%s insertReplace=%v", tc.name, insertReplace), func(t *testing.T) {
				h.open(tc.file, tc.text)
				defer h.close(tc.file)
				h.WaitDiagnostics(tc.file, 1)
				p := posOf(t, tc.text, tc.at, len(tc.at))
				var list protocol.CompletionList
				if err := h.call(protocol.MethodTextDocumentCompletion, &protocol.TextDocumentPositionParams{
					TextDocument: protocol.TextDocumentIdentifier{URI: docURI(tc.file)}, Position: p}, &list); err != nil {
					t.Fatal(err)
				}
				var item *protocol.CompletionItem
				for i := range list.Items {
					if list.Items[i].Label == tc.label {
						item = &list.Items[i]
					}
				}
				if item == nil {
					t.Fatalf("%s not offered at %q: %v", tc.label, tc.at, labelsOf(list.Items))
				}
				line := func(text string) string { return strings.Split(text, "\n")[p.Line] }
				switch e := item.TextEdit.(type) {
				case *protocol.TextEdit:
					if insertReplace && tc.replaced != tc.inserted {
						t.Errorf("a TextEdit to a client taking insert and replace: %+v", e)
					}
					if got := line(applyEdits(t, tc.text, []protocol.TextEdit{*e})); got != tc.replaced {
						t.Errorf("accepted:\n got %s\nwant %s", got, tc.replaced)
					}
				case *protocol.InsertReplaceEdit:
					if !insertReplace {
						t.Fatalf("an InsertReplaceEdit to a client that did not say it takes one")
					}
					if e.Insert.Start != e.Replace.Start || e.Insert.End != p {
						t.Errorf("insert range %v, replace range %v, cursor %v", e.Insert, e.Replace, p)
					}
					if got := line(applyEdits(t, tc.text, []protocol.TextEdit{{Range: e.Replace, NewText: e.NewText}})); got != tc.replaced {
						t.Errorf("replaced:\n got %s\nwant %s", got, tc.replaced)
					}
					if got := line(applyEdits(t, tc.text, []protocol.TextEdit{{Range: e.Insert, NewText: e.NewText}})); got != tc.inserted {
						t.Errorf("inserted:\n got %s\nwant %s", got, tc.inserted)
					}
				default:
					t.Fatalf("edit %T", item.TextEdit)
				}
			})
		}
	}
}

func labelsOf(items []protocol.CompletionItem) []string {
	var out []string
	for _, it := range items {
		out = append(out, it.Label)
	}
	return out
}

// A long list whose items share their range sends it once, in
// itemDefaults.editRange: to a client taking insert and replace, as both
// ranges (insert up to the cursor, replace the whole word).
func TestCompletionDefaultEditRangeInsertReplace(t *testing.T) {
	h := newHarness(t)
	h.initialize(`{"capabilities":{"textDocument":{"completion":{"completionList":{"itemDefaults":["data","editRange","insertTextFormat"]},"completionItem":{"insertReplaceSupport":true,"resolveSupport":{"properties":["documentation"]}}}}},"initializationOptions":{"debounceMs":0}}`)
	h.open("d.blueprint.yaml", editYAML)
	h.WaitDiagnostics("d.blueprint.yaml", 1)
	p := posOf(t, editYAML, "type: aws/sqs/qu", len("type: aws/sqs/qu"))
	var raw json.RawMessage
	if err := h.call(protocol.MethodTextDocumentCompletion, &protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: docURI("d.blueprint.yaml")}, Position: p}, &raw); err != nil {
		t.Fatal(err)
	}
	var list struct {
		ItemDefaults struct {
			EditRange struct{ Insert, Replace protocol.Range } `json:"editRange"`
		} `json:"itemDefaults"`
		Items []json.RawMessage `json:"items"`
	}
	if err := json.Unmarshal(raw, &list); err != nil {
		t.Fatal(err)
	}
	start := pos(p.Line, uint32(len("    type: ")))
	want := struct{ Insert, Replace protocol.Range }{protocol.Range{Start: start, End: p}, protocol.Range{Start: start, End: pos(p.Line, uint32(len("    type: aws/sqs/queue")))}}
	if list.ItemDefaults.EditRange != want || len(list.Items) <= lazyDocsAbove {
		t.Errorf("%d items, default edit range %+v, want %+v", len(list.Items), list.ItemDefaults.EditRange, want)
	}
}
