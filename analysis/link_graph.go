package analysis

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/providers/registry"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/subst"
)

var (
	codeLinkCardinality = source.NewCode("link-cardinality", source.Error,
		"A resource takes part in more links of one link type than the link type allows (or fewer than it needs): the provider's link definition bounds how many resources of the other type one resource links with.",
		"# at most one celerity/api may link to a celerity/handler\nlinkSelector:\n  byLabel: {app: orders}  # a second API selecting the same handler")
	codeLinkCapability = source.NewCode("link-capability-missing", source.Error,
		"A link requires a capability it can not work without (MustExist), and no link of the blueprint provides it on that resource.",
		"linkSelector:\n  byLabel: {app: orders}  # the link needs another link to provide its capability first")
)

// Link is one link of the blueprint, in the direction of its link type:
// From is the resource on the type's From side. A link is made by a
// linkSelector (At is its byLabel key, Origin the selecting resource) or
// by a reference placed in a field that activates links (Activated; At
// is the reference).
type Link struct {
	From, To  *Symbol
	Def       *registry.LinkDefinition
	Origin    *Symbol
	At        source.Range
	Activated bool
}

// linkGraph makes the blueprint's links from the selections (resolveLinks
// left them in the declaration records) and from the references placed in
// link-activating fields, and checks what needs all of them at once: each
// link type's cardinality and the capabilities links require. It runs in
// full on every version: its input is the selections, which are already
// made, and its output is small.
func (a *analyzer) linkGraph() {
	if links, checked, ok := a.keptLinks(); ok {
		a.res.links, a.res.checked, a.res.linksMade = links, checked, true
		a.checkCardinality(checked)
		a.checkCapabilities(checked)
		return
	}
	var links []*Link
	seen := map[[2]int]bool{} // by From and To, symbol index
	defs := map[[2]string]linkDef{}
	add := func(origin, other *Symbol, at source.Range, activated bool) {
		l := a.linkBetween(origin, other, defs)
		if l == nil {
			return
		}
		k := [2]int{l.From.index, l.To.index}
		if seen[k] {
			return
		}
		seen[k] = true
		l.Origin, l.At, l.Activated = origin, at, activated
		links = append(links, l)
	}
	for _, i := range a.res.wide.linked {
		d := a.decl.At(int(i))
		if d == nil || d.link == nil {
			continue
		}
		s := a.res.syms.At(int(i))
		for _, t := range d.link.selected {
			add(s, a.res.syms.At(t), s.Resource.LinkSelector.ByLabel.KeyRange(), false)
		}
	}
	for _, s := range a.ofKind(ResourceSymbol) {
		rt := a.resourceType(s)
		if rt == nil || len(rt.ActivatingPaths) == 0 || s.Resource.Spec == nil {
			continue
		}
		before := len(links)
		a.activatedLinks(s, rt, s.Resource.Spec.Node(), nil, add)
		a.checkActivatedAnnotations(s, links[before:])
	}
	need := map[string]bool{} // the capabilities a link can not work without
	for _, l := range links {
		for _, c := range l.Def.Requires {
			if c.MustExist {
				need[c.Name] = true
			}
		}
	}
	var checked []*Link
	for _, l := range links {
		if constrained(l.Def, need) {
			checked = append(checked, l)
		}
	}
	a.res.links, a.res.checked, a.res.linksMade = links, checked, true
	a.checkCardinality(checked)
	a.checkCapabilities(checked)
}

// constrained reports whether links of def take part in the checks
// over all links: a bound on how many a resource takes part in, a
// capability it can not work without, or one of need (those some link
// can not work without) it provides.
func constrained(def *registry.LinkDefinition, need map[string]bool) bool {
	if def.PerFrom != (registry.Cardinality{}) || def.PerTo != (registry.Cardinality{}) {
		return true
	}
	for _, c := range def.Requires {
		if c.MustExist {
			return true
		}
	}
	for _, c := range def.Provides {
		if need[c.Name] {
			return true
		}
	}
	return false
}

