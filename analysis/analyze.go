package analysis

import (
	"context"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/internal/chunked"
	"github.com/blueprint-ls/blueprint-ls/internal/safefs"
	"github.com/blueprint-ls/blueprint-ls/internal/slab"

	"github.com/blueprint-ls/blueprint-ls/funcs"
	"github.com/blueprint-ls/blueprint-ls/providers/registry"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/subst"
	"github.com/blueprint-ls/blueprint-ls/types"
)

// Options are the inputs of Analyze besides the document.
type Options struct {
	// Repair analyses a YAML document with syntax errors with its broken
	// top-level entries left out (repair.go), for the editor's features;
	// without it such a document gets its syntax errors only.
	Repair bool
	// Registry knows provider types; nil means the built-in providers.
	Registry *registry.Registry
	// Funcs is the function table; nil means the core functions plus the
	// registry's provider functions.
	Funcs *funcs.Table
	// Loader loads child blueprints; nil leaves includes unchecked.
	Loader *Loader
	// Path is the document's file path, used to resolve include paths.
	Path string
	// WorkingDir is what ${cwd()} yields in include paths; empty means the
	// process's working directory.
	WorkingDir string
	// Roots confines include paths to the project (docs/security.md); nil
	// confines nothing. Children are analysed with their parent's roots.
	Roots *safefs.Roots
	// includeStack holds the files being analysed above this one, to
	// detect include cycles.
	includeStack []string
	// entry is the loader's cache entry being analysed, when this is a
	// child loaded through the Loader.
	entry *loadEntry
	// prev is the previous version's result (AnalyzeIncremental).
	prev *Result
	// transitive spreads an edit to every unit that depends on the
	// edited one, directly or not, before checking (see cutoff.go).
	transitive bool
}

// Analyze parses and checks one document. It never panics: a bug becomes
// an internal-error diagnostic.
func Analyze(ctx context.Context, f *schema.File, opts Options) (res *Result) {
	res = &Result{URI: f.URI, Path: opts.Path, File: f, Children: map[string]*Child{}}
	defer func() { res.Diagnostics = capDiagnostics(res.Diagnostics) }() // last: after a panic's
	defer func() {
		if p := recover(); p != nil {
			res.Diagnostics = append(res.Diagnostics, CodeInternal.New(source.Range{}, "internal error while analysing: %v\n%s", p, firstFrames(debug.Stack())))
		}
	}()
	res.Diagnostics = append(res.Diagnostics, f.Diagnostics...)
	if f.HasSyntaxErrors() {
		opts.prev = nil
		// Rules over a tree the parser had to repair would only repeat the
		// syntax error in other words.
		if opts.Repair {
			if r := analyzeRepaired(ctx, f, opts); r != nil {
				return r
			}
		}
		return res
	}
	var bp *schema.Blueprint
	var diags []source.Diagnostic
	if opts.prev != nil {
		bp, diags = schema.LoadFrom(f, opts.prev.Blueprint)
	} else {
		bp, diags = loadWhole(f)
	}
	res.Blueprint = bp
	res.Diagnostics = append(res.Diagnostics, diags...)
	if bp == nil || bp.Root == nil {
		return res
	}
	a := newAnalyzer(ctx, res, opts)
	a.run()
	if !a.interfacesKept() {
		// A unit the edit spread to now offers its dependents something
		// else: check again, spreading to every dependent.
		opts.transitive = true
		return Analyze(ctx, f, opts)
	}
	a.recordExprTypes()
	a.mergeCarried()
	res.own, res.suggestedBy, res.reg, res.funcs, res.table = a.diags, a.suggestedBy, a.reg, opts.Funcs, a.table
	res.units, res.doc, res.order, res.rtypes, res.childUsers, res.decl = a.recs, a.docRecs, a.order, a.rtypes, a.childUsers, a.decl
	res.blocks, res.sitesByScalar = a.blocks, a.sitesByScalar
	switch {
	case ctx.Err() != nil:
		// Incomplete: no version carries anything over from it.
	case a.reuse != nil:
		res.users = a.patchUsers(a.made)
	default:
		res.users = a.usersOfAll()
	}
	res.complete = ctx.Err() == nil
	if a.reuse != nil {
		res.carried, res.windowed, res.backdated = a.reuse.count, a.window != nil, len(a.backdated)
	}
	res.Diagnostics = append(res.Diagnostics, a.diags...)
	source.SortDiagnostics(res.Diagnostics)
	return res
}

