package ide

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/internal/gen"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// The equivalence of incremental and full analysis (issues 16 and 21):
// random edit sequences on generated and real blueprints, each version
// spliced from the one before (schema.Splice) and analysed from the
// previous version's result (analysis.AnalyzeIncremental), must give
// after every step the diagnostics, document symbols, semantic tokens,
// inlay hints, code lenses and highlights of a fresh parse and analysis
// of the same text.

// incrementalDocs are the blueprints the edits start from: generated ones
// and the real ones in testdata and, when present, ../shared/examples.
func incrementalDocs(t testing.TB) map[string][]byte {
	docs := map[string][]byte{
		"gen.blueprint.yaml": gen.Blueprint(24, "yaml"),
		"gen.blueprint.json": gen.Blueprint(8, "json"),
		"gen.bp":             gen.Blueprint(16, "bp"),
	}
	var paths []string
	for _, g := range []string{"../testdata/examples/valid/*.blueprint.*", "../testdata/celerity-docs/*-0[12].blueprint.yaml",
		"../testdata/bluelink-provider-aws/resources-iam_role_complete.blueprint.yaml", "../../shared/examples/valid/*.blueprint.*",
		"../testdata/bp/resource-*.bp", "../testdata/bp/value-*.bp", "../testdata/bp/data-*.bp"} {
		m, _ := filepath.Glob(g)
		paths = append(paths, m...)
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		docs[p] = data
	}
	return docs
}

// typed are the snippets the edits type: names, references of every
// namespace, broken substitutions, quotes, line breaks.
var typed = []string{"x", "9", " ", "a1", "${values.", "}", "${variables.env}", "${resources.", ".spec", "-",
	"\"", "${len(", ")}", "true", "\n      extra: 1", "#", "${datasources.", "\n"}

// editText changes a few bytes at a random place of text: mostly inside
// the second half (the definitions), sometimes anywhere.
func editText(rng *rand.Rand, text []byte) []byte {
	at := rng.Intn(len(text) + 1)
	if rng.Intn(4) > 0 {
		at = len(text)/2 + rng.Intn(len(text)/2+1)
	}
	end := at
	if rng.Intn(3) == 0 {
		end = min(at+1+rng.Intn(4), len(text))
	}
	ins := ""
	if rng.Intn(4) > 0 {
		ins = typed[rng.Intn(len(typed))]
	}
	out := append([]byte{}, text[:at]...)
	out = append(out, ins...)
	return append(out, text[end:]...)
}

// incrementalOptions are the language server's.
var incrementalOptions = analysis.Options{Repair: true}

// nextVersion makes the version of text after file (spliced when it can
// be) and its incremental analysis from res, and compares what the editor
// sees of it with a fresh parse and analysis: diff is "" when they agree.
func nextVersion(t testing.TB, file *schema.File, res *analysis.Result, text []byte) (*schema.File, *analysis.Result, string) {
	nf := schema.Splice(file, text)
	if nf == nil {
		nf = schema.Parse(file.URI, text)
	}
	got := analysis.AnalyzeIncremental(context.Background(), res, nf, incrementalOptions)
	want := analysis.Analyze(context.Background(), schema.Parse(file.URI, text), incrementalOptions)
	gd, gs, gt, gh := views(t, got)
	wd, ws, wt, wh := views(t, want)
	switch {
	case gd != wd:
		return nf, got, fmt.Sprintf("diagnostics\n%s\nwant\n%s", gd, wd)
	case gs != ws:
		return nf, got, fmt.Sprintf("document symbols\n%s\nwant\n%s", gs, ws)
	case gt != wt:
		return nf, got, "semantic tokens differ"
	case gh != wh:
		return nf, got, fmt.Sprintf("inlay hints\n%s\nwant\n%s", gh, wh)
	}
	at := namePlaces(want)
	if g, w := placeViews(t, got, at), placeViews(t, want, at); g != w {
		return nf, got, fmt.Sprintf("code lenses or highlights at %v\n%s\nwant\n%s", at, g, w)
	}
	if g, w := placeViews(t, got, at), listViews(t, got, at); g != w {
		return nf, got, fmt.Sprintf("code lenses or highlights at %v, from the joined lists\n%s\nwant\n%s", at, g, w)
	}
	return nf, got, ""
}

