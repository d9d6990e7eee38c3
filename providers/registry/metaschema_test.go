package registry

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/blueprint-ls/blueprint-ls/providers/resschema"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

var updateDefects = flag.Bool("update-defects", false, "rewrite testdata/catalog-defects.txt")

// TestBuiltinCatalogMetaSchema validates every schema of the embedded
// catalog against the meta-schema and the rules beside it, with the
// relaxations for built-in data (resschema.Options.Builtin: cfn-lint
// strips descriptions and adds keywords of its own). What is left are
// departures of the published AWS data itself, listed in
// testdata/catalog-defects.txt (type, code, message): a new one, or one
// fixed by a newer catalog, fails the test (-update-defects rewrites it).
func TestBuiltinCatalogMetaSchema(t *testing.T) {
	if testing.Short() {
		t.Skip("validates the whole catalog")
	}
	t.Log("built-in data only: the meta-schema's required description and cfn-lint's own keywords (requiredXor, dependentExcluded, relationshipRef, enumCaseInsensitive, ...) are not asked of the catalog")
	ts := builtinTypes()
	var found []string
	for i := range ts.cat.Len() {
		data, err := ts.cat.Schema(i)
		if err != nil {
			t.Fatalf("%s: %v", ts.names[i], err)
		}
		for _, d := range resschema.Check(syntax.ParseJSON(data, false), resschema.Options{Builtin: true}) {
			found = append(found, fmt.Sprintf("%s %s %s", ts.names[i], d.Code, d.Message))
		}
	}
	slices.Sort(found)
	path := filepath.Join("testdata", "catalog-defects.txt")
	got := strings.Join(found, "\n") + "\n"
	if *updateDefects {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("the catalog's departures from the meta-schema changed (-listed +found):\n%s", diff)
	}
}
