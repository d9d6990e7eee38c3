package lsp

import (
	"fmt"
	"math/rand"
	"slices"
	"sort"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/blueprint-ls/blueprint-ls/ide"
	"github.com/blueprint-ls/blueprint-ls/internal/gen"
)

// toggles are edits TestUnitTokensEqualWhole makes besides random typing,
// per format: each pair's first text becomes the second, or back. They
// change what a definition's tokens read from outside it: a variable's
// secrecy (its references are readonly), a resource's name (a bare name
// that is no resource is a function: `trim` in the value fn), a resource
// added before the others, and the inside of a ${..}.
var toggles = map[string][][2]string{
	"yaml": {
		{"  env:\n    type: string\n", "  env:\n    type: string\n    secret: true\n"},
		{"\n  r0:\n", "\n  trim:\n"},
		{"resources:\n", "resources:\n  added:\n    type: aws/sqs/queue\n    spec:\n      queueName: ${values.prefix}-q\n"},
		{"${variables.env}", "${variables.envé}"},
		{"${values.prefix}", "${values . prefix}"},
	},
	"json": {
		{`"env": {`, "\"env\": {\n      \"secret\": true,"},
		{`"r0": {`, `"trim": {`},
		{`"resources": {`, "\"resources\": {\n    \"added\": {\"type\": \"aws/sqs/queue\"},"},
		{"${variables.env}", "${variables.envé}"},
		{"${values.prefix}", "${values . prefix}"},
	},
	"bp": {
		{"variable env: string {\n", "variable env: string {\n    secret = true\n"},
		{"resource r0:", "resource trim:"},
		{"\nresource r1:", "\nresource added: aws/sqs/queue {\n}\n\nresource r1:"},
		{"${variables.env}", "${variables.envé}"},
		{"${values.prefix}", "${values . prefix}"},
	},
}

// typing is what TestUnitTokensEqualWhole types half the time: what
// keeps most texts parsing.
var typing = []string{"x", "9", "é", "${variables.env}", "a ${values.prefix}"}

// withFunctionValue adds the value fn, which passes `trim` by name, to a
// generated blueprint of format.
func withFunctionValue(format, text string) string {
	switch format {
	case "yaml":
		return strings.Replace(text, "values:\n", "values:\n  fn:\n    type: array\n    value: \"${map(values.tags, trim)}\"\n", 1)
	case "json":
		return strings.Replace(text, `"values": {`, "\"values\": {\n    \"fn\": {\"type\": \"array\", \"value\": \"${map(values.tags, trim)}\"},", 1)
	}
	return strings.Replace(text, "value prefix:", "value fn: array {\n    value = \"${map(values.tags, trim)}\"\n}\n\nvalue prefix:", 1)
}

// TestUnitTokensEqualWhole holds the semantic tokens the server takes
// over per definition (semantic_units.go) to the document's tokens
// coloured whole (ide.SemanticTokens) for the same version, after random
// edits and the toggles, through full and delta requests (a version is
// sometimes skipped, as a client that asks less often does), on the
// generated blueprints (toggles too) and every blueprint of
// TestLSPEditsEqualFresh. It fails unless a good part of the generated
// blueprints' definitions were taken over (renames, toggled secrecy and
// versions parsed whole colour every definition again), so that it
// tests the taking over.
func TestUnitTokensEqualWhole(t *testing.T) {
	docs := map[string]string{
		"gen.blueprint.yaml": withFunctionValue("yaml", string(gen.Blueprint(12, "yaml"))),
		"gen.blueprint.json": withFunctionValue("json", string(gen.Blueprint(8, "json"))),
		"gen.bp":             withFunctionValue("bp", string(gen.Blueprint(10, "bp"))),
	}
	for name, text := range differentialCorpus(t) {
		if !strings.HasPrefix(name, "gen.") {
			docs[name] = text
		}
	}
	names := make([]string, 0, len(docs))
	for n := range docs {
		names = append(names, n)
	}
	sort.Strings(names)
	taken, coloured := 0, 0
	for i, name := range names {
		steps := 12
		if strings.HasPrefix(name, "gen.") {
			steps = 40
		}
		tk, co := runUnitTokens(t, name, docs[name], int64(i)+*diffSeed, steps)
		if strings.HasPrefix(name, "gen.") {
			taken, coloured = taken+tk, coloured+co
		}
	}
	t.Logf("generated blueprints: definitions taken over %d, coloured %d", taken, coloured)
	if taken < coloured/4 {
		t.Fatalf("generated blueprints: only %d definitions taken over, %d coloured", taken, coloured)
	}
}

