package lsp

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite the expected sections of testdata/*.txtar")

// TestScenarios runs testdata/*.txtar against the real server. Documents
// live in a temporary directory (so includes and watched files are real
// files); in goldens its URI reads file:///ROOT. The "script" section is one
// command per line (# starts a comment); positions are L:C in UTF-16:
//
//	init JSON                      initialize with these params instead of
//	                               the default (first command only)
//	open NAME                      open archive file NAME as version 1
//	edit NAME VERSION L:C-L:C TEXT incremental change; TEXT is a Go string
//	replace NAME VERSION FILE      full change to archive file FILE
//	close NAME
//	disk NAME [FILE]               write archive file FILE (default NAME)
//	                               to NAME on disk
//	rm NAME                        delete NAME from disk
//	watch NAME TYPE                didChangeWatchedFiles (1 created,
//	                               2 changed, 3 deleted)
//	diags NAME VERSION GOLDEN      diagnostics once VERSION settled, one
//	                               "L:C-L:C severity code" per line
//	mark NAME                      remember NAME's current snapshot
//	rediags NAME GOLDEN            diagnostics once a snapshot of NAME newer
//	                               than its mark settled (a re-check)
//	request METHOD NAME GOLDEN     a textDocument request on NAME; the
//	                               result as indented JSON
//	at METHOD NAME L:C GOLDEN [JSON]     a request at a position; JSON
//	                               fields are added to the params
//	range METHOD NAME L:C-L:C GOLDEN [JSON]  a request over a range
//	call METHOD GOLDEN JSON        any request with these params
//	tokens NAME [L:C-L:C] GOLDEN   semantic tokens (full or range), decoded
//	                               to "L:C text type modifiers" lines
//	fix NAME L:C-L:C TITLE GOLDEN  the code action whose title starts with
//	                               TITLE (a Go string) applied to NAME's
//	                               text; GOLDEN is the resulting text
//	format NAME GOLDEN             formatting edits applied; GOLDEN is the
//	                               resulting text
//
// GOLDEN sections are rewritten with -update.
func TestScenarios(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.txtar")
	if len(files) == 0 {
		t.Fatal("no scenarios")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			runScenario(t, file, ar)
		})
	}
}

func section(ar *txtar.Archive, name string) ([]byte, bool) {
	for _, f := range ar.Files {
		if f.Name == name {
			return f.Data, true
		}
	}
	return nil, false
}

func setSection(ar *txtar.Archive, name string, data []byte) {
	for i, f := range ar.Files {
		if f.Name == name {
			ar.Files[i].Data = data
			return
		}
	}
	ar.Files = append(ar.Files, txtar.File{Name: name, Data: data})
}

// defaultScenarioInit is the initialize params of a scenario without init.
const defaultScenarioInit = `{"capabilities":{"general":{"positionEncodings":["utf-16"]},"textDocument":{"documentSymbol":{"hierarchicalDocumentSymbolSupport":true},"completion":{"completionItem":{"snippetSupport":true}}}},"initializationOptions":{"debounceMs":0}}`

// scenario is one running script.
type scenario struct {
	t       *testing.T
	h       *harness
	ar      *txtar.Archive
	root    string // the documents' directory
	rootURI string
	marks   map[string]uint64
	changed bool
}

// uri names a scenario document.
func (sc *scenario) uri(name string) string {
	return string(uri.File(filepath.Join(sc.root, filepath.FromSlash(name))))
}

// scrub replaces the temporary directory with ROOT so goldens are stable.
func (sc *scenario) scrub(b []byte) []byte {
	b = bytes.ReplaceAll(b, []byte(sc.rootURI), []byte("file:///ROOT"))
	return bytes.ReplaceAll(b, []byte(sc.root), []byte("/ROOT"))
}

// unscrub puts the temporary directory into script text.
func (sc *scenario) unscrub(s string) string {
	s = strings.ReplaceAll(s, "file:///ROOT", sc.rootURI)
	return strings.ReplaceAll(s, "/ROOT", sc.root)
}

func (sc *scenario) check(golden string, got []byte) {
	sc.t.Helper()
	got = sc.scrub(got)
	want, ok := section(sc.ar, golden)
	if *update {
		if !ok || !bytes.Equal(want, got) {
			setSection(sc.ar, golden, got)
			sc.changed = true
		}
		return
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		sc.t.Errorf("%s (-want +got):\n%s", golden, diff)
	}
}

func runScenario(t *testing.T, file string, ar *txtar.Archive) {
	script, ok := section(ar, "script")
	if !ok {
		t.Fatal("no script section")
	}
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	sc := &scenario{t: t, ar: ar, root: root, rootURI: string(uri.File(root)), marks: map[string]uint64{}}
	sc.h = newHarness(t)
	initialized := false
	for n, line := range strings.Split(string(script), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if strings.HasPrefix(line, "init ") {
			if initialized {
				t.Fatalf("script line %d: init after the first command", n+1)
			}
			sc.h.initialize(sc.unscrub(strings.TrimPrefix(line, "init ")))
			initialized = true
			continue
		}
		if !initialized {
			sc.h.initialize(defaultScenarioInit)
			initialized = true
		}
		sc.run(n+1, line)
	}
	sc.h.shutdown()
	if sc.changed {
		if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// run executes one script line.
func (sc *scenario) run(n int, line string) {
	t, h := sc.t, sc.h
	fields := strings.Fields(line)
	fail := func(format string, args ...any) {
		t.Fatalf("script line %d %q: %s", n, line, fmt.Sprintf(format, args...))
	}
	arg := func(i int) string {
		if i >= len(fields) {
			fail("missing argument %d", i)
		}
		return fields[i]
	}
	// rest is the text after field i, unscrubbed.
	rest := func(i int) string {
		s := line
		for j := 0; j <= i; j++ {
			s = strings.TrimSpace(s)
			s = s[len(fields[j]):]
		}
		return sc.unscrub(strings.TrimSpace(s))
	}
	version := func(i int) int32 {
		v, err := strconv.Atoi(arg(i))
		if err != nil {
			fail("bad version: %v", err)
		}
		return int32(v)
	}
	file := func(name string) []byte {
		data, ok := section(sc.ar, name)
		if !ok {
			fail("no file %s", name)
		}
		return data
	}
	position := func(s string) protocol.Position {
		var l, c uint32
		if _, err := fmt.Sscanf(s, "%d:%d", &l, &c); err != nil {
			fail("bad position %q: %v", s, err)
		}
		return pos(l, c)
	}
	span := func(s string) protocol.Range {
		a, b, ok := strings.Cut(s, "-")
		if !ok {
			fail("bad range %q", s)
		}
		return protocol.Range{Start: position(a), End: position(b)}
	}
	// params builds request params from a base object and extra JSON.
	params := func(base map[string]any, extra string) json.RawMessage {
		if extra != "" {
			var more map[string]any
			if err := json.Unmarshal([]byte(extra), &more); err != nil {
				fail("bad params %s: %v", extra, err)
			}
			for k, v := range more {
				base[k] = v
			}
		}
		b, err := json.Marshal(base)
		if err != nil {
			fail("%v", err)
		}
		return b
	}
	td := func(name string) map[string]any { return map[string]any{"uri": sc.uri(name)} }
	request := func(method string, p json.RawMessage, golden string) {
		var raw json.RawMessage
		if err := h.call(method, p, &raw); err != nil {
			fail("%v", err)
		}
		sc.check(golden, canonicalJSON(raw, fail))
	}
	switch fields[0] {
	case "open":
		h.open(sc.uri(arg(1)), string(file(arg(1))))
	case "replace":
		h.changeFull(sc.uri(arg(1)), version(2), string(file(arg(3))))
	case "edit":
		text, err := strconv.Unquote(rest(3))
		if err != nil {
			fail("bad text: %v", err)
		}
		h.changeRange(sc.uri(arg(1)), version(2), span(arg(3)), text)
	case "close":
		h.close(sc.uri(arg(1)))
	case "disk":
		src := arg(1)
		if len(fields) > 2 {
			src = arg(2)
		}
		path := filepath.Join(sc.root, filepath.FromSlash(arg(1)))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			fail("%v", err)
		}
		if err := os.WriteFile(path, file(src), 0o644); err != nil {
			fail("%v", err)
		}
	case "rm":
		if err := os.Remove(filepath.Join(sc.root, filepath.FromSlash(arg(1)))); err != nil {
			fail("%v", err)
		}
	case "watch":
		h.notify(protocol.MethodWorkspaceDidChangeWatchedFiles,
			fmt.Sprintf(`{"changes":[{"uri":%q,"type":%s}]}`, sc.uri(arg(1)), arg(2)))
	case "diags":
		sc.check(arg(3), diagLines(h.WaitDiagnostics(sc.uri(arg(1)), version(2))))
	case "mark":
		sc.marks[arg(1)] = h.mark(sc.uri(arg(1)))
	case "rediags":
		sc.check(arg(2), diagLines(h.WaitResettled(sc.uri(arg(1)), sc.marks[arg(1)])))
	case "request":
		request(arg(1), params(map[string]any{"textDocument": td(arg(2))}, ""), arg(3))
	case "at":
		request(arg(1), params(map[string]any{"textDocument": td(arg(2)), "position": position(arg(3))}, rest(4)), arg(4))
	case "range":
		request(arg(1), params(map[string]any{"textDocument": td(arg(2)), "range": span(arg(3))}, rest(4)), arg(4))
	case "call":
		request(arg(1), json.RawMessage(rest(2)), arg(2))
	case "tokens":
		golden, r := arg(2), (*protocol.Range)(nil)
		if len(fields) > 3 {
			sp := span(arg(2))
			golden, r = arg(3), &sp
		}
		sc.check(golden, sc.tokens(arg(1), r, fail))
	case "fix":
		quoted := rest(2)
		title, err := strconv.QuotedPrefix(quoted)
		if err != nil {
			fail("bad title: %v", err)
		}
		golden := strings.TrimSpace(quoted[len(title):])
		title, _ = strconv.Unquote(title)
		sc.check(golden, sc.fix(arg(1), span(arg(2)), title, fail))
	case "format":
		var edits []protocol.TextEdit
		p := params(map[string]any{"textDocument": td(arg(1)), "options": map[string]any{"tabSize": 2, "insertSpaces": true}}, "")
		if err := h.call(protocol.MethodTextDocumentFormatting, p, &edits); err != nil {
			fail("%v", err)
		}
		sc.check(arg(2), []byte(applyEdits(t, sc.text(arg(1)), edits)))
	default:
		fail("unknown command")
	}
}

// text is the server's current text of a scenario document, as the
// client has it (without the server's padding).
func (sc *scenario) text(name string) string {
	snap := sc.h.srv.session.current().snapshot(sc.uri(name))
	if snap == nil {
		sc.t.Fatalf("%s is not open", name)
	}
	client, _ := parsedClient(snap)
	return string(client)
}

// canonicalJSON indents raw with every object's keys sorted, so goldens
// do not depend on map iteration (workspace edit changes).
func canonicalJSON(raw json.RawMessage, fail func(string, ...any)) []byte {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		fail("%v", err)
	}
	out, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		fail("%v", err)
	}
	return append(out, '\n')
}

func diagLines(ds []protocol.Diagnostic) []byte {
	var b strings.Builder
	for _, d := range ds {
		code, _ := d.Code.(protocol.String)
		fmt.Fprintf(&b, "%d:%d-%d:%d %s %s\n", d.Range.Start.Line, d.Range.Start.Character,
			d.Range.End.Line, d.Range.End.Character, severityName(d.Severity), code)
	}
	return []byte(b.String())
}

// tokens requests semantic tokens and decodes them with the legend the
// server advertised.
func (sc *scenario) tokens(name string, r *protocol.Range, fail func(string, ...any)) []byte {
	h := sc.h
	legend := h.srv.semanticLegend()
	var res protocol.SemanticTokens
	var err error
	if r == nil {
		err = h.call(protocol.MethodTextDocumentSemanticTokensFull, map[string]any{"textDocument": map[string]any{"uri": sc.uri(name)}}, &res)
	} else {
		err = h.call(protocol.MethodTextDocumentSemanticTokensRange, map[string]any{"textDocument": map[string]any{"uri": sc.uri(name)}, "range": r}, &res)
	}
	if err != nil {
		fail("%v", err)
	}
	text := sc.text(name)
	m := newTestMapper(text)
	var b strings.Builder
	var line, char uint32
	for i := 0; i+5 <= len(res.Data); i += 5 {
		dl, dc, n, typ, mods := res.Data[i], res.Data[i+1], res.Data[i+2], res.Data[i+3], res.Data[i+4]
		if dl > 0 {
			line, char = line+dl, dc
		} else {
			char += dc
		}
		start := m.offset(pos(line, char))
		end := m.offset(pos(line, char+n))
		var modNames []string
		for bit := 0; bit < len(legend.TokenModifiers); bit++ {
			if mods&(1<<bit) != 0 {
				modNames = append(modNames, legend.TokenModifiers[bit])
			}
		}
		typeName := "?"
		if int(typ) < len(legend.TokenTypes) {
			typeName = legend.TokenTypes[typ]
		}
		fmt.Fprintf(&b, "%d:%d %q %s %s\n", line, char, text[start:end], typeName, strings.Join(modNames, ","))
	}
	return []byte(b.String())
}

// fix asks for code actions over r (with the diagnostics the client shows
// there) and applies the one whose title starts with title.
func (sc *scenario) fix(name string, r protocol.Range, title string, fail func(string, ...any)) []byte {
	h := sc.h
	var inRange []protocol.Diagnostic
	if pubs := h.publishes(sc.uri(name)); len(pubs) > 0 {
		for _, d := range pubs[len(pubs)-1].Diagnostics {
			if !posLess(d.Range.End, r.Start) && !posLess(r.End, d.Range.Start) {
				inRange = append(inRange, d)
			}
		}
	}
	p := &protocol.CodeActionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: uri.URI(sc.uri(name))},
		Range:        r,
		Context:      protocol.CodeActionContext{Diagnostics: inRange},
	}
	if p.Context.Diagnostics == nil {
		p.Context.Diagnostics = []protocol.Diagnostic{}
	}
	var raw []json.RawMessage
	if err := h.call(protocol.MethodTextDocumentCodeAction, p, &raw); err != nil {
		fail("%v", err)
	}
	var titles []string
	for _, item := range raw {
		var ca protocol.CodeAction
		if err := protocol.Unmarshal(item, &ca); err != nil {
			fail("%v", err)
		}
		titles = append(titles, ca.Title)
		if !strings.HasPrefix(ca.Title, title) {
			continue
		}
		edits := ca.Edit.Changes[uri.URI(sc.uri(name))]
		return []byte(applyEdits(sc.t, sc.text(name), edits))
	}
	fail("no code action titled %q among %q", title, titles)
	return nil
}

func posLess(a, b protocol.Position) bool {
	return a.Line < b.Line || a.Line == b.Line && a.Character < b.Character
}

// applyEdits applies non-overlapping text edits (UTF-16 positions) to text.
func applyEdits(t testing.TB, text string, edits []protocol.TextEdit) string {
	m := newTestMapper(text)
	type span struct {
		start, end int
		text       string
	}
	var spans []span
	for _, e := range edits {
		spans = append(spans, span{m.offset(e.Range.Start), m.offset(e.Range.End), e.NewText})
	}
	sort.SliceStable(spans, func(i, j int) bool { return spans[i].start > spans[j].start })
	for _, s := range spans {
		if s.start > s.end || s.end > len(text) {
			t.Fatalf("bad edit %+v", s)
		}
		text = text[:s.start] + s.text + text[s.end:]
	}
	return text
}

func severityName(s protocol.DiagnosticSeverity) string {
	switch s {
	case protocol.DiagnosticSeverityError:
		return "error"
	case protocol.DiagnosticSeverityWarning:
		return "warning"
	case protocol.DiagnosticSeverityInformation:
		return "information"
	}
	return "hint"
}
