package lsp

import (
	"context"
	"fmt"
	"reflect"
	"runtime/debug"
	"sync/atomic"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// maxOwed bounds the requests whose answers are not yet written
// (docs/security.md): a client that pipelines requests without reading
// the answers made the server hold them all (1.8 GB for 100,000). Past the
// bound a request is answered at once with ServerCancelled, on the read
// loop, so that when even that answer cannot be written the server stops
// reading: the backlog stays in the client's pipe, not in our memory.
const maxOwed = 1000

// owedStream wraps the connection's stream to count answers written: an
// answer owed is paid when its response is written, not when its handler
// returns, since a response the client does not read waits in the writer.
type owedStream struct {
	jsonrpc2.Stream
	s *server
}

// Write implements jsonrpc2.Stream. Messages the server starts (calls and
// notifications to the client) pay nothing; anything else is a response.
func (w owedStream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	n, err := w.Stream.Write(ctx, msg)
	if !serverInitiated(msg) {
		w.s.paid()
	}
	return n, err
}

// serverInitiated reports whether msg is a call or notification the
// server sends (jsonrpc2 writes its own as unexported wire types).
func serverInitiated(msg jsonrpc2.Message) bool {
	switch msg.(type) {
	case *jsonrpc2.Call, *jsonrpc2.Notification:
		return true
	}
	switch reflect.TypeOf(msg).Name() {
	case "callWire", "notificationWire":
		return true
	}
	return false
}

// owe records a request's answer as owed; false when too many are, and
// the request must be refused.
func (s *server) owe() bool {
	n := s.owed.Add(1)
	if int(n) > s.maxOwed() {
		s.owed.Add(-1)
		s.busy.Store(true)
		if s.hooks.saturated != nil {
			s.hooks.saturated()
		}
		return false
	}
	return true
}

// paid records an answer written. After a burst that hit the bound, the
// last answer returns the memory it took to the operating system.
func (s *server) paid() {
	for {
		n := s.owed.Load()
		if n == 0 {
			break // an answer never owed: a refusal, an ordered method's
		}
		if s.owed.CompareAndSwap(n, n-1) {
			break
		}
	}
	if s.owed.Load() == 0 && s.busy.CompareAndSwap(true, false) {
		s.goSafe("free memory", func() {
			debug.FreeOSMemory()
			if s.hooks.freed != nil {
				s.hooks.freed()
			}
		})
	}
}

func (s *server) maxOwed() int {
	if s.hooks.maxOwed > 0 {
		return s.hooks.maxOwed
	}
	return maxOwed
}

// errBusy answers a request past the bound.
func (s *server) errBusy() error {
	return jsonrpc2.NewError(jsonrpc2.Code(protocol.LSPErrorCodesServerCancelled),
		fmt.Sprintf("server busy: %d requests are waiting for their answers to be read; send it again later", s.maxOwed()))
}

// atomicCounters are the server's backpressure state.
type atomicCounters struct {
	owed atomic.Int64
	busy atomic.Bool // the bound was hit since owed was last zero
}
