package lsp

import (
	"bytes"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/blueprint-ls/blueprint-ls/internal/gen"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// paddedWhole returns text with slackSize spaces at the end of every
// open definition's key line, found from the parse (the test's own
// enumeration), and that padding.
func paddedWhole(t testing.TB, uri string, text []byte) ([]byte, *padding) {
	t.Helper()
	f := schema.Parse(uri, text)
	var points []int
	for off := 0; off < len(text); off++ {
		if d, ok := schema.DefinitionAt(f, off, off); ok && d.Open && d.KeyLineEnd == off {
			points = append(points, off)
		}
	}
	if len(points) == 0 {
		t.Fatalf("no definition to pad in %q", text)
	}
	return padAt(text, points, f.Format)
}

// TestApplyWindowEqualsWhole: apply looks at the runs in a window around
// the edit; looking at every run gives the same text, region and
// padding, on a document padded whole, through random edits (key lines
// renamed and broken, lines joined, block scalars opened above padded
// lines, spaces and backslashes typed at a line's end).
func TestApplyWindowEqualsWhole(t *testing.T) {
	var b strings.Builder
	b.WriteString("version: 2025-11-02\nvariables:\n")
	for i := range 6 {
		fmt.Fprintf(&b, "  v%d:\n    type: string\n", i)
	}
	b.WriteString("resources:\n")
	for i := range 30 {
		fmt.Fprintf(&b, "  r%d:\n    type: aws/sqs/queue\n    spec:\n      name: \"q%d\"\n", i, i)
	}
	b.WriteString("exports:\n  e:\n    type: string\n    field: resources.r1.spec.name\n")
	pieces := []string{"", "x", " ", "\n", "\n  ", "|", " |", "\\", ":", "#", "\"", "  k:", "\n    a: 1", "r"}
	for seed := int64(1); seed <= 8; seed++ {
		rng := rand.New(rand.NewSource(seed))
		text, pads := paddedWhole(t, "a.yaml", []byte(b.String()))
		for step := range 150 {
			// Near a run, or anywhere.
			at := rng.Intn(len(text) + 1)
			if n := pads.Len(); n > 0 && rng.Intn(3) > 0 {
				s := pads.At(rng.Intn(n))
				at = min(max(s.At-8+rng.Intn(s.Len+16), 0), len(text))
			}
			end := min(at+rng.Intn(4), len(text))
			r, piece := source.R(at, end), pieces[rng.Intn(len(pieces))]
			var last *schema.File
			if f := schema.Parse("a.yaml", text); len(f.Diagnostics) == 0 {
				last = f
			}
			plan := planSlack(last, pads, r, piece)
			nt, lo, hi, out := plan.apply(source.NewText(text), pads)
			wt, wLo, wHi, wOut := plan.applyIn(source.NewText(text), pads, true)
			next, wNext := nt.Bytes(), wt.Bytes()
			if !bytes.Equal(next, wNext) || lo != wLo || hi != wHi || !slices.Equal(source.SlackOf(out), source.SlackOf(wOut)) {
				t.Fatalf("seed %d step %d: %q at %v with padding %v:\nwindow %d..%d %v %q\nwhole  %d..%d %v %q",
					seed, step, piece, r, source.SlackOf(pads), lo, hi, source.SlackOf(out), next, wLo, wHi, source.SlackOf(wOut), wNext)
			}
			for i := range out.Len() {
				if s := out.At(i); indentOf(nt, s.At) > out.deepest {
					t.Fatalf("seed %d step %d: run %v indented past the bound %d", seed, step, s, out.deepest)
				}
			}
			text, pads = next, out
		}
	}
}

// TestApplySharesPadding: typing inside a definition of a document padded
// whole changes one run; the new padding shares every chunk but that
// run's with the old one, and the runs after it do not move.
func TestApplySharesPadding(t *testing.T) {
	var b strings.Builder
	b.WriteString("resources:\n")
	for i := range 2000 {
		fmt.Fprintf(&b, "  r%d:\n    type: aws/sqs/queue\n    spec:\n      name: \"q%d\"\n", i, i)
	}
	text, pads := paddedWhole(t, "a.yaml", []byte(b.String()))
	at := bytes.Index(text, []byte("\"q1000\"")) + 2
	last := schema.Parse("a.yaml", text)
	plan := planSlack(last, pads, source.R(at, at), "z")
	_, _, _, out := plan.apply(source.NewText(text), pads)
	if out.Len() != pads.Len() {
		t.Fatalf("%d runs, want %d", out.Len(), pads.Len())
	}
	changed := 0
	for i := range out.Len() {
		if out.At(i) != pads.At(i) {
			changed++
			if out.At(i).Len != slackSize-1 {
				t.Errorf("run %d: %v, want %d spaces left", i, out.At(i), slackSize-1)
			}
		}
	}
	if changed != 1 {
		t.Errorf("%d runs changed, want 1", changed)
	}
	// Each of the edit and the padding's change makes a Text sharing
	// the untouched pieces (three allocations each).
	whole := source.NewText(text)
	if n := testing.AllocsPerRun(20, func() { plan.apply(whole, pads) }); n > 16 {
		t.Errorf("apply allocates %v times per edit; it should not grow with 2,000 runs", n)
	}
}

// openDefinitions returns the key line ends of text's open definitions,
// found from its parse (the test's own enumeration, as paddedWhole).
func openDefinitions(uri string, text []byte) []int {
	f := schema.Parse(uri, text)
	var points []int
	for off := range len(text) + 1 {
		if d, ok := schema.DefinitionAt(f, off, off); ok && d.Open && d.KeyLineEnd == off {
			points = append(points, off)
		}
	}
	return points
}

// TestOpenPadsWhole: a blueprint opened in YAML, JSON, JSONC or the
// blueprint language has every open definition padded at once (its text
// unpadded is the client's, and its diagnostics are a server's without
// padding); the first keystroke in a definition nothing has edited yet
// keeps the text's length, so the text after it keeps its offsets; a
// change that replaces the whole text pads it whole again. A document of
// another dialect is not padded.
func TestOpenPadsWhole(t *testing.T) {
	yamlText := string(gen.Blueprint(30, "yaml"))
	bpText := string(gen.Blueprint(30, "bp"))
	for _, tc := range []struct {
		name, text, typeAfter string
		padded                bool
	}{
		{"whole.blueprint.yaml", yamlText, "'Resource 17", true},
		{"whole.bp", bpText, "\"Resource 17", true},
		{"whole.blueprint.json", string(gen.Blueprint(30, "json")), "\"Resource 17", true},
		{"whole.blueprint.jsonc", "// a comment\n" + strings.Replace(string(gen.Blueprint(30, "json")), "\n  \"resources\": {", "\n  \"resources\": { /* all */", 1), "\"Resource 17", true},
		{"workflow.yaml", "name: ci\non:\n  push:\n    branches: [main]\njobs:\n  build:\n    runs-on: ubuntu-latest\n", "ubuntu", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			plain := newHarness(t, func(s *server) { s.session.noSlack = true })
			for _, x := range []*harness{h, plain} {
				x.initialize(`{"initializationOptions":{"debounceMs":0}}`)
				x.open(tc.name, tc.text)
			}
			sameDiags := func(v int32) {
				t.Helper()
				if g, w := jsonOf(t, h.WaitDiagnostics(tc.name, v)), jsonOf(t, plain.WaitDiagnostics(tc.name, v)); g != w {
					t.Fatalf("version %d: diagnostics padded\n%s\nunpadded\n%s", v, g, w)
				}
			}
			sameDiags(1)
			snap := h.srv.session.current().snapshot(string(docURI(tc.name)))
			pads := source.SlackOf(snap.Mapper.Slack())
			if client, _ := unpadded(snap.Content(), snap.Mapper); string(client) != tc.text {
				t.Fatal("the server's text unpadded is not the client's")
			}
			if !tc.padded {
				if len(pads) != 0 {
					t.Fatalf("padding %v, want none", pads)
				}
				return
			}
			want := openDefinitions(tc.name, []byte(tc.text))
			if len(pads) != len(want) || len(want) < 30 {
				t.Fatalf("%d runs of padding, want one per open definition (%d)", len(pads), len(want))
			}
			for i, s := range pads {
				if s.At != want[i]+i*slackSize || s.Len != slackSize {
					t.Fatalf("run %d: %v, want %d spaces at %d", i, s, slackSize, want[i]+i*slackSize)
				}
			}
			if !paddingFits(snap.File(), snap.Mapper.Slack(), nil) {
				t.Fatal("the padding does not fit the parse")
			}
			// The first keystroke in resource 17 keeps the length.
			at := strings.Index(tc.text, tc.typeAfter) + len(tc.typeAfter)
			p := newTestMapper(tc.text).pos(at)
			for _, x := range []*harness{h, plain} {
				x.changeRange(tc.name, 2, rng2(p, p), "x")
			}
			sameDiags(2)
			next := h.srv.session.current().snapshot(string(docURI(tc.name)))
			if len(next.Content()) != len(snap.Content()) {
				t.Errorf("the first keystroke in a definition moved the text after it by %d", len(next.Content())-len(snap.Content()))
			}
			if sp, ok := next.File().Spliced(snap.File()); !ok || sp.Delta != 0 {
				t.Errorf("Spliced = %+v, %v; want the edit spliced in place", sp, ok)
			}
			// A whole new text changed in one place keeps the padding
			// around the change (a client that sends the whole text at
			// every keystroke), and is spliced.
			text := strings.Replace(tc.text[:at]+"x"+tc.text[at:], "Resource 3 ", "Resource three ", 1)
			for _, x := range []*harness{h, plain} {
				x.changeFull(tc.name, 3, text)
			}
			sameDiags(3)
			snap = h.srv.session.current().snapshot(string(docURI(tc.name)))
			if client, _ := unpadded(snap.Content(), snap.Mapper); string(client) != text {
				t.Fatal("after a whole change: the server's text unpadded is not the client's")
			}
			if got := snap.Mapper.Slack().Len(); got != len(want) {
				t.Errorf("after a whole change: %d runs, want %d", got, len(want))
			}
			if _, ok := snap.File().Spliced(next.File()); !ok {
				t.Errorf("after a whole change: the edit was not spliced")
			}
			h.shutdown()
			plain.shutdown()
		})
	}
}

