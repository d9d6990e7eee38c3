package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/blueprint-ls/blueprint-ls/providers/pluginhost"
)

var (
	testPluginOnce sync.Once
	testPluginExe  string
	testHelperExe  string // the plugin host, cmd/blueprint-ls-plugins
	testPluginErr  error
)

// installTestPlugin builds the plugin host's test provider plugin (the
// official framework's SDK) once and installs a copy at the plugin
// path's place for {namespace}/{name} 1.0.0, misbehaving as mode says.
func installTestPlugin(t *testing.T, root, namespace, name, mode string) {
	t.Helper()
	installTestPluginAs(t, root, "providers", namespace, name, mode)
}

// installTestTransformer installs the test plugin under transformers/,
// where it is the testx transformer.
func installTestTransformer(t *testing.T, root, namespace, name, mode string) {
	t.Helper()
	installTestPluginAs(t, root, "transformers", namespace, name, mode)
}

func installTestPluginAs(t *testing.T, root, kind, namespace, name, mode string) {
	t.Helper()
	testPluginOnce.Do(func() {
		dir, err := os.MkdirTemp("", "testplugin")
		if err != nil {
			testPluginErr = err
			return
		}
		testPluginExe = filepath.Join(dir, "plugin")
		start := time.Now()
		defer func() { t.Logf("building the test plugin: %v", time.Since(start)) }()
		testHelperExe = filepath.Join(dir, "blueprint-ls-plugins")
		for exe, pkg := range map[string]string{testPluginExe: "../../providers/pluginhost/internal/testplugin", testHelperExe: "../blueprint-ls-plugins"} {
			out, err := exec.Command("go", "build", "-o", exe, pkg).CombinedOutput()
			if err != nil {
				testPluginErr = err
				t.Logf("%s", out)
			}
		}
	})
	if testPluginErr != nil {
		t.Fatalf("building the test plugin: %v", testPluginErr)
	}
	t.Setenv(pluginhost.HelperEnv, testHelperExe)
	dir := filepath.Join(root, kind, namespace, name, "1.0.0")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(testPluginExe)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "plugin"), data, 0o755); err != nil {
		t.Fatal(err)
	}
	if mode != "" {
		if err := os.WriteFile(filepath.Join(dir, "mode"), []byte(mode), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

const acmeBlueprint = `version: 2025-11-02
resources:
  good:
    type: acme/widget
    linkSelector:
      byLabel: {role: screen}
    spec:
      name: sprocket
      size: 3
      mode: fast
  bad:
    type: acme/widget
    spec:
      name: ab
      size: 20
      mode: medium
      colour: red
  screen:
    type: acme/gadget
    metadata:
      labels: {role: screen}
    spec:
      label: front
  twin:
    type: acme/widget
    metadata:
      labels: {role: screen}
    spec:
      name: twin-widget
`

// TestCheckWithPlugins: a blueprint using a plugin's resource type is
// "provider not loaded" without --plugins, and with them gets the
// plugin's spec checked at exact positions; a crashing plugin beside it
// is one diagnostic on its executable.
func TestCheckWithPlugins(t *testing.T) {
	root := t.TempDir()
	installTestPlugin(t, root, "acme-labs", "acme", "") // before the cache moves: go build's cache is there too
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	dir := t.TempDir()
	bp := filepath.Join(dir, "acme.blueprint.yaml")
	if err := os.WriteFile(bp, []byte(acmeBlueprint), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ := runCmd("check", "--no-summary", bp)
	if code != 0 || strings.Count(out, `provider "acme" is not loaded`) != 4 {
		t.Errorf("without plugins: exit %d\n%s", code, out)
	}
	code, out, errs := runCmd("check", "--no-summary", "--plugins", "--plugin-path", root, bp)
	for _, want := range []string{
		"acme.blueprint.yaml:14:13: error",
		"acme.blueprint.yaml:15:13: error",
		"acme.blueprint.yaml:16:13: error",
		"acme.blueprint.yaml:17:7: error",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("with plugins: no %q in\n%s%s", want, out, errs)
		}
	}
	if code != 1 || strings.Contains(out, "not loaded") || strings.Count(out, "error") != 5 || strings.Contains(out, ":8:") {
		t.Errorf("with plugins: exit %d\n%s%s", code, out, errs)
	}
	// The widget → gadget link requires a capability on the widget that
	// it can not do without (MustExist) and no link here provides.
	if want := `acme.blueprint.yaml:6:7: error[link-capability-missing]: the link between "good" and "screen" requires the capability "acme.widget/powered" on "good", which no link in this blueprint provides`; !strings.Contains(out, want) {
		t.Errorf("with plugins: no %q in\n%s", want, out)
	}
	// The plugin's link types: widget → gadget links, widget → widget
	// does not, reported at the linkSelector.
	if want := `acme.blueprint.yaml:6:7: warning[link-unsupported]: linkSelector of "good" selects "twin", but the provider has no link between acme/widget and acme/widget`; !strings.Contains(out, want) || strings.Count(out, "link-unsupported") != 1 {
		t.Errorf("with plugins: no %q in\n%s", want, out)
	}
	// A project config that says plugins: true turns them on without the
	// flag (the path still comes from the environment).
	if err := os.WriteFile(filepath.Join(dir, ".blueprint-ls.yaml"), []byte("plugins: true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(pluginhost.PathEnv, root)
	code, out, _ = runCmd("check", "--no-summary", bp)
	if code != 1 || strings.Contains(out, "not loaded") || strings.Count(out, "error") != 5 {
		t.Errorf("with plugins: true in the config: exit %d\n%s", code, out)
	}
	if err := os.Remove(filepath.Join(dir, ".blueprint-ls.yaml")); err != nil {
		t.Fatal(err)
	}
	// The second run reads the cache, and a crashing plugin is one
	// diagnostic.
	installTestPlugin(t, root, "bad", "crashy", "crash")
	code, out, _ = runCmd("check", "--no-summary", "--plugins", "--plugin-path", root, bp)
	if code != 1 || strings.Count(out, "plugin-failed") != 1 || !strings.Contains(out, "plugin bad/crashy: exited before registering") || strings.Count(out, "error") != 6 {
		t.Errorf("with a crashing plugin: exit %d\n%s", code, out)
	}
}
