package lsp

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"strings"

	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/blueprint-ls/blueprint-ls/schema"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// fastInit initialises with no debounce so tests wait only on the work.
const fastInit = `{"capabilities":{},"initializationOptions":{"debounceMs":0}}`

func errCode(err error) jsonrpc2.Code {
	var e *jsonrpc2.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return 0
}

func TestInitializeCapabilityShapes(t *testing.T) {
	shapes := []string{
		`{}`,
		`{"capabilities":null}`,
		`{"capabilities":{}}`,
		`{"capabilities":[]}`,
		`{"capabilities":false}`,
		`{"processId":null,"rootUri":null,"rootPath":null,"initializationOptions":null,"workspaceFolders":null}`,
		`{"capabilities":{"general":null,"workspace":null,"textDocument":null,"window":null,"experimental":null}}`,
		`{"capabilities":{"general":false,"workspace":false,"textDocument":false}}`,
		`{"capabilities":{"general":{"positionEncodings":null}}}`,
		`{"capabilities":{"general":{"positionEncodings":[]}}}`,
		`{"capabilities":{"general":{"positionEncodings":["utf-7", 3, null]}}}`,
		`{"capabilities":{"workspace":{"configuration":"yes","diagnostics":null}}}`,
		`{"capabilities":{"textDocument":{"diagnostic":null,"documentSymbol":false,"foldingRange":{"rangeLimit":"x"}}}}`,
		`{"capabilities":{"textDocument":{"synchronization":{},"publishDiagnostics":{"tagSupport":null}}}}`,
		`{"initializationOptions":{"blueprint":{"debounceMs":"x","severity":[1]}}}`,
		`{"initializationOptions":"string"}`,
		`{"clientInfo":null,"trace":null,"locale":null}`,
	}
	// Fuzz-ish: every capability path with every odd value.
	paths := []string{"general", "workspace", "textDocument", "window", "general.positionEncodings",
		"workspace.configuration", "workspace.diagnostics", "textDocument.diagnostic", "textDocument.documentSymbol",
		"textDocument.foldingRange", "textDocument.synchronization", "textDocument.publishDiagnostics"}
	for _, p := range paths {
		for _, v := range []string{`null`, `false`, `true`, `{}`, `[]`, `0`, `""`} {
			parts := strings.Split(p, ".")
			obj := v
			for i := len(parts) - 1; i >= 0; i-- {
				obj = fmt.Sprintf(`{%q:%s}`, parts[i], obj)
			}
			shapes = append(shapes, `{"capabilities":`+obj+`}`)
		}
	}
	for _, shape := range shapes {
		t.Run(shape, func(t *testing.T) {
			h := newHarness(t)
			res := h.initialize(shape)
			if res.Capabilities.TextDocumentSync == nil || res.Capabilities.FoldingRangeProvider == nil {
				t.Fatalf("capabilities missing: %+v", res.Capabilities)
			}
			if res.Capabilities.PositionEncoding != protocol.PositionEncodingKindUTF16 {
				t.Errorf("encoding = %q, want utf-16", res.Capabilities.PositionEncoding)
			}
			h.open("a.yaml", "a: 1\n")
			var folds []protocol.FoldingRange
			if err := h.call(protocol.MethodTextDocumentFoldingRange, &protocol.FoldingRangeParams{
				TextDocument: protocol.TextDocumentIdentifier{URI: docURI("a.yaml")}}, &folds); err != nil {
				t.Fatal(err)
			}
			if code := h.shutdown(); code != 0 {
				t.Errorf("exit code %d", code)
			}
		})
	}
}

