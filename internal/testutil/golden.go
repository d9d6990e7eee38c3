// Package testutil holds test helpers shared by several packages. It uses
// the standard library and go-cmp only, so any package's tests may import it.
package testutil

import (
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Golden compares got with the golden file at path or, when update is set
// (each package's -update flag), rewrites the file with got.
func Golden(t testing.TB, path, got string, update bool) {
	t.Helper()
	if update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run: go test -run '%s' -update)", err, t.Name())
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s differs (-want +got); run with -update if the change is intended:\n%s", path, diff)
	}
}
