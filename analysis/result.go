package analysis

import (
	"iter"
	"sort"
	"sync"

	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/funcs"
	"github.com/blueprint-ls/blueprint-ls/internal/chunked"
	"github.com/blueprint-ls/blueprint-ls/providers/registry"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/subst"
	"github.com/blueprint-ls/blueprint-ls/types"
)

// SymbolKind says what a definition is.
type SymbolKind int

const (
	VariableSymbol SymbolKind = iota + 1
	ValueSymbol
	DataSourceSymbol
	DataSourceFieldSymbol // an exported field of a data source
	ResourceSymbol
	ChildSymbol // an include
	ExportSymbol
)

func (k SymbolKind) String() string {
	switch k {
	case VariableSymbol:
		return "variable"
	case ValueSymbol:
		return "value"
	case DataSourceSymbol:
		return "data source"
	case DataSourceFieldSymbol:
		return "data source field"
	case ResourceSymbol:
		return "resource"
	case ChildSymbol:
		return "child blueprint"
	case ExportSymbol:
		return "export"
	}
	return "symbol"
}

// Namespace returns the keyword references to the kind start with.
func (k SymbolKind) Namespace() string {
	switch k {
	case VariableSymbol:
		return dialect.Variables.Namespace()
	case ValueSymbol:
		return dialect.Values.Namespace()
	case DataSourceSymbol:
		return dialect.DataSources.Namespace()
	case ResourceSymbol:
		return dialect.Resources.Namespace()
	case ChildSymbol:
		return dialect.Include.Namespace()
	case ExportSymbol:
		return dialect.Exports.Key()
	}
	return ""
}

// Symbol is one named definition of the blueprint.
type Symbol struct {
	Kind SymbolKind
	Name string
	// NameRange is the definition's key; Range covers key and value.
	NameRange source.Range
	Range     source.Range
	Type      types.Type
	Doc       string // the description, when given
	Secret    bool
	// Parent is the data source of a DataSourceFieldSymbol.
	Parent *Symbol

	// Exactly one of these is set, matching Kind.
	Variable   *schema.Variable
	Value      *schema.Value
	DataSource *schema.DataSource
	Field      *schema.DataSourceExport
	Resource   *schema.Resource
	Include    *schema.Include
	Export     *schema.Export

	// index is the symbol's place in Result.Symbols(). A symbol the next
	// version shares (units.go) has the same place there.
	index int
}

// Detail returns a one-line description for symbol lists and completion.
func (s *Symbol) Detail() string {
	switch s.Kind {
	case ResourceSymbol:
		if s.Resource != nil && s.Resource.Type != nil {
			return s.Resource.Type.Text()
		}
	case DataSourceSymbol:
		if s.DataSource != nil && s.DataSource.Type != nil {
			return s.DataSource.Type.Text()
		}
	case ChildSymbol:
		if s.Include != nil && s.Include.Path != nil {
			return s.Include.Path.Text()
		}
	}
	if s.Type != nil {
		return s.Type.String()
	}
	return ""
}

// SiteKind says where in the blueprint a string scalar sits, which decides
// what its substitutions may reference.
type SiteKind uint8

const (
	SiteValue SiteKind = iota + 1
	SiteDescription
	SiteDataSource   // filter search, metadata of a data source
	SiteResourceSpec // anything under spec
	SiteResourceMeta // displayName, annotations, custom
	SiteCondition    // a condition string
	SiteEach         // the each expression
	SiteInclude      // include path, variables, metadata
	SiteExportField  // an export's field (a plain reference)
	SiteOther        // metadata and other free-form places
)

// Site is one string scalar that may hold substitutions, parsed.
type Site struct {
	Scalar   *schema.Scalar
	Template *subst.Template
	// Owner is the definition the scalar belongs to (nil for blueprint
	// metadata).
	Owner *Symbol
	// Type is the type of the whole template: the expression's type for a
	// pure substitution, string for an interpolation.
	Type types.Type
	// Ordinal is the site's place among its unit's sites (Unit) in
	// document order: together they name the site without a pointer.
	Ordinal int
	// index is the site's place in Result.Sites, for the version that
	// made the site (a site shared with a later version keeps the index
	// it had when it was made: units.go never reads it for a shared one).
	index int32
	// Kind says where the site is; with index, last and small (issue 36).
	Kind SiteKind
	// ExprTypes holds the inferred type of each of the template's
	// expressions, indexed by the expression's ordinal (ExprID.Expr): its
	// place in a preorder walk of the template (subst.WalkTemplate). Nil
	// for an expression analysis did not reach.
	ExprTypes []types.Type
}