func TestPositionEncodings(t *testing.T) {
	// "😀" is 4 bytes, 2 UTF-16 units, 1 code point.
	text := "a: \"😀😀\" ERR\n"
	tests := []struct {
		offered string
		want    protocol.PositionEncodingKind
		errCol  uint32 // column of ERR
	}{
		{`null`, protocol.PositionEncodingKindUTF16, 10},
		{`["utf-16"]`, protocol.PositionEncodingKindUTF16, 10},
		{`["utf-32","utf-16"]`, protocol.PositionEncodingKindUTF16, 10},
		{`["utf-32"]`, protocol.PositionEncodingKindUTF32, 8},
		{`["utf-8","utf-16"]`, protocol.PositionEncodingKindUTF8, 14},
	}
	for _, tt := range tests {
		t.Run(tt.offered, func(t *testing.T) {
			h := newHarness(t, withAnalyzer(markerAnalyzer{}))
			res := h.initialize(`{"capabilities":{"general":{"positionEncodings":` + tt.offered + `}},"initializationOptions":{"debounceMs":0}}`)
			if got := res.Capabilities.PositionEncoding; got != tt.want {
				t.Fatalf("encoding = %q, want %q", got, tt.want)
			}
			h.open("e.yaml", text)
			ds := h.WaitDiagnostics("e.yaml", 1)
			if len(ds) != 1 || ds[0].Range != rng(0, tt.errCol, 0, tt.errCol+3) {
				t.Fatalf("diagnostics = %+v, want ERR at column %d", ds, tt.errCol)
			}
			// An incremental edit at the same position (in the negotiated
			// encoding) must hit the same bytes: replace ERR with SYNTAX ERR.
			h.changeRange("e.yaml", 2, rng(0, tt.errCol, 0, tt.errCol+3), "ok")
			if ds := h.WaitDiagnostics("e.yaml", 2); len(ds) != 0 {
				t.Fatalf("after edit: %+v", ds)
			}
			if got := string(h.srv.session.current().snapshot(string(docURI("e.yaml"))).Content()); got != "a: \"😀😀\" ok\n" {
				t.Fatalf("text after edit = %q", got)
			}
		})
	}
}

func TestFullAndIncrementalSync(t *testing.T) {
	h := newHarness(t, withAnalyzer(markerAnalyzer{}))
	h.initialize(fastInit)
	h.open("s.yaml", "one\ntwo\n")
	if ds := h.WaitDiagnostics("s.yaml", 1); len(ds) != 0 {
		t.Fatalf("v1: %+v", ds)
	}
	h.changeFull("s.yaml", 2, "ERR\n")
	if ds := h.WaitDiagnostics("s.yaml", 2); len(ds) != 1 || ds[0].Range != rng(0, 0, 0, 3) {
		t.Fatalf("v2: %+v", ds)
	}
	h.changeRange("s.yaml", 3, rng(0, 0, 0, 0), "x\n")
	ds := h.WaitDiagnostics("s.yaml", 3)
	if len(ds) != 1 || ds[0].Range != rng(1, 0, 1, 3) {
		t.Fatalf("v3: %+v", ds)
	}
	pubs := h.publishes("s.yaml")
	if last := pubs[len(pubs)-1]; last.Version != protocol.NewOptional[int32](3) {
		t.Errorf("published version = %v, want 3", last.Version)
	}
	if code := h.shutdown(); code != 0 {
		t.Errorf("exit code %d", code)
	}
}

// TestRapidIncrementalEdits sends 1,000 incremental edits without waiting
// and checks the final diagnostics equal those of a fresh open of the
// final text.
func TestRapidIncrementalEdits(t *testing.T) {
	h := newHarness(t, withAnalyzer(markerAnalyzer{}))
	h.initialize(fastInit)
	text := "start\n"
	h.open("r.yaml", text)
	rnd := rand.New(rand.NewSource(7))
	words := []string{"a", "ERR", "\n", "é", "😀", "SYNTAX", " "}
	for v := int32(2); v <= 1001; v++ {
		m := newTestMapper(text)
		start := rnd.Intn(len(text) + 1)
		end := start
		if rnd.Intn(3) == 0 {
			end = min(len(text), start+rnd.Intn(4))
		}
		start, end = m.snap(start), m.snap(end)
		ins := words[rnd.Intn(len(words))]
		h.changeRange("r.yaml", v, protocol.Range{Start: m.pos(start), End: m.pos(end)}, ins)
		text = text[:start] + ins + text[end:]
	}
	got := h.WaitDiagnostics("r.yaml", 1001)
	if s := h.srv.session.current().snapshot(string(docURI("r.yaml"))); string(s.Content()) != text {
		t.Fatalf("server text diverged")
	}
	h.open("fresh.yaml", text)
	want := h.WaitDiagnostics("fresh.yaml", 1)
	if diff := cmp.Diff(encodeJSON(t, want), encodeJSON(t, got)); diff != "" {
		t.Fatalf("final diagnostics differ from a fresh open (-fresh +edited):\n%s", diff)
	}
	if len(want) == 0 {
		t.Fatalf("test is too weak: no diagnostics in the final text")
	}
}

