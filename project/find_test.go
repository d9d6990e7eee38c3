package project

import (
	"os"
	"path/filepath"
	"testing"
)

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestFind(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, FileName), "strictTypes: true\n")
	write(t, filepath.Join(root, "team", FileName), "")
	deep := filepath.Join(root, "a", "b")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	if p, ok := Find(deep); !ok || p != filepath.Join(root, FileName) {
		t.Errorf("Find(a/b) = %q, %v", p, ok)
	}
	if p, ok := Find(filepath.Join(root, "team")); !ok || p != filepath.Join(root, "team", FileName) {
		t.Errorf("Find(team) = %q, %v: the nearest config wins", p, ok)
	}
}

func TestFinder(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, FileName), "strictTypes: true\n")
	write(t, filepath.Join(root, "bad", FileName), "colour: blue\n")
	f := NewFinder()

	a, diags, err := f.Lookup(filepath.Join(root, "x", "y", "a.blueprint.yaml"))
	if err != nil || len(diags) > 0 || !a.StrictTypes {
		t.Fatalf("lookup: %+v %v %v", a, diags, err)
	}
	b, _, _ := f.Lookup(filepath.Join(root, "b.blueprint.yaml"))
	if a != b {
		t.Error("files under one config must share one *Config")
	}
	if _, diags, _ := f.Lookup(filepath.Join(root, "bad", "c.blueprint.yaml")); len(diags) != 1 || diags[0].Code != "config-invalid" {
		t.Errorf("bad config: %v", diags)
	}

	// The cache holds until Invalidate.
	write(t, filepath.Join(root, "x", FileName), "")
	if c, _, _ := f.Lookup(filepath.Join(root, "x", "a.blueprint.yaml")); c != a {
		t.Error("cached lookup changed before Invalidate")
	}
	f.Invalidate()
	if c, _, _ := f.Lookup(filepath.Join(root, "x", "a.blueprint.yaml")); c == a || c.StrictTypes {
		t.Errorf("after Invalidate the new nearer config governs: %+v", c)
	}
	if err := os.Remove(filepath.Join(root, FileName)); err != nil {
		t.Fatal(err)
	}
	f.Invalidate()
	if c, _, _ := f.Lookup(filepath.Join(root, "b.blueprint.yaml")); c.Path != "" && filepath.Dir(c.Path) == root {
		t.Errorf("deleted config still governs: %+v", c)
	}
}