func firstFrames(stack []byte) string {
	lines := strings.Split(string(stack), "\n")
	if len(lines) > 16 {
		lines = lines[:16]
	}
	return strings.Join(lines, "\n")
}

// DefaultTable returns the core functions plus the registry's provider
// functions (a provider file's or a plugin's): typed, completed and
// documented like the core ones, and evaluated as known after deploy,
// since only the provider computes them (a plugin's is never called:
// evaluation stays free of side effects and of plugin processes). A
// provider function named like a core one is left out.
func DefaultTable(reg *registry.Registry) *funcs.Table {
	t := funcs.Core()
	if reg == nil || len(reg.Functions()) == 0 {
		return t
	}
	t = funcs.NewTable()
	for _, f := range reg.Functions() {
		summary := f.Description
		if summary == "" {
			summary = "A function of the " + f.Provider + " provider."
		}
		name := f.Name
		_ = t.Register(funcs.Func{
			Name:      f.Name,
			Signature: f.Signature,
			ParamDocs: f.ParamDocs,
			Summary:   summary,
			Doc:       f.Description,
			Provider:  f.Provider,
			Impl: func(*funcs.Ctx, []funcs.Value) (funcs.Value, error) {
				return funcs.Unknown(name + "(..), computed by its provider"), nil
			},
		})
	}
	return t
}