func encodeJSON(t testing.TB, v any) string {
	b, err := protocol.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestCancellation(t *testing.T) {
	started := make(chan struct{}, 2)
	block := func(ctx context.Context, s *server, _ []byte) (any, error) {
		started <- struct{}{}
		<-ctx.Done()
		return "too late", nil
	}
	h := newHarness(t, withMethod("test/block", block))
	h.initialize(fastInit)
	for _, id := range []jsonrpc2.ID{jsonrpc2.NewNumberID(1000), jsonrpc2.NewStringID("req-α")} {
		t.Run(fmt.Sprint(id), func(t *testing.T) {
			ch := h.send(id, "test/block", "{}")
			<-started
			var cancelID string
			if n, ok := id.Number(); ok {
				cancelID = fmt.Sprint(n)
			} else {
				s, _ := id.StringValue()
				cancelID = fmt.Sprintf("%q", s)
			}
			h.notify(protocol.MethodCancelRequest, `{"id":`+cancelID+`}`)
			r := h.wait(ch)
			if errCode(r.Err()) != protocol.CodeRequestCancelled {
				t.Fatalf("response = %v, want RequestCancelled", r.Err())
			}
		})
	}
	// Cancelling an unknown or finished request is harmless.
	h.notify(protocol.MethodCancelRequest, `{"id":424242}`)
	h.shutdown()
}

func TestContentModified(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	slow := func(ctx context.Context, s *server, params []byte) (any, error) {
		if _, err := s.snapshot(ctx, string(docURI("m.yaml"))); err != nil {
			return nil, err
		}
		close(entered)
		<-release
		return "stale", nil
	}
	h := newHarness(t, withMethod("test/slow", slow))
	h.initialize(fastInit)
	h.open("m.yaml", "a: 1\n")
	ch := h.send(jsonrpc2.NewNumberID(1), "test/slow", "{}")
	<-entered
	h.changeFull("m.yaml", 2, "a: 2\n")
	// Ordered: once a later request is answered, the change was applied.
	if err := h.call(protocol.MethodTextDocumentFoldingRange, &protocol.FoldingRangeParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: docURI("m.yaml")}}, nil); err != nil {
		t.Fatal(err)
	}
	close(release)
	if r := h.wait(ch); errCode(r.Err()) != protocol.CodeContentModified {
		t.Fatalf("response = %v, want ContentModified", r.Err())
	}
	h.shutdown()
}

func TestPanicRecovery(t *testing.T) {
	h := newHarness(t, withMethod("test/panic", func(context.Context, *server, []byte) (any, error) {
		panic("boom")
	}))
	h.initialize(fastInit)
	err := h.call("test/panic", "{}", nil)
	if errCode(err) != jsonrpc2.InternalError || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("err = %v, want InternalError mentioning the panic", err)
	}
	// The connection survives.
	h.open("p.yaml", "a: 1\n")
	if err := h.call(protocol.MethodTextDocumentFoldingRange, &protocol.FoldingRangeParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: docURI("p.yaml")}}, nil); err != nil {
		t.Fatal(err)
	}
	if code := h.shutdown(); code != 0 {
		t.Errorf("exit code %d", code)
	}
}

// panicAnalyzer panics in both phases.
type panicAnalyzer struct{}

func (panicAnalyzer) Parse(string, []byte) *schema.File { panic("parse boom") }
func (panicAnalyzer) Analyze(context.Context, *schema.File, Env) *Analysis {
	panic("analyze boom")
}

func TestAnalyzerPanicBecomesDiagnostic(t *testing.T) {
	h := newHarness(t, withAnalyzer(panicAnalyzer{}))
	h.initialize(fastInit)
	h.open("x.yaml", "a: 1\n")
	ds := h.WaitDiagnostics("x.yaml", 1)
	if len(ds) == 0 || ds[0].Code != protocol.String("lsp-internal-error") {
		t.Fatalf("diagnostics = %+v, want lsp-internal-error", ds)
	}
	h.shutdown()
}