// UnitID names a unit of a blueprint: one definition, by kind and name,
// or (the zero UnitID) the document-level facts.
type UnitID struct {
	Kind SymbolKind
	Name string
}

// Unit is the unit the site belongs to: its owner's, or the document
// level's (the zero UnitID) for blueprint metadata. It is derived, not
// kept: 24 of a site's 112 bytes (issue 36).
func (s *Site) Unit() UnitID {
	if s.Owner == nil {
		return UnitID{}
	}
	return UnitID{Kind: s.Owner.Kind, Name: s.Owner.Name}
}

// ExprID names an expression by where it is written rather than by
// pointer: its unit, its site's ordinal within the unit, and its ordinal
// within the site. All three follow from the unit's text, so the same
// ExprID names the same expression in the next version of a document
// whose unit is unchanged, however the text around it moved.
type ExprID struct {
	Unit UnitID
	Site int
	Expr int
}

// ID returns the ExprID of e, an expression of s's template; false when e
// is not one.
func (s *Site) ID(e subst.Expr) (ExprID, bool) {
	n, at := 0, -1
	if s.Template != nil {
		subst.WalkTemplate(s.Template, func(x subst.Expr) bool {
			if x == e {
				at = n
			}
			n++
			return at < 0
		})
	}
	return ExprID{Unit: s.Unit(), Site: s.Ordinal, Expr: at}, at >= 0
}

// TypeOf returns the inferred type of e, an expression of s's template;
// nil when analysis did not reach it.
func (s *Site) TypeOf(e subst.Expr) types.Type {
	id, ok := s.ID(e)
	if !ok || id.Expr >= len(s.ExprTypes) {
		return nil
	}
	return s.ExprTypes[id.Expr]
}

// Reference is one resolved (or unresolvable) reference inside a
// substitution or export field.
type Reference struct {
	Expr *subst.Ref
	Site *Site
	// Target is the definition named, nil when unresolved (or for elem
	// and i).
	Target *Symbol
	// Field is the data source field or child export named by the first
	// accessor, when there is one.
	Field *Symbol
	// FieldName and FieldRange name the first path step after the target
	// (a data source field, a child export, a resource's spec/state).
	FieldName  string
	FieldRange source.Range
	// Type is the type of the whole reference with its path.
	Type types.Type
}

// NameRef is a resource named by its name as text rather than by a
// reference: an item of dependsOn or linkSelector.exclude, or a string
// literal passed to link(). Find-references and rename treat it like a
// reference's name.
type NameRef struct {
	// Range is the name as written, without quotes.
	Range  source.Range
	Target *Symbol
	Kind   NameRefKind
	// Site is the substitution holding a link() argument (nil otherwise).
	Site *Site
}

// NameRefKind says where a NameRef is written.
type NameRefKind int

const (
	NameRefDependsOn NameRefKind = iota + 1
	NameRefExclude               // linkSelector.exclude
	NameRefLink                  // a string literal argument of link()
)

// Call is one function call with the function it resolved to.
type Call struct {
	Expr *subst.Call
	// Ref is set instead of Expr for a function passed by name
	// (map(xs, to_upper)).
	Ref  *subst.Ref
	Site *Site
	// Func is the table entry, nil for an unknown function.
	Func FuncInfo
	Type types.Type
}

// FuncInfo is what analysis knows of a called function.
type FuncInfo struct {
	Name      string
	Signature *types.Func
	Summary   string
	Doc       string
	ParamDocs []string
	Known     bool
}

// LinkSelection is a resource's linkSelector resolved to the resources it
// selects.
type LinkSelection struct {
	From     *Symbol
	Selected []*Symbol
}

