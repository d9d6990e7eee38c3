package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The two provider files of issue 24, as a new user writes them.
var issue24Files = map[string]string{
	"prov/bad.json": `{"typeName": "Acme::Widget::Thing", "description": "x",
 "properties": {"Name": {"type": "strin"},
                "Size": {"$ref": "#/definitions/Missing"}},
 "primaryIdentifier": ["/properties/Nope"],
 "readOnlyProperties": ["/properties/Gone"],
 "additionalProperties": false}
`,
	"prov/broken.json": "{not json\n",
	"w.blueprint.yaml": "version: 2025-11-02\nresources:\n  t:\n    type: acme/widget/thing\n    spec:\n      name: x\n",
}

// TestCheckProviderSchemaMistakes: both files of the issue get their
// diagnostics on the right lines, in text and in SARIF, and the
// blueprint is still checked, its diagnostic naming the schema to fix.
func TestCheckProviderSchemaMistakes(t *testing.T) {
	dir := writeFiles(t, issue24Files)
	t.Chdir(dir)
	code, out, errs := runArgs("check", "--no-summary", "--providers", "prov", "w.blueprint.yaml")
	if code != exitProblems || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	bad := filepath.Join(dir, "prov", "bad.json")
	want := []string{
		`prov/bad.json:2:34: error[provider-schema-invalid]: value must be one of 'array', 'boolean', 'integer', 'null', 'number', 'object', 'string' (at /properties/Name/type)`,
		`prov/bad.json:3:34: error[provider-schema-ref]: $ref "#/definitions/Missing" names nothing in this schema`,
		`prov/bad.json:4:24: error[provider-schema-pointer]: "/properties/Nope" names no property: the schema's properties have no "Nope"`,
		`prov/bad.json:5:25: error[provider-schema-pointer]: "/properties/Gone" names no property: the schema's properties have no "Gone"`,
		`prov/broken.json:1:2: error[provider-file-invalid]: cannot load this provider file: invalid character 'n' looking for beginning of object key string; the directory's other files still load`,
	}
	got := strings.Split(strings.TrimSpace(filepath.ToSlash(out)), "\n")
	first := "w.blueprint.yaml:6:13: error[resource-field-type]: spec.name expects strin, found string (the schema " + filepath.ToSlash(bad) + " has errors of its own: fix it first)"
	if len(got) == 0 || got[0] != first {
		t.Fatalf("the blueprint's diagnostic does not name the schema to fix; want first\n%s\ngot:\n%s", first, out)
	}
	got = got[1:]
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("text (-want +got):\n%s\nall:\n%s", diff, out)
	}

	code, out, _ = runArgs("check", "--no-summary", "--format", "sarif", "--providers", "prov", "w.blueprint.yaml")
	if code != exitProblems {
		t.Fatalf("sarif: exit %d", code)
	}
	var log sarifLog
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatal(err)
	}
	var sarif []string
	for _, r := range log.Runs[0].Results {
		for _, l := range r.Locations {
			p := l.PhysicalLocation
			if strings.HasPrefix(p.ArtifactLocation.URI, "prov/") {
				sarif = append(sarif, fmt.Sprintf("%s:%d:%d: %s", p.ArtifactLocation.URI, p.Region.StartLine, p.Region.StartColumn, r.RuleID))
			}
		}
	}
	var wantSARIF []string
	for _, w := range want {
		pos, rest, _ := strings.Cut(w, ": error[")
		wantSARIF = append(wantSARIF, pos+": "+rest[:strings.IndexByte(rest, ']')])
	}
	if diff := cmp.Diff(wantSARIF, sarif); diff != "" {
		t.Errorf("sarif (-want +got):\n%s", diff)
	}
}

// TestCheckNamedProviderSchema: a provider schema named on the command
// line is checked (it used to be refused as "not a blueprint", exit 2),
// once even when its directory is loaded too.
func TestCheckNamedProviderSchema(t *testing.T) {
	dir := writeFiles(t, issue24Files)
	t.Chdir(dir)
	want := strings.Join([]string{
		`prov/bad.json:2:34: error[provider-schema-invalid]: value must be one of 'array', 'boolean', 'integer', 'null', 'number', 'object', 'string' (at /properties/Name/type)`,
		`prov/bad.json:3:34: error[provider-schema-ref]: $ref "#/definitions/Missing" names nothing in this schema`,
		`prov/bad.json:4:24: error[provider-schema-pointer]: "/properties/Nope" names no property: the schema's properties have no "Nope"`,
		`prov/bad.json:5:25: error[provider-schema-pointer]: "/properties/Gone" names no property: the schema's properties have no "Gone"`,
	}, "\n") + "\n"
	broken := "prov/broken.json:1:2: error[provider-file-invalid]: cannot load this provider file: invalid character 'n' looking for beginning of object key string; the directory's other files still load\n"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"check", "--no-summary", "prov/bad.json"}, want},
		{[]string{"check", "--no-summary", "--providers", "prov", "prov/bad.json"}, want + broken},
	} {
		args, want := tc.args, tc.want
		code, out, errs := runArgs(args...)
		if code != exitProblems || errs != "" || filepath.ToSlash(out) != want {
			t.Errorf("%v: exit %d, stderr %q, stdout (-want +got):\n%s", args, code, errs, cmp.Diff(want, filepath.ToSlash(out)))
		}
	}
}
