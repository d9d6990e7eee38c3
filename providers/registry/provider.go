package registry

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/types"
)

// DataSourceType is a data source type: the fields a filter may compare
// and the fields it exports.
type DataSourceType struct {
	Name        string // aws/vpc
	Provider    string
	Description string
	// FilterFields are the documented fields of the external resource a
	// filter may compare (dot paths such as subnets[].availabilityZone);
	// the spec allows others, so an unknown one is at most a warning.
	FilterFields map[string]*DataSourceField
	Exports      map[string]*DataSourceField
}

// DataSourceField is a filterable or exported field.
type DataSourceField struct {
	Name        string
	Type        types.Type
	Description string
}

// FilterField returns the named filterable field.
func (d *DataSourceType) FilterField(name string) (*DataSourceField, bool) {
	f, ok := d.FilterFields[name]
	return f, ok
}

// Export returns the named exported field.
func (d *DataSourceType) Export(name string) (*DataSourceField, bool) {
	f, ok := d.Exports[name]
	return f, ok
}

// FilterFieldNames returns the filterable field names, sorted.
func (d *DataSourceType) FilterFieldNames() []string { return sortedKeys(d.FilterFields) }

// ExportNames returns the exported field names, sorted.
func (d *DataSourceType) ExportNames() []string { return sortedKeys(d.Exports) }

// ExportsType is the object type of every exported field (the type of
// `exports: "*"` in spec version 2025-11-02).
func (d *DataSourceType) ExportsType() types.Type {
	fields := make([]types.Field, 0, len(d.Exports))
	for _, n := range d.ExportNames() {
		f := d.Exports[n]
		fields = append(fields, types.Field{Name: n, Type: f.Type, Doc: f.Description})
	}
	return types.NewObject(false, fields...)
}

// CustomVariableType is a provider-defined variable type: an enumeration
// whose options a blueprint names by label (decisions 1 and 26).
type CustomVariableType struct {
	Name        string // aws/region, aws/ec2/instanceSize
	Provider    string
	Description string
	Options     []Option // in provider order
}

// Option is one allowed value of a custom variable type.
type Option struct {
	Label       string // what a blueprint writes
	Value       string // what the provider receives
	Description string
}

// Option returns the option with the given label.
func (c *CustomVariableType) Option(label string) (Option, bool) {
	for _, o := range c.Options {
		if o.Label == label {
			return o, true
		}
	}
	return Option{}, false
}

// Labels returns the option labels in provider order.
func (c *CustomVariableType) Labels() []string {
	out := make([]string, len(c.Options))
	for i, o := range c.Options {
		out[i] = o.Label
	}
	return out
}

// Function is a provider function callable in ${..}. The analysis layer
// merges these with the core function table.
type Function struct {
	Name        string
	Provider    string
	Signature   *types.Func
	ParamDocs   []string // parallel to Signature.Params
	Description string
	Examples    []string
}

// LinkDefinition describes a link a provider implements between two
// resource types, selected by labels (linkSelector.byLabel).
type LinkDefinition struct {
	From        string // resource type with the linkSelector
	To          string // resource type selected by label
	Description string
	// Priority names the resource deployed first ("from", "to" or "" for
	// no ordering); the plan engine orders stages by it.
	Priority    string
	Annotations map[string]*Annotation
	// PerFrom bounds how many resources of type To one resource of type
	// From links with, PerTo how many of type From one of type To links
	// with (the framework's CardinalityA and CardinalityB).
	PerFrom, PerTo Cardinality
	// Provides lists the guarantees the link establishes once deployed,
	// Requires those it needs established first (on the resource each
	// names). A requirement nothing provides is met by absence unless it
	// is MustExist.
	Provides, Requires []Capability
}

// Cardinality bounds the number of links one side of a link type takes
// part in; 0 is no bound.
type Cardinality struct {
	Min, Max int
}

// Capability is a named guarantee about one resource of a link: On says
// which ("from" or "to").
type Capability struct {
	Name      string
	On        string
	MustExist bool
}

