package registry

import (
	"fmt"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/providers/registry/internal/catalog"
)

// builtinSchema returns the raw schema of a built-in resource type.
func builtinSchema(name string) ([]byte, error) {
	ts := builtinTypes()
	i, ok := ts.cat.Find(name)
	if !ok {
		return nil, fmt.Errorf("%s is not in the catalog", name)
	}
	return ts.cat.Schema(i)
}

// TestBuiltinCatalog compiles every embedded resource type and checks
// it as a real schema must be (checkResourceType): sample specs validate
// against their own type.
func TestBuiltinCatalog(t *testing.T) {
	r := NewBuiltin()
	names := r.ResourceTypeNames()
	if len(names) < 1500 {
		t.Fatalf("catalog has %d resource types, want the whole public set", len(names))
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			rt, ok := r.ResourceType(name)
			if !ok || rt.Err != nil {
				t.Fatalf("load: %v %v", ok, rt.Err)
			}
			if rt.Name != name {
				t.Errorf("compiled as %s", rt.Name)
			}
			checkResourceType(t, rt)
		})
	}
}

// TestUserSchemaReplacesBuiltin: a loaded schema with a built-in type's
// name shadows the catalog's, and the name is listed once.
func TestUserSchemaReplacesBuiltin(t *testing.T) {
	r := NewBuiltin()
	before, _ := r.ResourceType("aws/sqs/queue")
	if _, ok := before.Schema.Properties["queueName"]; !ok {
		t.Fatal("built-in queue lacks queueName")
	}
	err := r.AddResourceSchema("mine.json", []byte(`{"typeName": "AWS::SQS::Queue", "properties": {"Colour": {"type": "string"}}, "primaryIdentifier": ["/properties/Colour"]}`))
	if err != nil {
		t.Fatal(err)
	}
	after, _ := r.ResourceType("aws/sqs/queue")
	if _, ok := after.Schema.Properties["colour"]; !ok || after == before {
		t.Errorf("user schema not used: %v", after.Schema.PropertyNames())
	}
	n := 0
	for _, name := range r.ResourceTypeNames() {
		if name == "aws/sqs/queue" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("aws/sqs/queue listed %d times", n)
	}
	// Other registries keep the built-in type.
	if other, _ := NewBuiltin().ResourceType("aws/sqs/queue"); other != before {
		t.Error("the override leaked into another registry")
	}
}

func TestDocsURL(t *testing.T) {
	r := NewBuiltin()
	for name, want := range map[string]string{
		"aws/lambda/function": "https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-resource-lambda-function.html",
		"aws/ec2/vpc":         "https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-resource-ec2-vpc.html",
		"alexa/ask/skill":     "",
	} {
		rt, ok := r.ResourceType(name)
		if !ok || rt.DocsURL != want {
			t.Errorf("%s: DocsURL %q, want %q", name, rt.DocsURL, want)
		}
	}
}

// BenchmarkOpenCatalog is what the first NewBuiltin of a process pays:
// opening the catalog index (no schema is decompressed).
func BenchmarkOpenCatalog(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		c, err := catalog.Open(catalogIndex, catalogDict, catalogData)
		if err != nil {
			b.Fatal(err)
		}
		newCatalogTypes(c, "bench")
	}
}

// BenchmarkFirstUseFromCatalog is a type's first use: decompressing its
// schema and compiling it.
func BenchmarkFirstUseFromCatalog(b *testing.B) {
	cat := builtinTypes().cat
	i, _ := cat.Find("aws/lambda/function")
	b.ReportAllocs()
	for n := 0; n < b.N; n++ {
		data, err := cat.Schema(i)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := parseResourceType(data); err != nil {
			b.Fatal(err)
		}
	}
}

// TestCatalogIsLazy: listing, summarising and looking up one type opens
// that type's schema only.
func TestCatalogIsLazy(t *testing.T) {
	c, err := catalog.Open(catalogIndex, catalogDict, catalogData)
	if err != nil {
		t.Fatal(err)
	}
	r := NewBuiltin()
	r.builtin = newCatalogTypes(c, "test")
	names := r.ResourceTypeNames()
	for _, n := range names {
		r.ResourceTypeSummary(n)
	}
	if _, ok := r.ResourceType("aws/sqs/queue"); !ok {
		t.Fatal("aws/sqs/queue missing")
	}
	var parsed []string
	for i := range r.builtin.entries {
		if e := &r.builtin.entries[i]; e.rt != nil {
			parsed = append(parsed, e.name)
		}
	}
	if len(parsed) != 1 || parsed[0] != "aws/sqs/queue" {
		t.Errorf("parsed %v", parsed)
	}
}

// BenchmarkNewBuiltin is what each check run and each language server
// workspace pays for its registry once the process has loaded the
// built-in files: copies of small tables.
func BenchmarkNewBuiltin(b *testing.B) {
	NewBuiltin()
	b.ReportAllocs()
	for range b.N {
		NewBuiltin()
	}
}
