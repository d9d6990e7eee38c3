package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"
)

// message is one JSON-RPC 2.0 message in either direction.
type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *rpcError) Error() string { return fmt.Sprintf("%d: %s", e.Code, e.Message) }

// received is a message with the time it was read in full.
type received struct {
	msg *message
	at  time.Time
}

// conn is the client end of a language server's stdio: requests with
// responses matched by id, notifications queued with their arrival time,
// and the server's own requests answered at once.
type conn struct {
	w   io.Writer
	wmu sync.Mutex

	mu      sync.Mutex
	nextID  int
	pending map[int]chan received
	closed  error

	notes chan received // server notifications, in order
	done  chan struct{} // closed when the read loop ends
}

func newConn(r io.Reader, w io.Writer) *conn {
	c := &conn{w: w, pending: map[int]chan received{}, notes: make(chan received, 1<<16), done: make(chan struct{})}
	go c.readLoop(bufio.NewReaderSize(r, 1<<20))
	return c
}

// readFrame reads one Content-Length framed body.
func readFrame(r *bufio.Reader) ([]byte, error) {
	length := -1
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return nil, err
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			break
		}
		name, value, ok := strings.Cut(line, ":")
		if ok && strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			n, err := strconv.Atoi(strings.TrimSpace(value))
			if err != nil || n < 0 {
				return nil, fmt.Errorf("bad Content-Length %q", value)
			}
			length = n
		}
	}
	if length < 0 {
		return nil, errors.New("frame without Content-Length")
	}
	body := make([]byte, length)
	_, err := io.ReadFull(r, body)
	return body, err
}

func (c *conn) readLoop(r *bufio.Reader) {
	defer close(c.done)
	defer func() {
		if p := recover(); p != nil {
			c.fail(fmt.Errorf("reading from the server: panic: %v", p))
		}
	}()
	for {
		body, err := readFrame(r)
		if err != nil {
			c.fail(fmt.Errorf("reading from the server: %w", err))
			return
		}
		at := time.Now()
		var m message
		if err := json.Unmarshal(body, &m); err != nil {
			c.fail(fmt.Errorf("server sent invalid JSON: %w", err))
			return
		}
		switch {
		case m.Method != "" && len(m.ID) > 0:
			c.answer(&m)
		case m.Method != "":
			c.notes <- received{&m, at}
		default:
			id, err := strconv.Atoi(string(m.ID))
			if err != nil {
				continue // not one of ours (we only send integer ids)
			}
			c.mu.Lock()
			ch := c.pending[id]
			delete(c.pending, id)
			c.mu.Unlock()
			if ch != nil {
				ch <- received{&m, at}
			}
		}
	}
}

func (c *conn) fail(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = err
	for id, ch := range c.pending {
		close(ch)
		delete(c.pending, id)
	}
}

// answer replies to a request from the server: workspace/configuration
// with an empty object per item (every setting at its default), anything
// else (registerCapability, progress, refresh) with null.
func (c *conn) answer(m *message) {
	var result any
	if m.Method == "workspace/configuration" {
		var p struct {
			Items []json.RawMessage `json:"items"`
		}
		_ = json.Unmarshal(m.Params, &p)
		items := make([]map[string]any, len(p.Items))
		for i := range items {
			items[i] = map[string]any{}
		}
		result = items
	}
	res, _ := json.Marshal(result)
	_, _ = c.write(&message{JSONRPC: "2.0", ID: m.ID, Result: res})
}

func (c *conn) write(m *message) (time.Time, error) {
	body, err := json.Marshal(m)
	if err != nil {
		return time.Time{}, err
	}
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "Content-Length: %d\r\n\r\n", len(body))
	buf.Write(body)
	c.wmu.Lock()
	defer c.wmu.Unlock()
	// The clock starts when the bytes start to go out: encoding a large
	// didOpen (json.Marshal checks the 4.5 MB text once more) is the
	// client's time, not the server's.
	at := time.Now()
	_, err = c.w.Write(buf.Bytes())
	return at, err
}

// notify sends a notification and returns when it was written.
func (c *conn) notify(method string, params any) (time.Time, error) {
	p, err := json.Marshal(params)
	if err != nil {
		return time.Time{}, err
	}
	return c.write(&message{JSONRPC: "2.0", Method: method, Params: p})
}

// call sends a request and waits for its response (at most timeout). It
// returns the result, the time the request was written and the time the
// response was read.
func (c *conn) call(method string, params any, timeout time.Duration) (json.RawMessage, time.Time, time.Time, error) {
	p, err := json.Marshal(params)
	if err != nil {
		return nil, time.Time{}, time.Time{}, err
	}
	ch := make(chan received, 1)
	c.mu.Lock()
	if c.closed != nil {
		c.mu.Unlock()
		return nil, time.Time{}, time.Time{}, c.closed
	}
	c.nextID++
	id := c.nextID
	c.pending[id] = ch
	c.mu.Unlock()
	sent, err := c.write(&message{JSONRPC: "2.0", ID: json.RawMessage(strconv.Itoa(id)), Method: method, Params: p})
	if err != nil {
		return nil, sent, time.Time{}, err
	}
	select {
	case r, ok := <-ch:
		if !ok {
			return nil, sent, time.Time{}, fmt.Errorf("%s: connection closed: %w", method, c.closed)
		}
		if r.msg.Error != nil {
			return nil, sent, r.at, fmt.Errorf("%s: %w", method, r.msg.Error)
		}
		return r.msg.Result, sent, r.at, nil
	case <-time.After(timeout):
		c.mu.Lock()
		delete(c.pending, id)
		c.mu.Unlock()
		return nil, sent, time.Time{}, fmt.Errorf("%s: no answer within %s", method, timeout)
	}
}

// next returns the next notification of method (others are dropped), or
// an error after timeout.
func (c *conn) next(method string, timeout time.Duration) (received, error) {
	deadline := time.After(timeout)
	for {
		select {
		case r := <-c.notes:
			if r.msg.Method == method {
				return r, nil
			}
		case <-c.done:
			return received{}, fmt.Errorf("waiting for %s: the server closed its output", method)
		case <-deadline:
			return received{}, fmt.Errorf("no %s within %s", method, timeout)
		}
	}
}

// drain drops the notifications already queued.
func (c *conn) drain() {
	for {
		select {
		case <-c.notes:
		default:
			return
		}
	}
}
