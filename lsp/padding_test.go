package lsp

import (
	"bytes"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

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
	return padAt(text, points)
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
			next, lo, hi, out := plan.apply(text, pads)
			applyWholeWindow = true
			wNext, wLo, wHi, wOut := plan.apply(text, pads)
			applyWholeWindow = false
			if !bytes.Equal(next, wNext) || lo != wLo || hi != wHi || !slices.Equal(source.SlackOf(out), source.SlackOf(wOut)) {
				t.Fatalf("seed %d step %d: %q at %v with padding %v:\nwindow %d..%d %v %q\nwhole  %d..%d %v %q",
					seed, step, piece, r, source.SlackOf(pads), lo, hi, source.SlackOf(out), next, wLo, wHi, source.SlackOf(wOut), wNext)
			}
			for i := range out.Len() {
				if s := out.At(i); indentOf(next, s.At) > out.deepest {
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
	_, _, _, out := plan.apply(text, pads)
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
	if n := testing.AllocsPerRun(20, func() { plan.apply(text, pads) }); n > 12 {
		t.Errorf("apply allocates %v times per edit; it should not grow with 2,000 runs", n)
	}
}
