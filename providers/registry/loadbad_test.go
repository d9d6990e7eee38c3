package registry

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestLoadDirBadFiles: a file of a providers directory that is not an
// object, is past the size budget, or holds a schema with a $ref cycle
// is reported on that file with a clear message, and the directory's
// other schemas still load.
func TestLoadDirBadFiles(t *testing.T) {
	dir := t.TempDir()
	good := `{"typeName": "Acme::Shop::Widget", "description": "d", "properties": {"Name": {"type": "string"}}, "primaryIdentifier": ["/properties/Name"], "additionalProperties": false}`
	cycle := `{"typeName": "Acme::Shop::Loop", "description": "d", "properties": {"A": {"$ref": "#/definitions/B"}}, "definitions": {"B": {"$ref": "#/definitions/C"}, "C": {"$ref": "#/definitions/B"}}, "primaryIdentifier": ["/properties/A"], "additionalProperties": false}`
	files := map[string]string{
		"good.json":   good,
		"array.json":  `["Acme::Shop::Widget"]`,
		"scalar.json": `"hello"`,
		"huge.json":   `{"typeName": "Acme::Shop::Huge", "properties": {}, "x": "` + strings.Repeat("a", 600) + `"}`,
		"cycle.json":  cycle,
		"other.json":  `{"name": "not ours"}`,
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := New()
	les, rest := LoadErrors(r.LoadDirLimit(dir, 512))
	if rest != nil {
		t.Fatalf("plain error: %v", rest)
	}
	les = append(les, r.CheckSchemaFiles()...)
	var got []string
	for _, le := range les {
		ds, _ := le.Diagnostics()
		for _, d := range ds {
			got = append(got, filepath.Base(le.Path)+" "+d.Code+": "+d.Message)
		}
	}
	sort.Strings(got)
	want := []string{
		"array.json provider-file-invalid: cannot load this provider file: its top level is an array; a resource schema or provider file is a JSON object; the directory's other files still load",
		`cycle.json provider-schema-ref-cycle: $ref cycle: #/definitions/B → #/definitions/C leads back here without reaching a schema`,
		`cycle.json provider-schema-ref-cycle: $ref cycle: #/definitions/C → #/definitions/B leads back here without reaching a schema`,
		"huge.json provider-file-invalid: cannot read this provider file: read " + filepath.Join(dir, "huge.json") + ": larger than the size limit of 512 bytes; the directory's other files still load",
		"scalar.json provider-file-invalid: cannot load this provider file: its top level is a single value; a resource schema or provider file is a JSON object; the directory's other files still load",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	for _, name := range []string{"acme/shop/widget", "acme/shop/loop"} {
		if rt, ok := r.ResourceType(name); !ok || rt.Err != nil {
			t.Errorf("%s not loaded: %v", name, rt)
		}
	}
	if rt, _ := r.ResourceType("acme/shop/loop"); rt.Flawed == "" {
		t.Error("the schema with a cycle is not marked as the file to fix")
	}
	if rt, _ := r.ResourceType("acme/shop/widget"); rt.Flawed != "" {
		t.Errorf("a clean schema marked flawed: %s", rt.Flawed)
	}
}
