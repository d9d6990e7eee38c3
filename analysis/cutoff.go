package analysis

import "github.com/blueprint-ls/blueprint-ls/types"

// An edit spreads to the units that depend on the edited one: they are
// checked again. What one of them offers its own dependents (a value's
// type, a resource's spec, metadata and each types) follows from its
// text, which did not change, and the types of its sites. So the edit
// spreads one level only, and once checked each such unit is verified
// (interfacesKept): when its sites' types, or a value's type, are the
// previous version's, its dependents read what they read before and are
// carried over. Otherwise the version is analysed again with the edit
// spread to every dependent, as before the cutoff (Options.transitive);
// so it is when this version has reference cycles it did not carry over
// (a cycle's units and their dependents are always checked again,
// planReuse).
// Typing inside a string of one resource thus checks that resource and
// the few that reference it, however long the chains of references
// through the blueprint are.

// interfacesKept reports whether every unit checked again only because
// of what it depends on (a.verify) offers what it offered before.
func (a *analyzer) interfacesKept() bool {
	if a.reuse == nil || len(a.verify) == 0 || a.ctx.Err() != nil {
		return true
	}
	if w := a.res.wide; w == nil || (len(w.cycles) > 0 && !w.cyclesCarried) {
		// A cycle this version made: the types around it depend on where
		// inference entered it, which only a transitive spread keeps.
		return false
	}
	prev := a.reuse.prev
	for _, i := range a.verify {
		s, p := a.res.syms.At(i), prev.syms.At(i)
		switch s.Kind {
		case ValueSymbol:
			if !types.Equal(s.Type, p.Type) {
				return false
			}
		case ResourceSymbol:
			cur, old := a.recs.At(i), prev.units.At(i)
			if (cur == nil) != (old == nil) {
				return false
			}
			if cur == nil {
				continue
			}
			if len(cur.sites) != len(old.sites) {
				return false
			}
			for k, site := range cur.sites {
				if !types.Equal(site.Type, old.sites[k].Type) {
					return false
				}
			}
		}
	}
	return true
}
