package ide

import (
	"slices"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/schema"
)

// TokenUnit is one definition of a document whose semantic tokens are
// coloured on their own (UnitTokens), so that a caller may keep them
// across versions: what they read is the definition's syntax nodes (the
// Entry, at its place), its Symbol (the key's kind and secrecy; data
// source fields follow from the entry), its records (sites, and the
// references' targets, whose secrecy marks them) and which resource names
// exist (a bare name that is none is a function's). The Symbol and
// Records identities cover all of it: a symbol is the previous version's
// only when its entry is, and records are shared only under the previous
// version's names (analysis.RecordsID).
type TokenUnit struct {
	Symbol  *analysis.Symbol
	Entry   *schema.Entry
	Records analysis.RecordsID
	top     string // the section's key
}

// SemanticTokenUnits splits SemanticTokens(res, nil) in two: the tokens
// outside the definitions (sections' keys, version, metadata, and any
// entry that is no unit, such as a duplicate name), sorted and without
// overlaps, and the definitions in text order. A definition whose
// records res does not keep apart (it checked nothing) is coloured with
// the tokens outside.
//
// SemanticTokens sorts all tokens together and drops overlaps across
// definitions; the parts put together by start are its answer only when
// no token of one part overlaps another part's, which the caller checks.
func SemanticTokenUnits(res *analysis.Result) (doc []SemanticToken, units []TokenUnit) {
	if res == nil || res.File == nil || res.File.Root == nil {
		return nil, nil
	}
	w := newTokenWalk(res, nil)
	w.unit = func(s *analysis.Symbol, e *schema.Entry, top string) bool {
		id := res.UnitRecords(s)
		if !id.Valid() {
			return false
		}
		units = append(units, TokenUnit{Symbol: s, Entry: e, Records: id, top: top})
		return true
	}
	w.node(res.File.Root, "", 0)
	// The blueprint language's sections interleave in the text.
	byStart := func(a, b TokenUnit) int { return a.Entry.Key.Rng.Start - b.Entry.Key.Rng.Start }
	if !slices.IsSortedFunc(units, byStart) {
		slices.SortStableFunc(units, byStart)
	}
	return sortTokens(w.out), units
}

// UnitTokens returns the tokens of u, a unit SemanticTokenUnits gave for
// res, sorted and without overlaps.
func UnitTokens(res *analysis.Result, u TokenUnit) []SemanticToken {
	w := newTokenWalk(res, nil)
	w.entry(u.Entry, u.top, 1)
	return sortTokens(w.out)
}

// offer hands e, a depth-1 entry under top, to the unit hook when it is
// the entry a unit was declared from.
func (w *tokenWalk) offer(e *schema.Entry, top string) bool {
	s := w.ix.symbolAt(e.Key.Rng.Start)
	if s == nil || s.Kind == analysis.DataSourceFieldSymbol || s.NameRange != e.Key.Rng || s.Entry() != e {
		return false
	}
	return w.unit(s, e, top)
}
