package registry

import (
	"fmt"
	"strings"
	"testing"
)

// TestBuiltinDocumentation: the catalog's types carry AWS's text,
// verbatim, on the type, spec fields at any depth and attributes.
func TestBuiltinDocumentation(t *testing.T) {
	r := NewBuiltin()
	for _, tc := range []struct {
		typ  string
		path []string // nil: the type itself
		want string   // prefix of the description
	}{
		{"aws/sqs/queue", nil, "The `AWS::SQS::Queue` resource creates an Amazon SQS standard or FIFO queue."},
		{"aws/sqs/queue", []string{"arn"}, "Returns the Amazon Resource Name (ARN) of the queue. For example: `arn:aws:sqs:us-east-2:123456789012:mystack-myqueue-15PG5C2FC1CW8` ."},
		{"aws/sqs/queue", []string{"queueUrl"}, "Returns the URLs of the queues from the policy."},
		{"aws/sqs/queue", []string{"receiveMessageWaitTimeSeconds"}, "Specifies the duration, in seconds, that the ReceiveMessage action call waits"},
		// Through a property type, inside an array.
		{"aws/lambda/function", []string{"code", "s3Bucket"}, "An Amazon S3 bucket in the same AWS Region as your function."},
		{"aws/ec2/instance", []string{"blockDeviceMappings", "*", "ebs", "volumeSize"}, "The size of the volume, in GiBs."},
		// Tags have no text in the service spec: the generator's own.
		{"aws/sqs/queue", []string{"tags", "*", "key"}, "The key (name) of the tag."},
		// A type only the service spec knows.
		{"aws/bedrockagentcore/harness", nil, "Resource Type definition for AWS::BedrockAgentCore::Harness"},
		{"aws/bedrockagentcore/harness", []string{"harnessName"}, "The name of the harness."},
	} {
		rt, ok := r.ResourceType(tc.typ)
		if !ok || rt.Err != nil {
			t.Fatalf("%s: %v", tc.typ, rt.Err)
		}
		got := rt.Description
		if tc.path != nil {
			f, ok := rt.Lookup(tc.path)
			if !ok {
				t.Errorf("%s: no %v", tc.typ, tc.path)
				continue
			}
			got = f.Schema.Description
		}
		if !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s %v: description %q, want it to start %q", tc.typ, tc.path, got, tc.want)
		}
	}
}

// TestBuiltinDefaults: a default the schema does not state comes from
// the service spec.
func TestBuiltinDefaults(t *testing.T) {
	rt, _ := NewBuiltin().ResourceType("aws/apigateway/apiKey")
	f, ok := rt.Lookup([]string{"enabled"})
	if !ok || f.Schema.Default != false {
		t.Errorf("enabled: %v default %#v, want false", ok, f.Schema)
	}
}

// TestServiceSpecOnlyType: a type newer than the schema set is built from
// the service spec: required and create-only fields, attributes as
// read-only state, the link to AWS's page.
func TestServiceSpecOnlyType(t *testing.T) {
	rt, ok := NewBuiltin().ResourceType("aws/bedrockagentcore/harness")
	if !ok || rt.Err != nil {
		t.Fatal(ok, rt.Err)
	}
	if rt.SourceURL != ServiceSpecURL || rt.Original != "AWS::BedrockAgentCore::Harness" {
		t.Errorf("source %q original %q", rt.SourceURL, rt.Original)
	}
	if !strings.HasSuffix(rt.DocsURL, "aws-resource-bedrockagentcore-harness.html") {
		t.Errorf("docs %q", rt.DocsURL)
	}
	if got := strings.Join(rt.Schema.Required, ","); got != "executionRoleArn,harnessName,model" {
		t.Errorf("required %s", got)
	}
	if !rt.Marks([]string{"harnessName"}).Has(CreateOnly) {
		t.Error("harnessName not create-only")
	}
	for _, a := range []string{"arn", "harnessId"} {
		if f, ok := rt.LookupState([]string{a}); !ok || !f.Marks.Has(ReadOnly) || f.Schema.Description == "" {
			t.Errorf("attribute %s: %v %+v", a, ok, f)
		}
		if _, ok := rt.LookupSpec([]string{a}); ok {
			t.Errorf("attribute %s is settable in spec", a)
		}
	}
}

// TestDocsRecordApplies: descriptions land by pointer, a property's own
// text stays its own where a definition is shared, an existing
// description wins, and pointers leading nowhere are skipped.
func TestDocsRecordApplies(t *testing.T) {
	schema := `{"typeName": "AWS::Demo::Thing", "properties": {
	  "A": {"$ref": "#/definitions/Rule"}, "B": {"$ref": "#/definitions/Rule"},
	  "C": {"type": "string", "description": "Written in the schema.", "default": "schema"}, "D": {"type": "integer"},
	  "L": {"type": "array", "items": {"type": "object", "properties": {"X/Y": {"type": "string"}}}}},
	 "definitions": {"Rule": {"type": "object", "properties": {"Pattern": {"type": "string"}}}}}`
	docs := `{"doc": "A thing.", "props": {"/properties/A": "First rule.", "/properties/B": "Second rule.",
	  "/definitions/Rule/properties/Pattern": "What to match.", "/properties/C": "From the spec.",
	  "/properties/L/items/properties/X~1Y": "Slashed.", "/properties/Gone": "Nowhere.", "/definitions/Unused/properties/Z": "Nowhere."},
	  "defaults": {"/properties/A": "{\"Pattern\": \"*\"}", "/properties/C": "\"spec\"", "/properties/D": "7", "/properties/Gone": "1"}}`
	rt, err := parseDocumentedType([]byte(schema), []byte(docs))
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		"": "A thing.", "a": "First rule.", "b": "Second rule.", "a/pattern": "What to match.", "b/pattern": "What to match.",
		"c": "Written in the schema.",
	} {
		got := rt.Description
		if path != "" {
			f, ok := rt.Lookup(strings.Split(path, "/"))
			if !ok {
				t.Errorf("no %s", path)
				continue
			}
			got = f.Schema.Description
		}
		if got != want {
			t.Errorf("%s: %q, want %q", path, got, want)
		}
	}
	// Defaults the schema lacks come from the record; its own stay.
	for name, want := range map[string]string{"a": "map[Pattern:*]", "c": "schema", "d": "7"} {
		if got := fmt.Sprint(rt.Schema.Properties[name].Schema.Default); got != want {
			t.Errorf("default of %s: %s, want %s", name, got, want)
		}
	}
	for _, p := range rt.Schema.Properties["l"].Schema.Items.Properties {
		if p.Original == "X/Y" && p.Schema.Description != "Slashed." {
			t.Errorf("X/Y: %q", p.Schema.Description)
		}
	}
	if _, err := parseDocumentedType([]byte(schema), []byte(`{"doc": `)); err == nil || !strings.Contains(err.Error(), "documentation record") {
		t.Errorf("broken record: %v", err)
	}
}