// runUnitTokens edits text steps times and compares the tokens after each
// version; it returns how many definitions were taken over and coloured.
func runUnitTokens(t *testing.T, name, text string, seed int64, steps int) (taken, coloured int) {
	h := newHarness(t)
	h.initialize(`{"initializationOptions":{"debounceMs":0}}`)
	defer h.shutdown()
	rng := rand.New(rand.NewSource(seed))
	format := formatOfName(name)
	pieces := differentialPieces[format]
	td := map[string]any{"uri": docURI(name)}
	h.open(name, text)
	h.WaitDiagnostics(name, 1)
	var client []uint32 // what the client holds
	var id string
	var log []string
	for v := int32(2); v < int32(steps)+2; v++ {
		at, del, ins := rng.Intn(len(text)+1), 0, pieces[rng.Intn(len(pieces))]
		if rng.Intn(2) == 0 {
			ins = typing[rng.Intn(len(typing))]
		}
		if pairs := toggles[format]; rng.Intn(3) == 0 && strings.HasPrefix(name, "gen.") {
			p := pairs[rng.Intn(len(pairs))]
			from, to := p[0], p[1]
			if !strings.Contains(text, from) {
				from, to = to, from
			}
			if k := strings.Index(text, from); k >= 0 {
				at, del, ins = k, len(from), to
			}
		} else {
			m := newTestMapper(text)
			at = m.snap(at)
			if rng.Intn(3) == 0 {
				del = max(0, m.snap(min(at+1+rng.Intn(8), len(text)))-at)
			}
		}
		m := newTestMapper(text)
		h.changeRange(name, v, rng2(m.pos(at), m.pos(at+del)), ins)
		before := text
		text = text[:at] + ins + text[at+del:]
		log = append(log, fmt.Sprintf("v%d: at %d delete %d insert %q", v, at, del, ins))
		h.WaitDiagnostics(name, v)
		broken := h.srv.session.current().snapshot(string(docURI(name))).File().HasSyntaxErrors()
		if rng.Intn(5) == 0 && !broken {
			continue // not asked for this version
		}
		snap := h.srv.session.current().snapshot(string(docURI(name)))
		prev := h.srv.tokens.units(snap.URI)
		if id == "" || rng.Intn(2) == 0 {
			var got protocol.SemanticTokens
			if err := h.call(protocol.MethodTextDocumentSemanticTokensFull, map[string]any{"textDocument": td}, &got); err != nil {
				t.Fatal(err)
			}
			client, id = got.Data, *got.ResultID
		} else {
			var got protocol.SemanticTokensDelta
			if err := h.call(protocol.MethodTextDocumentSemanticTokensFullDelta, map[string]any{"textDocument": td, "previousResultId": id}, &got); err != nil {
				t.Fatal(err)
			}
			client, id = applyTokenEdits(client, got.Edits), *got.ResultID
		}
		var want []uint32
		if res, limit := viewResult(snap); res != nil {
			want = toSemanticTokens(res.File.Mapper, ide.SemanticTokens(res, nil), limit, h.srv.enc).Data
		}
		if !slices.Equal(client, want) && len(client)+len(want) > 0 {
			t.Fatalf("%s after\n%s\nthe tokens differ from the document's coloured whole at token %d\ntext:\n%s",
				name, strings.Join(log, "\n"), firstDiff(client, want)/semTokenLen, text)
		}
		tk, co := tookOver(prev, h.srv.tokens.units(snap.URI))
		taken, coloured = taken+tk, coloured+co
		if broken {
			// Back to the text that parsed, as TestLSPEditsEqualFresh
			// mostly does: most versions are edited clean text.
			v++
			m := newTestMapper(text)
			h.changeRange(name, v, rng2(m.pos(at), m.pos(at+len(ins))), before[at:at+del])
			text = before
			log = append(log, fmt.Sprintf("v%d: undone", v))
			h.WaitDiagnostics(name, v)
		}
	}
	return taken, coloured
}

// tookOver counts the definitions of cur whose key is one of prev's
// (their tokens were taken over) and the others.
func tookOver(prev, cur *unitTable) (taken, coloured int) {
	if cur == nil {
		return 0, 0
	}
	keys := map[[3]any]bool{}
	if prev != nil {
		for _, s := range prev.units {
			keys[[3]any{s.sym, s.recs, s.col}] = true
		}
	}
	for _, s := range cur.units {
		if keys[[3]any{s.sym, s.recs, s.col}] {
			taken++
		} else {
			coloured++
		}
	}
	return taken, coloured
}

// firstDiff returns the index of the first number a and b differ in.
func firstDiff(a, b []uint32) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
