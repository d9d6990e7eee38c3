package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/providers/registry/internal/catalog"
)

// tinySpec is a service spec database in the package's shape: one type
// the schema set has (with a property type used twice and an attribute
// inside an object) and one it lacks.
const tinySpec = `{"idCtr": 9, "schema": {
 "resource": {"type": "resource", "entities": [
  {"$id": "1", "cloudFormationType": "AWS::Demo::Thing", "documentation": "The thing. Read on.",
   "properties": {
    "Name": {"type": {"type": "string"}, "documentation": "The name.", "required": true, "causesReplacement": "yes", "defaultValue": "\"anon\""},
    "Rules": {"type": {"type": "array", "element": {"type": "ref", "reference": {"$ref": "5"}}}, "documentation": "The rules."},
    "Main": {"type": {"type": "ref", "reference": {"$ref": "5"}}, "documentation": "The main rule."}},
   "attributes": {"Arn": {"type": {"type": "string"}, "documentation": "The ARN."},
    "Name": {"type": {"type": "string"}, "documentation": "The name, as read."},
    "Endpoint.Port": {"type": {"type": "integer"}, "documentation": "The port."}}},
  {"$id": "2", "cloudFormationType": "AWS::Demo::Fresh", "documentation": "Newer than the schemas.",
   "primaryIdentifier": ["Id"],
   "properties": {
    "Size": {"type": {"type": "integer"}, "documentation": "How big.", "required": true, "causesReplacement": "yes", "defaultValue": "3"},
    "Tags": {"type": {"type": "array", "element": {"type": "tag"}}},
    "Rule": {"type": {"type": "ref", "reference": {"$ref": "5"}}, "documentation": "A rule.", "deprecated": "WARN"}},
   "attributes": {"Id": {"type": {"type": "string"}, "documentation": "The id."}}},
  {"$id": "3", "cloudFormationType": "AWS::Serverless::Function", "documentation": "A macro input.", "cloudFormationTransform": "AWS::Serverless-2016-10-31",
   "properties": {}, "attributes": {}}]},
 "typeDefinition": {"type": "typeDefinition", "entities": [
  {"$id": "5", "name": "Rule", "documentation": "A rule.",
   "properties": {"Pattern": {"type": {"type": "string"}, "documentation": "What to match.", "required": true}}}]}}}`

const thingSchema = `{"typeName": "AWS::Demo::Thing",
 "properties": {"Name": {"type": "string"}, "Rules": {"type": "array", "items": {"$ref": "#/definitions/Rule"}},
  "Main": {"$ref": "#/definitions/Rule"}, "Arn": {"type": "string"},
  "Endpoint": {"$ref": "#/definitions/Endpoint"}, "Undocumented": {"type": "string"}},
 "definitions": {"Rule": {"type": "object", "properties": {"Pattern": {"type": "string"}}},
  "Endpoint": {"type": "object", "properties": {"Port": {"type": "integer"}}}},
 "readOnlyProperties": ["/properties/Arn", "/properties/Endpoint"], "primaryIdentifier": ["/properties/Name"]}`

