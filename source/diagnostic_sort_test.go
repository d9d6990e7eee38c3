package source

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortDiagnosticsIsStable: the one-pass paths (sorted, two sorted
// runs) give what the stable sort gives, equal diagnostics in their
// order (told apart by severity, which the order ignores).
func TestSortDiagnosticsIsStable(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	gen := func(n int) []Diagnostic {
		ds := make([]Diagnostic, n)
		for i := range ds {
			start := rng.IntN(6)
			ds[i] = Diagnostic{Range: R(start, start+rng.IntN(2)), Code: fmt.Sprint(rng.IntN(2)), Severity: Severity(i)}
		}
		return ds
	}
	for i := range 2000 {
		var ds []Diagnostic
		switch i % 3 {
		case 0: // random
			ds = gen(rng.IntN(12))
		case 1: // sorted
			ds = gen(rng.IntN(12))
			slices.SortStableFunc(ds, compareDiagnostics)
		case 2: // two sorted runs
			a, b := gen(rng.IntN(8)), gen(rng.IntN(8))
			slices.SortStableFunc(a, compareDiagnostics)
			slices.SortStableFunc(b, compareDiagnostics)
			ds = append(a, b...)
			for k := range ds {
				ds[k].Severity = Severity(k)
			}
		}
		want := slices.Clone(ds)
		slices.SortStableFunc(want, compareDiagnostics)
		SortDiagnostics(ds)
		if !slices.EqualFunc(ds, want, func(a, b Diagnostic) bool { return a.Range == b.Range && a.Code == b.Code && a.Severity == b.Severity }) {
			t.Fatalf("case %d: got %v\nwant %v", i, ds, want)
		}
	}
}
