package ide

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/internal/gen"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// wholeCompletion is CompletionList reading the whole text
// (completer.unbounded): the oracle of the bounded reads.
func wholeCompletion(res *analysis.Result, text source.Text, off int) ([]CompletionItem, bool) {
	c := completerOf(res, text, off, Options{})
	if c == nil {
		return nil, false
	}
	c.unbounded = true
	return c.list()
}

// boundedDocs are every blueprint of the testdata directories, in every
// format, and generated ones.
func boundedDocs(t *testing.T) map[string][]byte {
	docs := map[string][]byte{
		"gen.blueprint.yaml":  gen.Blueprint(12, "yaml"),
		"gen.blueprint.json":  gen.Blueprint(6, "json"),
		"gen.blueprint.jsonc": gen.Blueprint(6, "json"),
		"gen.bp":              gen.Blueprint(10, "bp"),
	}
	for _, dir := range []string{"testdata", "../lsp/testdata", "../analysis/testdata", "../testdata"} {
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			switch filepath.Ext(p) {
			case ".yaml", ".yml", ".json", ".jsonc", ".bp", ".blueprint":
				data, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				docs[p] = data
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return docs
}

// keyPlaces are the offsets a key is typed at on each line: its first
// byte, inside and at the end of its first word, after a "- ", and the
// line's end; every line's for a short document, a spread of lines for
// a long one.
func keyPlaces(text []byte, most int) []int {
	lines := bytes.SplitAfter(text, []byte("\n"))
	step := max(1, len(lines)*5/most)
	var out []int
	at := 0
	for i, l := range lines {
		if i%step == 0 {
			body := bytes.TrimRight(l, "\r\n")
			ks := len(body) - len(bytes.TrimLeft(body, " \t-"))
			we := ks
			for we < len(body) && (isWordByte(body[we]) || body[we] == '"') {
				we++
			}
			for _, o := range []int{ks, min(ks+1, we), (ks + we) / 2, we, len(body)} {
				out = append(out, at+o)
			}
		}
		at += len(l)
	}
	return out
}

// halfTyped are versions of text with the line at off half typed: what
// follows the cursor on its line deleted, and the line's colon (or '=')
// blanked.
func halfTyped(text []byte, off int) [][]byte {
	ls, le := textLine(source.NewText(text), off)
	cut := append(append([]byte{}, text[:off]...), text[le:]...)
	out := [][]byte{cut}
	for _, sep := range []byte{':', '='} {
		if i := bytes.IndexByte(text[ls:le], sep); i >= 0 {
			blank := bytes.Clone(text)
			blank[ls+i] = ' '
			out = append(out, blank)
		}
	}
	return out
}

// TestBoundedCompletionEqualsWhole holds completion reading the cursor's
// definition (completion_window.go) to completion reading the whole
// text, on every testdata blueprint at the places keys are typed, with
// the Result of the text and, for versions of it with the line half
// typed, with the text's Result (stale, as the language server has it
// while the text does not parse) and the version's own.
func TestBoundedCompletionEqualsWhole(t *testing.T) {
	most := 150
	if testing.Short() {
		most = 60
	}
	opts := analysis.Options{Repair: true}
	for name, doc := range boundedDocs(t) {
		res := analysis.Analyze(context.Background(), schema.Parse(name, doc), opts)
		places := keyPlaces(doc, most)
		for i, off := range places {
			checkBounded(t, name, res, doc, off)
			if i%11 != 0 {
				continue
			}
			for j, v := range halfTyped(doc, off) {
				checkBounded(t, name+" half typed", res, v, off)
				if j == 0 {
					fresh := analysis.Analyze(context.Background(), schema.Parse(name, v), opts)
					checkBounded(t, name+" half typed, own Result", fresh, v, off)
				}
			}
		}
	}
}

// checkBounded compares the two completions at off in text.
func checkBounded(t *testing.T, name string, res *analysis.Result, text []byte, off int) {
	t.Helper()
	if off > len(text) {
		return
	}
	src := source.NewText(text)
	got, gotInc := CompletionList(res, src, off, Options{})
	want, wantInc := wholeCompletion(res, src, off)
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if !bytes.Equal(g, w) || gotInc != wantInc {
		ls, le := textLine(src, off)
		t.Fatalf("%s at %d (line %q, cursor %d): bounded\n%s\nwhole\n%s", name, off, text[ls:le], off-ls, g, w)
	}
}

// TestKeyCompletionJoinsNothing: key completion on the version an edit
// made (a Text with pieces, not joined) allocates far less than the
// text, in every format: it reads the cursor's definition, not the
// document.
func TestKeyCompletionJoinsNothing(t *testing.T) {
	for _, format := range []string{"yaml", "json", "bp"} {
		content := gen.Blueprint(1500, format)
		name := "gen.blueprint." + format
		if format == "bp" {
			name = "gen.bp"
		}
		needle := map[string]string{"yaml": "\n      t", "json": "\n        \"t", "bp": "\n        t"}[format]
		at := bytes.Index(content[len(content)/2:], []byte(needle))
		if at < 0 {
			t.Fatalf("%s: no %q", format, needle)
		}
		off := len(content)/2 + at + len(needle)
		// The version a one-character edit made in the description of
		// the cursor's resource, and its Result; the analysis joins its
		// Text, so the completion is asked in a copy of that Text an
		// empty edit made, unjoined (the Result's own by its bytes).
		desc := bytes.LastIndex(content[:off], []byte("Resource "))
		prev := schema.Parse(name, content)
		edited := prev.Text.Edit(desc, desc, []byte("7"))
		f := schema.SpliceAt(prev, edited, schema.Change{Start: desc, OldEnd: desc, NewEnd: desc + 1})
		if f == nil {
			t.Fatalf("%s: the edit did not splice", format)
		}
		opts := analysis.Options{Repair: true}
		res := analysis.AnalyzeIncremental(context.Background(), analysis.Analyze(context.Background(), prev, opts), f, opts)
		text := edited.Edit(0, 0, nil)
		off++
		var items []CompletionItem
		var ms0, ms1 runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms0)
		items, _ = CompletionList(res, text, off, Options{})
		runtime.ReadMemStats(&ms1)
		if len(items) == 0 {
			t.Fatalf("%s: no items at %q", format, text.String(off-20, off))
		}
		if alloc := ms1.TotalAlloc - ms0.TotalAlloc; alloc > uint64(text.Len()/8) {
			t.Errorf("%s: key completion allocated %d bytes in a text of %d: it read the document", format, alloc, text.Len())
		}
		if !strings.Contains(string(mustJSON(t, items)), "\"Kind\":1") {
			t.Errorf("%s: the items are not keys", format)
		}
	}
}

func mustJSON(t *testing.T, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestKeyCompletionPastUnderIndentedScalar: the one place the bounded
// read answers otherwise than the whole text's walk, by design. A
// multi-line quoted scalar whose next line is indented less than the
// section's keys parses (yaml.v3 does not hold quoted scalars to the
// indentation), and the walk up from the cursor read that line as a
// top-level key ("x"), offering nothing; the hop over the definitions
// before the cursor's passes over it as the tree does, and offers the
// spec's keys.
func TestKeyCompletionPastUnderIndentedScalar(t *testing.T) {
	src := "resources:\n  a:\n    type: aws/s3/bucket\n    description: \"foo\nx: bar\"\n  b:\n    type: aws/s3/bucket\n    spec:\n      bu\n"
	res := analyze(t, "x.blueprint.yaml", src)
	if res.File.HasSyntaxErrors() {
		t.Fatal("the text does not parse")
	}
	off := strings.Index(src, "      bu") + len("      bu")
	items, _ := CompletionList(res, source.NewText([]byte(src)), off, Options{})
	offers(t, items, []string{"bucketName"}, nil)
	if whole, _ := wholeCompletion(res, source.NewText([]byte(src)), off); len(whole) != 0 {
		t.Errorf("the whole text's walk offers %d items: the exception is gone, drop this test", len(whole))
	}
}
