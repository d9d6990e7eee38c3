package lsp

import (
	"fmt"
	"testing"

	"go.lsp.dev/protocol"
)

// Documents of no known dialect, opened as YAML by an editor that attaches
// the server to every YAML file, get no diagnostics and no blueprint
// features; a blueprint with a plain name gets all of its own.
func TestUnknownDialectGetsNothing(t *testing.T) {
	foreign := map[string]string{
		"file:///w/.github/workflows/ci.yaml": "name: CI\non:\n  push:\n    branches: [main]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n",
		"file:///w/k8s/deploy.yaml":           "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 2\n",
		"file:///w/compose.yaml":              "version: \"3.8\"\nservices:\n  web:\n    image: nginx\n    ports: [\"80:80\"]\n",
	}
	h := newHarness(t)
	h.initialize(fastInit)
	for u, text := range foreign {
		h.open(u, text)
		if ds := h.WaitDiagnostics(u, 1); len(ds) != 0 {
			t.Errorf("%s: diagnostics = %+v, want none", u, ds)
		}
		td := map[string]any{"uri": u}
		var list protocol.CompletionList
		if err := h.call(protocol.MethodTextDocumentCompletion, map[string]any{"textDocument": td, "position": protocol.Position{Line: 1, Character: 0}}, &list); err != nil || len(list.Items) != 0 {
			t.Errorf("%s: completion = %d items (err %v), want none", u, len(list.Items), err)
		}
		var edits []protocol.TextEdit
		if err := h.call(protocol.MethodTextDocumentFormatting, map[string]any{"textDocument": td, "options": map[string]any{"tabSize": 8, "insertSpaces": true}}, &edits); err != nil || len(edits) != 0 {
			t.Errorf("%s: formatting = %v (err %v), want no edits", u, edits, err)
		}
		var hover *protocol.Hover
		if err := h.call(protocol.MethodTextDocumentHover, map[string]any{"textDocument": td, "position": protocol.Position{Line: 0, Character: 1}}, &hover); err != nil || hover != nil {
			t.Errorf("%s: hover = %+v (err %v), want none", u, hover, err)
		}
	}
	// Editing the workflow into a blueprint makes it one.
	u := "file:///w/.github/workflows/ci.yaml"
	h.changeFull(u, 2, "version: 2023-04-20\nresources:\n  q:\n    type: aws/sqs/queue\n    spec:\n      queueName: ${variables.nope}\n")
	ds := h.WaitDiagnostics(u, 2)
	if len(ds) != 1 || ds[0].Code != protocol.String("ref-unknown-variable") || ds[0].Range != rng(5, 29, 5, 33) {
		t.Errorf("after the edit: diagnostics = %+v, want one ref-unknown-variable at 5:29-5:33", ds)
	}
	h.shutdown()
}

func TestBlueprintWithPlainName(t *testing.T) {
	h := newHarness(t)
	h.initialize(fastInit)
	u := "file:///w/infra.yaml"
	h.open(u, "version: 2023-04-20\njobs: 1\nresources:\n  q:\n    type: aws/sqs/queue\n    spec:\n      queueName: ${variables.nope}\n")
	ds := h.WaitDiagnostics(u, 1)
	codes := map[string]protocol.Range{}
	for _, d := range ds {
		codes[fmt.Sprint(d.Code)] = d.Range
	}
	if len(ds) != 2 || codes["spec-unknown-field"] != rng(1, 0, 1, 4) || codes["ref-unknown-variable"] != rng(6, 29, 6, 33) {
		t.Errorf("diagnostics = %+v, want spec-unknown-field at 1:0-1:4 and ref-unknown-variable at 6:29-6:33", ds)
	}
	h.shutdown()
}
