package lsp

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/blueprint-ls/blueprint-ls/internal/gen"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// openDefinitions returns the key line ends of text's open definitions,
// found from its parse (the test's own enumeration).
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
			pads := paddingOf(snap.File().Mapper)
			if client, _ := parsedClient(snap); string(client) != tc.text {
				t.Fatal("the server's text unpadded is not the client's")
			}
			if !tc.padded {
				if pads.Len() != 0 {
					t.Fatalf("padding %v, want none", source.SlackOf(pads))
				}
				return
			}
			want := openDefinitions(tc.name, []byte(tc.text))
			if pads.Len() != len(want) || len(want) < 30 {
				t.Fatalf("%d runs of padding, want one per open definition (%d)", pads.Len(), len(want))
			}
			for i, s := range source.SlackOf(pads) {
				if s.At != want[i]+i*slackSize || s.Len != slackSize {
					t.Fatalf("run %d: %v, want %d spaces at %d", i, s, slackSize, want[i]+i*slackSize)
				}
			}
			for i := range pads.Len() {
				if !fits(snap.File(), pads, i) {
					t.Fatalf("run %d does not fit the parse", i)
				}
			}
			// The first keystroke in resource 17 keeps the length.
			at := strings.Index(tc.text, tc.typeAfter) + len(tc.typeAfter)
			p := newTestMapper(tc.text).pos(at)
			for _, x := range []*harness{h, plain} {
				x.changeRange(tc.name, 2, rng2(p, p), "x")
			}
			sameDiags(2)
			next := h.srv.session.current().snapshot(string(docURI(tc.name)))
			if n, o := next.File().Text.Len(), snap.File().Text.Len(); n != o {
				t.Errorf("the first keystroke in a definition moved the text after it by %d", n-o)
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
			if client, _ := parsedClient(snap); string(client) != text {
				t.Fatal("after a whole change: the server's text unpadded is not the client's")
			}
			if got := snap.File().Mapper.Slack().Len(); got != len(want) {
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
// no clean parse to pad from; the parse of the edit that mends it pads it
// whole (else the first edit in each definition would move everything
// after it), and its diagnostics stay a server's without padding. A text
// that stays broken is not padded.
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
				return h.srv.session.current().snapshot(string(docURI(name))).File().Mapper.Slack().Len()
			}
			same := func(v int32, client string) {
				t.Helper()
				if g, w := jsonOf(t, h.WaitDiagnostics(name, v)), jsonOf(t, plain.WaitDiagnostics(name, v)); g != w {
					t.Fatalf("version %d: diagnostics padded\n%s\nunpadded\n%s", v, g, w)
				}
				snap := h.srv.session.current().snapshot(string(docURI(name)))
				if got, _ := parsedClient(snap); string(got) != client {
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

// TestSameTextKeepsParse: a new snapshot of the same text (settings
// changed, a child changed) keeps the parse's tree and coordinates: it
// is not parsed whole, and its padding is the last one's.
func TestSameTextKeepsParse(t *testing.T) {
	for _, format := range []string{"yaml", "json", "bp"} {
		t.Run(format, func(t *testing.T) {
			uri := "file:///ws/same.blueprint." + format
			if format == "bp" {
				uri = "file:///ws/same.bp"
			}
			rec := &reparses{}
			s := newSession(context.Background(), rec, slog.New(slog.DiscardHandler))
			snap := s.open(uri, 1, "", gen.Blueprint(20, format), nil)
			before := snap.File()
			if paddingOf(before.Mapper).Len() < 20 {
				t.Fatalf("opened with %d runs of padding", paddingOf(before.Mapper).Len())
			}
			fresh, _ := s.setSettings(&Settings{})
			after := fresh[0].File()
			calls := rec.take()
			if len(calls) != 1 || calls[0].got == nil {
				t.Fatalf("%d splices, want the one of the same text", len(calls))
			}
			if after.Root != before.Root || !slices.Equal(source.SlackOf(after.Mapper.Slack()), source.SlackOf(before.Mapper.Slack())) {
				t.Fatal("the same text got another tree or other padding")
			}
		})
	}
}

// TestBrokenThenMendedKeepsCoordinates: typing that breaks the text and
// then mends it (a quote typed, a space, the quote deleted) parses whole
// each time, the broken versions unpadded; the mended one is padded with the sizes the
// last padded parse had, the edited definition's taking the length
// change, so the text after the edit keeps its coordinates and the
// analysis shares what follows.
func TestBrokenThenMendedKeepsCoordinates(t *testing.T) {
	for _, format := range []string{"yaml", "json", "bp"} {
		t.Run(format, func(t *testing.T) {
			uri := "file:///ws/mend.blueprint." + format
			if format == "bp" {
				uri = "file:///ws/mend.bp"
			}
			s := newSession(context.Background(), defaultAnalyzer{}, slog.New(slog.DiscardHandler))
			text := string(gen.Blueprint(20, format))
			snap := s.open(uri, 1, "", []byte(text), nil)
			before := snap.File()
			after := strings.Index(text, "Resource 15")
			at := strings.Index(text, "Resource 7") + len("Resource 7")
			quote := "\""
			if format == "yaml" {
				quote = "'"
			}
			m := newTestMapper(text)
			// A quote typed (broken), then a space typed after it and the
			// quote deleted (mended): the definition grew by one byte.
			for v, e := range []struct {
				at, del int
				typed   string
			}{{at, 0, quote}, {at + 1, 0, " "}, {at, 1, ""}} {
				var err error
				snap, err = s.change(uri, int32(v+2), []protocol.TextDocumentContentChangeEvent{
					&protocol.TextDocumentContentChangePartial{Range: rng2(m.pos(e.at), m.pos(e.at+e.del)), Text: e.typed}}, source.UTF16)
				if err != nil {
					t.Fatal(err)
				}
				text = text[:e.at] + e.typed + text[e.at+e.del:]
				m = newTestMapper(text)
				if broken := snap.File().HasSyntaxErrors(); broken != (v < 2) {
					t.Fatalf("version %d: broken %v", v+2, broken)
				}
			}
			f := snap.File()
			if paddingOf(f.Mapper).Len() != paddingOf(before.Mapper).Len() {
				t.Fatalf("mended: %d runs, want %d", paddingOf(f.Mapper).Len(), paddingOf(before.Mapper).Len())
			}
			// Resource 15 is where it was in the parse's coordinates.
			if g, w := strings.Index(string(f.Content()), "Resource 15"), strings.Index(string(before.Content()), "Resource 15"); g != w || after < 0 {
				t.Fatalf("mended: resource 15 at %d, was at %d", g, w)
			}
		})
	}
}

// TestPaddingBoundedByText: a text of many tiny open definitions is
// padded with no more spaces in all than about its own length (slackSize
// each would hold several times its size), and its parse is still the
// client's text's.
func TestPaddingBoundedByText(t *testing.T) {
	var b strings.Builder
	b.WriteString("version: 2023-04-20\nvalues:\n")
	for i := range 3000 {
		fmt.Fprintf(&b, "  v%d:\n    value: 1\n", i)
	}
	text := b.String()
	s := newSession(context.Background(), defaultAnalyzer{}, slog.New(slog.DiscardHandler))
	snap := s.open("file:///ws/tiny.blueprint.yaml", 1, "", []byte(text), nil)
	f := snap.File()
	pads := paddingOf(f.Mapper)
	if pads.Len() != 3000 {
		t.Fatalf("%d runs, want one per definition (3000)", pads.Len())
	}
	if total := f.Text.Len() - len(text); total > len(text)+minSlack*3000 {
		t.Errorf("%d spaces of padding for a text of %d bytes", total, len(text))
	}
	if got, _ := parsedClient(snap); string(got) != text {
		t.Fatal("the parse's text without its padding is not the client's")
	}
}
