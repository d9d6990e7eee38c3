package testutil

import (
	"os"
	"path/filepath"
	"testing"
)

func TestGoldenUpdateThenCompare(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.golden")
	Golden(t, path, "hello\n", true)
	b, err := os.ReadFile(path)
	if err != nil || string(b) != "hello\n" {
		t.Fatalf("update wrote %q, %v", b, err)
	}
	Golden(t, path, "hello\n", false)
}

func TestGoldenMismatchFails(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.golden")
	if err := os.WriteFile(path, []byte("want\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rec := &recorder{TB: t}
	Golden(rec, path, "got\n", false)
	if !rec.failed {
		t.Error("a differing golden did not fail the test")
	}
	rec = &recorder{TB: t}
	func() {
		defer func() { recover() }()
		Golden(rec, path+".missing", "got\n", false)
	}()
	if !rec.failed {
		t.Error("a missing golden did not fail the test")
	}
}

// recorder notes failures instead of failing the real test.
type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Helper()               {}
func (r *recorder) Errorf(string, ...any) { r.failed = true }
func (r *recorder) Fatalf(string, ...any) { r.failed = true; panic("fatal") }
func (r *recorder) Fatal(...any)          { r.failed = true; panic("fatal") }