func TestLifecycleErrors(t *testing.T) {
	h := newHarness(t)
	if err := h.call(protocol.MethodTextDocumentFoldingRange, `{"textDocument":{"uri":"file:///a.yaml"}}`, nil); errCode(err) != jsonrpc2.ServerNotInitialized {
		t.Fatalf("before initialize: %v, want ServerNotInitialized", err)
	}
	h.initialize(fastInit)
	if err := h.call(protocol.MethodInitialize, `{}`, nil); errCode(err) != jsonrpc2.InvalidRequest {
		t.Fatalf("second initialize: %v, want InvalidRequest", err)
	}
	if err := h.call("blueprint/noSuchMethod", `{}`, nil); errCode(err) != jsonrpc2.MethodNotFound {
		t.Fatalf("unknown method: %v, want MethodNotFound", err)
	}
	if err := h.call(protocol.MethodTextDocumentImplementation, `{"textDocument":{"uri":"file:///a.yaml"},"position":{"line":0,"character":0}}`, nil); errCode(err) != jsonrpc2.MethodNotFound {
		t.Fatalf("unimplemented method: %v, want MethodNotFound", err)
	}
	h.notify("$/unknownNotification", `{}`)
	if err := h.call(protocol.MethodShutdown, nil, nil); err != nil {
		t.Fatal(err)
	}
	if err := h.call(protocol.MethodTextDocumentFoldingRange, `{"textDocument":{"uri":"file:///a.yaml"}}`, nil); errCode(err) != jsonrpc2.InvalidRequest {
		t.Fatalf("after shutdown: %v, want InvalidRequest", err)
	}
	h.notify(protocol.MethodExit, nil)
	<-h.runDone
	if h.exitCode != 0 {
		t.Errorf("exit code = %d, want 0", h.exitCode)
	}
}

func TestExitWithoutShutdown(t *testing.T) {
	h := newHarness(t)
	h.initialize(fastInit)
	h.notify(protocol.MethodExit, nil)
	<-h.runDone
	if h.exitCode != 1 {
		t.Errorf("exit code = %d, want 1", h.exitCode)
	}
}

func TestCloseClearsDiagnostics(t *testing.T) {
	h := newHarness(t, withAnalyzer(markerAnalyzer{}))
	h.initialize(fastInit)
	h.open("c.yaml", "ERR\n")
	if ds := h.WaitDiagnostics("c.yaml", 1); len(ds) != 1 {
		t.Fatalf("open: %+v", ds)
	}
	h.close("c.yaml")
	h.waitFor("clearing", func() bool {
		pubs := h.pubs[canonicalURI(string(docURI("c.yaml")))]
		last := pubs[len(pubs)-1]
		return len(pubs) == 2 && last.Diagnostics != nil && len(last.Diagnostics) == 0 && last.Version.IsZero()
	})
	// Requests on a closed document fail cleanly.
	if err := h.call(protocol.MethodTextDocumentFoldingRange, &protocol.FoldingRangeParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: docURI("c.yaml")}}, nil); errCode(err) != jsonrpc2.InvalidParams {
		t.Fatalf("closed document: %v", err)
	}
	h.shutdown()
}

func TestUnchangedDiagnosticsNotResent(t *testing.T) {
	h := newHarness(t, withAnalyzer(markerAnalyzer{}))
	h.initialize(fastInit)
	h.open("u.yaml", "ERR\nx\n")
	h.WaitDiagnostics("u.yaml", 1)
	h.changeRange("u.yaml", 2, rng(1, 0, 1, 1), "y") // same diagnostics
	h.WaitDiagnostics("u.yaml", 2)
	h.changeRange("u.yaml", 3, rng(0, 0, 0, 0), "\n") // ERR moves
	h.WaitDiagnostics("u.yaml", 3)
	var versions []int32
	for _, p := range h.publishes("u.yaml") {
		v, _ := p.Version.Get()
		versions = append(versions, v)
	}
	if diff := cmp.Diff([]int32{1, 3}, versions); diff != "" {
		t.Fatalf("published versions (-want +got):\n%s", diff)
	}
	h.shutdown()
}

func TestPullDiagnostics(t *testing.T) {
	h := newHarness(t, withAnalyzer(markerAnalyzer{}))
	res := h.initialize(`{"capabilities":{"textDocument":{"diagnostic":{}}}}`)
	if res.Capabilities.DiagnosticProvider == nil {
		t.Fatal("diagnosticProvider not advertised to a pulling client")
	}
	h.open("d.yaml", "ERR ERR\n")
	params := func(prev *string) *protocol.DocumentDiagnosticParams {
		return &protocol.DocumentDiagnosticParams{TextDocument: protocol.TextDocumentIdentifier{URI: docURI("d.yaml")}, PreviousResultID: prev}
	}
	var rep protocol.DocumentDiagnosticReport
	if err := h.call(protocol.MethodTextDocumentDiagnostic, params(nil), &rep); err != nil {
		t.Fatal(err)
	}
	full, ok := rep.(*protocol.RelatedFullDocumentDiagnosticReport)
	if !ok || len(full.Items) != 2 || full.ResultID == nil {
		t.Fatalf("first pull = %#v", rep)
	}
	if err := h.call(protocol.MethodTextDocumentDiagnostic, params(full.ResultID), &rep); err != nil {
		t.Fatal(err)
	}
	if un, ok := rep.(*protocol.RelatedUnchangedDocumentDiagnosticReport); !ok || un.ResultID != *full.ResultID {
		t.Fatalf("second pull = %#v, want unchanged", rep)
	}
	h.changeFull("d.yaml", 2, "ERR\n")
	if err := h.call(protocol.MethodTextDocumentDiagnostic, params(full.ResultID), &rep); err != nil {
		t.Fatal(err)
	}
	if f2, ok := rep.(*protocol.RelatedFullDocumentDiagnosticReport); !ok || len(f2.Items) != 1 {
		t.Fatalf("after change = %#v", rep)
	}
	if n := len(h.publishes("d.yaml")); n != 0 {
		t.Errorf("pulling client got %d pushes", n)
	}
	h.shutdown()
}

