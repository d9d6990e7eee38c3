package schema

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/internal/gen"
)

// TestLoadBesideEqualsLoad loads every testdata blueprint, generated
// ones and one with key problems inside and outside the resources
// section (and a resource whose value is null) twice, with Load and
// with LoadBeside walking the keys on another goroutine, and compares
// the diagnostics in order and the whole typed view, the records the
// next version's LoadFrom reads included (a record without the walk's
// diagnostics fails it). Run with -race.
func TestLoadBesideEqualsLoad(t *testing.T) {
	var paths []string
	for _, g := range []string{"../testdata/*/*.blueprint.*", "../testdata/*/*/*.blueprint.*", "../testdata/*/*.bp", "../testdata/*/*/*.bp"} {
		m, _ := filepath.Glob(g)
		paths = append(paths, m...)
	}
	if len(paths) < 100 {
		t.Fatalf("only %d testdata blueprints", len(paths))
	}
	type doc struct {
		name string
		data []byte
	}
	var docs []doc
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, doc{p, data})
	}
	for _, format := range []string{"yaml", "json", "bp"} {
		name := "gen.blueprint." + format
		if format == "bp" {
			name = "gen.bp"
		}
		docs = append(docs, doc{name, gen.Blueprint(600, format)})
	}
	keys := doc{"keys.blueprint.yaml", []byte(`version: 2025-05-12
values:
  v:
    type: string
    value: x
    value: y
resources:
  a:
    type: aws/sqs/queue
    spec:
      queueName: a
      queueName: b
  "${b}":
    type: aws/sqs/queue
  c:
  d:
    type: aws/sqs/queue
    spec:
      tags: {k: 1, k: 2}
  a:
    type: aws/sqs/queue
`)}
	docs = append(docs, keys)
	beside := func(walk func()) func() {
		done := make(chan struct{})
		go func() {
			defer close(done)
			walk()
		}()
		return func() { <-done }
	}
	for _, d := range docs {
		f := Parse("file://"+d.name, d.data)
		want, wantDiags := Load(f)
		got, gotDiags := LoadBeside(f, beside)
		if d.name == keys.name && len(wantDiags) < 5 {
			t.Errorf("%s: %d diagnostics, want duplicate keys inside and outside the resources, a substitution in a key and a duplicate resource:\n%v", d.name, len(wantDiags), wantDiags)
		}
		if !reflect.DeepEqual(gotDiags, wantDiags) {
			t.Errorf("%s: diagnostics\n%v\nwant\n%v", d.name, gotDiags, wantDiags)
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the typed view differs from Load's", d.name)
		}
	}
	if n := ResourceCount(Parse("gen.bp", gen.Blueprint(7, "bp"))); n != 7 {
		t.Errorf("ResourceCount = %d, want 7", n)
	}
}
