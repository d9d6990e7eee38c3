package schema

import (
	"encoding/json"
	"regexp"
	"slices"
	"testing"
)

// TestJSONSchemaPatterns keeps the schema's patterns in step with the
// checker's own tests of type names and definition names.
func TestJSONSchemaPatterns(t *testing.T) {
	resource, custom, name := regexp.MustCompile(ResourceTypePattern), regexp.MustCompile(CustomTypePattern), regexp.MustCompile(NamePattern)
	for _, s := range []string{
		"aws/sqs/queue", "aws/lambda", "aws/a/b/c", "AWS::SQS::Queue", "aws", "", "aws/", "/sqs", "aws/1sqs",
		"aws/sqs-2/queue", "aws/sqs_x/queue", "a/b", "a b/c", "aws/sqs/queue\n", "ünï/x",
	} {
		if got, want := resource.MatchString(s), IsResourceType(s); got != want {
			t.Errorf("ResourceTypePattern matches %q: %v, IsResourceType: %v", s, got, want)
		}
		if got, want := custom.MatchString(s), IsCustomType(s); got != want {
			t.Errorf("CustomTypePattern matches %q: %v, IsCustomType: %v", s, got, want)
		}
	}
	for _, s := range []string{"orders", "orders-api", "v1.2", "_x", "my value", "", "a$b", "ünï"} {
		l := &loader{}
		l.checkName(&Scalar{Value: s}, "value")
		if got, want := name.MatchString(s), len(l.diags) == 0; got != want {
			t.Errorf("NamePattern matches %q: %v, checkName accepts it: %v", s, got, want)
		}
	}
}

// TestJSONSchemaFollowsTable checks that every field of every kind is in
// the schema with its description, and that required fields are required.
func TestJSONSchemaFollowsTable(t *testing.T) {
	var doc struct {
		Properties  map[string]map[string]any `json:"properties"`
		Required    []string                  `json:"required"`
		Definitions map[string]struct {
			Properties map[string]map[string]any `json:"properties"`
			Required   []string                  `json:"required"`
		} `json:"definitions"`
	}
	if err := json.Unmarshal(JSONSchema(JSONSchemaOptions{}), &doc); err != nil {
		t.Fatal(err)
	}
	for k, rows := range fieldTable {
		props, required := doc.Properties, doc.Required
		if k != KindBlueprint {
			d, ok := doc.Definitions[defNames[k]]
			if !ok {
				t.Errorf("no definition for %s", k)
				continue
			}
			props, required = d.Properties, d.Required
		}
		for _, f := range rows {
			p, ok := props[f.Name]
			if !ok {
				t.Errorf("%s: field %s missing", k, f.Name)
				continue
			}
			if d, _ := p["description"].(string); len(d) < len(f.Doc) {
				t.Errorf("%s.%s: description %q", k, f.Name, d)
			}
			if got := slices.Contains(required, f.Name); got != f.Required {
				t.Errorf("%s.%s: required %v, want %v", k, f.Name, got, f.Required)
			}
		}
	}
}