// Edge is one dependency: From needs To, because of Ref (nil for dependsOn
// and link() names, which have a Range instead).
type Edge struct {
	From, To *Symbol
	Ref      *Reference
	Range    source.Range
	Kind     EdgeKind
}

// EdgeKind says why one definition depends on another.
type EdgeKind int

const (
	EdgeReference EdgeKind = iota + 1
	EdgeDependsOn
	// EdgeLink is a link() call naming To as a string literal (link
	// selections are in Result.Links).
	EdgeLink
)

// Child is an include resolved to a child blueprint.
type Child struct {
	Symbol *Symbol
	// Path is the resolved file path ("" when it could not be resolved).
	Path string
	// Result is the child's analysis, nil when it could not be loaded.
	Result *Result
}

// Result is everything analysis learned about one document. It is
// immutable once returned.
type Result struct {
	URI       string
	Path      string // file path, when the document is a file
	File      *schema.File
	Blueprint *schema.Blueprint

	// syms holds the symbols (Symbols joins them; see lists.go).
	syms chunked.Vec[*Symbol]
	// nameIndex indexes Symbols by kind and name (data source fields are
	// reached through their data source); versions that declare the same
	// names share it.
	nameIndex map[SymbolKind]map[string]int32
	Children  map[string]*Child
	// links are the blueprint's links (link_graph.go), possibly naming
	// the predecessors of resources checked again since they were made
	// (LinkGraph reads them through currentLink); checked are those the
	// checks over all links read (constrained), naming this version's
	// symbols; linksMade says they were made (the next version may take
	// them over).
	links, checked []*Link
	linksMade      bool
	linkOnce       sync.Once
	linkGraph      []*Link

	Diagnostics []source.Diagnostic

	// own are the diagnostics analysis made (not the parser's or the
	// structural rules'), and suggestedBy the definitions each unit's
	// unknown names were taken to mean: what AnalyzeIncremental carries
	// over. reg and funcs are the options it was made with.
	own         []source.Diagnostic
	suggestedBy map[UnitID][]UnitID
	// units holds each unit's records, by its symbol's index (nil for
	// data source fields), and doc the document level's (units.go);
	// order lists the units' symbol indexes by where they start.
	units chunked.Vec[*unitRecs]
	doc   *unitRecs
	order []int32
	// sitesByScalar indexes the sites by scalar (a full analysis's
	// index, kept for SiteOf; nil when units were carried over).
	sitesByScalar map[*schema.Scalar]*Site
	// decl holds what each resource names by name (dependsOn, exclude)
	// and its link selection, by symbol index (nil: none; see declRecs).
	decl chunked.Vec[*declRecs]
	// flat holds the lists joined from the units' records (lists.go).
	flat flatLists
	// users indexes which units name each symbol (users.go); blocks
	// says where each kind's symbols are in Symbols.
	users  *usersIndex
	blocks [ExportSymbol + 1]span
	rtypes chunked.Vec[*registry.ResourceType] // each resource's registry type, by symbol index
	// childUsers are the units whose references name the children
	// namespace (never carried over).
	childUsers []int32
	reg        *registry.Registry
	funcs      *funcs.Table // Options.Funcs
	table      *funcs.Table // the table the checks read: funcs, or reg's default one
	carried    int          // how many units were carried over from the previous version
	windowed   bool         // declare took the resources outside an edit in bulk (window.go)
	backdated  int          // how many values were backdated (valueOnlyEdit)
	complete   bool         // every check ran (the context was not cancelled)
	// wide is what the document-wide checks found (wide.go).
	wide *wideIndex

	// Repaired are the regions (whole lines) left out when the document
	// had syntax errors and was analysed repaired (Options.Repair): File
	// is then the text with these regions blanked, at the same offsets.
	// Nil when the document parsed.
	Repaired []source.Range
}

// Lookup returns the symbol of kind and name.
func (r *Result) Lookup(kind SymbolKind, name string) *Symbol {
	if i, ok := r.nameIndex[kind][name]; ok {
		return r.syms.At(int(i))
	}
	return nil
}

