package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// handlerDoc is the test transformer's fixture (shared with the plugin
// host's and the commands' tests).
var handlerDoc = func() string {
	data, err := os.ReadFile("../providers/pluginhost/internal/testplugin/testdata/handler.blueprint.yaml")
	if err != nil {
		panic(err)
	}
	return string(data)
}()

// transformHarness starts a server with plugins on, the test
// transformer (misbehaving as mode says) and the acme provider on the
// plugin path, and opens handlerDoc; it returns the document's URI once
// a diagnostic with code is published.
func transformHarness(t *testing.T, mode, code string, during func(h *harness, u string)) (*harness, string, []protocol.Diagnostic) {
	t.Helper()
	root := t.TempDir()
	installPluginAs(t, root, "transformers", "testx-labs", "testx", mode)
	installPlugin(t, root, "acme-labs", "acme", "")
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	h := newHarness(t)
	opts, _ := json.Marshal(map[string]any{"debounceMs": 0, "plugins": map[string]any{"enabled": true, "pluginPath": root}})
	h.initialize(`{"capabilities":{},"initializationOptions":` + string(opts) + `}`)
	u := string(uri.File(filepath.Join(t.TempDir(), "handler.blueprint.yaml")))
	h.open(u, handlerDoc)
	if during != nil {
		during(h, u)
	}
	key := canonicalURI(u)
	var got []protocol.Diagnostic
	h.waitFor("a "+code+" diagnostic", func() bool {
		pubs := h.pubs[key]
		if len(pubs) == 0 {
			return false
		}
		got = pubs[len(pubs)-1].Diagnostics
		for _, d := range got {
			if d.Code == protocol.String(code) {
				return true
			}
		}
		return false
	})
	return h, u, got
}

// TestTransformOverLSP: with the test transformer, the editor publishes
// the made function's problem on the handler's name (line 3, characters
// 2-8), hovers the abstract type with the transformer's documentation,
// names on the handler what it became, completes and hovers the
// plugin's function; the plan preview
// groups the made resources under the handler.
func TestTransformOverLSP(t *testing.T) {
	h, u, got := transformHarness(t, "", "transformed-resource", nil)
	var texts []string
	for _, d := range got {
		texts = append(texts, diagText(d))
		if d.Code == protocol.String("transformed-resource") {
			if r := d.Range; r.Start.Line != 3 || r.Start.Character != 2 || r.End.Line != 3 || r.End.Character != 8 {
				t.Errorf("transformed-resource at %+v, want 3:2-3:8", r)
			}
			if want := "ordersFunction (made by the transform): spec.memorySize must be at least 128, found 64 [resource-bounds]"; diagText(d) != want {
				t.Errorf("message %q, want %q", diagText(d), want)
			}
		}
	}
	if strings.Contains(strings.Join(texts, "\n"), "not loaded") {
		t.Errorf("diagnostics:\n%s", strings.Join(texts, "\n"))
	}
	hover := func(line, char int) string {
		var raw json.RawMessage
		if err := h.call(protocol.MethodTextDocumentHover, map[string]any{"textDocument": map[string]any{"uri": u}, "position": map[string]any{"line": line, "character": char}}, &raw); err != nil {
			t.Fatal(err)
		}
		return string(raw)
	}
	if got := hover(4, 14); !strings.Contains(got, "the transformer's own documentation") {
		t.Errorf("hover on testx/handler: %s", got)
	}
	if got := hover(3, 4); !strings.Contains(got, "Transformed into \x60ordersFunction\x60 (aws/lambda/function), \x60ordersRole\x60 (aws/iam/role)") {
		t.Errorf("hover on the abstract resource: %s", got)
	}
	if got := hover(12, 24); !strings.Contains(got, "Names the sprocket of a widget") {
		t.Errorf("hover on acme_sprocket: %s", got)
	}
	var raw json.RawMessage
	if err := h.call(protocol.MethodTextDocumentCompletion, map[string]any{"textDocument": map[string]any{"uri": u}, "position": map[string]any{"line": 4, "character": 15}}, &raw); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), `"testx/handler"`) {
		t.Errorf("completion of the type lacks testx/handler: %.800s", raw)
	}
	if err := h.call(protocol.MethodTextDocumentCompletion, map[string]any{"textDocument": map[string]any{"uri": u}, "position": map[string]any{"line": 12, "character": 23}}, &raw); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), `"acme_sprocket"`) {
		t.Errorf("completion lacks acme_sprocket: %.800s", raw)
	}
	var plan planResult
	if err := h.call(protocol.MethodWorkspaceExecuteCommand, map[string]any{"command": commandPlan, "arguments": []any{map[string]any{"uri": u}}}, &plan); err != nil {
		t.Fatal(err)
	}
	compact := strings.Join(strings.Fields(string(plan.Plan)), "")
	if !strings.Contains(compact, `"name":"ordersFunction"`) || !strings.Contains(compact, `"from":"orders","fromType":"testx/handler"`) ||
		!strings.Contains(plan.Markdown, "| `+` | `ordersRole` | `aws/iam/role` | create | 1 | transformed from orders (testx/handler) |") ||
		!strings.Contains(plan.Markdown, "- 4:3 `transformed-resource` ordersFunction (made by the transform)") {
		t.Errorf("plan preview:\n%s\n%s", plan.Markdown, plan.Plan)
	}
	h.shutdown()
}

// TestHangingTransformerOverLSP: a transformer that never answers is one
// transform-failed diagnostic on the transform field after its call
// timeout, and the server answers meanwhile and after.
func TestHangingTransformerOverLSP(t *testing.T) {
	start := time.Now()
	// While the transformer hangs, the server answers at once.
	during := func(h *harness, u string) {
		var raw json.RawMessage
		h.waitFor("the plugins loaded", func() bool {
			h.srv.session.plugins.mu.Lock()
			defer h.srv.session.plugins.mu.Unlock()
			return h.srv.session.plugins.runner != nil
		})
		asked := time.Now()
		if err := h.call(protocol.MethodTextDocumentHover, map[string]any{"textDocument": map[string]any{"uri": u}, "position": map[string]any{"line": 4, "character": 14}}, &raw); err != nil {
			t.Fatal(err)
		}
		if took := time.Since(asked); took > time.Second || !strings.Contains(string(raw), "the transformer's own documentation") {
			t.Errorf("a hover while the transformer hangs took %v: %s", took, raw)
		}
	}
	h, u, got := transformHarness(t, "hang", "transform-failed", during)
	t.Logf("transform-failed after %v", time.Since(start))
	n := 0
	for _, d := range got {
		if d.Code == protocol.String("transform-failed") {
			n++
			if r := d.Range; r.Start.Line != 1 || r.Start.Character != 11 || r.End.Character != 27 {
				t.Errorf("transform-failed at %+v, want 1:11-1:27", r)
			}
		}
		if d.Code == protocol.String("transformed-resource") {
			t.Errorf("a transformed-resource diagnostic from a transformer that hung: %s", diagText(d))
		}
	}
	if n != 1 {
		t.Errorf("%d transform-failed diagnostics, want 1", n)
	}
	var raw json.RawMessage
	if err := h.call(protocol.MethodTextDocumentHover, map[string]any{"textDocument": map[string]any{"uri": u}, "position": map[string]any{"line": 4, "character": 14}}, &raw); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), "the transformer's own documentation") {
		t.Errorf("hover after the hang: %s", raw)
	}
	h.shutdown()
}
