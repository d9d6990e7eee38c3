package lsp

import (
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/blueprint-ls/blueprint-ls/internal/gen"
)

// Longer explorations than CI's: go test ./lsp -run TestLSPEditsEqualFresh
// -diffseed 100 -diffsteps 200.
var (
	diffSeed  = flag.Int64("diffseed", 0, "TestLSPEditsEqualFresh: added to every document's random seed")
	diffSteps = flag.Int("diffsteps", 0, "TestLSPEditsEqualFresh: edits per document (0: the default)")
)

// differentialPieces are what TestLSPEditsEqualFresh types, per format:
// the characters people type, and the ones that change how the rest of a
// document reads (quotes, comments, block scalar headers, brackets, line
// breaks, indentation).
var differentialPieces = map[string][]string{
	"yaml": {"x", "9", " ", "  ", "\n", "\n    ", "\n      extra: 1", ":", "- ", "'", "\"", "#", "|", ">-", "|+\n", "${", "}",
		"${variables.env}", "${values.prefix}", "${resources.", "${len(", "\\", "? ", "&a ", "*a", "---\n", "\t", "é"},
	"json":  {"x", "9", " ", "\n", "\"", ",", ":", "{", "}", "[", "]", "${", "}", "${variables.env}", "\\", "\"a\": 1,", "é"},
	"jsonc": {"x", " ", "\n", "\"", ",", "{", "}", "//", "/*", "*/", "${", "${variables.env}", "\"a\": 1,", "é"},
	"bp": {"x", "9", " ", "\n", "\"", "\"\"\"", "{", "}", "[", "]", "=", ":", "#", "//", "/*", "*/", "${", "}", "${variables.env}",
		"resource ", "variable ", "é", "\\"},
}

// differentialCorpus returns the documents TestLSPEditsEqualFresh edits:
// generated blueprints in every format and the testdata blueprints, named
// so that the server reads each in its format.
func differentialCorpus(t testing.TB) map[string]string {
	t.Helper()
	docs := map[string]string{
		"gen.blueprint.yaml":  string(gen.Blueprint(6, "yaml")),
		"gen.blueprint.json":  string(gen.Blueprint(6, "json")),
		"gen.blueprint.jsonc": "// generated\n" + string(gen.Blueprint(6, "json")),
		"gen.bp":              string(gen.Blueprint(6, "bp")),
	}
	for _, pattern := range []string{"testdata/differential/*", "../testdata/examples/*/*.blueprint.*", "../testdata/bp/*.bp",
		"../testdata/bluelink-provider-aws/*.blueprint.*", "../testdata/celerity-docs/*.blueprint.*",
		"../testdata/celerity-docs-bp/*.bp"} {
		files, _ := filepath.Glob(pattern)
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil || len(b) > 6000 {
				continue
			}
			docs[filepath.Base(filepath.Dir(f))+"-"+filepath.Base(f)] = string(b)
		}
	}
	return docs
}

// formatOfName gives the key of differentialPieces for a document name.
func formatOfName(name string) string {
	switch {
	case strings.HasSuffix(name, ".bp"), strings.HasSuffix(name, ".blueprint"):
		return "bp"
	case strings.HasSuffix(name, ".jsonc"):
		return "jsonc"
	case strings.HasSuffix(name, ".json"):
		return "json"
	}
	return "yaml"
}

// TestLSPEditsEqualFresh drives the real server with random incremental
// edits anywhere in documents of every format (YAML, JSON, JSONC and the
// blueprint language) and, after every version, compares what the client
// sees (diagnostics, document symbols, semantic tokens, asked for as a
// delta from the last array as editors do and whole, folding ranges and
// code lenses) with a fresh
// server session opened on the same text, and checks that the server's
// text, without its padding, is the client's. Edits that break the syntax are
// kept for a few versions: an incremental result must equal a fresh one
// from broken text too. One change in eight comes as the whole new text,
// as some clients send it.
func TestLSPEditsEqualFresh(t *testing.T) {
	steps := 25
	if testing.Short() {
		steps = 8
	}
	if *diffSteps > 0 {
		steps = *diffSteps
	}
	docs := differentialCorpus(t)
	names := make([]string, 0, len(docs))
	for n := range docs {
		names = append(names, n)
	}
	sort.Strings(names)
	for i, name := range names {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			runDifferential(t, name, docs[name], int64(i)+*diffSeed, steps)
		})
	}
}

