package lsp

import (
	"context"
	"fmt"
	"runtime/debug"
	"sync"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// ordered lists the methods handled inline on the read loop, in arrival
// order, before any later message is looked at: lifecycle, text and
// configuration sync, and cancellation. They only update state and
// schedule work, so they never block the loop for long. Everything else
// runs concurrently in handle on the snapshot current at its arrival.
var ordered = map[string]bool{
	protocol.MethodInitialize:                         true,
	protocol.MethodInitialized:                        true,
	protocol.MethodShutdown:                           true,
	protocol.MethodExit:                               true,
	protocol.MethodCancelRequest:                      true,
	protocol.MethodTextDocumentDidOpen:                true,
	protocol.MethodTextDocumentDidChange:              true,
	protocol.MethodTextDocumentDidClose:               true,
	protocol.MethodTextDocumentDidSave:                true,
	protocol.MethodWorkspaceDidChangeConfiguration:    true,
	protocol.MethodWorkspaceDidChangeWatchedFiles:     true,
	protocol.MethodWorkspaceDidChangeWorkspaceFolders: true,
	protocol.MethodSetTrace:                           true,
}

// answeredNull tells jsonrpc2 the preempter handled a message: a
// notification needs no answer, a call gets a null result. (A nil result
// with a nil error would pass the message on to the handler.)
var answeredNull = jsonrpc2.RawMessage("null")

var (
	errNotInitialized = jsonrpc2.NewError(jsonrpc2.ServerNotInitialized, "server not initialized")
	errShutDown       = jsonrpc2.NewError(jsonrpc2.InvalidRequest, "server is shutting down")
)

type preempter struct{ s *server }

func (p preempter) Preempt(ctx context.Context, req *jsonrpc2.Request) (any, error) {
	return p.s.preempt(ctx, req)
}

// preempt runs on the read loop for every incoming message. It enforces
// the lifecycle (nothing before initialize, nothing but exit after
// shutdown) and handles the ordered methods.
func (s *server) preempt(ctx context.Context, req *jsonrpc2.Request) (result any, err error) {
	method := req.Method()
	defer func() {
		if r := recover(); r != nil {
			s.log.Error("panic", "method", method, "panic", r, "stack", stack())
			result, err = nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "internal error in %s: %v", method, r)
			if !req.IsCall() {
				result, err = answeredNull, nil
			}
		}
	}()

	switch method {
	case protocol.MethodExit:
		s.exit()
		return answeredNull, nil
	case protocol.MethodCancelRequest:
		s.cancelRequest(req.Params())
		return answeredNull, nil
	}

	switch s.state.Load() {
	case stateNew:
		if method != protocol.MethodInitialize {
			if req.IsCall() {
				return nil, errNotInitialized
			}
			return answeredNull, nil // notifications before initialize are dropped
		}
		return s.initialize(req.Params())
	case stateShutdown:
		if req.IsCall() {
			return nil, errShutDown
		}
		return answeredNull, nil
	}
	if method == protocol.MethodInitialize {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "initialize sent twice")
	}
	if !ordered[method] {
		return nil, jsonrpc2.ErrNotHandled
	}
	if method == protocol.MethodWorkspaceDidChangeConfiguration {
		// Settings arrive in any shape; parse them leniently ourselves.
		s.didChangeConfiguration(req.Params())
		return answeredNull, nil
	}

	if method == protocol.MethodTextDocumentDidOpen && !req.IsCall() {
		decode := decodeDidOpen
		if frameOwned(len(req.Params())) {
			decode = decodeDidOpenOwned // the text is decoded over the frame's own buffer
		}
		if p, text, ok := decode(req.Params()); ok {
			s.open(&p.TextDocument, text)
			return answeredNull, nil
		}
	}
	res, err := s.dispatch(ctx, req)
	if !req.IsCall() {
		if err != nil {
			s.log.Warn("notification failed", "method", method, "err", err)
		}
		return answeredNull, nil
	}
	if err != nil {
		return nil, err
	}
	if res == nil {
		return answeredNull, nil
	}
	return res, nil
}

// requestKey carries a *requestState in a request's context.
type requestKey struct{}