type analyzer struct {
	ctx context.Context
	// parsed carves the templates a whole analysis parses from slabs
	// (an incremental one parses a few: a block each would be waste).
	parsed subst.Mover
	// scratchMap is the offset map of the template scalarSite parses.
	scratchMap mapScratch
	res        *Result
	bp         *schema.Blueprint
	opts       Options
	reg        *registry.Registry
	table      *funcs.Table
	diags      []source.Diagnostic

	// values whose type is being or has been inferred (cycle-safe).
	valueState map[*Symbol]int
	// eachElem is the element type of each resource with each.
	eachElem map[*Symbol]types.Type
	// rtypes holds the registry entry of each resource, by symbol index.
	rtypes chunked.Vec[*registry.ResourceType]
	// sitesByScalar finds the site of a scalar (a full analysis; one
	// that carries units over finds it through its unit: siteOf).
	sitesByScalar map[*schema.Scalar]*Site
	// siteDone marks sites already type checked, by Site.index; a shared
	// site (units.go) is done once the check passed its unit (cursor) or
	// when touched.
	siteDone []bool
	cursor   int
	touched  map[*Site]bool
	// recs holds each unit's records by its symbol's index, docRecs the
	// document level's; order lists the units by where they start.
	recs    chunked.Vec[*unitRecs]
	docRecs *unitRecs
	order   []int32
	// childUsers are the units that reference the children namespace.
	childUsers []int32
	// toCheck are the sites the check visits, in order (a full analysis:
	// all), fresh those of them with a template.
	toCheck, fresh []*Site
	// open are the units collected afresh (checked), made those whose
	// records this version makes (open or replayed), by symbol index.
	open, made []int32
	// buffers of sharedSites and replayUnit
	found              []*schema.Scalar
	oldExprs, newExprs []subst.Expr
	sameTemplate       bool
	// firstOf holds one more than the index of each kind's first symbol
	// (0: none).
	firstOf [ExportSymbol + 1]int
	// moved are the symbols declare found to hold their previous text,
	// moved (movedTwin), in increasing order.
	moved []int32
	// verify lists the units checked again only because of what they
	// depend on (cutoff.go).
	verify []int
	// backdated are the values edited only inside their value field
	// (valueOnlyEdit): made anew, they offer what they offered before,
	// so the units naming them keep sharing their records (planSharing).
	backdated map[int]bool
	// dirty lists the units not carried over (uncarried), once asked.
	dirty []int
	// collected are the sites a full analysis collected, in order.
	collected []*Site
	// decl holds each resource's records by name (declRecs), by symbol
	// index.
	decl chunked.Vec[*declRecs]
	// blocks[k] is where the symbols of kind k are in Symbols (a data
	// source's fields are in the data sources' block).
	blocks [ExportSymbol + 1]span
	// nsym counts the symbols declared so far.
	nsym int
	// window lists, when declare took every resource but a few from the
	// previous version without looking at them (window.go), the symbol
	// indexes it did look at; nil when it looked at every definition.
	window []int32
	taken  span // the resources declare looked at in window mode
	// base is the previous version declare took symbols from (nil: none).
	base *Result
	// namesFromPrev: the symbols declare the previous version's names in
	// its order (Result.nameIndex is shared).
	namesFromPrev bool
	// uniqueNames: no kind declares a name twice, so the symbol of a
	// kind and name is the one Lookup finds (owner).
	uniqueNames bool
	// suggested holds symbols an unknown name was probably meant to be.
	suggested map[*Symbol]bool
	// schemaRanges holds the ranges of schema's errors (lazily).
	schemaRanges map[source.Range]bool
	// dsFields indexes each data source's exported fields by name.
	dsFields map[*Symbol]map[string]*Symbol
	// valueDeps and deployVia memoize which values depend on resources or
	// children (see deployDependency).
	valueDeps map[*Symbol][]*Edge
	deployVia map[*Symbol]*Edge
	// metaTypes caches each resource's metadata type (metadataTypeOf).
	metaTypes map[*Symbol]types.Type
	// exprLog holds each expression's inferred type until
	// recordExprTypes files it under its site by ordinal: one entry per
	// inference, chained per site from exprHead (by Site.index, the
	// entry's index plus one; 0: none). An expression is only inferred
	// while its own site is checked, so its site's chain holds it, the
	// latest inference first (a map keyed by the expression, an
	// interface, was a twentieth of the analysis).
	exprLog   []exprType
	exprHead  []int32
	exprCount int // how many expressions the sites to check hold
	// suggestedBy records, per unit, the definitions its unknown names
	// were taken to mean; reuse carries definitions over (reuse.go).
	suggestedBy map[UnitID][]UnitID
	reuse       *reuseState
	wide        wideRun // the document-wide checks' state (wide.go)
	// fan is a whole analysis's fan-out (fanout.go); nil: none.
	fan *fanOut

	// Record memory (see block).
	siteBlock block[Site]
	refBlock  block[Reference]
	edgeBlock block[Edge]
	callBlock block[Call]
	symBlock  block[Symbol]
	unitBlock block[unitRecs]
	// targetRuns, refRuns, edgeRuns and edgeSiteRuns are where the
	// units' lists are carved from (noteTargets, reserveRecords).
	targetRuns   slab.Of[*Symbol]
	refRuns      slab.Of[*Reference]
	edgeRuns     slab.Of[*Edge]
	edgeSiteRuns slab.Of[int32]
}

// defaultTableAfter is DefaultTable(reg), taken from prev when prev was
// analysed with the default table of the same registry: a registry in
// use is not changed (what carrying units over assumes too, units.go),
// and making the table again for every keystroke cost about 30 µs of a
// 1 ms edit at 20,000 resources.
func defaultTableAfter(reg *registry.Registry, prev *Result) *funcs.Table {
	if prev != nil && prev.reg == reg && prev.funcs == nil && prev.table != nil {
		return prev.table
	}
	return DefaultTable(reg)
}

