package lsp

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand"
	"strings"
	"sync"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/blueprint-ls/blueprint-ls/internal/gen"
	"github.com/blueprint-ls/blueprint-ls/internal/parsetest"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// reparses records every syntax phase of the production analyzer: what
// it started from, what it was told, and what it gave.
type reparses struct {
	defaultAnalyzer
	mu    sync.Mutex
	calls []reparse
}

type reparse struct {
	prev    *schema.File // nil: none
	content []byte
	edit    *schema.Change
	got     *schema.File
}

func (r *reparses) Splice(prev *schema.File, content source.Text, edit schema.Change) *schema.File {
	got := r.defaultAnalyzer.Splice(prev, content, edit)
	c := reparse{prev: prev, content: content.Bytes(), got: got, edit: &edit}
	r.mu.Lock()
	r.calls = append(r.calls, c)
	r.mu.Unlock()
	return got
}

// take returns the calls recorded since the last take.
func (r *reparses) take() []reparse {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.calls
	r.calls = nil
	return out
}

// check fails t unless c is right: told an edit that covers every byte
// in which the texts differ, spliced when spliced is set, and the tree
// the whole parse gives.
func (c reparse) check(t testing.TB, spliced bool) {
	t.Helper()
	if c.prev == nil || c.edit == nil {
		t.Fatalf("the syntax phase started from parse %v, told edit %v", c.prev != nil, c.edit)
	}
	if err := coversChange(c.prev.Content(), c.content, *c.edit); err != nil {
		t.Fatal(err)
	}
	if c.got == nil {
		if spliced {
			t.Errorf("the edit %+v was not spliced", *c.edit)
		}
		return
	}
	if _, ok := c.got.Spliced(c.prev); spliced && !ok {
		t.Errorf("the edit %+v was not spliced", *c.edit)
	}
	if diff := parsetest.Diff(c.got, schema.Parse(c.got.URI, c.content)); diff != "" {
		t.Fatal(diff)
	}
}

// A client that pulls diagnostics, with a debounce, has nothing parsed
// until it pulls: the versions typed in between are never parsed, and
// the version pulled is spliced into the last one parsed, told where
// the edits of all the versions since then lie (several changes in one
// notification, padding taken and given included).
func TestSpliceAcrossSkippedVersions(t *testing.T) {
	for _, c := range []struct{ format, needle, typed string }{
		{"yaml", "visibilityTimeout: 45", "7"},
		{"bp", "visibilityTimeout = 45", "7"},
	} {
		t.Run(c.format, func(t *testing.T) {
			rec := &reparses{}
			h := newHarness(t, withAnalyzer(rec))
			h.initialize(`{"capabilities":{"textDocument":{"diagnostic":{}}},"initializationOptions":{"debounceMs":60000}}`)
			name := "skip.blueprint." + c.format
			text := string(gen.Blueprint(12, c.format))
			h.open(name, text)
			pull := func() {
				t.Helper()
				var rep protocol.DocumentDiagnosticReport
				if err := h.call(protocol.MethodTextDocumentDiagnostic, &protocol.DocumentDiagnosticParams{
					TextDocument: protocol.TextDocumentIdentifier{URI: docURI(name)}}, &rep); err != nil {
					t.Fatal(err)
				}
			}
			pull()
			if calls := rec.take(); len(calls) != 0 {
				// The open parses whole (Parse) and pads the parse.
				t.Fatalf("opening spliced %d times", len(calls))
			}
			// A field of a resource in the middle: 45 to 457 to 4577 to
			// 457, in three versions.
			at := func(k int) int {
				i := strings.Index(text, fmt.Sprintf("r%d:", k))
				return i + strings.Index(text[i:], c.needle) + len(c.needle)
			}
			pos := func(off int) protocol.Position { return newTestMapper(text).pos(off) }
			mid := at(6)
			p0 := pos(mid) // the line's end: the positions after it are on it once typed
			p1 := protocol.Position{Line: p0.Line, Character: p0.Character + 1}
			h.changeRange(name, 2, protocol.Range{Start: p0, End: p0}, c.typed)
			h.changeRange(name, 3, protocol.Range{Start: p1, End: p1}, c.typed)
			h.changeRange(name, 4, protocol.Range{Start: p0, End: p1}, "")
			text = text[:mid] + c.typed + text[mid:]
			pull()
			calls := rec.take()
			if len(calls) != 1 {
				t.Fatalf("the three versions were parsed %d times, want once", len(calls))
			}
			calls[0].check(t, true)
			if e := calls[0].edit; e.NewEnd-e.Start > 400 {
				t.Errorf("told %+v: wider than the padding and the field", *e)
			}
			if got := string(calls[0].got.Content()); !strings.Contains(got, c.needle[:len(c.needle)-2]+"457") {
				t.Fatalf("the server's text lacks the edit")
			}

			// Two changes in one notification, in two resources: parsed
			// whole (the edit spans them), never spliced.
			h.notify(protocol.MethodTextDocumentDidChange, &protocol.DidChangeTextDocumentParams{
				TextDocument: protocol.VersionedTextDocumentIdentifier{
					TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: docURI(name)}, Version: 5},
				ContentChanges: []protocol.TextDocumentContentChangeEvent{
					&protocol.TextDocumentContentChangePartial{Range: protocol.Range{Start: pos(at(9)), End: pos(at(9))}, Text: c.typed},
					&protocol.TextDocumentContentChangePartial{Range: protocol.Range{Start: pos(at(3)), End: pos(at(3))}, Text: c.typed},
				}})
			pull()
			if calls = rec.take(); len(calls) != 0 {
				t.Fatalf("the version was spliced %d times, want none", len(calls))
			}
		})
	}
}

