package framework

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	bpcore "github.com/newstack-cloud/bluelink/libs/blueprint/core"
	"github.com/newstack-cloud/bluelink/libs/blueprint/provider"
)

// described is one plugin's answers in the registry's formats.
type described struct {
	Namespace string
	Provider  json.RawMessage
	Schemas   map[string]json.RawMessage
	Transform string
}

// ask calls f within timeout, and returns its error named by what; a
// panic in f or no answer in time is an error too.
// untilRegistered runs f again while the plugin answers that it does not
// know the host: the framework's plugin records the host's ID only once
// its registration call returns, and the host may call it first (the
// plugin is registered, and so callable, a moment before it knows whom
// it registered with). A plugin that goes on answering so costs the
// call's budget, as any other that does not answer.
func untilRegistered(c context.Context, f func(ctx context.Context) error) error {
	wait := 2 * time.Millisecond
	for {
		err := f(c)
		if err == nil || !strings.Contains(err.Error(), "invalid host ID") {
			return err
		}
		select {
		case <-c.Done():
			return err
		case <-time.After(wait):
		}
		wait = min(2*wait, 100*time.Millisecond)
	}
}

func ask(ctx context.Context, timeout time.Duration, what string, f func(ctx context.Context) error) error {
	deadline := time.Now().Add(timeout)
	c, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- fmt.Errorf("panicked: %v", r)
			}
		}()
		done <- untilRegistered(c, f)
	}()
	select {
	case err := <-done:
		if err == nil {
			return nil
		}
		// gRPC ends a call at the context's deadline on a timer of its
		// own, which may fire a moment before the context's: a failure
		// in the last tenth of the budget is the budget running out.
		if ctx.Err() == nil && (c.Err() != nil || time.Until(deadline) < timeout/10) {
			return fmt.Errorf("%s: no answer within %v; gave up", what, timeout)
		}
		return fmt.Errorf("%s: %w", what, err)
	case <-c.Done():
		if ctx.Err() != nil {
			return fmt.Errorf("%s: %w", what, ctx.Err())
		}
		return fmt.Errorf("%s: no answer within %v; gave up", what, timeout)
	}
}

