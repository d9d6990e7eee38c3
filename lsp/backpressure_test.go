package lsp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// TestBackpressure pipelines requests from a client that does not read
// the answers: the server owes at most maxOwed of them, refuses the next
// with ServerCancelled and then stops reading, so the backlog waits in the
// client's pipe. Once the client reads, every request is answered and the
// memory of the burst is returned.
func TestBackpressure(t *testing.T) {
	const limit, n = 8, 200
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := newServer(ctx, Options{Logger: slog.New(slog.DiscardHandler)})
	saturated, freed := make(chan struct{}), make(chan struct{})
	var once, freeOnce sync.Once
	s.hooks.maxOwed = limit
	s.hooks.saturated = func() { once.Do(func() { close(saturated) }) }
	s.hooks.freed = func() { freeOnce.Do(func() { close(freed) }) }
	serverEnd, clientEnd := net.Pipe()
	go s.run(serverEnd)
	client := jsonrpc2.NewStream(clientEnd)
	defer client.Close()

	write := func(id int64, method string, params string) {
		if _, err := client.Write(ctx, jsonrpc2.NewCall(jsonrpc2.NewNumberID(id), method, jsonrpc2.RawMessage(params))); err != nil {
			t.Errorf("write: %v", err)
		}
	}
	write(0, protocol.MethodInitialize, `{"capabilities":{}}`)
	if msg, _, err := client.Read(ctx); err != nil {
		t.Fatal(err)
	} else if _, ok := msg.(*jsonrpc2.Response); !ok {
		t.Fatalf("want the initialize response, got %T", msg)
	}
	go func() {
		for i := 1; i <= n; i++ {
			write(int64(i), protocol.MethodTextDocumentHover, `{"textDocument":{"uri":"file:///nothing.yaml"},"position":{"line":0,"character":0}}`)
		}
	}()
	select {
	case <-saturated:
	case <-time.After(waitTimeout):
		t.Fatal("the server never refused a request")
	}
	if owed := s.owed.Load(); owed > limit {
		t.Errorf("%d answers owed, the bound is %d", owed, limit)
	}
	busy := 0
	for answered := 0; answered < n; {
		msg, _, err := client.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		r, ok := msg.(*jsonrpc2.Response)
		if !ok {
			continue // a notification
		}
		answered++
		var je *jsonrpc2.Error
		if errors.As(r.Err(), &je) && je.Code == jsonrpc2.Code(protocol.LSPErrorCodesServerCancelled) {
			busy++
			if want := fmt.Sprintf("server busy: %d requests are waiting for their answers to be read; send it again later", limit); je.Message != want {
				t.Errorf("message %q, want %q", je.Message, want)
			}
		}
	}
	if busy == 0 || busy == n {
		t.Errorf("%d of %d requests refused", busy, n)
	}
	select {
	case <-freed:
	case <-time.After(waitTimeout):
		t.Fatal("memory was not returned after the burst")
	}
}