// TestMendedTextPaddedWhole: a blueprint opened with a syntax error has
// no clean parse to pad from; once an edit mends it, the next edit pads
// it whole, once (else the first edit in each definition would move
// everything after it), and its diagnostics stay a server's without
// padding. A text that stays broken is not padded.
func TestMendedTextPaddedWhole(t *testing.T) {
	for _, format := range []string{"yaml", "json", "bp"} {
		t.Run(format, func(t *testing.T) {
			name := "mended.blueprint." + format
			if format == "bp" {
				name = "mended.bp"
			}
			text := string(gen.Blueprint(12, format))
			at := strings.Index(text, "Resource 7") + len("Resource 7")
			quote := "\"" // ends the string early: what follows is not JSON or .bp
			if format == "yaml" {
				quote = "'"
			}
			broken := text[:at] + quote + text[at:]
			h := newHarness(t)
			plain := newHarness(t, func(s *server) { s.session.noSlack = true })
			for _, x := range []*harness{h, plain} {
				x.initialize(`{"initializationOptions":{"debounceMs":0}}`)
				x.open(name, broken)
			}
			runs := func() int {
				return h.srv.session.current().snapshot(string(docURI(name))).Mapper.Slack().Len()
			}
			same := func(v int32, client string) {
				t.Helper()
				if g, w := jsonOf(t, h.WaitDiagnostics(name, v)), jsonOf(t, plain.WaitDiagnostics(name, v)); g != w {
					t.Fatalf("version %d: diagnostics padded\n%s\nunpadded\n%s", v, g, w)
				}
				snap := h.srv.session.current().snapshot(string(docURI(name)))
				if got, _ := unpadded(snap.Content(), snap.Mapper); string(got) != client {
					t.Fatalf("version %d: the server's text unpadded is not the client's", v)
				}
			}
			same(1, broken)
			if n := runs(); n != 0 {
				t.Fatalf("a broken text padded at the open: %d runs", n)
			}
			p := newTestMapper(broken).pos(at)
			end := protocol.Position{Line: p.Line, Character: p.Character + 1}
			for _, x := range []*harness{h, plain} {
				x.changeRange(name, 2, rng2(p, end), "") // mended
			}
			same(2, text)
			typed := strings.Index(text, "Resource 9") + len("Resource 9")
			q := newTestMapper(text).pos(typed)
			for _, x := range []*harness{h, plain} {
				x.changeRange(name, 3, rng2(q, q), "x")
			}
			client := text[:typed] + "x" + text[typed:]
			same(3, client)
			if n, want := runs(), len(openDefinitions(name, []byte(client))); n != want || n < 12 {
				t.Fatalf("after the mend: %d runs of padding, want one per open definition (%d)", n, want)
			}
			h.shutdown()
			plain.shutdown()
		})
	}
}

// BenchmarkCheckPadding: the check of a whole padding against the parse
// that the first syntax phase of a document makes (checkPadding), at
// 5,000 and 20,000 resources.
func BenchmarkCheckPadding(b *testing.B) {
	for _, format := range []string{"yaml", "bp"} {
		for _, n := range []int{5000, 20000} {
			b.Run(fmt.Sprintf("%s/%d", format, n), func(b *testing.B) {
				uri := "file:///bench.blueprint." + format
				client := gen.Blueprint(n, format)
				server, m := padWholeStart(uri, client)
				f := schema.Parse(uri, server)
				b.ResetTimer()
				for range b.N {
					if !paddingFits(f, m.Slack(), nil) {
						b.Fatal("refused")
					}
				}
			})
		}
	}
}