func newAnalyzer(ctx context.Context, res *Result, opts Options) *analyzer {
	reg := opts.Registry
	if reg == nil {
		reg = builtinRegistry()
	}
	table := opts.Funcs
	if table == nil {
		table = defaultTableAfter(reg, opts.prev)
	}
	return &analyzer{
		ctx: ctx, res: res, bp: res.Blueprint, opts: opts, reg: reg, table: table,
		valueState:  map[*Symbol]int{},
		eachElem:    map[*Symbol]types.Type{},
		suggested:   map[*Symbol]bool{},
		dsFields:    map[*Symbol]map[string]*Symbol{},
		suggestedBy: map[UnitID][]UnitID{},
		docRecs:     &unitRecs{},
	}
}

func (a *analyzer) report(d source.Diagnostic) { a.diags = append(a.diags, d) }

func (a *analyzer) run() {
	if a.opts.prev == nil {
		a.fan = a.startFanOut() // beside declare
	}
	defer func() { a.fan.wait() }() // nothing outlives the analysis
	a.declare()
	a.planReuse()
	if a.fan == nil {
		a.fan = a.startFanOut()
	}
	a.fan.startChecks(a)
	a.collectSites()
	a.replayUnits()
	a.indexSites()
	a.loadChildren()
	for _, s := range a.toCheck {
		if a.ctx.Err() != nil {
			break
		}
		a.cursor = a.res.syms.Len()
		if s.Owner != nil {
			a.cursor = s.Owner.index
		}
		a.checkSite(s)
	}
	a.cursor = a.res.syms.Len()
	a.assemble()
	if a.ctx.Err() != nil {
		return
	}
	a.refineCarriedValues()
	a.checkExports()
	a.checkResources()
	a.checkDataSources()
	a.checkIncludes()
	a.resolveLinks()
	a.linkGraph()
	a.checkCycles()
	a.checkDataSourceDependencies()
	a.checkHygiene()
}

func defRanges(d *schema.Def) (source.Range, source.Range) {
	name := d.NameRange()
	full := name
	if d.Entry != nil && d.Entry.Value != nil {
		full = name.Union(d.Entry.Value.Range())
	}
	return name, full
}

// declare makes a symbol for every definition. A definition whose typed
// view is the previous version's own (schema.LoadFrom shares the view of
// an entry the edit did not touch) takes the previous version's symbol,
// which is what a new one would be (units.go).
func (a *analyzer) declare() {
	a.base = a.reusable()
	if !a.declareAll(a.base) {
		a.base = nil
		a.declareAll(nil) // duplicate names: nothing is reused
	}
	a.order = a.unitOrder(a.base)
	a.res.order = a.order
}