func TestURICanonicalisation(t *testing.T) {
	h := newHarness(t, withAnalyzer(markerAnalyzer{}))
	h.initialize(fastInit)
	const opened = "file:///C%3A/ws/My%20File.yaml"
	h.open(opened, "x\n")
	h.changeFull("file:///c:/ws/My File.yaml", 2, "ERR\n")
	ds := h.WaitDiagnostics(opened, 2)
	if len(ds) != 1 {
		t.Fatalf("diagnostics = %+v", ds)
	}
	pubs := h.publishes(opened)
	if got := string(pubs[len(pubs)-1].URI); got != canonicalURI(opened) {
		t.Errorf("published to %q, want %q", got, canonicalURI(opened))
	}
	if n := len(h.srv.session.current().snaps); n != 1 {
		t.Errorf("%d documents, want 1", n)
	}
	h.close("file:///c%3A/ws/My%20File.yaml")
	h.waitFor("close", func() bool { return len(h.srv.session.current().snaps) == 0 })
	h.shutdown()
}

func TestSettings(t *testing.T) {
	h := newHarness(t, withAnalyzer(markerAnalyzer{}))
	h.mu.Lock()
	h.config = []byte(`{"severity":{"test-err":"off"},"debounceMs":0}`)
	h.mu.Unlock()
	h.initialize(`{"capabilities":{"workspace":{"configuration":true}},
		"initializationOptions":{"blueprint":{"severity":{"test-err":"error"},"debounceMs":0}}}`)
	h.open("o.yaml", "ERR SYNTAX\n")
	// The configuration answer (test-err off) lands at some point after
	// initialized; wait until only the syntax marker remains.
	h.waitFor("severity override from workspace/configuration", func() bool {
		pubs := h.pubs[canonicalURI(string(docURI("o.yaml")))]
		return len(pubs) > 0 && len(pubs[len(pubs)-1].Diagnostics) == 1
	})
	// didChangeConfiguration triggers a new fetch.
	h.mu.Lock()
	h.config = []byte(`{"severity":{"test-err":"hint","test-syntax":"warning"},"debounceMs":0}`)
	h.mu.Unlock()
	h.notify(protocol.MethodWorkspaceDidChangeConfiguration, `{"settings":null}`)
	h.waitFor("hint severity", func() bool {
		pubs := h.pubs[canonicalURI(string(docURI("o.yaml")))]
		ds := pubs[len(pubs)-1].Diagnostics
		return len(ds) == 2 && ds[0].Severity == protocol.DiagnosticSeverityHint && ds[1].Severity == protocol.DiagnosticSeverityWarning
	})
	h.shutdown()
}

func TestSettingsPushedWithoutConfigurationSupport(t *testing.T) {
	h := newHarness(t, withAnalyzer(markerAnalyzer{}))
	h.initialize(fastInit)
	h.open("o.yaml", "ERR\n")
	if ds := h.WaitDiagnostics("o.yaml", 1); len(ds) != 1 || ds[0].Severity != protocol.DiagnosticSeverityWarning {
		t.Fatalf("before: %+v", ds)
	}
	h.notify(protocol.MethodWorkspaceDidChangeConfiguration, `{"settings":{"blueprint":{"severity":{"test-err":"error"}}}}`)
	h.waitFor("error severity", func() bool {
		pubs := h.pubs[canonicalURI(string(docURI("o.yaml")))]
		ds := pubs[len(pubs)-1].Diagnostics
		return len(ds) == 1 && ds[0].Severity == protocol.DiagnosticSeverityError
	})
	// Settings pushed later keep the initialization options' debounce (0).
	if d := h.srv.session.current().settings.Debounce(); d != 0 {
		t.Errorf("debounce = %v, want 0 from initializationOptions", d)
	}
	h.shutdown()
}
