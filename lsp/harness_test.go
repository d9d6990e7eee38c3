package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// waitTimeout bounds every wait in the harness; waits end as soon as their
// condition holds (they block on a channel, never sleep).
const waitTimeout = 10 * time.Second

// testLogLevel is the server log level in tests.
var testLogLevel = slog.LevelWarn

// harness is a real server in-process over net.Pipe and a recording
// client speaking raw JSON-RPC, so tests control ids (numbers or strings)
// and see every message.
type harness struct {
	t      testing.TB
	srv    *server
	stream jsonrpc2.Stream
	ctx    context.Context
	cancel context.CancelFunc

	runDone  chan struct{}
	exitCode int
	runErr   error

	mu       sync.Mutex
	changed  chan struct{} // closed and replaced on every recorded event
	nextID   int64
	pending  map[jsonrpc2.ID]chan *jsonrpc2.Response
	pubs     map[string][]protocol.PublishDiagnosticsParams // by canonical URI
	settled  map[string]settledAt                           // by canonical URI
	settles  map[string]settledSeq                          // newest snapshot whose full phase finished
	logs     []string
	srvLogs  []string        // the server's own log lines (slog), as written
	config   json.RawMessage // answer to workspace/configuration
	cfgCalls int

	registrations []json.RawMessage // client/registerCapability params
	refreshes     int               // workspace/diagnostic/refresh requests

	// tokens is, by document name, the last semantic tokens array the
	// differential tests were sent, and its result id: the next version
	// asks for a delta from it, as an editor does.
	tokens map[string]clientTokens
}

// clientTokens is a semantic tokens array as a client keeps it.
type clientTokens struct {
	id   string
	data []uint32
}

type harnessOption func(*server)

// withAnalyzer replaces the production analyzer.
func withAnalyzer(a Analyzer) harnessOption { return func(s *server) { s.session.analyzer = a } }

// withMethod adds a test-only request handler.
func withMethod(name string, h func(ctx context.Context, s *server, params []byte) (any, error)) harnessOption {
	return func(s *server) {
		if s.hooks.methods == nil {
			s.hooks.methods = map[string]func(context.Context, *server, []byte) (any, error){}
		}
		s.hooks.methods[name] = h
	}
}

func newHarness(t testing.TB, opts ...harnessOption) *harness {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	h := &harness{
		t: t, ctx: ctx, cancel: cancel, runDone: make(chan struct{}), changed: make(chan struct{}),
		pending: map[jsonrpc2.ID]chan *jsonrpc2.Response{}, pubs: map[string][]protocol.PublishDiagnosticsParams{},
		settled: map[string]settledAt{}, settles: map[string]settledSeq{},
	}
	log := slog.New(slog.NewTextHandler(testWriter{t, h}, &slog.HandlerOptions{Level: testLogLevel}))
	h.srv = newServer(ctx, Options{Logger: log, Version: "test"})
	h.srv.hooks.settled = h.onSettled
	for _, o := range opts {
		o(h.srv)
	}
	serverEnd, clientEnd := net.Pipe()
	h.stream = newFrameStream(clientEnd, slog.New(slog.DiscardHandler)) // keeps no large message, as the server does not (retained-heap figures are the server's)
	go func() {
		defer close(h.runDone)
		h.exitCode, h.runErr = h.srv.run(serverEnd)
	}()
	go h.readLoop()
	t.Cleanup(func() {
		h.stream.Close()
		select {
		case <-h.runDone:
		case <-time.After(waitTimeout):
			t.Errorf("server did not stop")
		}
		cancel()
	})
	return h
}

type testWriter struct {
	t testing.TB
	h *harness
}

func (w testWriter) Write(p []byte) (int, error) {
	line := strings.TrimRight(string(p), "\n")
	w.h.mu.Lock()
	w.h.srvLogs = append(w.h.srvLogs, line)
	w.h.mu.Unlock()
	w.t.Log(line)
	return len(p), nil
}

// broadcast wakes every waiter; callers hold mu.
func (h *harness) broadcast() {
	close(h.changed)
	h.changed = make(chan struct{})
}