// runDifferential edits content steps times with the edits seed chooses
// and fails at the first version whose answers differ from a fresh open.
func runDifferential(t *testing.T, name, content string, seed int64, steps int) {
	edited := newHarness(t)
	edited.initialize(`{"initializationOptions":{"debounceMs":0}}`)
	fresh := newHarness(t)
	fresh.initialize(`{"initializationOptions":{"debounceMs":0}}`)
	rng := rand.New(rand.NewSource(seed))
	pieces := differentialPieces[formatOfName(name)]
	edited.open(name, content)
	edited.WaitDiagnostics(name, 1)
	var log []string
	v := int32(1)
	for step := 0; step < steps; step++ {
		m := newTestMapper(content)
		at := m.snap(rng.Intn(len(content) + 1))
		del := 0
		if rng.Intn(3) == 0 {
			del = m.snap(min(at+1+rng.Intn(12), len(content))) - at
			if del < 0 {
				del = 0
			}
		}
		ins := pieces[rng.Intn(len(pieces))]
		if rng.Intn(4) == 0 {
			ins = ""
			if del == 0 {
				del = m.snap(min(at+1+rng.Intn(4), len(content))) - at
			}
		}
		v++
		before := content
		content = content[:at] + ins + content[at+del:]
		whole := rng.Intn(8) == 0 // as a client that sends the whole text
		if whole {
			edited.changeFull(name, v, content)
		} else {
			edited.changeRange(name, v, rng2(m.pos(at), m.pos(at+del)), ins)
		}
		log = append(log, fmt.Sprintf("v%d: at %d delete %d insert %q (whole text: %v)", v, at, del, ins, whole))
		got := edited.WaitDiagnostics(name, v)
		snap := edited.srv.session.current().snapshot(string(docURI(name)))
		if string(snap.Content()) != content {
			t.Fatalf("%s after the edits\n%s\nthe server's text is not the client's:\n%s", name, strings.Join(log, "\n"), snap.Content())
		}
		if text, _ := parsedClient(snap); string(text) != content {
			t.Fatalf("%s after the edits\n%s\nthe parse's text, without its padding, is not the client's:\n%s", name, strings.Join(log, "\n"), text)
		}
		diff, broken := differsFromFresh(t, edited, fresh, name, fmt.Sprintf("f%d-%s", v, name), content, got)
		if diff != "" {
			t.Fatalf("%s after the edits\n%s\n%s\ntext:\n%s", name, strings.Join(log, "\n"), diff, content)
		}
		if broken && rng.Intn(3) > 0 {
			// Mostly back to the text that parsed, so that most versions
			// are edited clean text (what the reuse of definitions is
			// for); the others go on from broken text.
			v++
			nm := newTestMapper(content)
			edited.changeRange(name, v, rng2(nm.pos(at), nm.pos(at+len(ins))), before[at:at+del])
			content = before
			log = append(log, fmt.Sprintf("v%d: undone", v))
			edited.WaitDiagnostics(name, v)
		}
	}
	edited.shutdown()
	fresh.shutdown()
}

// differsFromFresh opens text in the fresh session as freshName and
// describes how the edited session's answers for name differ from it ("" when
// they do not), and whether the text has syntax errors: diagnostics always;
// document symbols, semantic tokens (tokensAsClient), folding ranges and
// code lenses when the text parses (features on broken text answer from the last good
// version, which a fresh document has not got).
func differsFromFresh(t *testing.T, edited, fresh *harness, name, freshName, text string, got []protocol.Diagnostic) (diff string, broken bool) {
	t.Helper()
	fresh.open(freshName, text)
	want := fresh.WaitDiagnostics(freshName, 1)
	defer fresh.close(freshName)
	same := func(w string) string { return strings.ReplaceAll(w, freshName, name) }
	if g, w := jsonOf(t, got), same(jsonOf(t, want)); g != w {
		return "diagnostics differ\n" + diagnosticsDiff(t, got, want, same), false
	}
	if fresh.srv.session.current().snapshot(string(docURI(freshName))).File().HasSyntaxErrors() {
		return "", true
	}
	for _, method := range []string{protocol.MethodTextDocumentDocumentSymbol, protocol.MethodTextDocumentSemanticTokensFull,
		protocol.MethodTextDocumentFoldingRange, protocol.MethodTextDocumentCodeLens} {
		var g, w json.RawMessage
		if err := fresh.call(method, map[string]any{"textDocument": map[string]any{"uri": docURI(freshName)}}, &w); err != nil {
			t.Fatal(err)
		}
		if method == protocol.MethodTextDocumentSemanticTokensFull {
			var d string
			if g, d = tokensAsClient(t, edited, name, w); d != "" {
				return d, false
			}
			g, w = withoutResultID(t, g), withoutResultID(t, w)
		} else if err := edited.call(method, map[string]any{"textDocument": map[string]any{"uri": docURI(name)}}, &g); err != nil {
			return fmt.Sprintf("%s: %v", method, err), false
		}
		if string(g) != same(string(w)) {
			return fmt.Sprintf("%s\n%.2000s\nwant (fresh open)\n%.2000s", method, g, w), false
		}
	}
	return "", false
}

