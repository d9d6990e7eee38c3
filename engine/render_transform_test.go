package engine

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/blueprint-ls/blueprint-ls/funcs"
)

// TestTextGroupsTransformed: the resources a transformer made are
// listed under the abstract resource they came from, where the first of
// them comes; the blueprint's own resources keep their place.
func TestTextGroupsTransformed(t *testing.T) {
	spec := func(k, v string) funcs.Value {
		m := funcs.NewMap(1)
		m.Set(k, funcs.String(v))
		return funcs.MapValue(m)
	}
	p := &Plan{Path: "app.blueprint.yaml", Resources: []*ResourceChange{
		{Name: "ordersRole", Type: "aws/iam/role", Action: Create, Stage: 1, From: "orders", FromType: "testx/handler", Spec: spec("roleName", "orders")},
		{Name: "archive", Type: "aws/s3/bucket", Action: Create, Stage: 1, Spec: spec("bucketName", "archive")},
		{Name: "ordersFunction", Type: "aws/lambda/function", Action: Create, Stage: 2, From: "orders", FromType: "testx/handler", Spec: spec("functionName", "orders")},
	}}
	want := `Plan for app.blueprint.yaml

Resources:
  orders (testx/handler), transformed into:
    + ordersRole (aws/iam/role) will be created [stage 1]
        roleName: "orders"
    + ordersFunction (aws/lambda/function) will be created [stage 2]
        functionName: "orders"
  + archive (aws/s3/bucket) will be created [stage 1]
      bucketName: "archive"

Plan: 3 to create, 0 to update, 0 to replace, 0 to delete.
`
	if diff := cmp.Diff(want, TextStyled(p, nil)); diff != "" {
		t.Errorf("text (-want +got):\n%s", diff)
	}
}