// AnnotationNames returns the annotation names, sorted.
func (l *LinkDefinition) AnnotationNames() []string { return sortedKeys(l.Annotations) }

// Annotation is an annotation a link reads from a resource's
// metadata.annotations.
type Annotation struct {
	Name          string
	On            string // "from" or "to": which resource carries it
	Type          types.Type
	Default       any
	AllowedValues []any
	Required      bool
	Description   string
}

// Transform is a transform a provider implements (the blueprint's
// transform field).
type Transform struct {
	Name        string
	Provider    string
	Description string
}

// providerFile is the provider format of docs/providers.md.
type providerFile struct {
	Provider            string                    `json:"provider"`
	Description         string                    `json:"description"`
	DataSources         map[string]rawDataSource  `json:"dataSources"`
	CustomVariableTypes map[string]rawCustomType  `json:"customVariableTypes"`
	Functions           map[string]rawFunction    `json:"functions"`
	Links               []rawLink                 `json:"links"`
	RawTransforms       map[string]rawDescribed   `json:"transforms"`
	ResourceTypes       map[string]rawTypeOverlay `json:"resourceTypes"`
}

type rawDescribed struct {
	Description string `json:"description"`
}

type rawField struct {
	Type        string `json:"type"`
	Description string `json:"description"`
}

type rawDataSource struct {
	Description  string              `json:"description"`
	FilterFields map[string]rawField `json:"filterFields"`
	Exports      map[string]rawField `json:"exports"`
}

type rawCustomType struct {
	Description string   `json:"description"`
	Options     []Option `json:"options"`
}

type rawParam struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Optional    bool   `json:"optional"`
	Variadic    bool   `json:"variadic"`
	Description string `json:"description"`
}

type rawFunction struct {
	Description string     `json:"description"`
	Params      []rawParam `json:"params"`
	Result      string     `json:"result"`
	Examples    []string   `json:"examples"`
}

type rawAnnotation struct {
	On            string `json:"on"`
	Type          string `json:"type"`
	Default       any    `json:"default"`
	AllowedValues []any  `json:"allowedValues"`
	Required      bool   `json:"required"`
	Description   string `json:"description"`
}

type rawLink struct {
	From        string                   `json:"from"`
	To          string                   `json:"to"`
	Description string                   `json:"description"`
	Priority    string                   `json:"priority"`
	Annotations map[string]rawAnnotation `json:"annotations"`
	Cardinality struct {
		From Cardinality `json:"from"`
		To   Cardinality `json:"to"`
	} `json:"cardinality"`
	Provides []rawCapability `json:"provides"`
	Requires []rawCapability `json:"requires"`
}

type rawCapability struct {
	Name      string `json:"name"`
	On        string `json:"on"`
	MustExist bool   `json:"mustExist"`
}

// provider is the decoded content of one provider file.
type provider struct {
	name        string
	dataSources []*DataSourceType
	customTypes []*CustomVariableType
	functions   []*Function
	links       []*LinkDefinition
	transforms  []*Transform
	typeAliases map[string]string       // alias → the type it names
	overlays    map[string]*typeOverlay // by the type they change
}