// describe asks a provider what it offers, each question within
// timeout, and converts the answers to the registry's formats.
func describe(ctx context.Context, prov provider.Provider, timeout time.Duration) (*described, error) {
	ask := func(what string, f func(ctx context.Context) error) error { return ask(ctx, timeout, what, f) }
	p := &described{Schemas: map[string]json.RawMessage{}}
	var ns string
	if err := ask("namespace", func(c context.Context) (err error) { ns, err = prov.Namespace(c); return }); err != nil {
		return nil, err
	}
	if !validName(ns) {
		return nil, fmt.Errorf("namespace %q is not a provider name", ns)
	}
	p.Namespace = ns
	file := providerFile{Provider: ns}

	var types []string
	if err := ask("resource types", func(c context.Context) (err error) { types, err = prov.ListResourceTypes(c); return }); err != nil {
		return nil, err
	}
	slices.Sort(types)
	for _, t := range types {
		if !strings.HasPrefix(t, ns+"/") || !validType(t) {
			return nil, fmt.Errorf("resource type %q is not a type of provider %q", t, ns)
		}
		var spec *provider.ResourceSpecDefinition
		var docs *provider.ResourceGetTypeDescriptionOutput
		err := ask("resource type "+t, func(c context.Context) error {
			r, err := prov.Resource(c, t)
			if err != nil {
				return err
			}
			out, err := r.GetSpecDefinition(c, &provider.ResourceGetSpecDefinitionInput{})
			if err != nil {
				return err
			}
			if out == nil || out.SpecDefinition == nil || out.SpecDefinition.Schema == nil {
				return fmt.Errorf("no spec definition")
			}
			spec = out.SpecDefinition
			docs, err = r.GetTypeDescription(c, &provider.ResourceGetTypeDescriptionInput{})
			return err
		})
		if err != nil {
			return nil, err
		}
		data, flags, err := resourceSchema(t, spec, docs)
		if err != nil {
			return nil, fmt.Errorf("resource type %s: %w", t, err)
		}
		p.Schemas[t] = data
		if len(flags) > 0 {
			if file.ResourceTypes == nil {
				file.ResourceTypes = map[string]rawTypeFlags{}
			}
			file.ResourceTypes[t] = rawTypeFlags{Fields: flags}
		}
	}

	var links []string
	if err := ask("link types", func(c context.Context) (err error) { links, err = prov.ListLinkTypes(c); return }); err != nil {
		return nil, err
	}
	slices.Sort(links)
	for _, lt := range links {
		a, b, ok := strings.Cut(lt, "::")
		if !ok || !validType(a) || !validType(b) {
			return nil, fmt.Errorf("link type %q is not of the form typeA::typeB", lt)
		}
		var l rawLink
		err := ask("link type "+lt, func(c context.Context) error {
			link, err := prov.Link(c, a, b)
			if err != nil {
				return err
			}
			l, err = describeLink(c, link, a, b)
			return err
		})
		if err != nil {
			return nil, err
		}
		file.Links = append(file.Links, l)
	}

	var varTypes []string
	if err := ask("custom variable types", func(c context.Context) (err error) { varTypes, err = prov.ListCustomVariableTypes(c); return }); err != nil {
		return nil, err
	}
	for _, vt := range varTypes {
		if !validType(vt) {
			return nil, fmt.Errorf("custom variable type %q is not a type name", vt)
		}
		err := ask("custom variable type "+vt, func(c context.Context) error {
			cv, err := prov.CustomVariableType(c, vt)
			if err != nil {
				return err
			}
			ct := rawCustomType{}
			if d, err := cv.GetDescription(c, &provider.CustomVariableTypeGetDescriptionInput{}); err == nil && d != nil {
				ct.Description = firstOf(d.MarkdownDescription, d.PlainTextDescription)
			}
			opts, err := cv.Options(c, &provider.CustomVariableTypeOptionsInput{})
			if err != nil {
				return err
			}
			if opts != nil {
				for _, label := range sortedKeys(opts.Options) {
					o := opts.Options[label]
					ro := rawOption{Label: label}
					if o != nil {
						ro.Description = firstOf(o.MarkdownDescription, o.Description)
						if o.Value != nil {
							ro.Value = o.Value.ToString()
						}
					}
					ct.Options = append(ct.Options, ro)
				}
			}
			if file.CustomVariableTypes == nil {
				file.CustomVariableTypes = map[string]rawCustomType{}
			}
			file.CustomVariableTypes[vt] = ct
			return nil
		})
		if err != nil {
			return nil, err
		}
	}

	var dataSources []string
	if err := ask("data source types", func(c context.Context) (err error) { dataSources, err = prov.ListDataSourceTypes(c); return }); err != nil {
		return nil, err
	}
	for _, dt := range dataSources {
		if !validType(dt) {
			return nil, fmt.Errorf("data source type %q is not a type name", dt)
		}
		err := ask("data source type "+dt, func(c context.Context) error {
			ds, err := prov.DataSource(c, dt)
			if err != nil {
				return err
			}
			rd := rawDataSource{Exports: map[string]rawField{}, FilterFields: map[string]rawField{}}
			if d, err := ds.GetTypeDescription(c, &provider.DataSourceGetTypeDescriptionInput{}); err == nil && d != nil {
				rd.Description = firstOf(d.MarkdownDescription, d.PlainTextDescription)
			}
			spec, err := ds.GetSpecDefinition(c, &provider.DataSourceGetSpecDefinitionInput{})
			if err != nil {
				return err
			}
			if spec != nil && spec.SpecDefinition != nil {
				for name, f := range spec.SpecDefinition.Fields {
					if f != nil {
						rd.Exports[name] = rawField{Type: dataSourceType(f), Description: firstOf(f.FormattedDescription, f.Description)}
					}
				}
			}
			filters, err := ds.GetFilterFields(c, &provider.DataSourceGetFilterFieldsInput{})
			if err == nil && filters != nil {
				for name, f := range filters.FilterFields {
					if f != nil {
						rd.FilterFields[name] = rawField{Type: "string", Description: firstOf(f.FormattedDescription, f.Description)}
					}
				}
			}
			if file.DataSources == nil {
				file.DataSources = map[string]rawDataSource{}
			}
			file.DataSources[dt] = rd
			return nil
		})
		if err != nil {
			return nil, err
		}
	}

	var fns []string
	if err := ask("functions", func(c context.Context) (err error) { fns, err = prov.ListFunctions(c); return }); err != nil {
		return nil, err
	}
	slices.Sort(fns)
	for _, name := range fns {
		if !validName(name) {
			return nil, fmt.Errorf("function %q is not a function name", name)
		}
		err := ask("function "+name, func(c context.Context) error {
			fn, err := prov.Function(c, name)
			if err != nil {
				return err
			}
			d, err := fn.GetDefinition(c, &provider.FunctionGetDefinitionInput{Params: validationParams()})
			if err != nil {
				return err
			}
			if d == nil || d.Definition == nil {
				return errors.New("no definition")
			}
			rf, err := functionOf(d.Definition)
			if err != nil {
				return err
			}
			if file.Functions == nil {
				file.Functions = map[string]rawFunction{}
			}
			file.Functions[name] = rf
			return nil
		})
		if err != nil {
			return nil, err
		}
	}

	data, err := json.Marshal(file)
	if err != nil {
		return nil, err
	}
	p.Provider = data
	return p, nil
}

