package landscaper

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// checkIn checks head+doc as dir/blueprint.yaml, with files written
// beside it, and returns each diagnostic's code and the text it covers.
func checkIn(t *testing.T, files map[string]string, doc string) ([]want, *Result) {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	doc = head + doc
	res := Check(syntax.Parse(filepath.Join(dir, "blueprint.yaml"), []byte(doc)), Options{Dir: dir})
	var got []want
	for _, d := range res.Diagnostics {
		got = append(got, want{d.Code, doc[d.Range.Start:d.Range.End]})
	}
	return got, res
}

func TestJSONSchemas(t *testing.T) {
	schemaFiles := map[string]string{
		"schemas/port.json": `{"type": "integer", "minimum": 1}`,
		"schemas/bad.yaml":  "type: 12\n",
	}
	tests := []struct {
		name, doc string
		want      []want
	}{
		{"valid schemas, refs resolve", "localTypes:\n  name: {type: string, maxLength: 63}\nimports:\n- name: ns\n  schema: {$ref: 'local://name'}\n- name: port\n  required: false\n  schema: {$ref: 'blueprint://schemas/port.json'}\n  default: {value: 8080}\n- name: def\n  schema:\n    type: object\n    definitions:\n      x: {type: string}\n    properties:\n      a: {$ref: '#/definitions/x'}\nexports:\n- name: out\n  schema: {$ref: 'local://name'}\n", nil},
		{"unknown type name", "imports:\n- name: r\n  schema: {type: integr}\n", []want{{"landscaper-schema-invalid", "integr"}}},
		{"nested invalid keyword value", "imports:\n- name: r\n  schema:\n    type: object\n    properties:\n      a: {minLength: -1}\n", []want{{"landscaper-schema-invalid", "-1"}}},
		{"invalid export schema", "exports:\n- name: e\n  schema: {required: yes}\n", []want{{"landscaper-schema-invalid", "yes"}}},
		{"invalid local type", "localTypes:\n  t: {enum: 3}\n", []want{{"landscaper-schema-invalid", "3"}}},
		{"local ref with did-you-mean", "localTypes:\n  mytype: {type: string}\nimports:\n- name: a\n  schema: {$ref: 'local://mytpe'}\n", []want{{"landscaper-schema-ref", "'local://mytpe'"}}},
		{"blueprint ref to a missing file", "imports:\n- name: a\n  schema: {$ref: 'blueprint://schemas/nope.json'}\n", []want{{"landscaper-file-missing", "'blueprint://schemas/nope.json'"}}},
		{"blueprint ref outside the folder", "imports:\n- name: a\n  schema: {$ref: 'blueprint://../x.json'}\n", []want{{"landscaper-file-outside", "'blueprint://../x.json'"}}},
		{"blueprint ref to an invalid schema", "imports:\n- name: a\n  schema: {$ref: 'blueprint://schemas/bad.yaml'}\n", []want{{"landscaper-schema-invalid", "schema"}}},
		{"cd ref: one information", "imports:\n- name: a\n  schema: {$ref: 'cd://resources/s1'}\n- name: b\n  schema: {$ref: 'cd://resources/s2'}\n", []want{{"landscaper-ref-unresolved", "'cd://resources/s1'"}}},
		{"http ref is not fetched", "imports:\n- name: a\n  schema: {$ref: 'https://example.com/s.json'}\n", []want{{"landscaper-schema-ref", "'https://example.com/s.json'"}}},
		{"default against the schema", "imports:\n- name: r\n  required: false\n  schema: {type: object, properties: {n: {type: integer}}}\n  default:\n    value:\n      n: three\n", []want{{"landscaper-default-invalid", "three"}}},
		{"default against a local type", "localTypes:\n  port: {type: integer, maximum: 65535}\nimports:\n- name: p\n  required: false\n  schema: {$ref: 'local://port'}\n  default: {value: 70000}\n", []want{{"landscaper-default-invalid", "70000"}}},
		{"draft from jsonSchemaVersion", "jsonSchemaVersion: https://json-schema.org/draft-04/schema#\nimports:\n- name: r\n  schema: {type: number, exclusiveMinimum: true, minimum: 0}\n", nil},
		{"draft-07 rejects the draft-04 form", "imports:\n- name: r\n  schema: {type: number, exclusiveMinimum: true}\n", []want{{"landscaper-schema-invalid", "true"}}},
		{"unknown draft", "jsonSchemaVersion: https://example.com/my-schema\n", []want{{"landscaper-schema-version", "https://example.com/my-schema"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, res := checkIn(t, schemaFiles, tt.doc)
			if !equal(got, tt.want) {
				t.Errorf("got %v\nwant %v\n%s", got, tt.want, messages(res.Diagnostics))
			}
		})
	}
}
