package analysis

import (
	"github.com/blueprint-ls/blueprint-ls/providers/registry"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/subst"
	"github.com/blueprint-ls/blueprint-ls/types"
)

// metadataType is what .metadata of a resource offers.
var metadataType = types.NewObject(false,
	types.Field{Name: "displayName", Type: types.String, Doc: "The name shown for the resource in UI and CLI tools."},
	types.Field{Name: "labels", Type: &types.Map{Elem: types.String}, Doc: "Labels that link selectors match."},
	types.Field{Name: "annotations", Type: &types.Map{Elem: types.Any}, Doc: "Extra context for links and providers."},
	types.Field{Name: "custom", Type: &types.Map{Elem: types.Any}, Doc: "Free-form metadata outside the spec."},
)

func (a *analyzer) refResource(e *subst.Ref, ref *Reference, s *Site) types.Type {
	r := a.target(e, ref, ResourceSymbol, codeUnknownResource)
	if r == nil {
		return types.Unknown
	}
	path := e.Path
	hasEach := r.Resource.Each != nil
	if hasEach {
		if len(path) == 0 {
			return &types.Array{Elem: a.resourceObjectType(r)}
		}
		switch path[0].(type) {
		case *subst.IndexAccessor, *subst.FirstAccessor:
			path = path[1:]
		case *subst.BadAccessor:
			return types.Unknown
		default:
			rest := subst.Print(&subst.Ref{Namespace: subst.Resources, Name: "x", Path: path})[len("resources.x"):]
			a.report(codeResourceIndex.New(path[0].Range(), "resource %q is a template (it has each): pick an instance first, as in resources.%s[0]%s or resources.%s[]%s",
				e.Name, e.Name, rest, e.Name, rest))
			return types.Unknown
		}
	} else if len(path) > 0 {
		switch path[0].(type) {
		case *subst.IndexAccessor, *subst.FirstAccessor:
			a.report(codeResourceIndex.New(path[0].Range(), "resource %q has no each, so it is a single resource and can not be indexed", e.Name))
			return types.Unknown
		}
	}
	if len(path) == 0 {
		return a.resourceObjectType(r)
	}
	name, rng := accessorName(path[0])
	if name == "" {
		return types.Unknown
	}
	ref.FieldName, ref.FieldRange = name, rng
	rt := a.resourceType(r)
	what := exprLabel{"resources.", e.Name, ".", name}
	switch name {
	case "spec":
		spec := a.specType(r, rt)
		if d, ok := stateNotSpec(spec, rt, path, rng, e.Name); ok {
			a.report(d)
			return types.Unknown
		}
		return a.walkPath(spec, path[1:], what)
	case "state":
		if rt == nil {
			return types.Unknown
		}
		return a.walkPath(rt.StateType(), path[1:], what)
	case "metadata":
		if len(path) == 1 {
			a.report(wholeMetadataDiag(e.Name, path[0]))
			return types.Unknown
		}
		if n, r2 := accessorName(path[1]); n != "" {
			if _, ok := metadataType.Field(n); !ok {
				d := unknownFieldDiag(r2, n, "resource metadata", metadataType.FieldNames())
				d.Code, d.Severity = codeResourceMetadata.ID, codeResourceMetadata.Severity
				a.report(d)
				return types.Unknown
			}
		}
		return a.walkPath(a.metadataTypeOf(r), path[1:], what)
	}
	d := unknownFieldDiag(rng, name, "resource "+quote(e.Name), []string{"spec", "state", "metadata"})
	d.Code, d.Severity = codeResourceProperty.ID, codeResourceProperty.Severity
	d.Message = "resource fields are read through .spec, .state or .metadata, not ." + name + trimPrefixMsg(d.Message)
	a.report(d)
	return types.Unknown
}

// resourceObjectType is the type of a whole resource.
func (a *analyzer) resourceObjectType(r *Symbol) types.Type {
	rt := a.resourceType(r)
	state := types.Type(types.Unknown)
	if rt != nil {
		state = rt.StateType()
	}
	return types.NewObject(false,
		types.Field{Name: "spec", Type: a.specType(r, rt)},
		types.Field{Name: "state", Type: state},
		types.Field{Name: "metadata", Type: a.metadataTypeOf(r)},
	)
}

// wholeMetadataDiag reports resources.x.metadata read whole: the spec
// says metadata "fields must be accessed from either .metadata.labels,
// .metadata.annotations, or .metadata.custom" (or .metadata.displayName).
func wholeMetadataDiag(name string, acc subst.Accessor) source.Diagnostic {
	d := codeResourceMetadata.New(acc.Range(), "resource metadata is read by field: resources.%s.metadata.displayName, .labels, .annotations or .custom", name)
	at := acc.Range().End
	for _, f := range metadataType.FieldNames() {
		d.Suggestions = append(d.Suggestions, source.Suggestion{Title: "Read ." + f, Edits: []source.Edit{{Range: source.R(at, at), NewText: "." + f}}})
	}
	return d
}