// waitFor blocks until cond (evaluated under mu) holds.
func (h *harness) waitFor(what string, cond func() bool) {
	h.t.Helper()
	deadline := time.NewTimer(waitTimeout)
	defer deadline.Stop()
	for {
		h.mu.Lock()
		ok, ch := cond(), h.changed
		h.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-ch:
		case <-deadline.C:
			h.t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// settledAt is the latest version whose full phase finished, and how many
// publishes the server had sent by then.
type settledAt struct {
	version int32
	count   int
}

// settledSeq is the newest snapshot whose full phase finished, and how
// many publishes the server had sent by then.
type settledSeq struct {
	seq   uint64
	count int
}

func (h *harness) onSettled(uri string, version int32, seq uint64, count int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if version >= h.settled[uri].version {
		h.settled[uri] = settledAt{version, count}
	}
	if seq > h.settles[uri].seq {
		h.settles[uri] = settledSeq{seq, count}
	}
	h.broadcast()
}

func (h *harness) readLoop() {
	for {
		msg, _, err := h.stream.Read(h.ctx)
		if err != nil {
			h.mu.Lock()
			for id, ch := range h.pending {
				close(ch)
				delete(h.pending, id)
			}
			h.broadcast()
			h.mu.Unlock()
			return
		}
		switch m := msg.(type) {
		case *jsonrpc2.Response:
			h.mu.Lock()
			ch := h.pending[m.ID()]
			delete(h.pending, m.ID())
			h.mu.Unlock()
			if ch != nil {
				ch <- m
			}
		case *jsonrpc2.Call:
			// Answer from another goroutine: net.Pipe has no buffer, and
			// the server may be writing to us from its read loop.
			go h.serverCall(m.ID(), strings.Clone(m.Method()), append([]byte(nil), m.Params()...))
		case *jsonrpc2.Notification:
			h.notification(m.Method(), m.Params())
		}
	}
}

// serverCall answers a request from the server.
func (h *harness) serverCall(id jsonrpc2.ID, method string, params []byte) {
	var resp *jsonrpc2.Response
	switch method {
	case protocol.MethodWorkspaceConfiguration:
		var p protocol.ConfigurationParams
		_ = protocol.Unmarshal(params, &p)
		h.mu.Lock()
		h.cfgCalls++
		cfg := h.config
		h.broadcast()
		h.mu.Unlock()
		if cfg == nil {
			cfg = json.RawMessage("null")
		}
		items := make([]json.RawMessage, len(p.Items))
		for i := range items {
			items[i] = cfg
		}
		b, _ := json.Marshal(items)
		resp = jsonrpc2.NewResponse(id, b, nil)
	case protocol.MethodWorkspaceDiagnosticRefresh:
		h.mu.Lock()
		h.refreshes++
		h.broadcast()
		h.mu.Unlock()
		resp = jsonrpc2.NewResponse(id, jsonrpc2.RawMessage("null"), nil)
	case protocol.MethodClientRegisterCapability:
		h.mu.Lock()
		h.registrations = append(h.registrations, json.RawMessage(params))
		h.broadcast()
		h.mu.Unlock()
		resp = jsonrpc2.NewResponse(id, jsonrpc2.RawMessage("null"), nil)
	default:
		resp = jsonrpc2.NewResponse(id, nil, jsonrpc2.NewError(jsonrpc2.MethodNotFound, method))
	}
	_, _ = h.stream.Write(h.ctx, resp)
}

func (h *harness) notification(method string, params []byte) {
	switch method {
	case protocol.MethodTextDocumentPublishDiagnostics:
		var p protocol.PublishDiagnosticsParams
		if err := protocol.Unmarshal(params, &p); err != nil {
			h.t.Errorf("bad publishDiagnostics: %v", err)
			return
		}
		h.mu.Lock()
		key := canonicalURI(string(p.URI))
		h.pubs[key] = append(h.pubs[key], p)
		h.broadcast()
		h.mu.Unlock()
	case protocol.MethodWindowShowMessage:
		var p protocol.ShowMessageParams
		_ = protocol.Unmarshal(params, &p)
		h.mu.Lock()
		h.logs = append(h.logs, "show: "+p.Message)
		h.broadcast()
		h.mu.Unlock()
	case protocol.MethodWindowLogMessage:
		var p protocol.LogMessageParams
		_ = protocol.Unmarshal(params, &p)
		h.mu.Lock()
		h.logs = append(h.logs, p.Message)
		h.broadcast()
		h.mu.Unlock()
	}
}

// send writes a call with id and returns the channel its response arrives
// on (closed if the connection ends first).
func (h *harness) send(id jsonrpc2.ID, method string, params any) <-chan *jsonrpc2.Response {
	h.t.Helper()
	raw := marshalParams(h.t, params)
	ch := make(chan *jsonrpc2.Response, 1)
	h.mu.Lock()
	h.pending[id] = ch
	h.mu.Unlock()
	if _, err := h.stream.Write(h.ctx, jsonrpc2.NewCall(id, method, raw)); err != nil {
		h.t.Fatalf("write %s: %v", method, err)
	}
	return ch
}

func marshalParams(t testing.TB, params any) jsonrpc2.RawMessage {
	switch p := params.(type) {
	case nil:
		return nil
	case string:
		return jsonrpc2.RawMessage(p)
	case json.RawMessage:
		return jsonrpc2.RawMessage(p)
	}
	b, err := protocol.Marshal(params)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	return b
}

// wait returns a response or fails the test.
func (h *harness) wait(ch <-chan *jsonrpc2.Response) *jsonrpc2.Response {
	h.t.Helper()
	select {
	case r, ok := <-ch:
		if !ok {
			h.t.Fatalf("connection closed before the response")
		}
		return r
	case <-time.After(waitTimeout):
		h.t.Fatalf("timed out waiting for a response")
	}
	return nil
}

// call sends a request with a fresh numeric id and decodes its result into
// result (if non-nil); it returns the response error.
func (h *harness) call(method string, params, result any) error {
	h.t.Helper()
	h.mu.Lock()
	h.nextID++
	id := jsonrpc2.NewNumberID(h.nextID)
	h.mu.Unlock()
	ch := h.send(id, method, params)
	var r *jsonrpc2.Response
	select {
	case resp, ok := <-ch:
		if !ok {
			h.t.Fatalf("%s: connection closed before the response", method)
		}
		r = resp
	case <-time.After(waitTimeout):
		buf := make([]byte, 1<<20)
		h.t.Fatalf("%s %s: timed out waiting for the response\n%s", method, marshalParams(h.t, params), buf[:runtime.Stack(buf, true)])
	}
	if r.Err() != nil {
		return r.Err()
	}
	if result != nil {
		if err := protocol.Unmarshal(r.Result(), result); err != nil {
			h.t.Fatalf("%s: decoding result %s: %v", method, r.Result(), err)
		}
	}
	return nil
}

func (h *harness) notify(method string, params any) {
	h.t.Helper()
	if _, err := h.stream.Write(h.ctx, jsonrpc2.NewNotification(method, marshalParams(h.t, params))); err != nil {
		h.t.Fatalf("notify %s: %v", method, err)
	}
}

// initialize runs the handshake with raw initialize params.
func (h *harness) initialize(params string) *protocol.InitializeResult {
	h.t.Helper()
	var res protocol.InitializeResult
	if err := h.call(protocol.MethodInitialize, params, &res); err != nil {
		h.t.Fatalf("initialize %s: %v", params, err)
	}
	h.notify(protocol.MethodInitialized, "{}")
	return &res
}

// shutdown runs shutdown and exit and returns the server's exit code.
func (h *harness) shutdown() int {
	h.t.Helper()
	if err := h.call(protocol.MethodShutdown, nil, nil); err != nil {
		h.t.Fatalf("shutdown: %v", err)
	}
	h.notify(protocol.MethodExit, nil)
	select {
	case <-h.runDone:
	case <-time.After(waitTimeout):
		h.t.Fatalf("server did not exit")
	}
	return h.exitCode
}

func (h *harness) open(uri, text string) {
	h.t.Helper()
	h.notify(protocol.MethodTextDocumentDidOpen, &protocol.DidOpenTextDocumentParams{
		TextDocument: protocol.TextDocumentItem{URI: docURI(uri), LanguageID: "yaml", Version: 1, Text: text},
	})
}

func (h *harness) changeFull(uri string, version int32, text string) {
	h.t.Helper()
	h.notify(protocol.MethodTextDocumentDidChange, &protocol.DidChangeTextDocumentParams{
		TextDocument: protocol.VersionedTextDocumentIdentifier{
			TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: docURI(uri)}, Version: version},
		ContentChanges: []protocol.TextDocumentContentChangeEvent{&protocol.TextDocumentContentChangeWholeDocument{Text: text}},
	})
}

func (h *harness) changeRange(uri string, version int32, r protocol.Range, text string) {
	h.t.Helper()
	h.notify(protocol.MethodTextDocumentDidChange, &protocol.DidChangeTextDocumentParams{
		TextDocument: protocol.VersionedTextDocumentIdentifier{
			TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: docURI(uri)}, Version: version},
		ContentChanges: []protocol.TextDocumentContentChangeEvent{&protocol.TextDocumentContentChangePartial{Range: r, Text: text}},
	})
}

