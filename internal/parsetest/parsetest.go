// Package parsetest holds what the tests of the splices (syntax.Splice
// for YAML, JSON and JSONC, bplang.Splice for the blueprint language,
// and their SpliceAt, told where the edit is) share: random edits, the
// comparison of a spliced File with the whole parse of its text, and
// changes widened as a language server's may be; and what the tests of
// PadPoints (syntax.PadPoints for YAML, syntax.PadPointsJSON, and
// bplang.PadPoints) share: the Open definitions' key line ends of a
// tree, the check that padding there changes no meaning, marked test
// texts and the corpus of real blueprints (padpoints.go).
// Only _test.go files import it.
package parsetest

import (
	"fmt"
	"math/rand"
	"reflect"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// Edit applies one random insertion, deletion or replacement to text;
// what it inserts is one of typed.
func Edit(rng *rand.Rand, text []byte, typed []string) []byte {
	at := rng.Intn(len(text) + 1)
	end := min(at+rng.Intn(8), len(text))
	ins := ""
	switch rng.Intn(3) {
	case 0:
		end = at
		ins = typed[rng.Intn(len(typed))]
	case 1:
		if end == at && at < len(text) {
			end++
		}
	default:
		ins = typed[rng.Intn(len(typed))]
	}
	out := append([]byte{}, text[:at]...)
	out = append(out, ins...)
	return append(out, text[end:]...)
}

// Diff reports how got differs from want, the whole parse of its text:
// "" when they are the same.
func Diff(got, want *syntax.File) string {
	switch {
	case !reflect.DeepEqual(got.Root, want.Root):
		return "the trees differ"
	case !reflect.DeepEqual(got.Diagnostics, want.Diagnostics):
		return fmt.Sprintf("diagnostics %v, want %v", got.Diagnostics, want.Diagnostics)
	case got.HasSyntaxErrors() != want.HasSyntaxErrors():
		return "syntax errors differ"
	case !reflect.DeepEqual(got.Mapper.LineStarts(), want.Mapper.LineStarts()):
		return "line tables differ"
	case got.Format != want.Format || got.URI != want.URI:
		return "format or URI differ"
	}
	return ""
}

// Replay applies steps random edits (Edit, typing typed) to each of docs,
// each version reparsed from the one before with reparse, and fails t
// when a version differs from parse's whole parse of its text. A version
// with diagnostics is undone (and the undo checked too), so that every
// edit starts from a clean document (or from the document as given). It returns how many edits there
// were and how many reparse spliced.
func Replay(t testing.TB, docs map[string][]byte, typed []string, steps int,
	parse func(uri string, content []byte) *syntax.File,
	reparse func(prev *syntax.File, content []byte) (*syntax.File, bool)) (total, spliced int) {
	t.Helper()
	for name, data := range docs {
		rng := rand.New(rand.NewSource(int64(len(data))))
		prev := parse(name, data)
		for step := 0; step < steps; step++ {
			next, ok := reparse(prev, Edit(rng, prev.Content(), typed))
			if diff := Diff(next, parse(name, next.Content())); diff != "" {
				t.Fatalf("%s step %d (spliced %v): %s\nbefore:\n%s\nafter:\n%s", name, step, ok, diff, prev.Content(), next.Content())
			}
			total++
			if ok {
				spliced++
			}
			if len(next.Diagnostics) == 0 {
				prev = next
				continue
			}
			back, _ := reparse(next, prev.Content())
			if diff := Diff(back, parse(name, back.Content())); diff != "" {
				t.Fatalf("%s step %d, undoing: %s", name, step, diff)
			}
		}
	}
	return total, spliced
}

// Hinted returns a reparse for Replay that tells spliceAt where the edit
// is, as a language server would: the narrowest change
// (syntax.ChangeBetween) widened by up to a few bytes on either side (a
// change may be wider than the bytes that differ). When spliceAt gives
// nil it parses whole.
func Hinted(seed int64, parse func(uri string, content []byte) *syntax.File,
	spliceAt func(prev *syntax.File, content source.Text, ch syntax.Change) *syntax.File) func(*syntax.File, []byte) (*syntax.File, bool) {
	rng := rand.New(rand.NewSource(seed))
	return func(prev *syntax.File, content []byte) (*syntax.File, bool) {
		ch := Widened(rng, syntax.ChangeBetween(prev.Content(), content), len(prev.Content()))
		if f := spliceAt(prev, source.NewText(content), ch); f != nil {
			return f, true
		}
		return parse(prev.URI, content), false
	}
}

// Widened returns ch, a change of a text of oldLen bytes, widened at
// random: half the time as it is, else its start moved back and its ends
// moved on by up to 8 bytes each, inside the texts.
func Widened(rng *rand.Rand, ch syntax.Change, oldLen int) syntax.Change {
	if rng.Intn(2) == 0 {
		return ch
	}
	ch.Start = max(ch.Start-rng.Intn(9), 0)
	on := min(rng.Intn(9), oldLen-ch.OldEnd)
	ch.OldEnd += on
	ch.NewEnd += on
	return ch
}

// ReplaySplices runs Replay with splice, which finds each edit itself,
// and again told it (spliceAt through Hinted), each as a subtest of t,
// either parsing whole when the splice gives nil. Each fails when fewer
// than one edit in every few was spliced: then it would check the
// fallback, not the splice.
func ReplaySplices(t *testing.T, docs map[string][]byte, typed []string, steps, few int,
	parse func(uri string, content []byte) *syntax.File,
	splice func(prev *syntax.File, content []byte) *syntax.File,
	spliceAt func(prev *syntax.File, content source.Text, ch syntax.Change) *syntax.File) {
	found := func(prev *syntax.File, content []byte) (*syntax.File, bool) {
		if f := splice(prev, content); f != nil {
			return f, true
		}
		return parse(prev.URI, content), false
	}
	for _, c := range []struct {
		name    string
		reparse func(*syntax.File, []byte) (*syntax.File, bool)
	}{{"found", found}, {"told", Hinted(7, parse, spliceAt)}} {
		t.Run(c.name, func(t *testing.T) {
			total, spliced := Replay(t, docs, typed, steps, parse, c.reparse)
			t.Logf("%d edits, %d spliced", total, spliced)
			if spliced*few < total {
				t.Errorf("only %d of %d edits were spliced: the test checks the fallback, not the splice", spliced, total)
			}
		})
	}
}