// parseProvider decodes a provider file. Every problem is an error: the
// files are ours or a provider author's, and a typo should not pass.
func parseProvider(data []byte) (*provider, error) {
	var f providerFile
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("parse provider file: %w", err)
	}
	if f.Provider == "" {
		return nil, fmt.Errorf("provider file has no provider name")
	}
	p := &provider{name: f.Provider}
	var errs []string
	typ := func(where, expr string) types.Type {
		if expr == "" {
			return types.Any
		}
		t, err := ParseTypeExpr(expr)
		if err != nil {
			errs = append(errs, where+": "+err.Error())
			return types.Unknown
		}
		return t
	}
	fields := func(where string, raw map[string]rawField) map[string]*DataSourceField {
		out := make(map[string]*DataSourceField, len(raw))
		for n, rf := range raw {
			out[n] = &DataSourceField{Name: n, Type: typ(where+"."+n, rf.Type), Description: rf.Description}
		}
		return out
	}
	for _, name := range sortedKeys(f.DataSources) {
		rd := f.DataSources[name]
		p.dataSources = append(p.dataSources, &DataSourceType{
			Name: name, Provider: f.Provider, Description: rd.Description,
			FilterFields: fields(name+" filterFields", rd.FilterFields),
			Exports:      fields(name+" exports", rd.Exports),
		})
	}
	for _, name := range sortedKeys(f.CustomVariableTypes) {
		rc := f.CustomVariableTypes[name]
		opts := append([]Option(nil), rc.Options...)
		for i := range opts {
			if opts[i].Value == "" {
				opts[i].Value = opts[i].Label
			}
		}
		p.customTypes = append(p.customTypes, &CustomVariableType{Name: name, Provider: f.Provider, Description: rc.Description, Options: opts})
	}
	for _, name := range sortedKeys(f.Functions) {
		rf := f.Functions[name]
		fn := &Function{Name: name, Provider: f.Provider, Description: rf.Description, Examples: rf.Examples, Signature: &types.Func{Result: typ(name+" result", rf.Result)}}
		for _, rp := range rf.Params {
			fn.Signature.Params = append(fn.Signature.Params, types.FuncParam{Name: rp.Name, Type: typ(name+" "+rp.Name, rp.Type), Optional: rp.Optional, Variadic: rp.Variadic})
			fn.ParamDocs = append(fn.ParamDocs, rp.Description)
		}
		p.functions = append(p.functions, fn)
	}
	for _, rl := range f.Links {
		l := &LinkDefinition{From: rl.From, To: rl.To, Description: rl.Description, Priority: rl.Priority, Annotations: map[string]*Annotation{},
			PerFrom: rl.Cardinality.From, PerTo: rl.Cardinality.To}
		if l.From == "" || l.To == "" {
			errs = append(errs, "link without from or to")
			continue
		}
		where := "link " + l.From + "::" + l.To
		for _, c := range []Cardinality{l.PerFrom, l.PerTo} {
			if c.Min < 0 || c.Max < 0 || (c.Max > 0 && c.Min > c.Max) {
				errs = append(errs, fmt.Sprintf("%s: cardinality min %d, max %d", where, c.Min, c.Max))
			}
		}
		l.Provides, errs = capabilities(where, rl.Provides, errs)
		l.Requires, errs = capabilities(where, rl.Requires, errs)
		for n, ra := range rl.Annotations {
			on := ra.On
			if on == "" {
				on = "from"
			}
			l.Annotations[n] = &Annotation{Name: n, On: on, Type: typ("annotation "+n, ra.Type), Default: ra.Default, AllowedValues: ra.AllowedValues, Required: ra.Required, Description: ra.Description}
		}
		p.links = append(p.links, l)
	}
	for _, name := range sortedKeys(f.RawTransforms) {
		p.transforms = append(p.transforms, &Transform{Name: name, Provider: f.Provider, Description: f.RawTransforms[name].Description})
	}
	var overlayErrs []string
	p.typeAliases, p.overlays, overlayErrs = parseOverlays(f.ResourceTypes)
	errs = append(errs, overlayErrs...)
	if len(errs) > 0 {
		return nil, fmt.Errorf("provider %s: %s", f.Provider, strings.Join(errs, "; "))
	}
	return p, nil
}

// capabilities converts a link's provides or requires list, each
// capability on "from" or "to".
func capabilities(where string, raw []rawCapability, errs []string) ([]Capability, []string) {
	var out []Capability
	for _, rc := range raw {
		if rc.Name == "" || (rc.On != "from" && rc.On != "to") {
			errs = append(errs, fmt.Sprintf("%s: capability %q must have a name and be on \"from\" or \"to\"", where, rc.Name))
			continue
		}
		out = append(out, Capability(rc))
	}
	return out, errs
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