// declareAll declares every definition, taking prev's symbols where it
// can (prev may be nil), and indexes them by name; false when a name is
// declared twice after a symbol was taken from prev.
func (a *analyzer) declareAll(prev *Result) bool {
	bp := a.bp
	a.nsym = 0
	if n := symbolCount(bp); prev != nil && n == prev.rtypes.Len() && n == prev.syms.Len() {
		// The window's are set again (window.go), the others when they
		// differ.
		a.res.syms, a.rtypes = prev.syms.Edit(), prev.rtypes.Edit()
	} else {
		a.res.syms, a.rtypes = chunked.Make[*Symbol](n), chunked.Make[*registry.ResourceType](n)
	}
	a.moved = a.moved[:0]
	a.window, a.taken = nil, span{}
	clear(a.dsFields)
	// take returns prev's symbol at the next place when it was made from
	// a typed view of the same entry node (the same view, or one the edit
	// did not touch, which reads the same).
	take := func(kind SymbolKind, def *schema.Def) *Symbol {
		i := a.nsym
		if prev == nil || i >= prev.syms.Len() {
			return nil
		}
		if p := prev.syms.At(i); p.Kind == kind && def.Entry != nil && p.def().Entry == def.Entry {
			return p
		}
		return nil
	}
	a.firstOf = [ExportSymbol + 1]int{}
	add := func(s *Symbol) {
		if a.firstOf[s.Kind] == 0 {
			a.firstOf[s.Kind] = a.nsym + 1
		}
		if s.index != a.nsym {
			s.index = a.nsym // never written when taken from prev: it is read concurrently
		}
		if a.res.syms.At(a.nsym) != s {
			a.res.syms.Set(a.nsym, s)
		}
		a.nsym++
	}
	block := func(k SymbolKind, lo int) { a.blocks[k] = span{lo, a.nsym} }
	for _, v := range bp.Variables.Items() {
		if p := take(VariableSymbol, &v.Def); p != nil {
			add(p)
			continue
		}
		name, full := defRanges(&v.Def)
		add(&Symbol{Kind: VariableSymbol, Name: v.Name, NameRange: name, Range: full,
			Type: variableType(v), Doc: v.Description.Text(), Secret: v.Secret.Bool(), Variable: v})
	}
	block(VariableSymbol, 0)
	lo := a.nsym
	for _, v := range bp.Values.Items() {
		if p := take(ValueSymbol, &v.Def); p != nil {
			add(p) // planReuse makes a new one if it is checked again
			continue
		}
		add(a.newValueSymbol(v))
	}
	block(ValueSymbol, lo)
	lo = a.nsym
	for _, d := range bp.DataSources.Items() {
		a.declareDataSource(d, prev, add)
	}
	block(DataSourceSymbol, lo)
	lo = a.nsym
	declareResource := func(r *schema.Resource) {
		if p := take(ResourceSymbol, &r.Def); p != nil {
			add(p)
			a.rtypes.Set(p.index, prev.rtypes.At(p.index))
			return
		}
		name, full := defRanges(&r.Def)
		if p := a.movedTwin(prev, ResourceSymbol, r.Name, full); p != nil {
			// The same text moved: the previous symbol, moved.
			s := a.symBlock.one()
			*s = *p
			s.NameRange, s.Range, s.Resource = name, full, r
			add(s)
			a.rtypes.Set(s.index, prev.rtypes.At(s.index))
			a.moved = append(a.moved, int32(s.index))
			return
		}
		s := &Symbol{Kind: ResourceSymbol, Name: r.Name, NameRange: name, Range: full, Doc: r.Description.Text(), Resource: r}
		add(s)
		var rt *registry.ResourceType
		if r.Type != nil {
			rt, _ = a.reg.ResourceType(r.Type.Text())
		}
		a.rtypes.Set(s.index, rt)
	}
	bulk := a.takeResources(prev, declareResource)
	if !bulk {
		for _, r := range bp.Resources.Items() {
			declareResource(r)
		}
	}
	block(ResourceSymbol, lo)
	lo = a.nsym
	for _, inc := range bp.Include.Items() {
		name, full := defRanges(&inc.Def)
		add(&Symbol{Kind: ChildSymbol, Name: inc.Name, NameRange: name, Range: full, Type: types.Unknown, Doc: inc.Description.Text(), Include: inc})
	}
	block(ChildSymbol, lo)
	lo = a.nsym
	for _, e := range bp.Exports.Items() {
		if p := take(ExportSymbol, &e.Def); p != nil {
			add(p)
			continue
		}
		name, full := defRanges(&e.Def)
		add(&Symbol{Kind: ExportSymbol, Name: e.Name, NameRange: name, Range: full, Type: declaredType(e.Type), Doc: e.Description.Text(), Export: e})
	}
	block(ExportSymbol, lo)
	if a.nsym != a.res.syms.Len() {
		panic("declare: symbolCount disagrees with the definitions declared") // caught by Analyze
	}
	a.blocks[DataSourceFieldSymbol] = a.blocks[DataSourceSymbol]
	if bulk {
		a.listWindow(a.blocks[ResourceSymbol])
	}
	return a.indexNames(prev)
}

// symbolCount returns how many symbols bp declares (before duplicate
// names are dropped).
func symbolCount(bp *schema.Blueprint) int {
	n := bp.Variables.Len() + bp.Values.Len() + bp.Resources.Len() + bp.Include.Len() + bp.Exports.Len()
	for _, d := range bp.DataSources.Items() {
		n += 1 + d.Exports.Len()
	}
	return n
}