// views are what the comparison looks at, as JSON.
func views(t testing.TB, res *analysis.Result) (diags, symbols, tokens, hints string) {
	enc := func(v any) string {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	return enc(res.Diagnostics), enc(DocumentSymbols(res)), enc(SemanticTokens(res, nil)), enc(hintWindows(res)) + enc(textFeatures(res))
}

// namePlaces are offsets where a highlight names something: the key
// and a reference of the first resource, variable and value, and the
// first name written as text (dependsOn, link("name")).
func namePlaces(res *analysis.Result) []int {
	var at []int
	for _, k := range []analysis.SymbolKind{analysis.ResourceSymbol, analysis.VariableSymbol, analysis.ValueSymbol} {
		for _, s := range res.Symbols() {
			if s.Kind == k {
				at = append(at, s.NameRange.Start+1)
				break
			}
		}
		for _, r := range res.References() {
			if r.Target != nil && r.Target.Kind == k {
				at = append(at, r.Expr.NameRange().Start+1)
				break
			}
		}
	}
	if ns := res.NameRefs(); len(ns) > 0 {
		at = append(at, ns[0].Range.Start)
	}
	return at
}

// placeViews are the code lenses, the highlights at offsets at and the
// document links, as JSON.
func placeViews(t testing.TB, res *analysis.Result, at []int) string {
	var hs [][]Highlight
	for _, off := range at {
		hs = append(hs, DocumentHighlight(res, off))
	}
	b, err := json.Marshal([]any{CodeLenses(res), hs, DocumentLinks(res)})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// listViews are placeViews found by scanning res's joined lists
// (References, NameRefs) rather than the records of the units that name
// each symbol: a stale or partial index of those units reads as a
// difference, which the comparison with a fresh analysis, reading the
// same way, would miss.
func listViews(t testing.TB, res *analysis.Result, at []int) string {
	refsTo := func(s *analysis.Symbol) (refs []*analysis.Reference, names []*analysis.NameRef) {
		for _, r := range res.References() {
			if r.Target == s || r.Field == s {
				refs = append(refs, r)
			}
		}
		sort.SliceStable(refs, func(i, j int) bool { return refs[i].Expr.Rng.Start < refs[j].Expr.Rng.Start })
		for _, n := range res.NameRefs() {
			if n.Target == s {
				names = append(names, n)
			}
		}
		return refs, names
	}
	var hs [][]Highlight
	for _, off := range at {
		var h []Highlight
		if tg, _, ok := targetAt(res, off); ok && tg.res == res {
			seen := map[source.Range]bool{}
			add := func(r source.Range, k HighlightKind) {
				if !seen[r] {
					seen[r] = true
					h = append(h, Highlight{Range: r, Kind: k})
				}
			}
			add(declRange(tg.sym), HighlightWrite)
			refs, names := refsTo(tg.sym)
			for _, r := range refs {
				if r.Field == tg.sym {
					add(r.FieldRange, HighlightRead)
				} else {
					add(r.Expr.NameRange(), HighlightRead)
				}
			}
			for _, n := range names {
				add(n.Range, HighlightRead)
			}
		}
		hs = append(hs, h)
	}
	lenses := CodeLenses(res)
	for i := 1; i < len(lenses); i++ {
		refs, names := refsTo(res.SymbolAt(lenses[i].Range.Start))
		lenses[i].Title = fmt.Sprintf("%d references", len(refs)+len(names))
		if len(refs)+len(names) == 1 {
			lenses[i].Title = "1 reference"
		}
	}
	b, err := json.Marshal([]any{lenses, hs, DocumentLinks(res)})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// textFeatures are completion and signature help in the Result's own
// Text (an incremental Result's is edited, not joined) at places spread
// over the document and inside its substitutions.
func textFeatures(res *analysis.Result) []any {
	if res.File == nil {
		return nil
	}
	text := res.File.Text
	n := text.Len()
	var at []int
	for off := 0; off < n; off += max(n/3, 1) {
		at = append(at, off)
	}
	// Found without joining the text, which would hide the Text path.
	for i, k := 0, 0; k < 2; i++ {
		if i = text.IndexAny(i, "$"); i < 0 {
			break
		}
		if i+1 < n && text.At(i+1) == '{' {
			at = append(at, i+2, i+5)
			k++
		}
	}
	var out []any
	for _, off := range at {
		items, incomplete := CompletionList(res, text, min(off, n), Options{})
		out = append(out, items, incomplete, SignatureHelp(res, text, min(off, n), Options{}))
	}
	return out
}

// hintWindows are the inlay hints of windows of about 60 lines spread
// over the document, as an editor asks for the lines it shows.
func hintWindows(res *analysis.Result) [][]InlayHint {
	if res.File == nil {
		return nil
	}
	n := res.File.Text.Len()
	var out [][]InlayHint
	for at := 0; at < n; at += max(n/5, 1) {
		out = append(out, InlayHints(res, source.R(at, min(at+2400, n)), nil))
	}
	return out
}

// replayIncremental applies steps random edits and returns the first
// difference ("" when none).
func replayIncremental(t testing.TB, name string, data []byte, seed int64, steps int) string {
	rng := rand.New(rand.NewSource(seed))
	file := schema.Parse(name, data)
	inc := analysis.Analyze(context.Background(), file, incrementalOptions)
	for step := 0; step < steps; step++ {
		nf, got, diff := nextVersion(t, file, inc, editText(rng, file.Content()))
		if diff != "" {
			return fmt.Sprintf("step %d: %s", step, diff)
		}
		// A broken version is mostly undone, as a user would, so that
		// most edits start from text that parses.
		if nf.HasSyntaxErrors() && rng.Intn(3) > 0 {
			continue
		}
		file, inc = nf, got
	}
	return ""
}

func TestIncrementalEqualsFull(t *testing.T) {
	steps, seeds := 40, int64(2)
	if testing.Short() {
		steps, seeds = 20, 1
	}
	for name, data := range incrementalDocs(t) {
		for seed := int64(1); seed <= seeds; seed++ {
			t.Run(fmt.Sprintf("%s/%d", filepath.Base(name), seed), func(t *testing.T) {
				if diff := replayIncremental(t, name, data, seed, steps); diff != "" {
					t.Fatal(diff)
				}
			})
		}
	}
}

// FuzzIncremental edits a generated blueprint twice at fuzzed places and
// compares the incremental analysis of the second edit with a full one.
func FuzzIncremental(f *testing.F) {
	base := gen.Blueprint(6, "yaml")
	f.Add(uint16(1500), uint8(0), "x", uint16(1600), uint8(1), "")
	f.Add(uint16(900), uint8(3), "${values.prefix}", uint16(2500), uint8(0), "9")
	f.Add(uint16(2000), uint8(0), "\n      extra: 1", uint16(400), uint8(2), "a")
	// What the document-wide checks read: a label moved to the other
	// group, then a selector; a selector that selects nothing, then a
	// label that it selects.
	const g0 = "group: g0"
	label, selector := bytes.LastIndex(base, []byte(g0))+len("group: "), bytes.Index(base, []byte(g0))+len("group: ")
	f.Add(uint16(label), uint8(2), "g1", uint16(bytes.Index(base, []byte("group: g1"))+len("group: ")), uint8(2), "g0")
	f.Add(uint16(selector), uint8(2), "g9", uint16(label), uint8(2), "g9")
	edit := func(text []byte, at uint16, del uint8, ins string) []byte {
		pos := int(at) % (len(text) + 1)
		end := min(pos+int(del%8), len(text))
		return append(append(append([]byte{}, text[:pos]...), ins...), text[end:]...)
	}
	f.Fuzz(func(t *testing.T, at1 uint16, del1 uint8, ins1 string, at2 uint16, del2 uint8, ins2 string) {
		if len(ins1) > 64 || len(ins2) > 64 {
			return
		}
		v1 := schema.Parse("f.blueprint.yaml", edit(base, at1, del1, ins1))
		r1 := analysis.Analyze(context.Background(), v1, incrementalOptions)
		if _, _, diff := nextVersion(t, v1, r1, edit(v1.Content(), at2, del2, ins2)); diff != "" {
			t.Fatal(diff)
		}
	})
}
