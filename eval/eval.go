package eval

import (
	"context"
	"path/filepath"
	"sort"
	"sync"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/funcs"
	"github.com/blueprint-ls/blueprint-ls/providers/registry"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// CodeRuntime is a substitution that failed while being evaluated with
// the given inputs (an index out of range, malformed JSON, a wrong
// argument for the actual value).
var CodeRuntime = source.NewCode("eval-runtime-error", source.Error,
	"A substitution failed when evaluated with the given inputs.",
	`value: ${fromjson(variables.config, "/missing")}`)

// Options tune evaluation. The zero value evaluates with the built-in
// providers, the core functions and an environment rooted at the
// blueprint's folder with the network off.
type Options struct {
	Registry *registry.Registry
	Funcs    *funcs.Table
	// Env is the environment of file(), cwd(), datetime(), uuid() and
	// http_resource(); nil means funcs.DefaultEnv rooted at the
	// blueprint's folder (file() confined to it, network off).
	Env funcs.Env
	// Reuse decides which deployed state fields of the resource
	// instances in Inputs.State references read; nil keeps the state of
	// unchanged instances only (same type, equal and fully known spec).
	Reuse ReuseFunc
	// Partial makes the Blueprint partial: it lists only the resources
	// Resources names, in that order (what they reference is evaluated
	// as needed, not listed), and no values, data sources, children or
	// exports. The editor's rules re-evaluate the resources an edit can
	// change this way: a list, not a test of every name, so that the
	// evaluation costs what it lists, not the blueprint's size.
	Partial   bool
	Resources []string
	// Known, when set, gives the instances of resources evaluated
	// before and known not to have changed (the editor's memo): a
	// reference to one reads them instead of evaluating it again. Never
	// consulted for the resources Resources lists.
	Known func(name string) ([]*Resource, bool)
	// Values and Exports, with Partial set, list the values or the
	// exports too (data sources and children are evaluated only as
	// references need them): the editor's rules compare the values with
	// the last version's and check the exports.
	Values, Exports bool
	// Lazy leaves each resource instance's spec and metadata fields to
	// be evaluated when first read: by a reference, or through
	// Resource.Field, FullSpec, MetadataField and FullMetadata, which
	// readers of the result must then use (Spec and Metadata are none
	// until read whole). The problems of fields nobody reads are not
	// reported. check's rules read a few fields of each spec.
	// Ignored with prior state, Resources or Known, and when the
	// analysis reports a reference cycle.
	Lazy bool
}

// Blueprint is a materialised blueprint: every definition evaluated with
// the inputs. Values only known after deployment are unknown values;
// secrets and values derived from them are marked sensitive (render them
// with JSON, Text or Plain, which mask them).
type Blueprint struct {
	Path   string
	Result *analysis.Result

	Variables   []*Named
	Values      []*Named
	DataSources []*DataSource
	// Resources lists resource instances in source order, an `each`
	// resource expanded into name[0], name[1], ...; resources whose
	// condition is false are kept with Condition set to Excluded.
	Resources []*Resource
	Children  []*Child
	Exports   []*Named

	// Diagnostics are the input problems and runtime errors, sorted.
	Diagnostics []source.Diagnostic
}

// Named is a named, evaluated definition (variable, value, export).
type Named struct {
	Name  string
	Value funcs.Value
}

// DataSource is an evaluated data source: its exported fields, each from
// the fixtures or unknown.
type DataSource struct {
	Name   string
	Type   string
	Fields []*Named
}

// Presence says whether a resource exists after deployment, as decided by
// its condition.
type Presence int

const (
	Included         Presence = iota // no condition, or it is true
	Excluded                         // the condition is false
	ConditionUnknown                 // the condition is only known after deploy
)

func (p Presence) String() string {
	switch p {
	case Excluded:
		return "excluded"
	case ConditionUnknown:
		return "unknown"
	}
	return "included"
}

// Resource is one resource instance.
type Resource struct {
	// Name is the instance name: the resource's name, or name[i] for an
	// instance of an `each` resource (name[*] when the list is only known
	// after deployment).
	Name string
	// Template is the resource's name in the blueprint.
	Template string
	// Index is the instance's index, -1 without each.
	Index int
	// EachUnknown is set on the single placeholder instance of a
	// resource whose each list is only known after deployment.
	EachUnknown bool
	Type        string
	Condition   Presence
	// Spec is a mapping (empty when the resource has no spec); with
	// Options.Lazy, none until FullSpec (read Field or FullSpec).
	Spec funcs.Value
	// Metadata is a mapping: displayName, labels, annotations, custom;
	// with Options.Lazy, none until FullMetadata (read MetadataField or
	// FullMetadata).
	Metadata funcs.Value
	// RemovalPolicy is "retain" or "delete" (the default).
	RemovalPolicy string
	// DependsOn lists the names of the resources named in dependsOn.
	DependsOn []string
	Symbol    *analysis.Symbol

	// reuse, prior and identity say which deployed state fields
	// references read (see Reuse): prior is nil when none.
	reuse    Reuse
	prior    *ResourceState
	identity map[string]bool
	// lazy is what of the spec and the metadata is evaluated, with
	// Options.Lazy.
	lazy *lazyInstance
}

// Child is an evaluated child blueprint.
type Child struct {
	Name string
	Path string
	// Variables are the values the parent passes.
	Variables funcs.Value
	// Blueprint is the child's evaluation; nil when it could not be
	// loaded (the analysis reports why).
	Blueprint *Blueprint
}

// Resource returns the resource instance with the given name, or nil.
func (b *Blueprint) Resource(name string) *Resource {
	for _, r := range b.Resources {
		if r.Name == name {
			return r
		}
	}
	return nil
}

// Export returns the export with the given name, or nil.
func (b *Blueprint) Export(name string) *Named {
	for _, e := range b.Exports {
		if e.Name == name {
			return e
		}
	}
	return nil
}

// Eval materialises the analysed blueprint res with the inputs. It reports
// problems as diagnostics on the result; it fails only when ctx is done.
func Eval(ctx context.Context, res *analysis.Result, in Inputs, opts Options) (*Blueprint, error) {
	e := newEvaluator(ctx, res, in, opts)
	bp := e.run()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return bp, nil
}

func newEvaluator(ctx context.Context, res *analysis.Result, in Inputs, opts Options) *evaluator {
	if opts.Registry == nil {
		opts.Registry = analysis.BuiltinRegistry()
	}
	if opts.Funcs == nil {
		opts.Funcs = analysis.DefaultTable(opts.Registry)
	}
	env := opts.Env
	if env == nil {
		root := "."
		if res.Path != "" {
			root = filepath.Dir(res.Path)
		}
		if abs, err := filepath.Abs(root); err == nil {
			root = abs
		}
		env = funcs.DefaultEnv(root)
	}
	e := &evaluator{
		ctx:       ctx,
		res:       res,
		bp:        res.Blueprint,
		in:        in,
		opts:      opts,
		fc:        funcs.NewCtx(ctx, opts.Funcs, env),
		values:    map[string]*memo{},
		resources: make(map[string]*resourceMemo, resourceCount(res, opts)),
		children:  map[string]*childMemo{},
	}
	if opts.Partial {
		e.listed = make(map[string]bool, len(opts.Resources))
		for _, name := range opts.Resources {
			e.listed[name] = true
		}
	}
	e.lazy = e.lazyOK()
	return e
}

// resourceCount is how many resources an evaluation of res with opts
// reaches: every one, unless it is partial (few, then).
func resourceCount(res *analysis.Result, opts Options) int {
	if res.Blueprint == nil || opts.Partial {
		return len(opts.Resources)
	}
	return res.Blueprint.Resources.Len()
}

type evaluator struct {
	ctx  context.Context
	res  *analysis.Result
	bp   *schema.Blueprint
	in   Inputs
	opts Options
	fc   *funcs.Ctx

	vars      map[string]funcs.Value
	values    map[string]*memo
	resources map[string]*resourceMemo
	children  map[string]*childMemo
	// listed holds the names a partial evaluation lists (Options.Partial):
	// never read from Options.Known.
	listed map[string]bool
	diags  []source.Diagnostic
	// depth counts the definitions being evaluated; with adhoc set,
	// problems found outside any definition (in an ad-hoc template) go
	// there instead of diags.
	depth int
	adhoc *[]source.Diagnostic
	// lazy is Options.Lazy when it applies (lazyOK); mu guards the
	// evaluation of what it left once Eval has returned (the rules read
	// specs from several goroutines).
	lazy bool
	mu   sync.Mutex
}

// memo is one lazily evaluated definition; busy guards against cycles
// (which analysis reports), done marks the value as final.
type memo struct {
	busy, done bool
	v          funcs.Value
}

func (e *evaluator) run() *Blueprint {
	out := &Blueprint{Path: e.res.Path, Result: e.res}
	if e.bp == nil {
		return out
	}
	var ds []source.Diagnostic
	e.vars, ds = resolveVariables(e.bp, e.in.Vars, e.opts.Registry)
	e.diags = append(e.diags, ds...)
	for _, v := range e.bp.Variables.Items() {
		out.Variables = append(out.Variables, &Named{Name: v.Name, Value: e.vars[v.Name]})
	}
	if e.opts.Partial {
		for _, name := range e.opts.Resources {
			if e.ctx.Err() != nil {
				return out
			}
			out.Resources = append(out.Resources, e.resource(name).instances...)
		}
		e.definitions(out, e.opts.Values, e.opts.Exports)
		out.Diagnostics = e.diags
		source.SortDiagnostics(out.Diagnostics)
		return out
	}
	for _, v := range e.bp.Values.Items() {
		out.Values = append(out.Values, &Named{Name: v.Name, Value: e.value(v.Name)})
	}
	for _, d := range e.bp.DataSources.Items() {
		out.DataSources = append(out.DataSources, e.dataSource(d))
	}
	for _, r := range e.bp.Resources.Items() {
		if e.ctx.Err() != nil {
			return out
		}
		out.Resources = append(out.Resources, e.resourceDef(r.Name, r).instances...)
	}
	for _, inc := range e.bp.Include.Items() {
		out.Children = append(out.Children, e.child(inc.Name).child)
	}
	for _, x := range e.bp.Exports.Items() {
		out.Exports = append(out.Exports, &Named{Name: x.Name, Value: e.export(x)})
	}
	out.Diagnostics = e.diags
	source.SortDiagnostics(out.Diagnostics)
	return out
}

// definitions lists the values and the exports of a partial evaluation
// (Options.Values, Options.Exports).
func (e *evaluator) definitions(out *Blueprint, values, exports bool) {
	for _, v := range e.bp.Values.Items() {
		if values {
			out.Values = append(out.Values, &Named{Name: v.Name, Value: e.value(v.Name)})
		}
	}
	for _, x := range e.bp.Exports.Items() {
		if exports {
			out.Exports = append(out.Exports, &Named{Name: x.Name, Value: e.export(x)})
		}
	}
}

// value evaluates a value definition once.
func (e *evaluator) value(name string) funcs.Value {
	m := e.values[name]
	if m == nil {
		m = &memo{}
		e.values[name] = m
	}
	if m.done {
		return m.v
	}
	if m.busy {
		return funcs.Unknown("values." + name + " (cycle)")
	}
	def := e.bp.Values.Get(name)
	if def == nil {
		return funcs.None
	}
	m.busy = true
	e.depth++
	defer func() { e.depth-- }()
	v := e.node(def.Value.Node(), nil)
	if typ := def.Type.Text(); typ != "" {
		if sc := def.Value.Scalar(); sc != nil && !e.hasSubs(sc) {
			if c, ok := coerce(v, typ, true); ok {
				v = c // decision 2: "15" for an integer value
			}
		}
	}
	if def.Secret.Bool() {
		v = v.WithSensitive(true)
	}
	m.v, m.busy, m.done = v, false, true
	return v
}

// dataSource evaluates a data source's exported fields from the fixtures.
func (e *evaluator) dataSource(d *schema.DataSource) *DataSource {
	out := &DataSource{Name: d.Name, Type: d.Type.Text()}
	fix := e.in.Data[d.Name]
	if d.ExportAll {
		for _, k := range sortedKeys(fix) {
			out.Fields = append(out.Fields, &Named{Name: k, Value: fix[k]})
		}
		return out
	}
	for _, x := range d.Exports.Items() {
		out.Fields = append(out.Fields, &Named{Name: x.Name, Value: e.dataField(d, x.Name)})
	}
	return out
}

// dataField returns a data source field from the fixtures (by export name,
// then by its aliasFor), or unknown.
func (e *evaluator) dataField(d *schema.DataSource, name string) funcs.Value {
	e.depth++
	defer func() { e.depth-- }()
	fix := e.in.Data[d.Name]
	if v, ok := fix[name]; ok {
		return v
	}
	if x := d.Exports.Get(name); x != nil {
		if alias := x.AliasFor.Text(); alias != "" {
			if v, ok := fix[alias]; ok {
				return v
			}
		}
	}
	return funcs.Unknown("datasources." + d.Name + "." + name)
}

// export evaluates an export's field reference.
func (e *evaluator) export(x *schema.Export) funcs.Value {
	sc := x.Field.Scalar()
	if sc == nil {
		return funcs.None
	}
	site := e.res.SiteOf(sc)
	if site == nil || site.Template == nil || len(site.Template.Subs()) == 0 {
		return funcs.None
	}
	return e.expr(site.Template.Subs()[0].Expr, nil)
}

func (e *evaluator) report(d source.Diagnostic) {
	if e.adhoc != nil && e.depth == 0 {
		*e.adhoc = append(*e.adhoc, d)
		return
	}
	e.diags = append(e.diags, d)
}

func sortStrings(s []string) { sort.Strings(s) }