// requestState is what a concurrent request sees: the view current when it
// arrived, and the snapshots it read (to detect that one was superseded
// before it answered).
type requestState struct {
	view *view
	mu   sync.Mutex
	used []*Snapshot
}

func (rs *requestState) use(snap *Snapshot) {
	rs.mu.Lock()
	rs.used = append(rs.used, snap)
	rs.mu.Unlock()
}

func (rs *requestState) stale() bool {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	for _, snap := range rs.used {
		if snap.superseded() {
			return true
		}
	}
	return false
}

// handle receives every message the preempter passed on. A call is
// registered for cancellation and given the current view while still on
// the read loop (so it sees every earlier edit and none of the later
// ones), then released to run concurrently.
func (s *server) handle(ctx context.Context, req *jsonrpc2.Request) (any, error) {
	if !req.IsCall() {
		// Unordered notifications ($/progress, unknown ones) have no
		// answer, and an error here would fail the connection.
		if _, err := s.safeDispatch(ctx, req); err != nil {
			s.log.Debug("notification ignored", "method", req.Method(), "err", err)
		}
		return nil, nil
	}
	if !s.owe() {
		return nil, s.errBusy() // answered on the read loop: see backpressure.go
	}
	id := req.ID()
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	rs := &requestState{view: s.session.current()}
	rctx = context.WithValue(rctx, requestKey{}, rs)

	s.inflightMu.Lock()
	s.inflight[id] = cancel
	s.inflightMu.Unlock()
	defer func() {
		s.inflightMu.Lock()
		delete(s.inflight, id)
		s.inflightMu.Unlock()
	}()

	jsonrpc2.Async(ctx)

	res, err := s.safeDispatch(rctx, req)
	if rctx.Err() != nil {
		return nil, protocol.ErrRequestCancelled
	}
	if err == nil && rs.stale() {
		return nil, protocol.ErrContentModified
	}
	return res, err
}

// safeDispatch decodes and runs one request; a panic becomes an
// InternalError answer and a log line, never a dead connection.
func (s *server) safeDispatch(ctx context.Context, req *jsonrpc2.Request) (res any, err error) {
	method := req.Method()
	defer func() {
		if r := recover(); r != nil {
			s.log.Error("panic", "method", method, "panic", r, "stack", stack())
			res, err = nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "internal error in %s: %v", method, r)
		}
	}()
	return s.dispatch(ctx, req)
}

// Request receives every method protocol.Server has no typed method for.
func (s *server) Request(ctx context.Context, method string, params any) (any, error) {
	if h := s.hooks.methods[method]; h != nil {
		raw, _ := params.(protocol.LSPAny)
		return h(ctx, s, raw)
	}
	return nil, jsonrpc2.NewError(jsonrpc2.MethodNotFound, "method not found: "+method)
}

// cancelRequest handles $/cancelRequest; the id may be a number or a
// string. Unknown ids (already answered) are ignored.
func (s *server) cancelRequest(raw []byte) {
	var p protocol.CancelParams
	if err := protocol.Unmarshal(raw, &p); err != nil {
		s.log.Debug("malformed $/cancelRequest", "err", err)
		return
	}
	var id jsonrpc2.ID
	switch v := p.ID.(type) {
	case protocol.Integer:
		id = jsonrpc2.NewNumberID(int64(v))
	case protocol.String:
		id = jsonrpc2.NewStringID(string(v))
	default:
		return
	}
	s.inflightMu.Lock()
	cancel := s.inflight[id]
	s.inflightMu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// snapshot returns the snapshot of uri a request should read: the one
// current when the request arrived. It records the use so that the answer
// becomes ContentModified if the document changes before it is sent.
func (s *server) snapshot(ctx context.Context, uri string) (*Snapshot, error) {
	rs, _ := ctx.Value(requestKey{}).(*requestState)
	v := s.session.current()
	if rs != nil {
		v = rs.view
	}
	snap := v.snapshot(uri)
	if snap == nil {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("document not open: %s", uri))
	}
	if rs != nil {
		rs.use(snap)
	}
	return snap, nil
}

func stack() string { return string(debug.Stack()) }

// invalidParams wraps a problem with a request's parameters (a position
// outside the document, ...).
func invalidParams(err error) error {
	return jsonrpc2.NewError(jsonrpc2.InvalidParams, err.Error())
}
