package framework

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"time"

	bpcore "github.com/newstack-cloud/bluelink/libs/blueprint/core"
	"github.com/newstack-cloud/bluelink/libs/blueprint/provider"
	"github.com/newstack-cloud/bluelink/libs/blueprint/schema"
	"github.com/newstack-cloud/bluelink/libs/blueprint/transform"
	"github.com/newstack-cloud/bluelink/libs/plugin-framework/sdk/transformutils"

	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/providers/pluginhost"
)

// describeTransformer asks a transformer its transform name and its
// abstract resource types, each question within timeout: the types
// become resource schemas (the registry checks, completes and documents
// them like any other), the name a transform of a provider file named
// after the types' namespace.
func describeTransformer(ctx context.Context, tr transform.SpecTransformer, timeout time.Duration) (*described, error) {
	tctx := transform.NewTransformerContextFromParams("", validationParams())
	p := &described{Schemas: map[string]json.RawMessage{}}
	if err := ask(ctx, timeout, "transform name", func(c context.Context) (err error) { p.Transform, err = tr.GetTransformName(c); return }); err != nil {
		return nil, err
	}
	if !validName(p.Transform) {
		return nil, fmt.Errorf("transform name %q is not a name", p.Transform)
	}
	var types []string
	var typeFlags map[string]rawTypeFlags // the abstract types' field flags
	if err := ask(ctx, timeout, "abstract resource types", func(c context.Context) (err error) { types, err = tr.ListAbstractResourceTypes(c); return }); err != nil {
		return nil, err
	}
	slices.Sort(types)
	for _, t := range types {
		if !validType(t) {
			return nil, fmt.Errorf("abstract resource type %q is not a type name", t)
		}
		ns, _, _ := strings.Cut(t, "/")
		if p.Namespace == "" {
			p.Namespace = ns
		} else if ns != p.Namespace {
			return nil, fmt.Errorf("abstract resource types of two namespaces (%s, %s)", p.Namespace, ns)
		}
		var spec *provider.ResourceSpecDefinition
		var docs *provider.ResourceGetTypeDescriptionOutput
		err := ask(ctx, timeout, "abstract resource type "+t, func(c context.Context) error {
			r, err := tr.AbstractResource(c, t)
			if err != nil {
				return err
			}
			out, err := r.GetSpecDefinition(c, &transform.AbstractResourceGetSpecDefinitionInput{TransformerContext: tctx})
			if err != nil {
				return err
			}
			if out == nil || out.SpecDefinition == nil || out.SpecDefinition.Schema == nil {
				return errors.New("no spec definition")
			}
			spec = out.SpecDefinition
			if d, err := r.GetTypeDescription(c, &transform.AbstractResourceGetTypeDescriptionInput{TransformerContext: tctx}); err == nil && d != nil {
				docs = &provider.ResourceGetTypeDescriptionOutput{MarkdownDescription: d.MarkdownDescription, PlainTextDescription: d.PlainTextDescription,
					MarkdownSummary: d.MarkdownSummary, PlainTextSummary: d.PlainTextSummary}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		data, flags, err := resourceSchema(t, spec, docs)
		if err != nil {
			return nil, fmt.Errorf("abstract resource type %s: %w", t, err)
		}
		p.Schemas[t] = data
		if len(flags) > 0 {
			if typeFlags == nil {
				typeFlags = map[string]rawTypeFlags{}
			}
			typeFlags[t] = rawTypeFlags{Fields: flags}
		}
	}
	if p.Namespace == "" {
		p.Namespace = p.Transform
	}
	data, err := json.Marshal(providerFile{Provider: p.Namespace, ResourceTypes: typeFlags, Transforms: map[string]rawDescribed{
		p.Transform: {Description: "Applied by the transformer plugin that defines " + strings.Join(types, ", ") + "."},
	}})
	if err != nil {
		return nil, err
	}
	p.Provider = data
	return p, nil
}

// Transform launches the request's transformer with the host's plugin
// service and runs it over the request's blueprint; the process is gone
// when it returns. A blueprint the official loader refuses, a
// transformer that fails, dies, hangs past the call timeout or answers
// what is not a blueprint is the answer's Error.
func Transform(ctx context.Context, req pluginhost.TransformRequest, o Options) pluginhost.Transformed {
	o = o.withDefaults()
	if req.Target.Kind != pluginhost.KindTransformer {
		return pluginhost.Transformed{Error: "not a transformer"}
	}
	format := schema.SpecFormat(req.Format)
	switch format {
	case schema.YAMLSpecFormat, schema.JWCCSpecFormat, schema.BlueprintLangSpecFormat:
	default:
		return pluginhost.Transformed{Error: fmt.Sprintf("unknown blueprint format %q", req.Format)}
	}
	bp, err := schema.LoadString(req.Blueprint, format)
	if err != nil {
		return pluginhost.Transformed{Error: fmt.Sprintf("the plugin framework cannot load the blueprint: %v", err)}
	}
	held := pruneEmpty(bp)
	h, err := startHost(o)
	if err != nil {
		return pluginhost.Transformed{Error: fmt.Sprintf("starting the plugin service: %v", err)}
	}
	defer h.close()
	var out *transform.SpecTransformerTransformOutput
	err = h.run(ctx, req.Target, "transforming the blueprint", func(c context.Context, client any) error {
		tr, ok := client.(transform.SpecTransformer)
		if !ok {
			return errors.New("registered, but is not a transformer")
		}
		return ask(c, o.CallTimeout, "transform", func(c context.Context) (err error) {
			out, err = tr.Transform(c, &transform.SpecTransformerTransformInput{
				InputBlueprint:     bp,
				TransformerContext: transform.NewTransformerContextFromParams(req.Namespace, transformParams(req.Params)),
			})
			return err
		})
	})
	if err != nil {
		return pluginhost.Transformed{Error: err.Error()}
	}
	res, err := transformed(bp, out, held)
	if err != nil {
		return pluginhost.Transformed{Error: "transform: " + err.Error()}
	}
	return *res
}

// transformParams are the blueprint parameters of a transform: the
// deploy configuration's transformer configuration and context
// variables, and the context variable that says it is a validation, not
// a deployment.
func transformParams(p pluginhost.Params) bpcore.BlueprintParams {
	var tc map[string]map[string]*bpcore.ScalarValue
	for ns, vs := range p.Transformers {
		if tc == nil {
			tc = map[string]map[string]*bpcore.ScalarValue{}
		}
		tc[ns] = scalars(vs)
	}
	cv := scalars(p.Context)
	if cv == nil {
		cv = map[string]*bpcore.ScalarValue{}
	}
	cv[bpcore.ValidationContextVariableName] = bpcore.ScalarFromBool(true)
	return bpcore.NewDefaultParams(nil, tc, cv, nil)
}

// scalars converts JSON scalars (numbers as json.Number or float64) to
// the framework's; other values are left out.
func scalars(vs map[string]any) map[string]*bpcore.ScalarValue {
	if len(vs) == 0 {
		return nil
	}
	out := map[string]*bpcore.ScalarValue{}
	for k, v := range vs {
		switch v := v.(type) {
		case string:
			out[k] = bpcore.ScalarFromString(v)
		case bool:
			out[k] = bpcore.ScalarFromBool(v)
		case json.Number:
			if i, err := v.Int64(); err == nil {
				out[k] = bpcore.ScalarFromInt(int(i))
			} else if f, err := v.Float64(); err == nil {
				out[k] = bpcore.ScalarFromFloat(f)
			}
		case float64:
			out[k] = bpcore.ScalarFromFloat(v)
		}
	}
	return out
}

// transformed checks a transformer's answer and writes it as the answer
// of the helper: the blueprint as JSON (nulls and the transform field
// left out, every resource with a type), its resources' origins.
func transformed(in *schema.Blueprint, out *transform.SpecTransformerTransformOutput, held map[string]*schema.Resource) (*pluginhost.Transformed, error) {
	if out == nil || out.TransformedBlueprint == nil {
		return nil, errors.New("answered no blueprint")
	}
	data, err := json.Marshal(out.TransformedBlueprint)
	if err != nil {
		return nil, fmt.Errorf("answered a blueprint that cannot be written: %w", err)
	}
	var tree any
	if err := json.Unmarshal(data, &tree); err != nil {
		return nil, err
	}
	tree = dropNulls(tree)
	top, _ := tree.(map[string]any)
	if top == nil {
		return nil, errors.New("answered what is not a blueprint")
	}
	delete(top, "transform")
	res := &pluginhost.Transformed{Origins: map[string]string{}}
	resourcesKey := dialect.Resources.Key()
	resources, _ := top[resourcesKey].(map[string]any)
	if resources == nil && len(held) > 0 {
		resources = map[string]any{}
		top[resourcesKey] = resources
	}
	for _, name := range sortedKeys(held) {
		if _, made := resources[name]; made {
			continue // the transformer made one of that name
		}
		r, err := heldBack(held[name])
		if err != nil {
			return nil, err
		}
		resources[name] = r
	}
	for _, name := range sortedKeys(resources) {
		r, _ := resources[name].(map[string]any)
		if t, _ := r["type"].(string); t == "" {
			return nil, fmt.Errorf("answered a blueprint whose resource %q has no type", name)
		}
		md, _ := r["metadata"].(map[string]any)
		ann, _ := md["annotations"].(map[string]any)
		from, _ := ann[transformutils.AnnotationSourceAbstractName].(string)
		if in.Resources != nil && in.Resources.Values[from] != nil && from != name {
			res.Origins[name] = from
		}
	}
	if res.Blueprint, err = json.Marshal(top); err != nil {
		return nil, err
	}
	for _, d := range out.Diagnostics {
		if d != nil && d.Level != bpcore.DiagnosticLevelInfo {
			res.Diagnostics = append(res.Diagnostics, pluginhost.TransformNote{Error: d.Level == bpcore.DiagnosticLevelError, Message: d.Message})
		}
	}
	return res, nil
}

// pruneEmpty leaves out of the resources' specs the empty mappings and
// lists (tags: {}, ports: []): the framework's serialisation refuses a
// mapping node with no value, so a transformer handed one fails on its
// own answer. A resource whose whole spec is empty (spec: {}) cannot be
// sent at all: it is held back, returned, and put back in the answer
// (heldBack) unless the transformer made one of its name.
func pruneEmpty(bp *schema.Blueprint) (held map[string]*schema.Resource) {
	if bp.Resources == nil {
		return nil
	}
	for name, r := range bp.Resources.Values {
		if r != nil && r.Spec != nil && pruneNode(r.Spec, 0) {
			if held == nil {
				held = map[string]*schema.Resource{}
			}
			held[name] = r
			delete(bp.Resources.Values, name)
		}
	}
	return held
}

// heldBack is a held back resource as the answer writes resources: its
// JSON form, with its empty spec.
func heldBack(r *schema.Resource) (map[string]any, error) {
	c := *r
	c.Spec = nil
	data, err := json.Marshal(&c)
	if err != nil {
		return nil, err
	}
	var out map[string]any
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, err
	}
	out = dropNulls(out).(map[string]any)
	out["spec"] = map[string]any{}
	return out, nil
}

// pruneNode prunes n's empty children and reports whether n itself is
// empty.
func pruneNode(n *bpcore.MappingNode, depth int) bool {
	if n == nil {
		return true
	}
	if depth > maxSchemaDepth || n.Scalar != nil || n.StringWithSubstitutions != nil {
		return false
	}
	switch {
	case n.Fields != nil:
		for k, v := range n.Fields {
			if pruneNode(v, depth+1) {
				delete(n.Fields, k)
			}
		}
		return len(n.Fields) == 0
	case n.Items != nil:
		items := n.Items[:0]
		for _, v := range n.Items {
			if !pruneNode(v, depth+1) {
				items = append(items, v)
			}
		}
		n.Items = items
		return len(items) == 0
	}
	return true
}

// dropNulls removes the null fields of objects, which the framework
// writes for fields it has no value for.
func dropNulls(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if x == nil {
				delete(v, k)
				continue
			}
			v[k] = dropNulls(x)
		}
	case []any:
		for i := range v {
			v[i] = dropNulls(v[i])
		}
	}
	return v
}

func (o Options) withDefaults() Options {
	if o.LaunchTimeout <= 0 {
		o.LaunchTimeout = pluginhost.DefaultLaunchTimeout
	}
	if o.CallTimeout <= 0 {
		o.CallTimeout = pluginhost.DefaultCallTimeout
	}
	if o.Log == nil {
		o.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return o
}