// describeLink reads a link type's documentation, priority and
// annotations.
func describeLink(c context.Context, link provider.Link, a, b string) (rawLink, error) {
	l := rawLink{From: a, To: b}
	lc := provider.NewLinkContextFromParams(validationParams())
	if d, err := link.GetTypeDescription(c, &provider.LinkGetTypeDescriptionInput{LinkContext: lc}); err == nil && d != nil {
		l.Description = firstOf(d.MarkdownDescription, d.PlainTextDescription, d.MarkdownSummary, d.PlainTextSummary)
	}
	if pr, err := link.GetPriorityResource(c, &provider.LinkGetPriorityResourceInput{LinkContext: lc}); err == nil && pr != nil {
		switch pr.PriorityResource {
		case provider.LinkPriorityResourceA:
			l.Priority = "from"
		case provider.LinkPriorityResourceB:
			l.Priority = "to"
		}
	}
	// Cardinality and capabilities are newer than some plugins: a plugin
	// that does not answer them declares none.
	if card, err := link.GetCardinality(c, &provider.LinkGetCardinalityInput{LinkContext: lc}); err == nil && card != nil {
		l.Cardinality = &rawCardinality{From: rawBound(card.CardinalityA), To: rawBound(card.CardinalityB)}
		if l.Cardinality.From == nil && l.Cardinality.To == nil {
			l.Cardinality = nil
		}
	}
	if caps, err := link.GetCapabilities(c, &provider.LinkGetCapabilitiesInput{LinkContext: lc}); err == nil && caps != nil {
		l.Provides = rawCapabilities(caps.Provides)
		l.Requires = rawCapabilities(caps.Requires)
	}
	ann, err := link.GetAnnotationDefinitions(c, &provider.LinkGetAnnotationDefinitionsInput{LinkContext: lc})
	if err != nil {
		return l, err
	}
	if ann == nil {
		return l, nil
	}
	for _, key := range sortedKeys(ann.AnnotationDefinitions) {
		def := ann.AnnotationDefinitions[key]
		if def == nil {
			continue
		}
		name := def.Name
		if name == "" {
			_, name, _ = strings.Cut(key, "::")
		}
		ra := rawAnnotation{Type: scalarTypeName(def.Type), Description: def.Description, Required: def.Required}
		switch def.AppliesTo {
		case provider.LinkAnnotationResourceB:
			ra.On = "to"
		default:
			ra.On = "from"
		}
		if def.DefaultValue != nil {
			ra.Default = scalarJSON(def.DefaultValue)
		}
		for _, v := range def.AllowedValues {
			if v != nil {
				ra.AllowedValues = append(ra.AllowedValues, scalarJSON(v))
			}
		}
		if l.Annotations == nil {
			l.Annotations = map[string]rawAnnotation{}
		}
		l.Annotations[name] = ra
	}
	return l, nil
}

// The provider file's shape (docs/providers.md), written.
type providerFile struct {
	Provider            string                   `json:"provider"`
	DataSources         map[string]rawDataSource `json:"dataSources,omitempty"`
	CustomVariableTypes map[string]rawCustomType `json:"customVariableTypes,omitempty"`
	Links               []rawLink                `json:"links,omitempty"`
	ResourceTypes       map[string]rawTypeFlags  `json:"resourceTypes,omitempty"`
	Functions           map[string]rawFunction   `json:"functions,omitempty"`
	Transforms          map[string]rawDescribed  `json:"transforms,omitempty"`
}

// rawTypeFlags is a provider file's overlay of a resource type whose
// fields carry flags (rawFieldFlags).
type rawTypeFlags struct {
	Fields map[string]rawFieldFlags `json:"fields"`
}

type rawDescribed struct {
	Description string `json:"description,omitempty"`
}

type rawField struct {
	Type        string `json:"type"`
	Description string `json:"description,omitempty"`
}

