package lsp

import (
	"regexp"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// expandSnippet is what a client writes for a snippet accepted as it
// comes: each placeholder's default (a choice's first option), tab stops
// empty.
func expandSnippet(s string) string {
	s = regexp.MustCompile(`\$\{\d+\|([^,|]*)[^}]*\|\}`).ReplaceAllString(s, "$1")
	s = regexp.MustCompile(`\$\{\d+:([^}]*)\}`).ReplaceAllString(s, "$1")
	s = regexp.MustCompile(`\$\{\d+\}|\$\d+`).ReplaceAllString(s, "")
	return s
}

// Completing a resource's type, or a data source's, in a definition
// without its fields yet offers the type with the fields it requires,
// as placeholders, written the way each format writes them; accepted, the
// document is what each case shows (and parses).
func TestCompletionPrefillsRequiredFields(t *testing.T) {
	cases := []struct {
		name, file, text string
		at, label        string
		want             string
	}{
		{"yaml resource", "p.blueprint.yaml", "version: 2023-04-20\nresources:\n  fn:\n    type: aws/lambda/func\n", "aws/lambda/func", "aws/lambda/function",
			"version: 2023-04-20\nresources:\n  fn:\n    type: aws/lambda/function\n    spec:\n      code: {}\n      role: \n"},
		{"yaml resource with its spec", "p.blueprint.yaml", "version: 2023-04-20\nresources:\n  fn:\n    type: aws/lambda/func\n    spec:\n      role: x\n", "aws/lambda/func", "aws/lambda/function",
			"version: 2023-04-20\nresources:\n  fn:\n    type: aws/lambda/function\n    spec:\n      role: x\n"},
		{"yaml data source", "p.blueprint.yaml", "version: 2023-04-20\ndatasources:\n  net:\n    type: aws/vp\n", "aws/vp", "aws/vpc",
			"version: 2023-04-20\ndatasources:\n  net:\n    type: aws/vpc\n    filter:\n      field: cidrBlock\n      operator: =\n      search: \n    exports:\n      arn:\n        type: string\n"},
		{"json resource", "p.blueprint.json", "{\n  \"version\": \"2023-04-20\",\n  \"resources\": {\n    \"fn\": {\n      \"type\": \"aws/lambda/func\"\n    }\n  }\n}\n", "aws/lambda/func", "aws/lambda/function",
			"{\n  \"version\": \"2023-04-20\",\n  \"resources\": {\n    \"fn\": {\n      \"type\": \"aws/lambda/function\",\n      \"spec\": {\n        \"code\": {},\n        \"role\": \"\"\n      }\n    }\n  }\n}\n"},
		{"json resource, a member after", "p.blueprint.json", "{\n  \"version\": \"2023-04-20\",\n  \"resources\": {\n    \"fn\": {\n      \"type\": \"aws/lambda/func\",\n      \"metadata\": {}\n    }\n  }\n}\n", "aws/lambda/func", "aws/lambda/function",
			"{\n  \"version\": \"2023-04-20\",\n  \"resources\": {\n    \"fn\": {\n      \"type\": \"aws/lambda/function\",\n      \"spec\": {\n        \"code\": {},\n        \"role\": \"\"\n      },\n      \"metadata\": {}\n    }\n  }\n}\n"},
		{"bp resource", "p.bp", "version \"2025-11-02\"\n\nresource fn: aws/lambda/func\n", "aws/lambda/func", "aws/lambda/function",
			"version \"2025-11-02\"\n\nresource fn: aws/lambda/function {\n    spec {\n        code = {\n        }\n        role = \"\"\n    }\n}\n"},
		{"bp data source", "p.bp", "version \"2025-11-02\"\n\ndata net: aws/vp\n", "aws/vp", "aws/vpc",
			"version \"2025-11-02\"\n\ndata net: aws/vpc {\n    filter \"cidrBlock\" == \"\"\n    export arn: string\n}\n"},
	}
	h := newHarness(t)
	h.initialize(`{"capabilities":{"textDocument":{"completion":{"completionItem":{"snippetSupport":true}}}},"initializationOptions":{"debounceMs":0}}`)
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			name := strings.Replace(tc.file, "p.", "p"+string(rune('a'+i))+".", 1)
			h.open(name, tc.text)
			h.WaitDiagnostics(name, 1)
			var list protocol.CompletionList
			if err := h.call(protocol.MethodTextDocumentCompletion, &protocol.TextDocumentPositionParams{
				TextDocument: protocol.TextDocumentIdentifier{URI: docURI(name)}, Position: posOf(t, tc.text, tc.at, len(tc.at))}, &list); err != nil {
				t.Fatal(err)
			}
			if list.IsIncomplete {
				t.Errorf("the list after %q is incomplete", tc.at)
			}
			var item *protocol.CompletionItem
			for i := range list.Items {
				if list.Items[i].Label == tc.label {
					item = &list.Items[i]
				}
			}
			if item == nil {
				t.Fatalf("%s not offered: %v", tc.label, labelsOf(list.Items))
			}
			e, ok := item.TextEdit.(*protocol.TextEdit)
			if !ok {
				t.Fatalf("edit %T", item.TextEdit)
			}
			got := applyEdits(t, tc.text, []protocol.TextEdit{{Range: e.Range, NewText: expandSnippet(e.NewText)}})
			if got != tc.want {
				t.Errorf("accepted:\n%s\nwant:\n%s\n(snippet %q)", got, tc.want, e.NewText)
			}
			h.changeFull(name, 2, got)
			if diags := h.WaitDiagnostics(name, 2); len(diags) > 0 && strings.HasSuffix(codeOf(diags[0]), "syntax") {
				t.Errorf("the result does not parse: %v", diags[0].Message)
			}
		})
	}

	// With nothing typed yet every type matches: they come without their
	// fields, and the list says typing on changes it.
	text := "version: 2023-04-20\nresources:\n  fn:\n    type: \n"
	h.open("empty.blueprint.yaml", text)
	h.WaitDiagnostics("empty.blueprint.yaml", 1)
	var list protocol.CompletionList
	if err := h.call(protocol.MethodTextDocumentCompletion, &protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: docURI("empty.blueprint.yaml")}, Position: posOf(t, text, "type: ", 6)}, &list); err != nil {
		t.Fatal(err)
	}
	if !list.IsIncomplete || len(list.Items) < 100 {
		t.Errorf("%d types, incomplete %v", len(list.Items), list.IsIncomplete)
	}
	for _, it := range list.Items {
		if it.InsertTextFormat == protocol.InsertTextFormatSnippet {
			t.Fatalf("%s prefilled with every type matching", it.Label)
		}
	}
}