// TestEditsAcrossVersions: random edits of real blueprints through a
// session (several changes per notification, padding taken, given and
// removed, whole-document changes, settings that renew the snapshots),
// the syntax phase run at random versions only. Every parse is told
// where its text differs from the one it starts from, the change covers
// every byte that differs, and the tree is the whole parse's. Told the
// edit, the splice succeeds about as often as comparing the texts
// (the edits of several versions, folded, may span more than the bytes
// that differ in the end).
func TestEditsAcrossVersions(t *testing.T) {
	eachSlackStart(t, 57, 300, func(t *testing.T, d *slackDoc, rng *rand.Rand, steps int) {
		told, hinted, plain := editAcrossVersions(t, d, rng, steps)
		t.Logf("%d steps, %d parses told the edit, %d spliced told it, %d by comparing the texts", steps, told, hinted, plain)
		if told < steps/6 || hinted == 0 || hinted*10 < plain*9 {
			t.Errorf("%d parses were told the edit, %d spliced told it, %d by comparing the texts", told, hinted, plain)
		}
	})
}

// FuzzEditsAcrossVersions is TestEditsAcrossVersions's property with the
// fuzzer choosing the edits and when to parse.
func FuzzEditsAcrossVersions(f *testing.F) {
	slackFuzzSeeds(f, 2)
	f.Fuzz(func(t *testing.T, start uint8, data []byte) {
		docs := slackStarts(t)
		editAcrossVersions(t, docs[int(start)%len(docs)], &byteChooser{data: data}, 64)
	})
}

// editAcrossVersions makes up to steps edits of d through a session
// (stopping early when c is a byteChooser that ran out), checks every
// parse told the edit (reparse.check), and returns how many there were,
// how many SpliceAt spliced and how many Splice would have.
func editAcrossVersions(t *testing.T, d *slackDoc, c chooser, steps int) (told, hinted, plain int) {
	rec := &reparses{}
	s := newSession(context.Background(), rec, slog.New(slog.DiscardHandler))
	snap := s.open(d.uri, 1, "yaml", d.client, nil)
	snap.Dialect()
	snap.File()
	rec.take()
	for step := range steps {
		if b, ok := c.(*byteChooser); ok && b.done() {
			break
		}
		changes, next, _ := d.choose(c)
		var err error
		if snap, err = s.change(d.uri, int32(step+2), changes, d.enc); err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
		d.client = next
		if !unusual(d.uri, next) {
			d.clean = next
		}
		if c.Intn(20) == 0 {
			fresh, _ := s.setSettings(&Settings{}) // the same text, a new snapshot
			snap = fresh[0]
		}
		if c.Intn(3) > 0 {
			continue // superseded before anything parsed it
		}
		snap.Dialect()
		snap.File()
		for _, r := range rec.take() {
			if r.edit == nil {
				continue
			}
			r.check(t, false)
			told++
			if schema.SpliceAt(r.prev, source.NewText(r.content), *r.edit) != nil {
				hinted++
			}
			if schema.Splice(r.prev, r.content) != nil {
				plain++
			}
		}
	}
	return told, hinted, plain
}

// A snapshot keeps where its text differs from the versions since the
// newest parse, at most maxEdits of them: a version parsed further back
// than that is spliced by comparing the texts.
func TestEditsKeptBack(t *testing.T) {
	const uri = "file:///ws/kept.blueprint.yaml"
	text := "version: 2025-11-02\nvalues:\n  v:\n    type: string\n    value: a\n"
	end := newTestMapper(text).pos(len(text) - 1) // after "a"
	for _, c := range []struct {
		versions int
		told     bool
	}{{1, true}, {maxEdits, true}, {maxEdits + 1, false}} {
		t.Run(fmt.Sprint(c.versions), func(t *testing.T) {
			rec := &reparses{}
			s := newSession(context.Background(), rec, slog.New(slog.DiscardHandler))
			snap := s.open(uri, 1, "yaml", []byte(text), nil)
			snap.File()
			rec.take()
			opened := snap.seq
			for v := range c.versions {
				at := protocol.Position{Line: end.Line, Character: end.Character + uint32(v)}
				var err error
				snap, err = s.change(uri, int32(v+2), []protocol.TextDocumentContentChangeEvent{
					&protocol.TextDocumentContentChangePartial{Range: protocol.Range{Start: at, End: at}, Text: "b"}}, source.UTF16)
				if err != nil {
					t.Fatal(err)
				}
			}
			if len(snap.edits) > maxEdits {
				t.Errorf("%d edits kept", len(snap.edits))
			}
			snap.File()
			// Told the edit or not (then found by comparing the texts),
			// the version is spliced.
			calls := rec.take()
			if len(calls) != 1 {
				t.Fatalf("%d splices, want 1 (told the edit: %v)", len(calls), c.told)
			}
			calls[0].check(t, true)
			if told := snap.editSince(opened) != nil; told != c.told {
				t.Errorf("told the edit: %v, want %v", told, c.told)
			}
			client, _ := parsedClient(snap)
			if got, want := string(client), text[:len(text)-1]+strings.Repeat("b", c.versions)+"\n"; got != want {
				t.Fatalf("text %q, want %q", got, want)
			}
			// The next version keeps only what differs from this one, the
			// newest parse.
			next, err := s.change(uri, int32(c.versions+2), []protocol.TextDocumentContentChangeEvent{
				&protocol.TextDocumentContentChangePartial{Range: protocol.Range{Start: end, End: end}, Text: "c"}}, source.UTF16)
			if err != nil {
				t.Fatal(err)
			}
			if len(next.edits) != 1 || next.edits[0].from != snap.seq {
				t.Errorf("the next version keeps %d edits", len(next.edits))
			}
		})
	}
}