func (h *harness) close(uri string) {
	h.t.Helper()
	h.notify(protocol.MethodTextDocumentDidClose, &protocol.DidCloseTextDocumentParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: docURI(uri)}})
}

// WaitDiagnostics waits until the full phase has settled for version (or
// a later one) of uri and returns the diagnostics the client then shows.
func (h *harness) WaitDiagnostics(uri string, version int32) []protocol.Diagnostic {
	h.t.Helper()
	key := canonicalURI(string(docURI(uri)))
	var out []protocol.Diagnostic
	h.waitFor(fmt.Sprintf("diagnostics of %s version %d", uri, version), func() bool {
		st := h.settled[key]
		pubs := h.pubs[key]
		if st.version < version || len(pubs) < st.count {
			return false // not settled, or its publish is still in flight
		}
		out = nil
		if len(pubs) > 0 {
			out = pubs[len(pubs)-1].Diagnostics
		}
		return true
	})
	return out
}

// forget drops the server and everything recorded once the session is
// over, so that a benchmark creating many harnesses measures one at a time
// (the test's cleanup keeps the harness itself until the end).
func (h *harness) forget() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.srv = nil
	h.pubs, h.settled, h.settles, h.logs = nil, nil, nil, nil
}

// mark returns the creation order of uri's current snapshot: a later
// WaitResettled waits for a snapshot created after it (a re-check).
func (h *harness) mark(uri string) uint64 {
	snap := h.srv.session.current().snapshot(string(docURI(uri)))
	if snap == nil {
		h.t.Fatalf("mark: %s is not open", uri)
	}
	return snap.seq
}

