package analysis

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"slices"
	"sort"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/internal/gen"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// The place queries (SiteAt, SymbolAt, ReferenceAt, CallNameAt,
// FuncRefAt, NameRefAt) read the records of the unit at the place only.
// TestPlaceQueriesEqualScans holds each, at every offset of every
// testdata blueprint and of edited versions analysed incrementally (whose
// records are shared or replayed from the previous version), to a scan
// of the joined lists.
func TestPlaceQueriesEqualScans(t *testing.T) {
	docs := map[string][]byte{}
	for _, path := range testdataBlueprints(t) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		docs[path] = b
	}
	docs["gen.yaml"] = gen.Blueprint(20, "yaml")
	docs["gen.bp"] = gen.Blueprint(20, "bp")
	for name, content := range docs {
		res := analyzeText(name, content, nil)
		checkPlaces(t, name, res)
		// An edit in the middle keeps most units: their records are the
		// previous version's.
		// Inside values.prefix, which every generated resource names, a
		// letter replaced: nothing moves, the value is made anew and the
		// records naming it are shared, naming its predecessor
		// (backdating).
		if i := bytes.Index(content, []byte("join(list(variables.env")); i >= 0 {
			edited := bytes.Clone(content)
			edited[i+len("join(list(variables.en")] = 'X'
			checkPlaces(t, name+" with values.prefix edited", analyzeText(name, edited, res))
		}
		for _, at := range []int{len(content) / 3, len(content) / 2} {
			edited := append(append(append([]byte{}, content[:at]...), 'x'), content[at:]...)
			checkPlaces(t, fmt.Sprintf("%s edited at %d", name, at), analyzeText(name, edited, res))
		}
	}
}

// analyzeText analyses content named name, incrementally from prev when
// prev is not nil.
func analyzeText(name string, content []byte, prev *Result) *Result {
	f := schema.Parse(name, content)
	if prev != nil {
		if sp := schema.Splice(prev.File, content); sp != nil {
			f = sp
		}
		return AnalyzeIncremental(context.Background(), prev, f, Options{Path: name})
	}
	return Analyze(context.Background(), f, Options{Path: name})
}

func checkPlaces(t *testing.T, name string, res *Result) {
	t.Helper()
	if res.File == nil {
		return
	}
	checkPlacesJoinNothing(t, name, res)
	for _, rng := range placeRanges(res) {
		if got, want := res.SitesIn(rng), scanSitesIn(res, rng); !slices.Equal(got, want) {
			t.Fatalf("%s: SitesIn(%v) = %d sites, want %d", name, rng, len(got), len(want))
		}
	}
	for off := 0; off <= res.File.Text.Len(); off++ {
		if got, want := res.SiteAt(off), scanSite(res, off); got != want {
			t.Fatalf("%s: SiteAt(%d) = %v, want %v", name, off, got, want)
		}
		if got, want := res.SymbolAt(off), scanSymbol(res, off); got != want {
			t.Fatalf("%s: SymbolAt(%d) = %v, want %v", name, off, got, want)
		}
		if got, want := res.ReferenceAt(off), scanReference(res, off); fmt.Sprint(got) != fmt.Sprint(want) || (got == nil) != (want == nil) ||
			got != nil && (got.Expr != want.Expr || got.Target != want.Target || got.Field != want.Field) {
			t.Fatalf("%s: ReferenceAt(%d) = %+v, want %+v", name, off, got, want)
		}
		if got, want := res.CallNameAt(off), scanCallName(res, off); got != want {
			t.Fatalf("%s: CallNameAt(%d) = %v, want %v", name, off, got, want)
		}
		if site := scanSite(res, off); site != nil {
			if got, want := res.FuncRefAt(site, off), scanFuncRef(res, site, off); got != want {
				t.Fatalf("%s: FuncRefAt(%d) = %v, want %v", name, off, got, want)
			}
		}
		if got, want := res.NameRefAt(off), scanNameRef(res, off); (got == nil) != (want == nil) || got != nil && (got.Range != want.Range || got.Target != want.Target) {
			t.Fatalf("%s: NameRefAt(%d) = %+v, want %+v", name, off, got, want)
		}
	}
}

// checkPlacesJoinNothing asks every place query at every offset of a
// Result that has a unit order and has not joined its lists yet, and
// fails when one of them joined them: each is meant to read one unit's
// records.
func checkPlacesJoinNothing(t *testing.T, name string, res *Result) {
	t.Helper()
	if res.order == nil || res.flat.refs != nil || res.flat.sites != nil {
		return
	}
	for off := 0; off <= res.File.Text.Len(); off++ {
		res.SymbolAt(off)
		res.ReferenceAt(off)
		res.CallNameAt(off)
		res.NameRefAt(off)
		if site := res.SiteAt(off); site != nil {
			res.FuncRefAt(site, off)
		}
	}
	for _, rng := range placeRanges(res) {
		res.SitesIn(rng)
	}
	if res.flat.refs != nil || res.flat.sites != nil {
		t.Fatalf("%s: a place query joined the whole document's lists", name)
	}
}

// placeRanges are the ranges SitesIn is asked about: empty, a line or
// so and a window's worth, at points spread over the document, and the
// whole document.
func placeRanges(res *Result) []source.Range {
	n := res.File.Text.Len()
	out := []source.Range{source.R(0, n)}
	for at := 0; at <= n; at += max(n/23, 1) {
		for _, w := range []int{0, 40, 2000} {
			out = append(out, source.R(at, min(at+w, n)))
		}
	}
	return out
}

// scanSitesIn is SitesIn from the joined list, as ide's index orders it.
func scanSitesIn(res *Result, rng source.Range) []*Site {
	var out []*Site
	for _, s := range res.Sites() {
		if s.Scalar.Rng.End >= rng.Start && s.Scalar.Rng.Start <= rng.End {
			out = append(out, s)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Scalar.Rng.Start < out[j].Scalar.Rng.Start })
	return out
}

func scanSite(res *Result, off int) *Site {
	for _, s := range res.Sites() {
		if s.Scalar.Rng.Contains(off) {
			return s
		}
	}
	return nil
}

func scanSymbol(res *Result, off int) *Symbol {
	for _, s := range res.Symbols() {
		if s.NameRange.Contains(off) {
			return s
		}
	}
	return nil
}

func scanReference(res *Result, off int) *Reference {
	var best *Reference
	for _, ref := range res.References() {
		if ref.Expr.Rng.Contains(off) && (best == nil || ref.Expr.Rng.Len() < best.Expr.Rng.Len()) {
			best = ref
		}
	}
	return best
}

func scanCallName(res *Result, off int) *Call {
	for _, c := range res.Calls() {
		if c.Expr != nil && c.Expr.NameRange.Contains(off) {
			return c
		}
	}
	return nil
}

func scanFuncRef(res *Result, site *Site, off int) *Call {
	for _, c := range res.Calls() {
		if c.Ref != nil && c.Site == site && c.Ref.Rng.Contains(off) {
			return c
		}
	}
	return nil
}

func scanNameRef(res *Result, off int) *NameRef {
	for _, n := range res.NameRefs() {
		if n.Range.Contains(off) {
			return n
		}
	}
	return nil
}
