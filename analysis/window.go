package analysis

import "github.com/blueprint-ls/blueprint-ls/schema"

// An edit inside one resource, in the padded coordinates of the language
// server's parse (lsp/padding.go), keeps the text's length: the splice shares every node
// but the resource's, and schema.LoadFrom takes every other resource
// over from the previous version (schema.Blueprint.ResourcesTakenOver).
// Then declare takes those resources' symbols in bulk, without looking at
// them, and lists in a.window the symbols it did look at; every pass
// after it visits those, the units the edit spreads to (found through the
// previous version's users index) and the units whose records name a
// symbol made anew, never every unit. What a pass keeps per unit for the
// next version is the previous version's chunks, edited where the edit
// reached (internal/chunked).

// span is where the symbols of one kind are in Symbols: [lo, hi).
type span struct{ lo, hi int }

// resourceWindow returns which resources LoadFrom loaded anew when it
// took the rest over from prev's blueprint in bulk, over a text that
// kept its length, and prev's symbols can be taken for the rest.
func (a *analyzer) resourceWindow(prev *Result) (from, to int, ok bool) {
	if prev == nil || prev.users == nil || symbolCount(a.bp) != prev.rtypes.Len() {
		return 0, 0, false // declareAll did not start from prev's registry types
	}
	sp, spliced := a.res.File.Spliced(prev.File)
	if !spliced || sp.Delta != 0 {
		return 0, 0, false
	}
	from, to, ok = a.bp.ResourcesTakenOver()
	if !ok || prev.blocks[ResourceSymbol].hi-prev.blocks[ResourceSymbol].lo != a.bp.Resources.Len() {
		return 0, 0, false
	}
	return from, to, true
}

// takeResources declares the resources, taking prev's symbols for all
// but the window's when it can (resourceWindow), and reports whether it
// did: declareOne declares one resource the usual way.
func (a *analyzer) takeResources(prev *Result, declareOne func(r *schema.Resource)) bool {
	from, to, ok := a.resourceWindow(prev)
	if !ok || a.nsym != prev.blocks[ResourceSymbol].lo || a.res.syms.Len() != prev.syms.Len() {
		return false
	}
	// declareAll started from prev's symbols and registry types: those
	// of the resources outside the window are in place already.
	res := &a.bp.Resources
	lo := a.nsym
	a.nsym += from
	for i := from; i < to; i++ {
		declareOne(res.At(i))
	}
	a.nsym += res.Len() - to
	if res.Len() > 0 {
		a.firstOf[ResourceSymbol] = lo + 1
	}
	a.taken = span{lo + from, lo + to} // the window, by symbol index
	return true
}

// listWindow lists the symbols declare looked at, once it took the
// resources in bulk: every symbol but the resources outside the window.
func (a *analyzer) listWindow(resources span) {
	a.window = a.window[:0]
	add := func(lo, hi int) {
		for i := lo; i < hi; i++ {
			a.window = append(a.window, int32(i))
		}
	}
	add(0, resources.lo)
	add(a.taken.lo, a.taken.hi)
	add(resources.hi, a.res.syms.Len())
	if a.window == nil {
		a.window = []int32{}
	}
}

// ofKind returns the block of kind's symbols (a data source's fields
// are among the data sources).
func (a *analyzer) ofKind(k SymbolKind) []*Symbol {
	return a.symbolList(a.blocks[k].lo, a.blocks[k].hi)
}

// symbolList returns the symbols [lo, hi) as a slice.
func (a *analyzer) symbolList(lo, hi int) []*Symbol {
	out := make([]*Symbol, 0, hi-lo)
	for i := lo; i < hi; i++ {
		out = append(out, a.res.syms.At(i))
	}
	return out
}

// visit calls f with the index of every symbol a pass must look at: the
// window's when declare took the rest in bulk, else every symbol's.
func (a *analyzer) visit(f func(i int)) {
	if a.window != nil {
		for _, i := range a.window {
			f(int(i))
		}
		return
	}
	for i := range a.res.syms.Len() {
		f(i)
	}
}