// WaitResettled waits until the full phase of a snapshot of uri newer
// than mark has finished (a re-check at the same version) and returns the
// diagnostics the client then shows.
func (h *harness) WaitResettled(uri string, mark uint64) []protocol.Diagnostic {
	h.t.Helper()
	key := canonicalURI(string(docURI(uri)))
	var out []protocol.Diagnostic
	h.waitFor(fmt.Sprintf("re-check of %s", uri), func() bool {
		st, pubs := h.settles[key], h.pubs[key]
		if st.seq <= mark || len(pubs) < st.count {
			return false
		}
		out = nil
		if len(pubs) > 0 {
			out = pubs[len(pubs)-1].Diagnostics
		}
		return true
	})
	return out
}

// publishes returns a copy of the publishDiagnostics received for uri.
func (h *harness) publishes(uri string) []protocol.PublishDiagnosticsParams {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]protocol.PublishDiagnosticsParams(nil), h.pubs[canonicalURI(string(docURI(uri)))]...)
}

func docURI(s string) uri.URI {
	if !strings.Contains(s, ":") {
		s = "file:///ws/" + s
	}
	return uri.URI(s)
}

func pos(line, char uint32) protocol.Position { return protocol.Position{Line: line, Character: char} }

func rng(l1, c1, l2, c2 uint32) protocol.Range {
	return protocol.Range{Start: pos(l1, c1), End: pos(l2, c2)}
}

// markerAnalyzer is a predictable Analyzer for pipeline tests: the syntax
// phase reports every "SYNTAX" in the text, the full phase adds every
// "ERR".
type markerAnalyzer struct{}

func (markerAnalyzer) Parse(uri string, content []byte) *schema.File {
	f := &schema.File{URI: uri, Text: source.NewText(content), Mapper: source.NewMapper(content)}
	f.Diagnostics = markers(content, "SYNTAX", "test-syntax", source.Error)
	return f
}

func (markerAnalyzer) Analyze(ctx context.Context, f *schema.File, _ Env) *Analysis {
	ds := append(append([]source.Diagnostic(nil), f.Diagnostics...), markers(f.Content(), "ERR", "test-err", source.Warning)...)
	source.SortDiagnostics(ds)
	return &Analysis{Diagnostics: ds}
}

func markers(content []byte, word, code string, sev source.Severity) []source.Diagnostic {
	var ds []source.Diagnostic
	text := string(content)
	for off := 0; ; {
		i := strings.Index(text[off:], word)
		if i < 0 {
			return ds
		}
		start := off + i
		ds = append(ds, source.Diagnostic{Range: source.R(start, start+len(word)), Severity: sev, Code: code, Message: word})
		off = start + len(word)
	}
}