// keptLinks returns the previous version's links when this version's
// are the same links: nothing moved, every resource selects what it
// selected, and each resource checked again kept its type and has no
// field that activates links (whose references the links would follow).
// The links are taken as they are (LinkGraph reads them through
// currentLink when a feature asks); those the checks read (checked,
// few: of constrained link types) are made to name this version's
// symbols now. Making the links afresh reads every selection and both
// types of every selected pair, which an edit inside one resource has
// no reason to pay for.
func (a *analyzer) keptLinks() (links, checked []*Link, ok bool) {
	if a.reuse == nil {
		return nil, nil, false
	}
	prev := a.reuse.prev
	syms := a.res.syms
	if !prev.linksMade || len(a.moved) > 0 || prev.syms.Len() != syms.Len() || !slices.Equal(prev.wide.linked, a.res.wide.linked) {
		return nil, nil, false
	}
	for _, i := range a.uncarried() {
		s, p := syms.At(i), prev.syms.At(i)
		if s.Kind != ResourceSymbol {
			continue
		}
		if st, _ := resourceTypeName(s); st != typeName(p) {
			return nil, nil, false
		}
		if rt := a.resourceType(s); rt != nil && len(rt.ActivatingPaths) > 0 {
			return nil, nil, false
		}
	}
	for _, i := range a.res.wide.linked {
		if a.decl.Shares(prev.decl, int(i)) {
			// Records the versions share (every resource of the chunk
			// carried over): nothing to compare, and nothing read (most
			// of an edit's cost here was reading every resource's
			// records).
			continue
		}
		d, pd := a.decl.At(int(i)), prev.decl.At(int(i))
		if d == nil || pd == nil || d.link == nil || pd.link == nil {
			if (d == nil || d.link == nil) != (pd == nil || pd.link == nil) {
				return nil, nil, false
			}
			continue
		}
		if d.link != pd.link && !slices.Equal(d.link.selected, pd.link.selected) {
			return nil, nil, false
		}
	}
	for _, l := range prev.checked {
		checked = append(checked, currentLink(syms, l))
	}
	return prev.links, checked, true
}

// typeName is resourceTypeName's name alone ("" without a type).
func typeName(s *Symbol) string {
	n, _ := resourceTypeName(s)
	return n
}

// linkDef is the link type joining two resource types, and whether it
// runs the other way (from the second to the first).
type linkDef struct {
	def      *registry.LinkDefinition
	reversed bool
}

// linkBetween returns the link between origin and other when a link type
// joins their types in either direction, nil otherwise; defs remembers
// the answers by pair of types (a selector often selects many resources
// of few types).
func (a *analyzer) linkBetween(origin, other *Symbol, defs map[[2]string]linkDef) *Link {
	ot, ok1 := resourceTypeName(origin)
	tt, ok2 := resourceTypeName(other)
	if !ok1 || !ok2 || origin == other {
		return nil
	}
	k := [2]string{ot, tt}
	ld, known := defs[k]
	if !known {
		if def, ok := a.reg.Link(ot, tt); ok {
			ld = linkDef{def: def}
		} else if def, ok := a.reg.Link(tt, ot); ok {
			ld = linkDef{def: def, reversed: true}
		}
		defs[k] = ld
	}
	switch {
	case ld.def == nil:
		return nil
	case ld.reversed:
		return &Link{From: other, To: origin, Def: ld.def}
	}
	return &Link{From: origin, To: other, Def: ld.def}
}

// activatedLinks walks the spec n of resource s (path is a stack) and
// adds a link for each resource referenced in a field that activates
// links.
func (a *analyzer) activatedLinks(s *Symbol, rt *registry.ResourceType, n schema.Node, path []string, add func(origin, other *Symbol, at source.Range, activated bool)) {
	switch n := n.(type) {
	case *schema.Mapping:
		for _, e := range n.Entries {
			if e.Key != nil && e.Value != nil {
				a.activatedLinks(s, rt, e.Value, append(path, e.Key.Value), add)
			}
		}
	case *schema.Sequence:
		for _, it := range n.Items {
			a.activatedLinks(s, rt, it, append(path, "*"), add)
		}
	case *schema.Scalar:
		site := a.siteOf(n)
		if site == nil || !rt.ActivatesLinkAt(path) {
			return
		}
		subst.WalkTemplate(site.Template, func(e subst.Expr) bool {
			if r, ok := e.(*subst.Ref); ok && r.Namespace == subst.Resources {
				if t := a.lookup(ResourceSymbol, r.Name); t != nil {
					add(s, t, r.Rng, true)
				}
			}
			return true
		})
	}
}

// checkActivatedAnnotations checks the link annotations s carries for
// the links its references activated, for each type its selection has
// not checked them for already.
func (a *analyzer) checkActivatedAnnotations(s *Symbol, links []*Link) {
	done := map[string]bool{}
	if d := a.decl.At(s.index); d != nil && d.link != nil {
		for _, t := range d.link.selected {
			if tt, ok := resourceTypeName(a.res.syms.At(t)); ok {
				done[tt] = true
			}
		}
	}
	st, _ := resourceTypeName(s)
	for _, l := range links {
		other := l.To
		if other == s {
			other = l.From
		}
		ot, _ := resourceTypeName(other)
		if done[ot] {
			continue
		}
		done[ot] = true
		for _, w := range a.checkLinkAnnotations(s, st, ot, l.At) {
			a.report(w.d)
		}
	}
}