// newValueSymbol makes the symbol of value v, with its declared type.
func (a *analyzer) newValueSymbol(v *schema.Value) *Symbol {
	name, full := defRanges(&v.Def)
	return &Symbol{Kind: ValueSymbol, Name: v.Name, NameRange: name, Range: full,
		Type: declaredType(v.Type), Doc: v.Description.Text(), Secret: v.Secret.Bool(), Value: v}
}

// declareDataSource declares data source d after its exported fields
// (fields are reached through their data source, not by name).
func (a *analyzer) declareDataSource(d *schema.DataSource, prev *Result, add func(*Symbol)) {
	fields := make(map[string]*Symbol, d.Exports.Len())
	// The data source's symbol comes after its fields: take it from prev
	// with them when it was made from the same entry node.
	var ds *Symbol
	if i := a.nsym + d.Exports.Len(); prev != nil && i < prev.syms.Len() &&
		prev.syms.At(i).Kind == DataSourceSymbol && d.Entry != nil && prev.syms.At(i).DataSource.Entry == d.Entry {
		ds = prev.syms.At(i)
		for range d.Exports.Items() {
			fs := prev.syms.At(a.nsym)
			add(fs)
			if _, dup := fields[fs.Name]; !dup {
				fields[fs.Name] = fs
			}
		}
		add(ds)
		a.dsFields[ds] = fields
		return
	}
	name, full := defRanges(&d.Def)
	ds = &Symbol{Kind: DataSourceSymbol, Name: d.Name, NameRange: name, Range: full, Doc: d.Description.Text(), DataSource: d}
	var fieldTypes []types.Field
	for _, e := range d.Exports.Items() {
		fn, ff := defRanges(&e.Def)
		t := declaredType(e.Type)
		fs := &Symbol{Kind: DataSourceFieldSymbol, Name: e.Name, NameRange: fn, Range: ff, Type: t, Doc: e.Description.Text(), Parent: ds, Field: e}
		add(fs)
		if _, dup := fields[e.Name]; !dup {
			fields[e.Name] = fs
		}
		fieldTypes = append(fieldTypes, types.Field{Name: e.Name, Type: t, Doc: fs.Doc})
	}
	ds.Type = types.NewObject(d.ExportAll, fieldTypes...)
	add(ds)
	a.dsFields[ds] = fields
}

// declaredType is the type a value, export or data source field declares
// by name, or unknown when it declares none or one that is not a type.
func declaredType(f *schema.Field) types.Type {
	if f != nil {
		if t, ok := types.Declared(f.Text()); ok {
			return t
		}
	}
	return types.Unknown
}

// variableType is the declared type of a variable; custom types hold
// strings (their option labels).
func variableType(v *schema.Variable) types.Type {
	if v.Type == nil {
		return types.Unknown
	}
	name := v.Type.Text()
	if t, ok := types.Declared(name); ok && types.IsPrimitive(t) {
		return t
	}
	if schema.IsCustomType(name) {
		return types.String
	}
	return types.Unknown
}

// sitesIn adds a site for every string scalar under the fields' values that
// holds a substitution (or looks like it tried to).
func (a *analyzer) sitesIn(kind SiteKind, owner *Symbol, fields ...*schema.Field) {
	siteScalars(kind, func(kind SiteKind, n *schema.Scalar) { a.scalarSite(n, kind, owner) }, fields...)
}

// siteScalars calls site with every string scalar under the fields'
// values that holds "${", in document order.
func siteScalars(kind SiteKind, site func(SiteKind, *schema.Scalar), fields ...*schema.Field) {
	for _, f := range fields {
		if f != nil && f.Entry != nil && f.Entry.Value != nil {
			siteScalarsIn(f.Entry.Value, kind, site)
		}
	}
}