// metadataTypeOf is what .metadata of resource r offers: its labels,
// annotations and custom metadata have exactly the keys the blueprint
// writes for r (none when it writes none), so a reference to a label or
// annotation r does not have is reported.
func (a *analyzer) metadataTypeOf(r *Symbol) types.Type {
	if t, ok := a.metaTypes[r]; ok {
		return t
	}
	var labels, annotations, custom types.Type = types.NewObject(false), types.NewObject(false), types.NewObject(false)
	if m := r.Resource.Metadata; m != nil {
		if n := m.Labels.Node(); n != nil {
			labels = a.literalMapType(n)
		}
		if n := m.Annotations.Node(); n != nil {
			annotations = a.literalMapType(n)
		}
		if n := m.Custom.Node(); n != nil {
			custom = a.literalMapType(n)
		}
	}
	fs := append([]types.Field(nil), metadataType.Fields...)
	for i := range fs {
		switch fs[i].Name {
		case "labels":
			fs[i].Type = labels
		case "annotations":
			fs[i].Type = annotations
		case "custom":
			fs[i].Type = custom
		}
	}
	t := types.NewObject(false, fs...)
	if a.metaTypes == nil {
		a.metaTypes = map[*Symbol]types.Type{}
	}
	a.metaTypes[r] = t
	return t
}

// literalMapType is the type of a metadata mapping as written; anything
// else (a mistake schema reports) is an open mapping.
func (a *analyzer) literalMapType(n schema.Node) types.Type {
	if _, ok := n.(*schema.Mapping); ok {
		return a.literalType(n)
	}
	return &types.Map{Elem: types.Any}
}

// specType is the registry's spec type when the resource type is known,
// otherwise the type of the literal spec as written.
func (a *analyzer) specType(r *Symbol, rt *registry.ResourceType) types.Type {
	if rt != nil && rt.Err == nil {
		return rt.SpecType()
	}
	if r.Resource.Spec == nil || r.Resource.Spec.Node() == nil {
		return types.Unknown
	}
	return a.literalType(r.Resource.Spec.Node())
}

// literalType is the type of a node as written: objects for mappings,
// arrays for sequences, the scalar's tag, a substitution's inferred type.
func (a *analyzer) literalType(n schema.Node) types.Type {
	switch n := n.(type) {
	case *schema.Mapping:
		fs := make([]types.Field, 0, len(n.Entries))
		for _, e := range n.Entries {
			if e.Key == nil || e.Value == nil {
				continue
			}
			fs = append(fs, types.Field{Name: e.Key.Value, Type: a.literalType(e.Value)})
		}
		return types.NewObject(false, fs...)
	case *schema.Sequence:
		ts := make([]types.Type, 0, len(n.Items))
		for _, it := range n.Items {
			ts = append(ts, a.literalType(it))
		}
		return &types.Array{Elem: joinOrAny(ts)}
	case *schema.Scalar:
		if site := a.siteOf(n); site != nil {
			if t := a.typeSoFar(site); t != nil {
				return t
			}
			return types.Any // not checked yet (or a cycle): do not guess
		}
		switch n.Tag {
		case schema.IntTag:
			return types.Integer
		case schema.FloatTag:
			return types.Float
		case schema.BoolTag:
			return types.Boolean
		case schema.NullTag:
			return types.None
		}
		return types.String
	}
	return types.Unknown
}

// stateNotSpec reports a spec reference whose first field the spec lacks
// but the resource's state has (arn, an attribute of the deployed
// resource): the message says to read it through .state, and the fix
// replaces spec (at specRng) with state.
func stateNotSpec(spec types.Type, rt *registry.ResourceType, path []subst.Accessor, specRng source.Range, resource string) (source.Diagnostic, bool) {
	obj, ok := spec.(*types.Object)
	if rt == nil || !ok || obj.Open || len(path) < 2 {
		return source.Diagnostic{}, false
	}
	name, rng := accessorName(path[1])
	if name == "" {
		return source.Diagnostic{}, false
	}
	if _, inSpec := obj.Field(name); inSpec {
		return source.Diagnostic{}, false
	}
	state, ok := rt.StateType().(*types.Object)
	if !ok {
		return source.Diagnostic{}, false
	}
	if _, inState := state.Field(name); !inState {
		return source.Diagnostic{}, false
	}
	d := codeUnknownField.New(rng, "resources.%s.spec has no field %q; %s is an attribute of the deployed resource: read it as resources.%s.state.%s", resource, name, name, resource, name)
	d.Suggestions = []source.Suggestion{{Title: "Read it through state", Edits: []source.Edit{{Range: specRng, NewText: "state"}}}}
	return d, true
}