// ReferencesTo returns the references whose target (or field) is s, in
// the order of References. It reads the records of s's users (Users) and
// of the document level, not the joined lists, so asking about one
// symbol of the version an edit made costs the units that name it; a
// result that does not know its users scans the lists.
func (r *Result) ReferencesTo(s *Symbol) []*Reference {
	out, _ := recordsNaming(r, s, r.References,
		func(u *unitRecs) []*Reference { return u.refs },
		func(ref *Reference) *Reference { return currentRef(r.syms, ref) },
		func(ref *Reference) bool { return ref.Target == s || ref.Field == s })
	return out
}

// NameRefsTo returns the names (link("name") arguments, dependsOn and
// exclude items) whose target is s, in the order of NameRefs, read as
// ReferencesTo reads the references.
func (r *Result) NameRefsTo(s *Symbol) []*NameRef {
	names := func(n *NameRef) bool { return n.Target == s }
	out, users := recordsNaming(r, s, r.NameRefs,
		func(u *unitRecs) []*NameRef { return u.names },
		func(n *NameRef) *NameRef { return currentName(r.syms, n) }, names)
	for _, u := range users {
		if u.index < r.decl.Len() {
			if d := r.decl.At(u.index); d != nil {
				for _, n := range d.names {
					if names(n) {
						out = append(out, n) // joined as they are (join)
					}
				}
			}
		}
	}
	return out
}

// recordsNaming returns the records that match (those naming s), in the
// order of the joined list all gives: read from the records (of) of s's
// users and of the document level, each as this version's (current), with
// the users; or, when r does not know its users, from all, and no users.
func recordsNaming[T any](r *Result, s *Symbol, all func() []T, of func(*unitRecs) []T, current func(T) T, match func(T) bool) (out []T, users []*Symbol) {
	users, ok := r.Users(s)
	if !ok {
		for _, x := range all() {
			if match(x) {
				out = append(out, x)
			}
		}
		return out, nil
	}
	for _, u := range append(r.recsOf(users), r.doc) {
		if u != nil {
			for _, x := range of(u) {
				if x = current(x); match(x) {
					out = append(out, x)
				}
			}
		}
	}
	return out, users
}

// recsOf returns the records of units, in order (nil for a unit without).
func (r *Result) recsOf(units []*Symbol) []*unitRecs {
	out := make([]*unitRecs, 0, len(units)+1)
	for _, u := range units {
		if u.index < r.units.Len() {
			out = append(out, r.units.At(u.index))
		}
	}
	return out
}

// UseCounts returns, by a symbol's place in Symbols, how many references
// name it as target or field and how many names (NameRefs) name it: the
// lengths of ReferencesTo and NameRefsTo for every symbol, counted in one
// pass over the records (those join joins) without joining them.
func (r *Result) UseCounts() []int {
	n := make([]int, r.syms.Len())
	own := func(t *Symbol) bool { return t != nil && t.index < len(n) && r.syms.At(t.index) == t }
	add := func(u *unitRecs) {
		if u == nil {
			return
		}
		for _, ref := range u.refs {
			ref = currentRef(r.syms, ref)
			if own(ref.Target) {
				n[ref.Target.index]++
			}
			if ref.Field != ref.Target && own(ref.Field) {
				n[ref.Field.index]++
			}
		}
		for _, nr := range u.names {
			if nr = currentName(r.syms, nr); own(nr.Target) {
				n[nr.Target.index]++
			}
		}
	}
	for i := range r.units.Len() {
		add(r.units.At(i))
	}
	add(r.doc)
	for i := range r.decl.Len() {
		if d := r.decl.At(i); d != nil {
			for _, nr := range d.names {
				if own(nr.Target) {
					n[nr.Target.index]++
				}
			}
		}
	}
	return n
}

// Users returns the definitions whose text names s (a reference's target
// or field, a link() name, a dependsOn or exclude name), each once, in
// symbol order: what an edit of s can change, found without a walk over
// every reference. ok is false when the result does not know (it is
// incomplete, or s is not its symbol).
func (r *Result) Users(s *Symbol) (users []*Symbol, ok bool) {
	if r.users == nil || !r.complete || s == nil || s.index < 0 || s.index >= r.syms.Len() || r.syms.At(s.index) != s {
		return nil, false
	}
	for _, u := range r.users.of(s.index) {
		users = append(users, r.syms.At(int(u)))
	}
	return users, true
}