func siteScalarsIn(n schema.Node, kind SiteKind, site func(SiteKind, *schema.Scalar)) {
	switch n := n.(type) {
	case *schema.Mapping:
		for _, e := range n.Entries {
			if e.Value != nil {
				siteScalarsIn(e.Value, kind, site)
			}
		}
	case *schema.Sequence:
		for _, it := range n.Items {
			siteScalarsIn(it, kind, site)
		}
	case *schema.Scalar:
		if n.IsString() && strings.Contains(n.Value, "${") {
			site(kind, n)
		}
	}
}

// mapScratch holds the offset map of the scalar a template is parsed
// from when the template does not keep it. A scalar whose value is its
// text (most of a blueprint's) derives its map afresh on each OffsetMap
// and the template parsed from it keeps none (subst.Template), so the
// map is copied here, one per parser of templates, instead of allocated
// per site (issue 36: 16,000 allocations per open of 5,000 resources).
type mapScratch struct{ m source.OffsetMap }

// parse parses the template of n, a string scalar.
func (s *mapScratch) parse(n *schema.Scalar, opts subst.Options) *subst.Template {
	s.m = *n.OffsetMap()
	m := &s.m
	if !source.IsIdentity(m.Segments, len(n.Value)) {
		// A map the template keeps: the scalar's own, or made afresh.
		m = n.OffsetMap()
	}
	return subst.ParseTemplateWith(n.Value, m, opts)
}

// scalarSite adds the site of n, a string scalar holding "${".
func (a *analyzer) scalarSite(n *schema.Scalar, kind SiteKind, owner *Symbol) {
	t := a.carriedTemplate(owner, n)
	if t == nil {
		opts := subst.Options{Mapper: a.res.File.Mapper}
		if a.reuse == nil {
			opts.Slabs = &a.parsed
		}
		t = a.scratchMap.parse(n, opts)
		a.diags = append(a.diags, t.Diagnostics()...)
	}
	a.parsedSite(kind, n, t, owner)
}

// parsedSite adds and returns the site of n whose template is t.
func (a *analyzer) parsedSite(kind SiteKind, n *schema.Scalar, t *subst.Template, owner *Symbol) *Site {
	site := a.siteBlock.one()
	*site = Site{Kind: kind, Scalar: n, Template: t, Owner: owner}
	a.addSite(site)
	return site
}

// addSite records s, the next site of its unit.
func (a *analyzer) addSite(s *Site) {
	if a.reuse == nil {
		a.collected = append(a.collected, s)
	}
	u := a.recsOf(s.Owner)
	s.Ordinal = len(u.sites)
	u.sites = append(u.sites, s)
}

// indexSites numbers the sites this version made (a shared one is the
// previous version's, checked already) and, in a full analysis, indexes
// them by scalar at its final size: growing the index one site at a time
// rehashed it thousands of times per keystroke.
func (a *analyzer) indexSites() {
	sites := a.collected
	if a.reuse == nil {
		a.sitesByScalar = make(map[*schema.Scalar]*Site, len(sites))
		a.toCheck = sites
	} else {
		// Only the units collected afresh are checked (collectByUnits);
		// the others are settled.
		for _, i := range a.open {
			if u := a.recs.At(int(i)); u != nil {
				a.toCheck = append(a.toCheck, u.sites...)
			}
		}
		a.toCheck = append(a.toCheck, a.docRecs.sites...)
	}
	a.siteDone = make([]bool, len(a.toCheck))
	a.fresh = slices.Grow(a.fresh, len(a.toCheck))
	exprs, refs := 0, 0
	count := func(e subst.Expr) bool {
		exprs++
		if _, ok := e.(*subst.Ref); ok {
			refs++
		}
		return true
	}
	// A whole analysis collected each unit's sites together: the
	// references of the unit ahead are counted when the owner changes.
	var unit *Symbol
	unitFrom := 0
	for i, s := range a.toCheck {
		if a.reuse == nil && s.Owner != unit {
			a.reserveRecords(unit, refs-unitFrom)
			unit, unitFrom = s.Owner, refs
		}
		s.index = int32(i)
		if a.sitesByScalar != nil {
			a.sitesByScalar[s.Scalar] = s
		}
		if s.Template != nil {
			// Only checked sites get their expressions' types recorded
			// (recordExprTypes); a settled one has them already.
			subst.WalkTemplate(s.Template, count)
			a.fresh = append(a.fresh, s)
		}
	}
	if a.reuse == nil {
		a.reserveRecords(unit, refs-unitFrom)
	}
	// Checking the sites records the type of each of their expressions.
	a.exprLog = make([]exprType, 0, exprs)
	a.exprHead = make([]int32, len(a.toCheck))
	a.exprCount = exprs
}