// tokensAsClient asks the edited session for name's semantic tokens as
// an editor does: semanticTokens/full/delta from the array it sent for
// the last version compared (when there is one), whose edits applied to
// that array must give fresh's data (the fresh session's full answer);
// then semanticTokens/full, whose answer it returns and keeps as the
// base of the next version's delta. diff describes a difference.
func tokensAsClient(t *testing.T, edited *harness, name string, fresh json.RawMessage) (full json.RawMessage, diff string) {
	t.Helper()
	var want struct {
		Data []uint32 `json:"data"`
	}
	if err := json.Unmarshal(fresh, &want); err != nil {
		t.Fatal(err)
	}
	td := map[string]any{"uri": docURI(name)}
	edited.mu.Lock()
	last, ok := edited.tokens[name]
	edited.mu.Unlock()
	if ok {
		var d struct {
			ResultID string    `json:"resultId"`
			Data     *[]uint32 `json:"data"`
			Edits    []struct {
				Start, DeleteCount uint32
				Data               []uint32
			} `json:"edits"`
		}
		var raw json.RawMessage // decoded with encoding/json below: the harness's codec matches names exactly
		if err := edited.call(protocol.MethodTextDocumentSemanticTokensFullDelta, map[string]any{"textDocument": td, "previousResultId": last.id}, &raw); err != nil {
			return nil, fmt.Sprintf("semanticTokens/full/delta: %v", err)
		}
		if err := json.Unmarshal(raw, &d); err != nil {
			t.Fatal(err)
		}
		got := last.data
		if d.Data != nil {
			got = *d.Data
		} else {
			// Applied from the last edit back, each against the array as sent.
			for i := len(d.Edits) - 1; i >= 0; i-- {
				e := d.Edits[i]
				if int(e.Start)+int(e.DeleteCount) > len(got) {
					return nil, fmt.Sprintf("semanticTokens/full/delta: edit %d (%d+%d) past the array's %d numbers", i, e.Start, e.DeleteCount, len(got))
				}
				got = slices.Concat(got[:e.Start], e.Data, got[e.Start+e.DeleteCount:])
			}
		}
		if !slices.Equal(got, want.Data) {
			k := 0
			for k < min(len(got), len(want.Data)) && got[k] == want.Data[k] {
				k++
			}
			return nil, fmt.Sprintf("semanticTokens/full/delta applied to the last array (%d numbers) gives %d numbers, the fresh session's %d; the first difference at %d (token %d): got %v, want %v; edits %+v",
				len(last.data), len(got), len(want.Data), k, k/5, got[k/5*5:min(len(got), k/5*5+10)], want.Data[k/5*5:min(len(want.Data), k/5*5+10)], d.Edits)
		}
	}
	if err := edited.call(protocol.MethodTextDocumentSemanticTokensFull, map[string]any{"textDocument": td}, &full); err != nil {
		return nil, fmt.Sprintf("semanticTokens/full: %v", err)
	}
	var kept struct {
		ResultID string   `json:"resultId"`
		Data     []uint32 `json:"data"`
	}
	if err := json.Unmarshal(full, &kept); err != nil {
		t.Fatal(err)
	}
	edited.mu.Lock()
	if edited.tokens == nil {
		edited.tokens = map[string]clientTokens{}
	}
	edited.tokens[name] = clientTokens{kept.ResultID, kept.Data}
	edited.mu.Unlock()
	return full, ""
}

// diagnosticsDiff lists the diagnostics only one of got and want (the
// fresh session's, spelled by same with the edited document's name) has.
func diagnosticsDiff(t *testing.T, got, want []protocol.Diagnostic, same func(string) string) string {
	count := map[string]int{}
	for _, d := range got {
		count[jsonOf(t, d)]++
	}
	for _, d := range want {
		count[same(jsonOf(t, d))]--
	}
	var out []string
	for d, n := range count {
		switch {
		case n > 0:
			out = append(out, fmt.Sprintf("only after the edits (%d): %s", n, d))
		case n < 0:
			out = append(out, fmt.Sprintf("only in the fresh session (%d): %s", -n, d))
		}
	}
	sort.Strings(out)
	if len(out) == 0 {
		return "the same diagnostics in another order"
	}
	return strings.Join(out, "\n")
}

// TestLSPEditsEqualFreshRules is TestLSPEditsEqualFresh with the
// best-practice rules on (the editor's default; the other tests run
// without them), so that the rules' memo, which re-checks only what an
// edit can change, is held to a fresh session too.
func TestLSPEditsEqualFreshRules(t *testing.T) {
	defaultRulesOff = false
	t.Cleanup(func() { defaultRulesOff = true })
	steps := 15
	if *diffSteps > 0 {
		steps = *diffSteps
	}
	docs := map[string]string{
		"rules.blueprint.yaml":  rulesDoc,
		"gen.blueprint.yaml":    string(gen.Blueprint(8, "yaml")),
		"gen.blueprint.json":    string(gen.Blueprint(8, "json")),
		"gen.bp":                string(gen.Blueprint(8, "bp")),
		"orders.blueprint.yaml": mustRead(t, "../testdata/examples/valid/orders-api.blueprint.yaml"),
	}
	names := slices.Sorted(maps.Keys(docs))
	for i, name := range names {
		t.Run(name, func(t *testing.T) { runDifferential(t, name, docs[name], int64(i)+*diffSeed, steps) })
	}
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
