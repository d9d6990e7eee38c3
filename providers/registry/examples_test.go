package registry

import (
	"os"
	"testing"
)

// TestExampleBlueprintJSON checks the JSON example blueprint against the
// built-in registry: every resource type, data source type, export, filter
// field and custom variable type it uses exists, and every resource spec
// validates without errors.
func TestExampleBlueprintJSON(t *testing.T) {
	data, err := os.ReadFile("../../testdata/examples/valid/orders-api.blueprint.json")
	if err != nil {
		t.Skipf("example absent: %v", err)
	}
	doc := parseJSONNode(string(data))
	r := NewBuiltin()
	resources := doc.get("resources")
	if resources.Len() == 0 {
		t.Fatal("no resources")
	}
	for i, name := range resources.keys {
		res := resources.kids[i]
		typ, _ := res.get("type").Scalar()
		rt, ok := r.ResourceType(typ)
		if !ok {
			t.Errorf("%s: unknown resource type %s", name, typ)
			continue
		}
		for _, d := range rt.ValidateSpec(tn(res.get("spec")), resources.keyRngs[i]) {
			t.Errorf("%s: %s %s at %v", name, d.Code, d.Message, d.Range)
		}
	}
	for i, name := range doc.get("datasources").keys {
		ds := doc.get("datasources").kids[i]
		typ, _ := ds.get("type").Scalar()
		dst, ok := r.DataSourceType(typ)
		if !ok {
			t.Errorf("%s: unknown data source type %s", name, typ)
			continue
		}
		field, _ := ds.get("filter", "field").Scalar()
		if d := dst.CheckFilterField(field, ds.get("filter", "field").Range()); d != nil {
			t.Errorf("%s: %s", name, d.Message)
		}
		exports := ds.get("exports")
		for j, ename := range exports.keys {
			field := ename
			for k, key := range exports.kids[j].keys {
				if key == "aliasFor" {
					field, _ = exports.kids[j].kids[k].Scalar()
				}
			}
			declText, _ := exports.kids[j].get("type").Scalar()
			declared, err := ParseTypeExpr(declText)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range dst.CheckExport(field, declared, exports.keyRngs[j], exports.keyRngs[j]) {
				t.Errorf("%s.%s: %s", name, ename, d.Message)
			}
		}
	}
	for i, name := range doc.get("variables").keys {
		v := doc.get("variables").kids[i]
		typ, _ := v.get("type").Scalar()
		ct, ok := r.CustomVariableType(typ)
		if !ok {
			continue
		}
		def, _ := v.get("default").Scalar()
		if d := ct.CheckOption(def, v.get("default").Range()); d != nil {
			t.Errorf("%s: %s", name, d.Message)
		}
	}
}

func TestBuiltinContents(t *testing.T) {
	r := NewBuiltin()
	for _, name := range []string{
		"aws/lambda/function", "aws/dynamodb/table", "aws/sqs/queue", "aws/s3/bucket",
		"aws/secretsmanager/secret", "aws/sns/topic", "aws/apigateway/restApi", "aws/elasticache/cacheCluster",
	} {
		if rt, ok := r.ResourceType(name); !ok || rt.Err != nil {
			t.Errorf("%s missing or broken", name)
		}
	}
	// References the examples make into state.
	for _, c := range []struct{ typ, field string }{
		{"aws/lambda/function", "arn"},
		{"aws/secretsmanager/secret", "id"},
		{"aws/sns/topic", "topicArn"},
		{"aws/apigateway/restApi", "rootResourceId"},
	} {
		rt, _ := r.ResourceType(c.typ)
		if _, ok := rt.LookupState([]string{c.field}); !ok {
			t.Errorf("%s state has no %s", c.typ, c.field)
		}
	}
	region, _ := r.CustomVariableType("aws/region")
	if o, ok := region.Option("eu-west-1"); !ok || o.Description != "Europe (Ireland)" {
		t.Errorf("eu-west-1: %+v", o)
	}
	size, _ := r.CustomVariableType("aws/ec2/instanceSize")
	if _, ok := size.Option("t3.micro"); !ok || len(size.Options) < 20 {
		t.Errorf("instance sizes: %d", len(size.Options))
	}
	vpc, _ := r.DataSourceType("aws/vpc")
	for _, e := range []string{"vpcId", "subnets", "securityGroups", "subnetIds"} {
		if _, ok := vpc.Export(e); !ok {
			t.Errorf("aws/vpc does not export %s", e)
		}
	}
	link, ok := r.Link("aws/lambda/function", "aws/dynamodb/table")
	if !ok {
		t.Fatal("no lambda → dynamodb link")
	}
	if a := link.Annotations["aws.lambda.function.populateEnvVars"]; a == nil || a.Type.String() != "boolean" || a.Default != false {
		t.Errorf("populateEnvVars annotation: %+v", a)
	}
	if len(r.Functions()) == 0 {
		t.Error("no provider functions")
	}
	fn, _ := r.Function("aws_parse_arn")
	if got := fn.Signature.String(); got != "func(string) -> object{accountId: string, partition: string, region: string, resource: string, service: string}" {
		t.Errorf("aws_parse_arn: %s", got)
	}
}
