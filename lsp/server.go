package lsp

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// Options configure a server.
type Options struct {
	// Logger receives the server's log; nil discards it. It must not write
	// to the protocol stream.
	Logger *slog.Logger
	// Version is reported in serverInfo.
	Version string
	// Analyzer replaces the production analyzer; nil means the default.
	Analyzer Analyzer
	// PaceCollector lets the server hold the collector off during the
	// first analysis of a large document (gcpace.go): set by a server
	// that owns its process and whose environment leaves the pacing to
	// it (no GOGC or GOMEMLIMIT).
	PaceCollector bool
}

// Lifecycle states, in order.
const (
	stateNew         int32 = iota // before initialize
	stateInitialized              // initialize answered
	stateShutdown                 // shutdown answered; only exit is accepted
)

// server is one language-server connection. Its exported-looking methods
// (Initialize, DidOpen, FoldingRanges, ...) implement protocol.Server and
// are reached through protocol.ServerHandler, either in order from the
// preempter or concurrently from the handler (see dispatch.go).
type server struct {
	protocol.UnimplementedServer

	opts     Options
	log      *slog.Logger
	conn     jsonrpc2.Conn
	client   protocol.Client
	dispatch jsonrpc2.Handler // protocol.ServerHandler over this server

	// ctx is the server's lifetime; cancelled on exit or disconnect, which
	// cancels in-flight requests, outgoing calls and background work.
	ctx    context.Context
	cancel context.CancelFunc

	session *session
	diags   *diagnostics
	tokens  *tokenResults // semantic token arrays sent, for deltas
	files   *fileIndex    // workspace blueprints, for workspace/symbol

	state    atomic.Int32
	shutdown atomic.Bool // shutdown was requested before exit

	// Fixed during initialize, before any document can arrive; read-only
	// afterwards.
	enc      source.Encoding
	caps     clientCaps
	initOpts *Settings

	inflightMu sync.Mutex
	inflight   map[jsonrpc2.ID]context.CancelFunc

	exitOnce sync.Once
	exited   chan struct{}

	bg sync.WaitGroup // background goroutines (goSafe)

	pacedMu sync.Mutex
	paced   map[string]func() // by URI: the paceOpen of each large text open

	atomicCounters // answers owed, for backpressure (backpressure.go)

	hooks testHooks
}

// testHooks let tests inject behaviour; all nil in production.
type testHooks struct {
	// methods are extra request handlers by method name.
	methods map[string]func(ctx context.Context, s *server, params []byte) (any, error)
	// settled is called when the full diagnostics phase for a version has
	// finished (whether or not anything was published); seq identifies
	// the snapshot, count is the number of publishDiagnostics sent for the
	// document so far.
	settled func(uri string, version int32, seq uint64, count int)
	// maxOwed replaces the bound of backpressure.go; saturated is called
	// when a request is refused for it, freed when memory was returned
	// after such a burst.
	maxOwed          int
	saturated, freed func()
}

// Serve runs a language server over rwc (stdio, a socket, a pipe) until
// the client sends exit or disconnects. The exit code follows the LSP
// rule: 0 if shutdown preceded exit, 1 otherwise.
func Serve(ctx context.Context, rwc io.ReadWriteCloser, opts Options) (exitCode int, err error) {
	s := newServer(ctx, opts)
	return s.run(rwc)
}

func newServer(ctx context.Context, opts Options) *server {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	a := opts.Analyzer
	if a == nil {
		a = defaultAnalyzer{}
	}
	s := &server{opts: opts, log: log, inflight: map[jsonrpc2.ID]context.CancelFunc{}, exited: make(chan struct{})}
	s.ctx, s.cancel = context.WithCancel(ctx)
	s.session = newSession(s.ctx, a, log)
	s.diags = newDiagnostics(s)
	s.tokens = newTokenResults()
	s.files = newFileIndex()
	s.dispatch = protocol.ServerHandler(s, nil)
	return s
}

func (s *server) run(rwc io.ReadWriteCloser) (int, error) {
	s.conn = jsonrpc2.NewConn(owedStream{newFrameStream(rwc, s.log), s},
		jsonrpc2.WithCodec(codec{}),
		jsonrpc2.WithPreempter(preempter{s}))
	s.client = protocol.ClientDispatcher(s.conn)
	s.conn.Go(s.ctx, s.handle)

	select {
	case <-s.conn.Done():
		s.log.Info("client disconnected")
	case <-s.exited:
		s.log.Info("exit")
	case <-s.ctx.Done():
		// Serve's context ended (the process was told to stop: SIGTERM,
		// an interrupt) while the client kept the connection open, or
		// flooded it: stop as exit would, without waiting for the input
		// to end.
		s.log.Info("stopped", "reason", context.Cause(s.ctx))
	}
	s.cancel()
	s.diags.stop()
	closeErr := s.closeConn()
	s.bg.Wait()
	s.pacedCloseAll()
	err := s.conn.Err()
	if err == nil && closeErr != nil && !errors.Is(closeErr, io.ErrClosedPipe) {
		err = closeErr
	}
	if s.shutdown.Load() {
		return 0, err
	}
	return 1, err
}

// closeWait bounds how long run waits for the connection to close. Closing
// waits for the read loop, and a read blocked on a stdin that cannot be
// interrupted (a blocking pipe) only ends when the client closes it; after
// exit the process must end anyway.
const closeWait = time.Second

// closeConn closes the connection, giving up after closeWait.
func (s *server) closeConn() error {
	done := make(chan error, 1)
	go func() { done <- s.conn.Close() }()
	select {
	case err := <-done:
		return err
	case <-time.After(closeWait):
		s.log.Debug("connection did not close in time; leaving it")
		return nil
	}
}

// goSafe runs f on a background goroutine that recovers (and logs) a
// panic, and that run waits for before returning.
func (s *server) goSafe(name string, f func()) {
	s.bg.Add(1)
	go func() {
		defer s.bg.Done()
		defer s.recoverLog(name)
		f()
	}()
}

func (s *server) recoverLog(what string) {
	if r := recover(); r != nil {
		s.log.Error("panic", "in", what, "panic", r, "stack", stack())
	}
}

// logClient forwards a message to the client's log as well as ours.
func (s *server) logClient(level slog.Level, msg string) {
	s.log.Log(s.ctx, level, msg)
	t := protocol.MessageTypeLog
	switch {
	case level >= slog.LevelError:
		t = protocol.MessageTypeError
	case level >= slog.LevelWarn:
		t = protocol.MessageTypeWarning
	case level >= slog.LevelInfo:
		t = protocol.MessageTypeInfo
	}
	_ = s.client.LogMessage(s.ctx, &protocol.LogMessageParams{Type: t, Message: msg})
}
