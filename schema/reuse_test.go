package schema

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// TestLoadFromEqualsLoad splices an edit inside one resource and checks
// that LoadFrom, taking the previous version's loads over, gives Load's
// diagnostics and typed view, and that it did take the untouched
// resources over: a before the edit as they were, c after it moved when
// the edit changed the text's length. Resource a has a field of a newer
// spec version (whose suggestion edits the version's place) and a
// duplicate key; c has the same, after the edit.
func TestLoadFromEqualsLoad(t *testing.T) {
	res := func(name string) string {
		return fmt.Sprintf("  %s:\n    type: aws/sqs/queue\n    removalPolicy: retain\n    spec:\n      x: 1\n      x: 2\n", name)
	}
	first := "version: 2023-04-20\nresources:\n" + res("a") + res("b") + res("c")
	last := "resources:\n" + res("a") + res("b") + res("c") + "version: 2023-04-20\n"
	for _, tc := range []struct {
		name, base, from, to string
		shared, moved        int // resources taken over as they were, and moved
	}{
		{"same length, version first", first, "b:\n    type: aws/sqs/queue", "b:\n    type: aws/sqs/queuf", 2, 0},
		{"insertion, version first", first, "b:\n    type: aws/sqs/queue", "b:\n    type: aws/sqs/queue2", 1, 1},
		{"same length, version last", last, "b:\n    type: aws/sqs/queue", "b:\n    type: aws/sqs/queuf", 2, 0},
		// The version moved: a's suggestion edits its new place.
		{"insertion, version last", last, "b:\n    type: aws/sqs/queue", "b:\n    type: aws/sqs/queue2", 1, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			next := strings.Replace(tc.base, tc.from, tc.to, 1)
			prevFile := Parse("r.blueprint.yaml", []byte(tc.base))
			prev, _ := Load(prevFile)
			file := Splice(prevFile, []byte(next))
			if file == nil {
				t.Fatal("the edit was not spliced")
			}
			got, gotDiags := LoadFrom(file, prev)
			want, wantDiags := Load(Parse("r.blueprint.yaml", []byte(next)))
			if !reflect.DeepEqual(gotDiags, wantDiags) {
				t.Fatalf("diagnostics\n%v\nwant\n%v", gotDiags, wantDiags)
			}
			if len(wantDiags) < 6 {
				t.Fatalf("%d diagnostics, want a newer field and a duplicate key in each resource: %v", len(wantDiags), wantDiags)
			}
			if got.Resources.Len() != want.Resources.Len() {
				t.Fatalf("%d resources, want %d", got.Resources.Len(), want.Resources.Len())
			}
			shared := 0
			for i, r := range got.Resources.Items() {
				w := want.Resources.Items()[i]
				if r.Name != w.Name || r.Entry.Key.Rng != w.Entry.Key.Rng || r.Type.Text() != w.Type.Text() || r.Spec.Node().Range() != w.Spec.Node().Range() {
					t.Errorf("resource %d: %s at %v, want %s at %v", i, r.Name, r.Entry.Key.Rng, w.Name, w.Entry.Key.Rng)
				}
				if r == prev.Resources.Items()[i] {
					shared++
				}
			}
			if shared != tc.shared || got.takenOver != tc.shared || got.movedOver != tc.moved {
				t.Errorf("%d resources taken over (%d counted), %d moved; want %d and %d", shared, got.takenOver, got.movedOver, tc.shared, tc.moved)
			}
			if !reflect.DeepEqual(got.Resources.Items(), want.Resources.Items()) {
				t.Error("the typed resources differ from Load's")
			}
		})
	}
}
