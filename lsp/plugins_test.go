package lsp

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/blueprint-ls/blueprint-ls/providers/pluginhost"
)

var (
	lspPluginOnce sync.Once
	lspPluginExe  string
	lspHelperExe  string // the plugin host, cmd/blueprint-ls-plugins
	lspPluginErr  error
)

// installPlugin builds the plugin host's test provider plugin (the
// official framework's SDK) once, and installs a copy under root at the
// plugin path's place for {namespace}/{name} 1.0.0, misbehaving as mode
// says.
func installPlugin(t *testing.T, root, namespace, name, mode string) {
	t.Helper()
	installPluginAs(t, root, "providers", namespace, name, mode)
}

func installPluginAs(t *testing.T, root, kind, namespace, name, mode string) {
	t.Helper()
	lspPluginOnce.Do(func() {
		dir, err := os.MkdirTemp("", "lsp-testplugin")
		if err != nil {
			lspPluginErr = err
			return
		}
		lspPluginExe = filepath.Join(dir, "plugin")
		lspHelperExe = filepath.Join(dir, "blueprint-ls-plugins")
		for exe, pkg := range map[string]string{lspPluginExe: "../providers/pluginhost/internal/testplugin", lspHelperExe: "../cmd/blueprint-ls-plugins"} {
			if out, err := exec.Command("go", "build", "-o", exe, pkg).CombinedOutput(); err != nil {
				lspPluginErr = err
				t.Logf("%s", out)
			}
		}
	})
	if lspPluginErr != nil {
		t.Fatalf("building the test plugin: %v", lspPluginErr)
	}
	t.Setenv(pluginhost.HelperEnv, lspHelperExe)
	dir := filepath.Join(root, kind, namespace, name, "1.0.0")
	data, err := os.ReadFile(lspPluginExe)
	if err == nil {
		err = os.MkdirAll(dir, 0o755)
	}
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, "plugin"), data, 0o755)
	}
	if err == nil && mode != "" {
		err = os.WriteFile(filepath.Join(dir, "mode"), []byte(mode), 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
}

const pluginDoc = `version: 2025-11-02
resources:
  bad:
    type: acme/widget
    spec:
      name: ab
      mode: medium
`

// TestPluginTypesOverLSP: with plugins turned on, a blueprint using the
// test plugin's resource type is "provider not loaded" only until the
// plugins are in (loaded in the background), then gets the plugin's spec
// checked, hover with the plugin's own documentation and completion of
// its type; a crashing plugin beside it is one warning, and the server
// keeps serving.
func TestPluginTypesOverLSP(t *testing.T) {
	root := t.TempDir()
	installPlugin(t, root, "acme-labs", "acme", "")
	installPlugin(t, root, "bad", "crashy", "crash")
	t.Setenv("XDG_CACHE_HOME", t.TempDir()) // after the build: go build's cache lives there too

	h := newHarness(t)
	opts, _ := json.Marshal(map[string]any{"debounceMs": 0, "plugins": map[string]any{"enabled": true, "pluginPath": root}})
	h.initialize(`{"capabilities":{},"initializationOptions":` + string(opts) + `}`)
	u := string(uri.File(filepath.Join(t.TempDir(), "acme.blueprint.yaml")))
	h.open(u, pluginDoc)
	h.WaitDiagnostics(u, 1)
	key := canonicalURI(u)
	var got []string
	h.waitFor("the plugin's diagnostics", func() bool {
		pubs := h.pubs[key]
		if len(pubs) == 0 {
			return false
		}
		got = nil
		for _, d := range pubs[len(pubs)-1].Diagnostics {
			got = append(got, diagText(d))
		}
		return strings.Contains(strings.Join(got, "\n"), "at least 3 characters")
	})
	text := strings.Join(got, "\n")
	if strings.Contains(text, "not loaded") || len(got) != 2 || !strings.Contains(text, `"medium"`) {
		t.Errorf("diagnostics with the plugin:\n%s", text)
	}
	var raw json.RawMessage
	if err := h.call(protocol.MethodTextDocumentHover, map[string]any{"textDocument": map[string]any{"uri": u}, "position": map[string]any{"line": 3, "character": 14}}, &raw); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), "the provider's own documentation") {
		t.Errorf("hover on the type: %s", raw)
	}
	if err := h.call(protocol.MethodTextDocumentCompletion, map[string]any{"textDocument": map[string]any{"uri": u}, "position": map[string]any{"line": 3, "character": 15}}, &raw); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), `"acme/gadget"`) {
		t.Errorf("completion of the type lacks acme/gadget: %.500s", raw)
	}
	h.waitFor("the crashing plugin's warning", func() bool {
		for _, l := range h.logs {
			if strings.HasPrefix(l, "show: blueprint-ls: plugin bad/crashy") && strings.Contains(l, "exited before registering") {
				return true
			}
		}
		return false
	})
	h.mu.Lock()
	n := 0
	for _, l := range h.logs {
		if strings.Contains(l, "show: blueprint-ls: plugin ") {
			n++
		}
	}
	h.mu.Unlock()
	if n != 1 {
		t.Errorf("%d plugin warnings, want 1", n)
	}
	h.shutdown()
}

// TestPluginsOff: without the setting, the same blueprint keeps the
// "provider not loaded" warning and nothing is launched.
func TestPluginsOff(t *testing.T) {
	h := newHarness(t)
	h.initialize(fastInit)
	u := string(uri.File(filepath.Join(t.TempDir(), "acme.blueprint.yaml")))
	h.open(u, pluginDoc)
	ds := h.WaitDiagnostics(u, 1)
	if len(ds) != 1 || !strings.Contains(diagText(ds[0]), `provider "acme" is not loaded`) {
		t.Errorf("diagnostics %+v", ds)
	}
	h.srv.session.plugins.mu.Lock()
	on := h.srv.session.plugins.path != ""
	h.srv.session.plugins.mu.Unlock()
	if on {
		t.Errorf("plugins on without the setting")
	}
	h.shutdown()
}

func diagText(d protocol.Diagnostic) string {
	if s, ok := d.Message.(protocol.String); ok {
		return string(s)
	}
	b, _ := json.Marshal(d.Message)
	return string(b)
}