func TestMergeDocumentsAndBuildsMissingTypes(t *testing.T) {
	sp, err := parseSpec([]byte(tinySpec))
	if err != nil {
		t.Fatal(err)
	}
	recs, err := Records(map[string][]byte{"thing.json": []byte(thingSchema)})
	if err != nil {
		t.Fatal(err)
	}
	recs, err = sp.merge(recs)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 {
		t.Fatalf("%d records, want the schema's type and the spec-only one (not the macro input)", len(recs))
	}
	var thing, fresh catalog.Record
	for _, r := range recs {
		switch r.Name {
		case "aws/demo/thing":
			thing = r
		case "aws/demo/fresh":
			fresh = r
		}
	}
	wantDoc := `{"doc":"The thing. Read on.","props":{` +
		`"/definitions/Endpoint/properties/Port":"The port.",` +
		`"/definitions/Rule/properties/Pattern":"What to match.",` +
		`"/properties/Arn":"The ARN.",` +
		`"/properties/Main":"The main rule.",` +
		`"/properties/Name":"The name.",` +
		`"/properties/Rules":"The rules."},` +
		`"attrs":{"Name":"The name, as read."},` +
		`"defaults":{"/properties/Name":"\"anon\""}}`
	if string(thing.Doc) != wantDoc {
		t.Errorf("thing docs\n got %s\nwant %s", thing.Doc, wantDoc)
	}
	if string(thing.Schema) != string(compact(t, thingSchema)) {
		t.Errorf("the schema set's schema changed: %s", thing.Schema)
	}
	wantSchema := `{"additionalProperties":false,"createOnlyProperties":["/properties/Size"],` +
		`"definitions":{"Rule":{"additionalProperties":false,"properties":{"Pattern":{"type":"string"}},"required":["Pattern"],"type":"object"},` +
		`"Tag":{"additionalProperties":false,"properties":{"Key":{"type":"string"},"Value":{"type":"string"}},"required":["Key","Value"],"type":"object"}},` +
		`"deprecatedProperties":["/properties/Rule"],"primaryIdentifier":["/properties/Id"],` +
		`"properties":{"Id":{"type":"string"},"Rule":{"$ref":"#/definitions/Rule"},"Size":{"default":3,"type":"integer"},` +
		`"Tags":{"items":{"$ref":"#/definitions/Tag"},"type":"array"}},` +
		`"readOnlyProperties":["/properties/Id"],"required":["Size"],` +
		`"sourceUrl":"https://github.com/cdklabs/awscdk-service-spec","typeName":"AWS::Demo::Fresh"}`
	if string(fresh.Schema) != wantSchema {
		t.Errorf("fresh schema\n got %s\nwant %s", fresh.Schema, wantSchema)
	}
	if !strings.Contains(string(fresh.Doc), `"/properties/Id":"The id."`) || !strings.Contains(string(fresh.Doc), `"/definitions/Rule/properties/Pattern":"What to match."`) {
		t.Errorf("fresh docs %s", fresh.Doc)
	}
}

func compact(t *testing.T, s string) []byte {
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(s)); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestReshapedSpecFailsAndWritesNothing: a database of another shape is
// refused with a message naming what is wrong, before any file is
// written.
func TestReshapedSpecFailsAndWritesNothing(t *testing.T) {
	for _, tc := range []struct{ name, db, want string }{
		{"not json", `{"schema": `, "not the expected shape"},
		{"renamed tables", `{"schema": {"resources": {"entities": []}}}`, "want schema.resource.entities"},
		{"entities not a list", `{"schema": {"resource": {"entities": {}}, "typeDefinition": {"entities": []}}}`, "not the expected shape"},
		{"no type name", `{"schema": {"resource": {"entities": [{"$id": "1"}]}, "typeDefinition": {"entities": []}}}`, "no cloudFormationType"},
		{"untyped property", `{"schema": {"resource": {"entities": [{"cloudFormationType": "AWS::A::B", "properties": {"X": {}}}]}, "typeDefinition": {"entities": []}}}`, "AWS::A::B X: no type"},
		{"dangling ref", `{"schema": {"resource": {"entities": [{"cloudFormationType": "AWS::A::B", "properties": {"X": {"type": {"type": "ref", "reference": {"$ref": "9"}}}}}]}, "typeDefinition": {"entities": []}}}`, "reference 9 leads to no type definition"},
		{"empty", `{"schema": {"resource": {"entities": []}, "typeDefinition": {"entities": []}}}`, "no resources"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			var gz bytes.Buffer
			zw := gzip.NewWriter(&gz)
			zw.Write([]byte(tc.db))
			zw.Close()
			os.WriteFile(filepath.Join(dir, "db.json.gz"), gz.Bytes(), 0o644)
			schemas := filepath.Join(dir, "schemas")
			os.Mkdir(schemas, 0o755)
			os.WriteFile(filepath.Join(schemas, "thing.json"), []byte(thingSchema), 0o644)
			out := filepath.Join(dir, "out")
			_, err := run(schemas, dir, out)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one saying %q", err, tc.want)
			}
			if _, statErr := os.Stat(out); !os.IsNotExist(statErr) {
				t.Errorf("output written despite the error")
			}
		})
	}
}
