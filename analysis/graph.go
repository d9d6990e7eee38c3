package analysis

import (
	"fmt"
	"slices"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/internal/chunked"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// resolveLinks matches each linkSelector against the labels of the other
// resources and records each resource's dependsOn and exclude names
// (declRecs). Selections are kept as link records only, not as edges: a
// selector that matches every resource is common, and one edge per pair
// would make Edges quadratic in the resources. When units are carried
// over, a resource whose records this version did not make keeps the
// previous version's names (it names only symbols this version shares),
// the label index is the previous version's with the dirty resources'
// labels patched in, and a carried-over resource keeps its previous
// selection and diagnostics unless its selector reads a label pair of a
// dirty resource whose labels or type changed (wide.go).
func (a *analyzer) resolveLinks() {
	a.startWide()
	w, prevW := a.res.wide, a.wide.prev
	res := a.blocks[ResourceSymbol]
	if prevW == nil {
		sel := a.linkSelection()
		a.decl = chunked.Make[*declRecs](a.res.syms.Len())
		w.labels = sel.labels
		for k, d := range sel.decl {
			a.reportLink(d.link)
			a.keepDecl(res.lo+k, d)
		}
		a.listLinks(nil, nil)
		return
	}
	prev := a.reuse.prev
	a.decl = prev.decl.Edit()
	w.linksCarried, w.labels = true, prevW.labels
	touched := a.touchedLabels()
	if touched != nil {
		w.labels = a.patchLabelIndex(prevW.labels, touched)
	}
	// redo: the resources whose selection is made again, by symbol index.
	redo := map[int]bool{}
	for _, i := range a.uncarried() {
		if a.res.syms.At(i).Kind == ResourceSymbol {
			redo[i] = true
		}
	}
	if touched != nil {
		for _, i := range prevW.linked {
			if d := prev.decl.At(int(i)); !redo[int(i)] && d != nil && d.link != nil && readsTouched(*d.link, touched) {
				redo[int(i)] = true
				w.relinked++
			}
		}
	}
	for _, i := range a.made {
		if s := a.res.syms.At(int(i)); s.Kind == ResourceSymbol {
			d := a.nameRefs(s)
			if pd := prev.decl.At(int(i)); pd != nil && !redo[int(i)] {
				d.link = pd.link
			}
			a.decl.Set(int(i), d)
		}
	}
	for _, i := range sortedKeys(redo) {
		d := a.decl.At(i)
		if d == nil || d == prev.decl.At(i) {
			d = &declRecs{}
			if pd := prev.decl.At(i); pd != nil {
				d.names, d.edges = pd.names, pd.edges
			}
		}
		d.link = a.selectLinks(a.res.syms.At(i), w.labels)
		a.reportLink(d.link)
		a.keepDecl(i, d)
	}
	// The carried-over selections' diagnostics, moved with their units.
	for _, i := range prevW.noisy {
		if redo[int(i)] {
			continue
		}
		d := *a.decl.At(int(i))
		rec := *d.link
		rec.diags = make([]wideDiag, len(rec.diags))
		for k, pw := range d.link.diags {
			rec.diags[k] = a.carriedDiag(pw)
			a.report(rec.diags[k].d)
		}
		d.link = &rec
		a.decl.Set(int(i), &d)
	}
	a.listLinks(prevW, redo)
}

// selectAllLinks makes the label index and every resource's records
// (nameRefs, selectLinks) of a whole analysis; it reports nothing and
// writes nothing but what it returns, so that the fan-out can run it
// beside the sites' checks.
func (a *analyzer) selectAllLinks() *linkSelection {
	res := a.blocks[ResourceSymbol]
	sel := &linkSelection{labels: a.labelIndex(), decl: make([]*declRecs, res.hi-res.lo)}
	for i := res.lo; i < res.hi; i++ {
		s := a.res.syms.At(i)
		d := a.nameRefs(s)
		d.link = a.selectLinks(s, sel.labels)
		sel.decl[i-res.lo] = d
	}
	return sel
}

// reportLink reports the diagnostics of a selection (rec may be nil).
func (a *analyzer) reportLink(rec *linkRecord) {
	if rec != nil {
		for _, d := range rec.diags {
			a.report(d.d)
		}
	}
}

// keepDecl records d as resource i's, or nothing when it is empty.
func (a *analyzer) keepDecl(i int, d *declRecs) {
	if len(d.names) == 0 && len(d.edges) == 0 && d.link == nil {
		d = nil
	}
	a.decl.Set(i, d)
}

// listLinks lists the resources with a selection (linked) and those whose
// selection has diagnostics (noisy), for the next version: the previous
// version's lists when the redone resources did not change them.
func (a *analyzer) listLinks(prevW *wideIndex, redo map[int]bool) {
	w := a.res.wide
	has := func(i int) (linked, noisy bool) {
		if d := a.decl.At(i); d != nil && d.link != nil {
			return true, len(d.link.diags) > 0
		}
		return false, false
	}
	if prevW != nil {
		same := true
		for i := range redo {
			l, n := has(i)
			_, wasL := slices.BinarySearch(prevW.linked, int32(i))
			_, wasN := slices.BinarySearch(prevW.noisy, int32(i))
			same = same && l == wasL && n == wasN
		}
		if same {
			w.linked, w.noisy = prevW.linked, prevW.noisy
			return
		}
	}
	res := a.blocks[ResourceSymbol]
	for i := res.lo; i < res.hi; i++ {
		if l, n := has(i); l {
			w.linked = append(w.linked, int32(i))
			if n {
				w.noisy = append(w.noisy, int32(i))
			}
		}
	}
}

// labelIndex indexes the resources by label key=value, in declaration
// order.
func (a *analyzer) labelIndex() map[[2]string][]int {
	byLabel := map[[2]string][]int{}
	for _, s := range a.ofKind(ResourceSymbol) {
		for _, e := range labelEntries(s.Resource) {
			if e.Key != nil {
				k := [2]string{e.Key.Value, scalarText(e.Value)}
				byLabel[k] = append(byLabel[k], s.index)
			}
		}
	}
	return byLabel
}

// nameRefs returns the resources s names in dependsOn (as edges too) and
// in its linkSelector's exclude.
func (a *analyzer) nameRefs(s *Symbol) *declRecs {
	d := &declRecs{}
	r := s.Resource
	// dependsOn edges (2025-11-02); unknown names are reported by schema.
	for _, sc := range r.DependsOnRefs {
		t := a.lookup(ResourceSymbol, sc.Value)
		if t == nil {
			continue
		}
		d.names = append(d.names, &NameRef{Range: sc.ValueRange(), Target: t, Kind: NameRefDependsOn})
		if t != s {
			d.edges = append(d.edges, &Edge{From: s, To: t, Range: sc.Rng, Kind: EdgeDependsOn})
		}
	}
	if r.LinkSelector == nil {
		return d
	}
	for _, sc := range literalNames(r.LinkSelector.Exclude) {
		if t := a.lookup(ResourceSymbol, sc.Value); t != nil {
			d.names = append(d.names, &NameRef{Range: sc.ValueRange(), Target: t, Kind: NameRefExclude})
		}
	}
	return d
}

// selectLinks resolves the linkSelector of resource s against the label
// index and returns its record (nil: no selection), whose diagnostics
// the caller reports (reportLink).
func (a *analyzer) selectLinks(s *Symbol, labels map[[2]string][]int) *linkRecord {
	r := s.Resource
	if r.LinkSelector == nil {
		return nil
	}
	sel := r.LinkSelector.ByLabel.Mapping()
	if sel == nil || len(sel.Entries) == 0 {
		return nil
	}
	var excluded map[string]bool
	if seq := r.LinkSelector.Exclude.Sequence(); seq != nil {
		excluded = make(map[string]bool, len(seq.Items))
		for _, it := range seq.Items {
			excluded[scalarText(it)] = true
		}
	}
	rec := &linkRecord{from: s.index, selected: a.selectByLabels(sel, labels, s, excluded)}
	rec.reads = make([][2]string, 0, len(sel.Entries))
	for _, e := range sel.Entries {
		if e.Key != nil {
			rec.reads = append(rec.reads, [2]string{e.Key.Value, scalarText(e.Value)})
		}
	}
	if len(rec.selected) == 0 {
		d := codeLinkNoMatch.New(r.LinkSelector.ByLabel.KeyRange(), "linkSelector of %q selects no resource: no other resource has all the labels %s", s.Name, describeLabels(sel))
		rec.diags = []wideDiag{{d: d, unit: s.index}}
	} else {
		selected := make([]*Symbol, len(rec.selected))
		for i, t := range rec.selected {
			selected[i] = a.res.syms.At(t)
		}
		rec.diags = a.checkLinkTypes(s, selected)
	}
	return rec
}

// literalNames returns the string scalars of a field holding one name or
// a list of names (linkSelector.exclude); schema reports other shapes.
func literalNames(f *schema.Field) []*schema.Scalar {
	var items []schema.Node
	switch n := f.Node().(type) {
	case *schema.Scalar:
		items = []schema.Node{n}
	case *schema.Sequence:
		items = n.Items
	}
	var out []*schema.Scalar
	for _, it := range items {
		if sc, ok := it.(*schema.Scalar); ok && sc.Tag != schema.NullTag {
			out = append(out, sc)
		}
	}
	return out
}

// selectByLabels returns the resources other than self and the excluded
// ones that carry every label of sel, in declaration order, by symbol
// index.
func (a *analyzer) selectByLabels(sel *schema.Mapping, byLabel map[[2]string][]int, self *Symbol, excluded map[string]bool) []int {
	lists := make([][]int, 0, len(sel.Entries))
	for _, e := range sel.Entries {
		if e.Key == nil {
			return nil
		}
		l := byLabel[[2]string{e.Key.Value, scalarText(e.Value)}]
		if len(l) == 0 {
			return nil
		}
		lists = append(lists, l)
	}
	// Walk the shortest list, keeping what every other list holds (each
	// is sorted: declaration order is index order).
	shortest := 0
	for i, l := range lists {
		if len(l) < len(lists[shortest]) {
			shortest = i
		}
	}
	out := make([]int, 0, len(lists[shortest]))
next:
	for _, t := range lists[shortest] {
		if t == self.index || excluded[a.res.syms.At(t).Name] {
			continue
		}
		for i, l := range lists {
			if _, found := slices.BinarySearch(l, t); i != shortest && !found {
				continue next
			}
		}
		out = append(out, t)
	}
	return out
}

// checkLinkTypes reports, once per resource type, selected resources the
// provider can not link with when it defines links for the selector's
// resource type.
func (a *analyzer) checkLinkTypes(s *Symbol, selected []*Symbol) []wideDiag {
	r := s.Resource
	from, ok := resourceTypeName(s)
	if !ok || len(a.reg.LinksFrom(from)) == 0 {
		return nil
	}
	// The first few selected resources of each unsupported type, and how
	// many there are.
	type group struct {
		first []*Symbol
		n     int
	}
	unsupported := map[string]*group{}
	supported := map[string]bool{}
	var annotations []wideDiag // the link annotations s carries, per linked type
	var order []string
	for _, t := range selected {
		to, ok := resourceTypeName(t)
		if !ok || supported[to] {
			continue
		}
		g := unsupported[to]
		if g == nil {
			if a.linkable(from, to) {
				supported[to] = true
				annotations = append(annotations, a.checkLinkAnnotations(s, from, to, r.LinkSelector.ByLabel.KeyRange())...)
				continue
			}
			g = &group{}
			unsupported[to] = g
			order = append(order, to)
		}
		g.n++
		if len(g.first) < 5 {
			g.first = append(g.first, t)
		}
	}
	out := annotations
	for _, to := range order {
		g := unsupported[to]
		ts := g.first
		what := quote(ts[0].Name)
		if g.n > 1 {
			what = fmt.Sprintf("%d resources of type %s (%s, ...)", g.n, to, quote(ts[0].Name))
		}
		w := wideDiag{unit: s.index, d: codeLinkUnsupported.New(r.LinkSelector.ByLabel.KeyRange(), "linkSelector of %q selects %s, but the provider has no link between %s and %s", s.Name, what, from, to)}
		for _, t := range ts {
			w.d.Related = append(w.d.Related, source.Related{Range: t.NameRange, Message: "selected resource of type " + to})
			w.related = append(w.related, t.index)
		}
		out = append(out, w)
	}
	return out
}

// linkable reports whether the provider links the two types, in either
// direction.
func (a *analyzer) linkable(from, to string) bool {
	if _, ok := a.reg.Link(from, to); ok {
		return true
	}
	_, ok := a.reg.Link(to, from)
	return ok
}

func describeLabels(m *schema.Mapping) string {
	var parts []string
	for _, e := range m.Entries {
		if e.Key != nil {
			parts = append(parts, e.Key.Value+"="+scalarText(e.Value))
		}
	}
	return strings.Join(parts, ", ")
}

// checkHygiene reports unused definitions and secrets flowing out. Uses
// are counted by symbol index (useCounts, wide.go).
func (a *analyzer) checkHygiene() {
	uses := a.useCounts()
	// Only variables, values and data sources can be unused; they come
	// first.
	for i := range a.blocks[DataSourceSymbol].hi {
		s := a.res.syms.At(i)
		if uses.At(i) > 0 {
			continue
		}
		var code = codeUnusedVariable
		switch s.Kind {
		case VariableSymbol:
		case ValueSymbol:
			code = codeUnusedValue
		case DataSourceSymbol:
			code = codeUnusedDataSource
		default:
			continue
		}
		if a.suggested[s] {
			continue
		}
		d := code.New(s.NameRange, "%s %q is never referenced", s.Kind, s.Name)
		d.Tags = []source.Tag{source.Unnecessary}
		d.Suggestions = []source.Suggestion{{Title: fmt.Sprintf("Remove unused %s %q", s.Kind, s.Name), Edits: []source.Edit{{Range: a.lineSpan(s.Range), NewText: ""}}}}
		a.report(d)
	}
	for _, refs := range a.checkedRefs() {
		for _, ref := range refs {
			t := ref.Target
			if t == nil || !t.Secret || ref.Site == nil || ref.Site.Owner == nil {
				continue
			}
			owner := ref.Site.Owner
			switch {
			case owner.Kind == ExportSymbol:
				a.report(codeSecretLeak.New(ref.Expr.Rng, "secret %s %q is exported by %q, which makes it readable outside the blueprint", t.Kind, t.Name, owner.Name))
			case owner.Kind == ValueSymbol && !owner.Secret && ref.Site.Kind == SiteValue:
				d := codeSecretLeak.New(ref.Expr.Rng, "secret %s %q flows into value %q, which is not secret; mark it secret: true", t.Kind, t.Name, owner.Name)
				a.report(d)
			}
		}
	}
}

// lineSpan widens r to whole lines (for removal edits).
func (a *analyzer) lineSpan(r source.Range) source.Range {
	m := a.res.File.Mapper
	start := m.LineStart(m.Line(r.Start))
	endLine := m.Line(r.End)
	end := m.LineStart(endLine + 1)
	if end < r.End {
		end = r.End
	}
	return source.Range{Start: start, End: end}
}

// scalarText returns a scalar node's text ("" for collections).
func scalarText(n schema.Node) string {
	if sc, ok := n.(*schema.Scalar); ok {
		return sc.Value
	}
	return ""
}
