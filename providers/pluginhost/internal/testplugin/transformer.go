package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"slices"

	"github.com/newstack-cloud/bluelink/libs/blueprint/core"
	"github.com/newstack-cloud/bluelink/libs/blueprint/provider"
	"github.com/newstack-cloud/bluelink/libs/blueprint/schema"
	"github.com/newstack-cloud/bluelink/libs/blueprint/substitutions"
	"github.com/newstack-cloud/bluelink/libs/blueprint/transform"
	"github.com/newstack-cloud/bluelink/libs/plugin-framework/sdk/transformerv1"
	"github.com/newstack-cloud/bluelink/libs/plugin-framework/sdk/transformutils"
)

// handlerType is the test transformer's one abstract resource type.
const handlerType = "testx/handler"

// newTransformer is the testx transformer (transform name
// testx-2026-01-01): a testx/handler becomes an aws/lambda/function and
// its aws/iam/role, named {name}Function and {name}Role and annotated
// with the abstract resource they came from, the handler's memory
// carried to the function's memorySize unchecked (so a value AWS refuses
// is reported on the concrete resource), the function's name prefixed
// with the transformer's namePrefix configuration. mode makes it
// misbehave on
// Transform: "hang" never answers, "exit" dies, "lie" returns a
// blueprint whose resource has no type.
func newTransformer(mode string) transform.SpecTransformer {
	handler := &provider.ResourceDefinitionsSchema{
		Type:     provider.ResourceDefinitionsSchemaTypeObject,
		Required: []string{"handlerName"},
		Attributes: map[string]*provider.ResourceDefinitionsSchema{
			"handlerName": {Type: provider.ResourceDefinitionsSchemaTypeString, Description: "The handler's function name."},
			"runtime": {Type: provider.ResourceDefinitionsSchemaTypeString, Description: "The runtime it runs on.",
				AllowedValues: []*core.MappingNode{core.MappingNodeFromString("nodejs22.x"), core.MappingNodeFromString("python3.13")}},
			"memory": {Type: provider.ResourceDefinitionsSchemaTypeInteger, Description: "Memory in MB, passed to the function as is."},
		},
	}
	return &transformerv1.TransformerPluginDefinition{
		TransformName: "testx-2026-01-01",
		AbstractResources: map[string]*transformerv1.AbstractResourceDefinition{
			handlerType: {Type: handlerType, Label: "Test Handler", Schema: handler,
				PlainTextSummary:     "A handler.",
				FormattedDescription: "A **testx** handler: the transformer's own documentation."},
		},
		TransformFunc: func(ctx context.Context, in *transform.SpecTransformerTransformInput) (*transform.SpecTransformerTransformOutput, error) {
			switch mode {
			case "hang":
				<-ctx.Done()
				select {} // never answers
			case "exit":
				os.Exit(4)
			}
			prefix := ""
			if in.TransformerContext != nil {
				if v, ok := in.TransformerContext.TransformerConfigVariable("namePrefix"); ok && v != nil && v.StringValue != nil {
					prefix = *v.StringValue
				}
			}
			return expand(in.InputBlueprint, prefix, mode == "lie")
		},
	}
}

// expand replaces each handler of bp by its function and role, the
// function named prefix + the handler's name.
func expand(bp *schema.Blueprint, prefix string, lie bool) (*transform.SpecTransformerTransformOutput, error) {
	if bp == nil || bp.Resources == nil {
		return nil, errors.New("no resources to transform")
	}
	out := map[string]*schema.Resource{}
	names := make([]string, 0, len(bp.Resources.Values))
	for name := range bp.Resources.Values {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		r := bp.Resources.Values[name]
		if r == nil || r.Type == nil || r.Type.Value != handlerType {
			out[name] = r
			continue
		}
		ann := func() *schema.Metadata {
			return &schema.Metadata{Annotations: transformutils.TransformerBaseAnnotations(&transformutils.TransformerBaseAnnotationsInput{
				AbstractResourceName: name, AbstractResourceType: handlerType, ResourceCategory: transformutils.ResourceCategoryCodeHosting,
			})}
		}
		fields := map[string]*core.MappingNode{
			"role": {StringWithSubstitutions: mustSubst("${resources." + name + "Role.state.arn}")},
			"code": {Fields: map[string]*core.MappingNode{"zipFile": core.MappingNodeFromString("exports.handler = async () => {}")}},
		}
		if r.Spec != nil {
			if v := r.Spec.Fields["handlerName"]; v != nil {
				fields["functionName"] = v
				if prefix != "" && v.Scalar != nil && v.Scalar.StringValue != nil {
					fields["functionName"] = core.MappingNodeFromString(prefix + *v.Scalar.StringValue)
				}
			}
			if v := r.Spec.Fields["runtime"]; v != nil {
				fields["runtime"] = v
			}
			if v := r.Spec.Fields["memory"]; v != nil {
				fields["memorySize"] = v
			}
		}
		fnType := "aws/lambda/function"
		if lie {
			fnType = ""
		}
		out[name+"Function"] = &schema.Resource{Type: &schema.ResourceTypeWrapper{Value: fnType}, Metadata: ann(), Spec: &core.MappingNode{Fields: fields}}
		out[name+"Role"] = &schema.Resource{Type: &schema.ResourceTypeWrapper{Value: "aws/iam/role"}, Metadata: ann(), Spec: &core.MappingNode{Fields: map[string]*core.MappingNode{
			"assumeRolePolicyDocument": {Fields: map[string]*core.MappingNode{
				"Version": core.MappingNodeFromString("2012-10-17"),
				"Statement": {Items: []*core.MappingNode{{Fields: map[string]*core.MappingNode{
					"Effect":    core.MappingNodeFromString("Allow"),
					"Principal": {Fields: map[string]*core.MappingNode{"Service": core.MappingNodeFromString("lambda.amazonaws.com")}},
					"Action":    core.MappingNodeFromString("sts:AssumeRole"),
				}}}},
			}},
		}}}
	}
	t := *bp
	t.Resources = &schema.ResourceMap{Values: out}
	return &transform.SpecTransformerTransformOutput{TransformedBlueprint: &t}, nil
}

// mustSubst parses a string with ${..} as the blueprint's JSON form does.
func mustSubst(s string) *substitutions.StringOrSubstitutions {
	var out substitutions.StringOrSubstitutions
	data, _ := json.Marshal(s)
	if err := json.Unmarshal(data, &out); err != nil {
		panic(err)
	}
	return &out
}