// reserveRecords gives the records of owner's unit room for n
// references and their edges, carved from slabs: a whole analysis knows
// how many references each unit's templates hold (issue 36: grown
// append by append, the lists were 30,000 allocations at 5,000
// resources). A unit with references already grows as before; assemble
// clips the lists (unitRecs.clip).
func (a *analyzer) reserveRecords(owner *Symbol, n int) {
	if n == 0 {
		return
	}
	u := a.recsOf(owner)
	if cap(u.refs) > 0 || cap(u.edges) > 0 {
		return
	}
	u.refs = a.refRuns.Many(n)
	u.edges = a.edgeRuns.Many(n)
	u.edgeSite = a.edgeSiteRuns.Many(n)
}

// exprType is one inference of an expression of a site (exprLog).
type exprType struct {
	e    subst.Expr
	t    types.Type
	prev int32 // the site's previous entry plus one; 0: none
}

// noteExprType records that e, an expression of site s, has type t.
func (a *analyzer) noteExprType(e subst.Expr, s *Site, t types.Type) {
	a.exprLog = append(a.exprLog, exprType{e: e, t: t, prev: a.exprHead[s.index]})
	a.exprHead[s.index] = int32(len(a.exprLog))
}

// exprTypeOf returns the type last inferred for e, an expression of the
// site whose chain starts at head (nil when e was never inferred).
func (a *analyzer) exprTypeOf(head int32, e subst.Expr) types.Type {
	for i := head; i != 0; i = a.exprLog[i-1].prev {
		if x := &a.exprLog[i-1]; x.e == e {
			return x.t
		}
	}
	return nil
}

// recordExprTypes files the type of each expression inferred under its
// site, by the expression's ordinal (see ExprID).
func (a *analyzer) recordExprTypes() {
	// One backing array for all sites: a slice per site was an allocation
	// per site.
	backing := make([]types.Type, 0, a.exprCount)
	var many map[subst.Expr]types.Type
	for _, s := range a.fresh {
		start := len(backing)
		head := a.exprHead[s.index]
		n := 0
		for i := head; i != 0; i = a.exprLog[i-1].prev {
			n++
		}
		if n > 32 {
			// A site of many expressions: one pass over its chain
			// rather than one per expression (the oldest first, so
			// the latest inference wins).
			clear(many)
			if many == nil {
				many = map[subst.Expr]types.Type{}
			}
			chain := make([]int32, 0, n)
			for i := head; i != 0; i = a.exprLog[i-1].prev {
				chain = append(chain, i-1)
			}
			for k := len(chain) - 1; k >= 0; k-- {
				many[a.exprLog[chain[k]].e] = a.exprLog[chain[k]].t
			}
		}
		subst.WalkTemplate(s.Template, func(e subst.Expr) bool {
			if n > 32 {
				backing = append(backing, many[e])
			} else {
				backing = append(backing, a.exprTypeOf(head, e))
			}
			return true
		})
		if len(backing) > start {
			s.ExprTypes = backing[start:len(backing):len(backing)]
		}
	}
}

// dir returns the folder includes resolve against.
func (a *analyzer) dir() string {
	if a.opts.Path == "" {
		return "."
	}
	return filepath.Dir(a.opts.Path)
}
