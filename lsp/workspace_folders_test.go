package lsp

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// Workspace folders added and removed while the server runs are followed
// (and the server says it follows them): workspace/symbol finds the
// blueprints of the folders there are now, and no others.
func TestDidChangeWorkspaceFolders(t *testing.T) {
	root := t.TempDir()
	a, b := filepath.Join(root, "a"), filepath.Join(root, "b")
	for dir, res := range map[string]string{a: "alphaQueue", b: "betaQueue"} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		text := fmt.Sprintf("version: 2023-04-20\nresources:\n  %s:\n    type: aws/sqs/queue\n    spec: {}\n", res)
		if err := os.WriteFile(filepath.Join(dir, "app.blueprint.yaml"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	folder := func(dir string) map[string]any {
		return map[string]any{"uri": string(uri.File(dir)), "name": filepath.Base(dir)}
	}
	h := newHarness(t)
	params, _ := json.Marshal(map[string]any{"capabilities": map[string]any{}, "workspaceFolders": []any{folder(a)},
		"initializationOptions": map[string]any{"debounceMs": 0}})
	var init map[string]any
	if err := h.call(protocol.MethodInitialize, json.RawMessage(params), &init); err != nil {
		t.Fatal(err)
	}
	h.notify(protocol.MethodInitialized, map[string]any{})
	if got := jsonOf(t, dig(init, "capabilities", "workspace", "workspaceFolders")); got != `{"changeNotifications":true,"supported":true}` {
		t.Errorf("workspace folders capability %s", got)
	}
	symbols := func() []string {
		var syms []protocol.SymbolInformation
		if err := h.call(protocol.MethodWorkspaceSymbol, map[string]any{"query": "Queue"}, &syms); err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, s := range syms {
			out = append(out, s.Name)
		}
		slices.Sort(out)
		return out
	}
	if got := symbols(); !slices.Equal(got, []string{"alphaQueue"}) {
		t.Fatalf("symbols in folder a: %v", got)
	}
	h.notify(protocol.MethodWorkspaceDidChangeWorkspaceFolders, map[string]any{"event": map[string]any{"added": []any{folder(b)}, "removed": []any{}}})
	if got := symbols(); !slices.Equal(got, []string{"alphaQueue", "betaQueue"}) {
		t.Fatalf("symbols with folder b added: %v", got)
	}
	h.notify(protocol.MethodWorkspaceDidChangeWorkspaceFolders, map[string]any{"event": map[string]any{"added": []any{}, "removed": []any{folder(a)}}})
	if got := symbols(); !slices.Equal(got, []string{"betaQueue"}) {
		t.Fatalf("symbols with folder a removed: %v", got)
	}
	h.shutdown()
}
