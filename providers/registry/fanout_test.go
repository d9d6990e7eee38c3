package registry

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/blueprint-ls/blueprint-ls/internal/testutil"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/types"
)

// fanOutSchema is a resource schema whose definitions D0..D(n-1) each
// reference the next one twice: small as text, 2^n fields as a tree.
func fanOutSchema(n int) string {
	var b strings.Builder
	b.WriteString("{\"typeName\": \"Acme::Deep::Thing\", \"description\": \"d\",\n")
	b.WriteString(" \"properties\": {\"Name\": {\"type\": \"string\"}, \"Root\": {\"$ref\": \"#/definitions/D0\"}},\n")
	b.WriteString(" \"definitions\": {\n")
	for i := range n {
		next := `{"type": "string"}`
		if i+1 < n {
			next = fmt.Sprintf(`{"$ref": "#/definitions/D%d"}`, i+1)
		}
		sep := ","
		if i+1 == n {
			sep = ""
		}
		fmt.Fprintf(&b, "  \"D%d\": {\"type\": \"object\", \"properties\": {\"A\": %s, \"B\": %s}}%s\n", i, next, next, sep)
	}
	b.WriteString(" },\n \"primaryIdentifier\": [\"/properties/Name\"], \"additionalProperties\": false}\n")
	return b.String()
}

// TestLoadRefFanOut: loading a schema whose definitions fan out (each
// referencing the next twice) stays within a time and heap budget at 18,
// 20 and 40 levels (before: 7 s and 260 MB, 41 s and 970 MB, never
// ending), its types are cut at the budget, and the schema check warns
// on the $ref past which the expansion passes it.
func TestLoadRefFanOut(t *testing.T) {
	for _, n := range []int{18, 20, 40} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			text := fanOutSchema(n)
			// 3 s of wall time: a loaded 2-core machine took 1.1 s for what an idle
			// one does in 0.05 s; the unguarded load took 7 s, 41 s and forever.
			spent := testutil.WithinBudget(t, testutil.Budget{Time: 3 * time.Second, Heap: 64 << 20}, func(t testing.TB) {
				dir := t.TempDir()
				if err := os.WriteFile(filepath.Join(dir, "deep.json"), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
				r := New()
				if err := r.LoadDir(dir); err != nil {
					t.Fatal(err)
				}
				rt, ok := r.ResourceType("acme/deep/thing")
				if !ok || rt.Err != nil || !rt.TypeCut {
					t.Fatalf("type %v (cut %v), want loaded and cut", ok, rt != nil && rt.TypeCut)
				}
				// The top of the tree keeps its fields.
				var ty types.Type = rt.SpecType()
				for _, f := range []string{"root", "a", "b"} {
					obj, ok := ty.(*types.Object)
					if !ok {
						t.Fatalf("at %s: %v, want an object", f, ty)
					}
					fld, ok := obj.Field(f)
					if !ok {
						t.Fatalf("no field %s in %v", f, obj)
					}
					ty = fld.Type
				}
				if s := rt.SpecType().String(); len(s) > 8<<20 {
					t.Errorf("the spec type prints as %d bytes", len(s))
				}
				var got []string
				for _, le := range r.CheckSchemaFiles() {
					ds, _ := le.Diagnostics()
					for _, d := range ds {
						got = append(got, fmt.Sprintf("%s %v %s", d.Code, d.Range, d.Message))
					}
				}
				// The warning is on the first $ref to D(n-16), the deepest
				// definition whose own tree passes the budget (3·2^16-3
				// schemas): D(n-17)'s A.
				ref := fmt.Sprintf(`"#/definitions/D%d"`, n-16)
				at := strings.Index(text, ref)
				want := []string{fmt.Sprintf(`provider-schema-ref-expansion %v $ref "#/definitions/D%d", followed with the references below it, stands for more than 100000 property schemas (its definitions reference the next more than once); the fields below it are typed any past that budget`, source.R(at, at+len(ref)), n-16)}
				if strings.Join(got, "\n") != strings.Join(want, "\n") {
					t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
				}
			})
			t.Logf("%d levels: %v, heap %.1f MiB", n, spent.Time, float64(spent.Heap)/(1<<20))
		})
	}
}