// EdgesFrom returns the dependencies of definition s: its references' and
// link() names' edges, then its dependsOn edges, as Edges lists them,
// without joining every definition's (nil when s is not this result's).
func (r *Result) EdgesFrom(s *Symbol) []*Edge {
	refs, decl := r.edgesFrom(s)
	if len(refs)+len(decl) == 0 {
		return nil
	}
	return append(append(make([]*Edge, 0, len(refs)+len(decl)), refs...), decl...)
}

// EdgesFromSeq yields EdgesFrom(s)'s edges in order without making the
// list (the rules walk them for every resource).
func (r *Result) EdgesFromSeq(s *Symbol) iter.Seq[*Edge] {
	return func(yield func(*Edge) bool) {
		refs, decl := r.edgesFrom(s)
		for _, e := range refs {
			if !yield(e) {
				return
			}
		}
		for _, e := range decl {
			if !yield(e) {
				return
			}
		}
	}
}

// edgesFrom returns the two lists EdgesFrom joins: s's references' and
// link() names' edges, and its dependsOn edges.
func (r *Result) edgesFrom(s *Symbol) (refs, decl []*Edge) {
	if s == nil || s.index < 0 || s.index >= r.syms.Len() || r.syms.At(s.index) != s {
		return nil, nil
	}
	if s.index < r.units.Len() {
		if u := r.units.At(s.index); u != nil {
			refs = u.edges
		}
	}
	if s.index < r.decl.Len() {
		if d := r.decl.At(s.index); d != nil {
			decl = d.edges
		}
	}
	return refs, decl
}

// SiteOf returns the site of scalar sc, or nil: from the full
// analysis's index, or among the sites of the unit holding sc (the
// document level's when none does), so that asking costs no index over
// the whole document.
func (r *Result) SiteOf(sc *schema.Scalar) *Site {
	if r.sitesByScalar != nil {
		return r.sitesByScalar[sc]
	}
	var sites []*Site
	if u := r.unitAt(sc.Rng); u != nil {
		if rec := r.units.At(u.index); rec != nil {
			sites = rec.sites
		}
	} else if r.doc != nil {
		sites = r.doc.sites
	}
	for _, s := range sites {
		if s.Scalar == sc {
			return s
		}
	}
	return nil
}

// The queries below ask what is at one place. Each reads the records of
// the unit whose text holds the place (the document level's when none
// does: recordsAt), never the joined lists, so that the version an edit
// made answers them without joining anything or building an index over
// the whole document. A record shared from an earlier version is read
// naming this version's symbols, as the joined lists name them.

// recordsAt returns the unit whose text holds off and its records, or
// nil and the document level's records; whole is true when the result
// keeps no units (it checked nothing), and the caller scans the lists.
func (r *Result) recordsAt(off int) (unit *Symbol, recs *unitRecs, whole bool) {
	if r.order == nil {
		return nil, nil, true
	}
	if u := r.unitAt(source.R(off, off)); u != nil {
		if u.index >= r.units.Len() {
			return u, nil, false
		}
		return u, r.units.At(u.index), false
	}
	return nil, r.doc, false
}

// SiteAt returns the site whose scalar contains off.
func (r *Result) SiteAt(off int) *Site {
	for _, s := range listAt(r, off, r.Sites, (*unitRecs).siteList) {
		if s.Scalar.Rng.Contains(off) {
			return s
		}
	}
	return nil
}

// SymbolAt returns the symbol whose name range contains off.
func (r *Result) SymbolAt(off int) *Symbol {
	u, _, whole := r.recordsAt(off)
	if whole {
		for _, s := range r.Symbols() {
			if s.NameRange.Contains(off) {
				return s
			}
		}
		return nil
	}
	if u == nil || u.NameRange.Contains(off) {
		return u
	}
	// A data source's exported fields come just before it.
	for i := u.index - 1; u.Kind == DataSourceSymbol && i >= 0; i-- {
		f := r.syms.At(i)
		if f.Kind != DataSourceFieldSymbol || f.Parent != u {
			break
		}
		if f.NameRange.Contains(off) {
			return f
		}
	}
	return nil
}

