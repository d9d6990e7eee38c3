package analysis

import "github.com/blueprint-ls/blueprint-ls/schema"

// RecordsID is the identity of a unit's records, for caches of what a
// feature derives from one unit (lsp's semantic tokens). Two versions'
// RecordsIDs of one unit are equal only when the later shares the
// earlier's records (units.go): the unit did not move, its symbol and
// every symbol its records name are the earlier version's own (or
// backdated values offering the same kind, type and secrecy), and the
// version declares the earlier's names in the same order (sharing needs
// the previous name index, reuse.go). Holding one keeps the records
// alive, so an identity is never taken by other records later.
type RecordsID struct{ u *unitRecs }

// UnitRecords returns the identity of unit s's records; the zero
// RecordsID, equal to no unit's, when s is not one of r's units or r
// keeps no records per unit.
func (r *Result) UnitRecords(s *Symbol) RecordsID {
	if r.order == nil || s == nil || s.index < 0 || s.index >= r.units.Len() || r.syms.At(s.index) != s {
		return RecordsID{}
	}
	return RecordsID{r.units.At(s.index)}
}

// Valid reports whether id names records.
func (id RecordsID) Valid() bool { return id.u != nil }

// Entry returns the syntax entry s was declared from (nil when none).
func (s *Symbol) Entry() *schema.Entry { return s.def().Entry }
