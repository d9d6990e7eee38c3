package lsp

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// codes lists the diagnostic codes of ds.
func codes(ds []protocol.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		c, _ := d.Code.(protocol.String)
		out = append(out, string(c))
	}
	return out
}

// TestProviderDirs checks that providerDirs feed the registry every
// document is analysed with, and that a directory that fails to load is
// shown to the user.
func TestProviderDirs(t *testing.T) {
	dir, err := filepath.Abs("../providers/registry/testdata")
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t)
	h.initialize(fastInit)
	text := "version: 2023-04-20\nresources:\n  g:\n    type: test/widget/gadget\n    spec: {}\n"
	h.open("p.blueprint.yaml", text)
	if got := codes(h.WaitDiagnostics("p.blueprint.yaml", 1)); !slices.Contains(got, "resource-unknown-provider") {
		t.Fatalf("without providers: %v, want resource-unknown-provider", got)
	}
	settings, _ := json.Marshal(map[string]any{"settings": map[string]any{"blueprint": map[string]any{
		"providerDirs": []string{dir, filepath.Join(dir, "no-such-dir")}}}})
	before := h.mark("p.blueprint.yaml")
	h.notify(protocol.MethodWorkspaceDidChangeConfiguration, json.RawMessage(settings))
	if got := codes(h.WaitResettled("p.blueprint.yaml", before)); slices.Contains(got, "resource-unknown-provider") {
		t.Fatalf("with providers: %v, want the type known", got)
	}
	h.waitFor("a message about the missing directory", func() bool {
		for _, l := range h.logs {
			if strings.HasPrefix(l, "show: ") && strings.Contains(l, "no-such-dir") {
				return true
			}
		}
		return false
	})
	h.shutdown()
}

// TestInlayHintsSetting checks that inlayHints: false turns the hints off.
func TestInlayHintsSetting(t *testing.T) {
	for _, on := range []bool{true, false} {
		h := newHarness(t)
		opts, _ := json.Marshal(map[string]any{"capabilities": map[string]any{},
			"initializationOptions": map[string]any{"debounceMs": 0, "inlayHints": on}})
		h.initialize(string(opts))
		text := "version: 2023-04-20\nvariables:\n  env:\n    type: string\n    default: dev\nresources:\n  b:\n    type: aws/s3/bucket\n    spec:\n      bucketName: ${variables.env}-x\n"
		h.open("i.blueprint.yaml", text)
		h.WaitDiagnostics("i.blueprint.yaml", 1)
		var hints []protocol.InlayHint
		if err := h.call(protocol.MethodTextDocumentInlayHint, map[string]any{
			"textDocument": map[string]any{"uri": string(docURI("i.blueprint.yaml"))}, "range": rng(0, 0, 10, 0)}, &hints); err != nil {
			t.Fatal(err)
		}
		if got := len(hints) > 0; got != on {
			t.Errorf("inlayHints %v: got %d hints", on, len(hints))
		}
		h.shutdown()
	}
}

// TestWorkspaceFolders checks where the workspace scan starts: never at
// "/" for a client that names no folder (a regression: an empty rootUri
// once became "/").
func TestWorkspaceFolders(t *testing.T) {
	tests := []struct {
		params string
		want   []string
	}{
		{`{}`, nil},
		{`{"rootUri":null,"rootPath":null,"workspaceFolders":null}`, nil},
		{`{"rootUri":""}`, nil},
		{`{"rootUri":"file:///ws/a"}`, []string{"/ws/a"}},
		{`{"rootPath":"/ws/p"}`, []string{"/ws/p"}},
		{`{"rootUri":"file:///ws/a","workspaceFolders":[{"uri":"file:///ws/b","name":"b"},{"uri":""},{"name":"x"}]}`, []string{"/ws/b"}},
	}
	for _, tt := range tests {
		if got := parseClientCaps([]byte(tt.params)).folders; !slices.Equal(got, tt.want) {
			t.Errorf("%s: folders %q, want %q", tt.params, got, tt.want)
		}
	}
}