type rawDataSource struct {
	Description  string              `json:"description,omitempty"`
	FilterFields map[string]rawField `json:"filterFields,omitempty"`
	Exports      map[string]rawField `json:"exports,omitempty"`
}

type rawOption struct {
	Label       string `json:"label"`
	Value       string `json:"value,omitempty"`
	Description string `json:"description,omitempty"`
}

type rawCustomType struct {
	Description string      `json:"description,omitempty"`
	Options     []rawOption `json:"options"`
}

type rawAnnotation struct {
	On            string `json:"on"`
	Type          string `json:"type"`
	Default       any    `json:"default,omitempty"`
	AllowedValues []any  `json:"allowedValues,omitempty"`
	Required      bool   `json:"required,omitempty"`
	Description   string `json:"description,omitempty"`
}

type rawLink struct {
	From        string                   `json:"from"`
	To          string                   `json:"to"`
	Description string                   `json:"description,omitempty"`
	Priority    string                   `json:"priority,omitempty"`
	Annotations map[string]rawAnnotation `json:"annotations,omitempty"`
	Cardinality *rawCardinality          `json:"cardinality,omitempty"`
	Provides    []rawCapability          `json:"provides,omitempty"`
	Requires    []rawCapability          `json:"requires,omitempty"`
}

type rawCardinality struct {
	From *rawCardinalityBound `json:"from,omitempty"`
	To   *rawCardinalityBound `json:"to,omitempty"`
}

type rawCardinalityBound struct {
	Min int `json:"min,omitempty"`
	Max int `json:"max,omitempty"`
}

type rawCapability struct {
	Name      string `json:"name"`
	On        string `json:"on"`
	MustExist bool   `json:"mustExist,omitempty"`
}

// rawBound writes one side's cardinality; nil for no bound (negative
// numbers, which the framework reads as none, included).
func rawBound(c provider.LinkCardinality) *rawCardinalityBound {
	b := &rawCardinalityBound{Min: max(c.Min, 0), Max: max(c.Max, 0)}
	if b.Min == 0 && b.Max == 0 {
		return nil
	}
	if b.Max > 0 && b.Min > b.Max {
		b.Min = b.Max
	}
	return b
}

// rawCapabilities writes capabilities on a side; one on neither side, or
// without a name, matches nothing in the framework and is left out.
func rawCapabilities(cs []provider.LinkCapability) []rawCapability {
	var out []rawCapability
	for _, c := range cs {
		rc := rawCapability{Name: c.Name, MustExist: c.MustExist}
		switch c.Resource {
		case provider.LinkPriorityResourceA:
			rc.On = "from"
		case provider.LinkPriorityResourceB:
			rc.On = "to"
		}
		if rc.Name != "" && rc.On != "" {
			out = append(out, rc)
		}
	}
	return out
}

func scalarTypeName(t bpcore.ScalarType) string {
	switch t {
	case bpcore.ScalarTypeInteger:
		return "integer"
	case bpcore.ScalarTypeFloat:
		return "float"
	case bpcore.ScalarTypeBool:
		return "boolean"
	}
	return "string"
}

func dataSourceType(f *provider.DataSourceSpecSchema) string {
	switch f.Type {
	case provider.DataSourceSpecTypeInteger:
		return "integer"
	case provider.DataSourceSpecTypeFloat:
		return "float"
	case provider.DataSourceSpecTypeBoolean:
		return "boolean"
	case provider.DataSourceSpecTypeArray:
		if f.Items != nil {
			return "array[" + dataSourceType(f.Items) + "]"
		}
		return "array[any]"
	}
	return "string"
}

func firstOf(s ...string) string {
	for _, x := range s {
		if strings.TrimSpace(x) != "" {
			return x
		}
	}
	return ""
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// validName: a provider namespace (one segment of letters, digits, -, _).
func validName(s string) bool {
	if s == "" || len(s) > 100 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// validType: namespace/segment[/segment...].
func validType(s string) bool {
	parts := strings.Split(s, "/")
	if len(parts) < 2 {
		return false
	}
	for _, p := range parts {
		if !validName(p) {
			return false
		}
	}
	return true
}

// validationParams are the blueprint parameters of a validation: no
// configuration, and the context variable that tells a plugin it is not
// deploying.
func validationParams() bpcore.BlueprintParams {
	return bpcore.NewDefaultParams(nil, nil, map[string]*bpcore.ScalarValue{bpcore.ValidationContextVariableName: bpcore.ScalarFromBool(true)}, nil)
}