// linkEnd is one resource's part in the links of one link type.
type linkEnd struct {
	def  *registry.LinkDefinition
	from bool // the resource is on the type's From side
	res  *Symbol
}

// checkCardinality reports each resource that takes part in more links
// of a link type than the type allows on its side, at the links past the
// bound (one diagnostic per selector or reference making them), and each
// that takes part in fewer than it needs (but some), at every link.
func (a *analyzer) checkCardinality(links []*Link) {
	groups := map[linkEnd][]*Link{}
	var order []linkEnd
	for _, l := range links {
		for _, end := range []linkEnd{{l.Def, true, l.From}, {l.Def, false, l.To}} {
			c := end.bound()
			if c.Min == 0 && c.Max == 0 {
				continue
			}
			if groups[end] == nil {
				order = append(order, end)
			}
			groups[end] = append(groups[end], l)
		}
	}
	for _, end := range order {
		ls := groups[end]
		c := end.bound()
		slices.SortStableFunc(ls, func(x, y *Link) int { return cmp.Compare(x.At.Start, y.At.Start) })
		var report []*Link
		var bound string
		switch {
		case c.Max > 0 && len(ls) > c.Max:
			report, bound = ls[c.Max:], fmt.Sprintf("at most %d", c.Max)
		case c.Min > 0 && len(ls) < c.Min:
			report, bound = ls, fmt.Sprintf("at least %d", c.Min)
		default:
			continue
		}
		l0 := ls[0]
		otherType := l0.Def.To
		verb := "links to"
		if !end.from {
			otherType, verb = l0.Def.From, "is linked from"
		}
		var names []string
		for _, l := range ls {
			names = append(names, quote(end.other(l).Name))
		}
		msg := fmt.Sprintf("%q %s %d resources of type %s (%s), but the link between %s and %s allows %s per %s",
			end.res.Name, verb, len(ls), otherType, strings.Join(names, ", "), l0.Def.From, l0.Def.To, bound, end.ownType())
		if len(ls) == 1 {
			msg = fmt.Sprintf("%q %s 1 resource of type %s (%s), but the link between %s and %s needs %s per %s",
				end.res.Name, verb, otherType, names[0], l0.Def.From, l0.Def.To, bound, end.ownType())
		}
		at := map[source.Range]bool{}
		for _, l := range report {
			if at[l.At] {
				continue
			}
			at[l.At] = true
			d := codeLinkCardinality.New(l.At, "%s", msg)
			for _, o := range ls {
				d.Related = append(d.Related, source.Related{Range: end.other(o).NameRange, Message: "linked resource of type " + otherType})
			}
			a.report(d)
		}
	}
}

func (e linkEnd) bound() registry.Cardinality {
	if e.from {
		return e.def.PerFrom
	}
	return e.def.PerTo
}

func (e linkEnd) ownType() string {
	if e.from {
		return e.def.From
	}
	return e.def.To
}

// other returns the resource at l's other end from e's.
func (e linkEnd) other(l *Link) *Symbol {
	if e.from {
		return l.To
	}
	return l.From
}

// capabilityAt names a capability on one resource.
type capabilityAt struct {
	name string
	res  *Symbol
}

func (l *Link) on(c registry.Capability) capabilityAt {
	if c.On == "to" {
		return capabilityAt{c.Name, l.To}
	}
	return capabilityAt{c.Name, l.From}
}

// checkCapabilities reports each link requiring a capability it can not
// do without (MustExist) that no link of the blueprint provides on the
// resource it names, at the link's selector or reference. A requirement
// without MustExist is met by absence and is not checked.
func (a *analyzer) checkCapabilities(links []*Link) {
	provided := map[capabilityAt]bool{}
	for _, l := range links {
		for _, c := range l.Def.Provides {
			provided[l.on(c)] = true
		}
	}
	for _, l := range links {
		for _, c := range l.Def.Requires {
			if c.MustExist && !provided[l.on(c)] {
				a.report(codeLinkCapability.New(l.At, "the link between %q and %q requires the capability %q on %q, which no link in this blueprint provides",
					l.From.Name, l.To.Name, c.Name, l.on(c).res.Name))
			}
		}
	}
}