// ReferenceAt returns the reference whose range contains off, innermost
// first.
func (r *Result) ReferenceAt(off int) *Reference {
	var best *Reference
	for _, ref := range listAt(r, off, r.References, func(u *unitRecs) []*Reference { return u.refs }) {
		if ref.Expr.Rng.Contains(off) && (best == nil || ref.Expr.Rng.Len() < best.Expr.Rng.Len()) {
			best = ref
		}
	}
	if best == nil {
		return nil
	}
	return currentRef(r.syms, best)
}

// CallNameAt returns the call whose function's name contains off.
func (r *Result) CallNameAt(off int) *Call {
	for _, c := range r.callsAt(off) {
		if c.Expr != nil && c.Expr.NameRange.Contains(off) {
			return c
		}
	}
	return nil
}

// FuncRefAt returns the call of site that passes a function by name
// (map(xs, to_upper)) whose name contains off.
func (r *Result) FuncRefAt(site *Site, off int) *Call {
	for _, c := range r.callsAt(off) {
		if c.Ref != nil && c.Site == site && c.Ref.Rng.Contains(off) {
			return c
		}
	}
	return nil
}

// callsAt returns the calls of the unit at off.
func (r *Result) callsAt(off int) []*Call {
	return listAt(r, off, r.Calls, func(u *unitRecs) []*Call { return u.calls })
}

// listAt returns what list reads of the records at off (recordsAt), or
// the joined list when the result keeps no units: joining is a walk over
// every unit, the cost the place queries exist to avoid.
func listAt[T any](r *Result, off int, joined func() []T, list func(*unitRecs) []T) []T {
	_, recs, whole := r.recordsAt(off)
	switch {
	case whole:
		return joined()
	case recs == nil:
		return nil
	}
	return list(recs)
}

// NameRefAt returns the resource name written as text (a link()
// argument, a dependsOn or linkSelector.exclude entry) whose range
// contains off.
func (r *Result) NameRefAt(off int) *NameRef {
	u, recs, whole := r.recordsAt(off)
	if whole {
		return nameRefIn(r.NameRefs(), off)
	}
	var n *NameRef
	if recs != nil {
		n = nameRefIn(recs.names, off)
	}
	if n == nil && u != nil && u.index < r.decl.Len() {
		if d := r.decl.At(u.index); d != nil {
			n = nameRefIn(d.names, off)
		}
	}
	if n == nil {
		return nil
	}
	return currentName(r.syms, n)
}

// SitesIn returns the sites whose scalar touches rng (ends at or after
// its start, starts at or before its end), by scalar start, in the order
// of Sites among equal starts: what a window of the editor shows. It
// reads the records of the units that overlap rng and of the document
// level, not the joined lists, so a view of a few lines costs those lines.
func (r *Result) SitesIn(rng source.Range) []*Site {
	touches := func(s *Site) bool { return s.Scalar.Rng.End >= rng.Start && s.Scalar.Rng.Start <= rng.End }
	var out []*Site
	if r.order == nil {
		out = filterSites(r.Sites(), touches)
	} else {
		order, syms := r.order, r.syms
		k := sort.Search(len(order), func(k int) bool { return syms.At(int(order[k])).Range.End >= rng.Start })
		for ; k < len(order) && syms.At(int(order[k])).Range.Start <= rng.End; k++ {
			if i := int(order[k]); i < r.units.Len() {
				out = append(out, filterSites(r.units.At(i).siteList(), touches)...)
			}
		}
		out = append(out, filterSites(r.doc.siteList(), touches)...)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Scalar.Rng.Start < out[j].Scalar.Rng.Start })
	return out
}

// filterSites returns the sites of sites that keep holds for, in order.
func filterSites(sites []*Site, keep func(*Site) bool) []*Site {
	var out []*Site
	for _, s := range sites {
		if keep(s) {
			out = append(out, s)
		}
	}
	return out
}

// siteList returns u's sites (none when u is nil).
func (u *unitRecs) siteList() []*Site {
	if u == nil {
		return nil
	}
	return u.sites
}

// nameRefIn returns the name of names whose range contains off.
func nameRefIn(names []*NameRef, off int) *NameRef {
	for _, n := range names {
		if n.Range.Contains(off) {
			return n
		}
	}
	return nil
}
