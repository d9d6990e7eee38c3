package pluginhost

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/blueprint-ls/blueprint-ls/providers/registry"
)

// testPlugin is the test provider plugin's executable, built once by
// TestMain from internal/testplugin with the framework's SDK; helper is
// the plugin host (cmd/blueprint-ls-plugins), built beside it.
var testPlugin, helper string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "pluginhost-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	testPlugin, helper, err = BuildTestPlugin(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// InstallTestPlugin puts a copy of the test plugin at the plugin path
// layout's place for provider {namespace}/{name} at version, behaving as
// mode says ("" for well).
func InstallTestPlugin(t testing.TB, root, namespace, name, version, mode string) string {
	t.Helper()
	return installAs(t, root, "providers", namespace, name, version, mode)
}

// InstallTestTransformer is InstallTestPlugin under transformers/: the
// test plugin is then the testx transformer.
func InstallTestTransformer(t testing.TB, root, namespace, name, version, mode string) string {
	t.Helper()
	return installAs(t, root, "transformers", namespace, name, version, mode)
}

func installAs(t testing.TB, root, kind, namespace, name, version, mode string) string {
	t.Helper()
	dir := filepath.Join(root, kind, namespace, name, version)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(testPlugin)
	if err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(dir, "plugin")
	if err := os.WriteFile(exe, data, 0o755); err != nil {
		t.Fatal(err)
	}
	if mode != "" {
		if err := os.WriteFile(filepath.Join(dir, "mode"), []byte(mode), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return exe
}

func TestLoadWellBehavedPlugin(t *testing.T) {
	root := t.TempDir()
	InstallTestPlugin(t, root, "acme-labs", "acme", "1.0.0", "")
	cache := t.TempDir()
	start := time.Now()
	res := Load(context.Background(), Options{Path: root, CacheDir: cache, Helper: helper})
	t.Logf("first load (launch): %v", time.Since(start))
	if len(res.Problems) != 0 || len(res.Plugins) != 1 {
		t.Fatalf("Load = %d plugins, problems %v", len(res.Plugins), res.Problems)
	}
	p := res.Plugins[0]
	if p.ID != "acme-labs/acme" || p.Version != "1.0.0" || p.Namespace != "acme" || p.Cached {
		t.Errorf("plugin %+v", p)
	}
	reg := registry.NewBuiltin()
	if probs := res.AddTo(reg); len(probs) != 0 {
		t.Fatalf("AddTo: %v", probs)
	}
	w, ok := reg.ResourceType("acme/widget")
	if !ok || w.Err != nil {
		t.Fatalf("acme/widget: %v %v", ok, w)
	}
	if !strings.Contains(w.Description, "the provider's own documentation") {
		t.Errorf("description %q", w.Description)
	}
	l, ok := reg.Link("acme/widget", "acme/gadget")
	if !ok {
		t.Fatal("no link acme/widget → acme/gadget")
	}
	a := l.Annotations["acme.widget.gadget.accessType"]
	if a == nil || a.On != "from" || fmt.Sprint(a.AllowedValues) != "[read write]" {
		t.Errorf("annotation %+v", a)
	}
	if got := fmt.Sprintf("%+v %+v %+v %+v", l.PerFrom, l.PerTo, l.Provides, l.Requires); got != "{Min:0 Max:0} {Min:0 Max:1} [{Name:acme.gadget/driven On:to MustExist:false}] [{Name:acme.widget/powered On:from MustExist:true}]" {
		t.Errorf("cardinality and capabilities: %s", got)
	}
	if !w.Marks([]string{"url"}).Has(registry.ComputedWhenOmitted) || !w.ActivatesLinkAt([]string{"drives"}) || w.Marks([]string{"id"}).Has(registry.ComputedWhenOmitted) {
		t.Errorf("flags: url %b, drives %v", w.Marks([]string{"url"}), w.ActivatesLinkAt([]string{"drives"}))
	}

	// The second load reads the cache: nothing is launched.
	start = time.Now()
	again := Load(context.Background(), Options{Path: root, CacheDir: cache, Helper: helper})
	t.Logf("second load (cache): %v", time.Since(start))
	if len(again.Plugins) != 1 || !again.Plugins[0].Cached || string(again.Plugins[0].Schemas["acme/widget"]) != string(p.Schemas["acme/widget"]) {
		t.Errorf("second load did not come from the cache: %+v %v", again.Plugins, again.Problems)
	}
	// A new version is asked again.
	InstallTestPlugin(t, root, "acme-labs", "acme", "1.0.0", "")
	os.Chtimes(filepath.Join(root, "providers", "acme-labs", "acme", "1.0.0", "plugin"), time.Now(), time.Now().Add(time.Hour))
	if third := Load(context.Background(), Options{Path: root, CacheDir: cache, Helper: helper}); len(third.Plugins) != 1 || third.Plugins[0].Cached {
		t.Errorf("a rebuilt plugin was read from the cache")
	}
}

// TestMisbehavingPlugins: a plugin that crashes at start, hangs on a
// call, dies mid-session or answers nonsense costs at most its timeout
// and gives one problem naming it; the well-behaved one beside them
// still loads.
func TestMisbehavingPlugins(t *testing.T) {
	root := t.TempDir()
	InstallTestPlugin(t, root, "acme-labs", "acme", "1.0.0", "")
	InstallTestPlugin(t, root, "bad", "crashy", "0.1.0", "crash")
	InstallTestPlugin(t, root, "bad", "hangy", "0.1.0", "hang")
	InstallTestPlugin(t, root, "bad", "exity", "0.1.0", "exit")
	InstallTestPlugin(t, root, "bad", "liar", "0.1.0", "lie")
	const call = 500 * time.Millisecond
	start := time.Now()
	res := Load(context.Background(), Options{Path: root, CallTimeout: call, LaunchTimeout: 10 * time.Second, Helper: helper})
	took := time.Since(start)
	t.Logf("load of 5 plugins, one hanging: %v", took)
	if len(res.Plugins) != 1 || res.Plugins[0].ID != "acme-labs/acme" {
		t.Errorf("plugins %+v", res.Plugins)
	}
	want := map[string]string{
		"bad/crashy": "exited before registering with the host (exit status 3): testplugin: crashing at start, as asked",
		"bad/hangy":  "resource types: no answer within 500ms; gave up",
		"bad/exity":  "exited while being asked what it offers (exit status 4)",
		"bad/liar":   `resource type liar/widget: the spec schema has type "", want object`,
	}
	got := map[string]string{}
	for _, p := range res.Problems {
		if _, dup := got[p.ID]; dup {
			t.Errorf("two problems for %s", p.ID)
		}
		got[p.ID] = p.Err.Error()
	}
	for id, w := range want {
		if !strings.Contains(got[id], w) {
			t.Errorf("%s: problem %q, want %q", id, got[id], w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("problems %v", got)
	}
	// One hang costs one call timeout, not the launch timeout; launches
	// take well under a second each.
	if took > 8*time.Second {
		t.Errorf("load took %v", took)
	}
}

func TestNoPluginPath(t *testing.T) {
	if res := Load(context.Background(), Options{Helper: helper}); len(res.Plugins)+len(res.Problems) != 0 {
		t.Errorf("empty path: %+v", res)
	}
	res := Load(context.Background(), Options{Path: filepath.Join(t.TempDir(), "missing"), Helper: helper})
	if len(res.Problems) != 1 || !strings.Contains(res.Problems[0].Error(), "no such file") {
		t.Errorf("missing root: %+v", res.Problems)
	}
}

// BuildTestPlugin builds internal/testplugin and the plugin host into
// dir and returns the executables.
func BuildTestPlugin(dir string) (plugin, host string, err error) {
	plugin, host = filepath.Join(dir, "testplugin"), filepath.Join(dir, HelperName)
	for exe, pkg := range map[string]string{plugin: "./internal/testplugin", host: "../../cmd/blueprint-ls-plugins"} {
		if out, err := exec.Command("go", "build", "-o", exe, pkg).CombinedOutput(); err != nil {
			return "", "", fmt.Errorf("building %s: %v\n%s", pkg, err, out)
		}
	}
	return plugin, host, nil
}

// TestNoHelper: without the plugin host installed, each plugin is one
// problem saying how to install it.
func TestNoHelper(t *testing.T) {
	root := t.TempDir()
	InstallTestPlugin(t, root, "acme-labs", "acme", "1.0.0", "")
	t.Setenv("PATH", t.TempDir())
	t.Setenv(HelperEnv, "")
	res := Load(context.Background(), Options{Path: root})
	if len(res.Problems) != 1 || !strings.Contains(res.Problems[0].Error(), "plugin acme-labs/acme") || !strings.Contains(res.Problems[0].Error(), "go install github.com/blueprint-ls/blueprint-ls/cmd/blueprint-ls-plugins") {
		t.Errorf("problems %v", res.Problems)
	}
}

func TestDiscover(t *testing.T) {
	root := t.TempDir()
	write := func(rel string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write("providers/acme-labs/acme/1.0.0/plugin")
	write("providers/registry.example.com/acme-labs/acme2/2.0.0/plugin")
	write("transformers/newstack-cloud/celerity/0.1.0/plugin") // a transformer
	write("providers/acme-labs/plugin")                        // too shallow
	write("providers/a/b/c/d/e/plugin")                        // too deep
	write("providers/acme-labs/acme/1.0.0/README")             // not the executable
	got, probs := Discover(root + string(os.PathListSeparator) + filepath.Join(root, "nowhere"))
	var ids []string
	for _, g := range got {
		ids = append(ids, g.ID+"@"+g.Version+string(g.Kind))
	}
	if want := "acme-labs/acme@1.0.0,registry.example.com/acme-labs/acme2@2.0.0,newstack-cloud/celerity@0.1.0transformer"; strings.Join(ids, ",") != want {
		t.Errorf("found %v, want %s", ids, want)
	}
	if len(probs) != 1 || !strings.Contains(probs[0].Error(), "nowhere") {
		t.Errorf("problems %v", probs)
	}
}
