package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
)

// frame is one well-formed LSP frame around body.
func frame(body string) string {
	return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body)
}

// readAll runs a frameReader over input to its end: each body read, and
// each problem as "!code id".
func readAll(t testing.TB, input string) (out []string, end error) {
	f := newFrameReader(strings.NewReader(input))
	for range 10000 {
		body, p, err := f.next()
		switch {
		case err != nil:
			return out, err
		case p != nil:
			out = append(out, fmt.Sprintf("!%d %s", p.code, p.id))
		default:
			out = append(out, string(body))
			f.quiet = !json.Valid(body) // as frameStream does
		}
	}
	t.Fatalf("no end after 10000 frames")
	return nil, nil
}

const (
	reqBody  = `{"jsonrpc":"2.0","id":1,"method":"shutdown"}`
	req2Body = `{"jsonrpc":"2.0","id":"b","method":"x","params":{"text":"Content-Length: 3\n"}}`
)

func TestFrameReader(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  []string
		end   error
	}{
		{"two frames", frame(reqBody) + frame(req2Body), []string{reqBody, req2Body}, io.EOF},
		{"case and unknown headers", "content-length: 44\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\nX-Trace: 1\r\n\r\n" + reqBody, []string{reqBody}, io.EOF},
		{"bare line feeds", "Content-Length: 44\n\n" + reqBody + "\r\n" + frame(reqBody), []string{reqBody, reqBody}, io.EOF},
		{"length says more than was sent", "Content-Length: 500\r\n\r\n" + `{"jsonrpc":"2.0","id":9,"method":"a"}` + frame(reqBody),
			[]string{"!-32700 9", reqBody}, io.EOF},
		{"length says less than was sent", "Content-Length: 10\r\n\r\n" + req2Body + frame(reqBody),
			// the body's first ten bytes; the rest is its tail, skipped quietly
			[]string{`{"jsonrpc"`, reqBody}, io.EOF},
		{"no header", reqBody + frame(reqBody), []string{"!-32700 ", reqBody}, io.EOF},
		{"no header, body with the key in a string", req2Body + "\n" + frame(reqBody), []string{"!-32700 ", reqBody}, io.EOF},
		{"header without Content-Length", "Content-Type: x\r\n\r\n" + reqBody + frame(reqBody), []string{"!-32700 ", reqBody}, io.EOF},
		{"length not a number", "Content-Length: ten\r\n\r\n" + reqBody + frame(reqBody), []string{"!-32700 ", reqBody}, io.EOF},
		{"length zero", "Content-Length: 0\r\n\r\n" + frame(reqBody), []string{"!-32700 ", reqBody}, io.EOF},
		{"length negative", "Content-Length: -4\r\n\r\n" + frame(reqBody), []string{"!-32700 ", reqBody}, io.EOF},
		{"huge length", "Content-Length: 99999999999\r\n\r\n" + `{"jsonrpc":"2.0","id":"big","method":"a","params":"` + strings.Repeat("x", 100) + "\"}" + frame(reqBody),
			[]string{`!-32700 "big"`, reqBody}, io.EOF},
		{"malformed header line", "Content-Length 44\r\n\r\n" + reqBody + frame(reqBody), []string{"!-32700 ", reqBody}, io.EOF},
		{"header without its blank line", "Content-Length: 44\r\n" + strings.Repeat("X-A: b\r\n", 1000) + frame(reqBody), []string{"!-32700 ", reqBody}, io.EOF},
		{"binary garbage", "\x00\xff\x1b[2J\"\\" + "\n" + frame(reqBody), []string{"!-32700 ", reqBody}, io.EOF},
		{"end inside a header", "Content-Length: 44\r\n", nil, io.ErrUnexpectedEOF},
		{"end inside a body", "Content-Length: 44\r\n\r\n{", nil, io.ErrUnexpectedEOF},
		{"end in garbage", frame(reqBody) + "garbage", []string{reqBody}, io.ErrUnexpectedEOF},
		{"empty", "", nil, io.EOF},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, end := readAll(t, tt.input)
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("frames:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			if !errors.Is(end, tt.end) {
				t.Errorf("end %v, want %v", end, tt.end)
			}
		})
	}
}

// A header split across reads, and a header key split across the buffer's
// refills inside a body, are found all the same.
func TestFrameReaderSmallReads(t *testing.T) {
	input := "Content-Length: 500\r\n\r\n" + `{"jsonrpc":"2.0","id":9,"method":"a"}` + frame(reqBody) + frame(req2Body)
	f := newFrameReader(&oneByteReader{strings.NewReader(input)})
	var got []string
	for {
		body, p, err := f.next()
		if err != nil {
			break
		}
		if p != nil {
			got = append(got, fmt.Sprintf("!%d %s", p.code, p.id))
			continue
		}
		got = append(got, string(body))
	}
	want := []string{"!-32700 9", reqBody, req2Body}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("frames:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

type oneByteReader struct{ r io.Reader }

func (o *oneByteReader) Read(p []byte) (int, error) {
	if len(p) > 1 {
		p = p[:1]
	}
	return o.r.Read(p)
}

func TestRecoverID(t *testing.T) {
	tests := []struct{ body, want string }{
		{`{"jsonrpc":"2.0","id":12,"method":"x","params":{`, "12"},
		{`{"id":"a\"b","method":"x"`, `"a\"b"`},
		{`{"method":"x","params":[1,2],"id":3}`, "3"},
		{`{"id":4,"result":{}}`, ""}, // a response is never answered
		{`{"id":{"x":1},"method":"x"}`, ""},
		{`{"id":null,"method":"x"}`, ""},
		{`[{"id":1}]`, ""},
		{`{"jsonrpc":"2.0",` + "\x00", ""},
		{`not json`, ""},
	}
	for _, tt := range tests {
		if got := string(recoverID([]byte(tt.body))); got != tt.want {
			t.Errorf("recoverID(%s) = %q, want %q", tt.body, got, tt.want)
		}
	}
}

// rawServer runs a server over a pipe whose client end the test writes raw
// bytes to and reads framed answers from.
func rawServer(t *testing.T) (write func(string), read func() *jsonrpc2.Response, done <-chan struct{}) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	s := newServer(ctx, Options{Logger: slog.New(slog.DiscardHandler)})
	serverEnd, clientEnd := net.Pipe()
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		s.run(serverEnd)
	}()
	client := jsonrpc2.NewStream(clientEnd)
	t.Cleanup(func() {
		clientEnd.Close()
		<-ended
		cancel()
	})
	write = func(b string) {
		go func() { _, _ = io.WriteString(clientEnd, b) }()
	}
	read = func() *jsonrpc2.Response {
		t.Helper()
		_ = clientEnd.SetReadDeadline(time.Now().Add(waitTimeout))
		for {
			msg, _, err := client.Read(ctx)
			if err != nil {
				t.Fatalf("read: %v", err)
			}
			if r, ok := msg.(*jsonrpc2.Response); ok {
				return r
			}
		}
	}
	return write, read, ended
}

func errOf(r *jsonrpc2.Response) string {
	var e *jsonrpc2.Error
	if !errors.As(r.Err(), &e) {
		return fmt.Sprintf("%v ok", r.ID())
	}
	return fmt.Sprintf("%v %d", r.ID(), e.Code)
}

// Two frames whose bodies are not JSON, then a valid request: the first
// two are answered Parse error, the request is answered, and the server
// keeps serving.
func TestGarbageFramesThenRequest(t *testing.T) {
	write, read, done := rawServer(t)
	write(frame("this is not json") + frame(`{"jsonrpc":"2.0","id":5,"method":"initialize","params":{`) +
		frame(`{"jsonrpc":"2.0","id":6,"method":"initialize","params":{"capabilities":{}}}`))
	for _, want := range []string{"null -32700", "5 -32700", "6 ok"} {
		if got := errOf(read()); got != want {
			t.Errorf("answer %s, want %s", got, want)
		}
	}
	// Every breakage kind, each followed by a request that is answered.
	breakages := []string{
		"Content-Length: 900\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":70,\"method\":\"shutdown\"}",
		"{\"jsonrpc\":\"2.0\",\"id\":71}",
		"Content-Length: 999999999999\r\n\r\n{\"id\":72,",
		"Content-Length: 2\r\nX-Unknown: yes\r\n\r\n{}",
		"Garbage\r\n\r\n",
		frame(`[1,2]`),
		frame(`{"jsonrpc":"2.0","id":73}`) + "\r\n",
	}
	wants := []string{"70 -32700", "null -32700", "72 -32700", "null -32600", "null -32700", "null -32600", "73 -32600"}
	for i, b := range breakages {
		write(b + "\n" + frame(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"workspace/symbol","params":{"query":""}}`, 100+i)))
		if got := errOf(read()); got != wants[i] {
			t.Errorf("breakage %d: answer %s, want %s", i, got, wants[i])
		}
		if got, want := errOf(read()), fmt.Sprintf("%d ok", 100+i); got != want {
			t.Errorf("breakage %d: then %s, want %s", i, got, want)
		}
	}
	select {
	case <-done:
		t.Fatal("the server ended")
	default:
	}
}

// FuzzFrameReader feeds arbitrary bytes, then a line break and a
// well-formed frame. The reader ends (the input is finite), never panics,
// and unless the garbage declares a frame of its own that frame is the
// last one read, exactly.
func FuzzFrameReader(f *testing.F) {
	for _, s := range []string{"", "garbage", "Content-Length: 5\r\n\r\n{", "Content-Length: 99\r\n\r\n{}", "{\"a\":\"", "\x00\xff\r\n\r\n", "X: y", frame(reqBody)} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, garbage []byte) {
		got, end := readAll(t, string(garbage)+"\r\n"+frame(reqBody))
		if end != io.EOF && end != io.ErrUnexpectedEOF {
			t.Fatalf("end %v", end)
		}
		if bytes.Contains(bytes.ToLower(garbage), []byte("content-length")) {
			return
		}
		if end != io.EOF || len(got) == 0 || got[len(got)-1] != reqBody {
			t.Fatalf("the frame after the garbage was not read: %q, end %v", got, end)
		}
	})
}

// BenchmarkFrameReader reads a 1 MiB didChange-sized frame: the header
// scan runs over every body byte.
func BenchmarkFrameReader(b *testing.B) {
	body := `{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"text":"` + strings.Repeat(`resources:\n  a:\n    type: \"aws/sqs/queue\"\n`, 1<<20/46) + `"}}`
	input := frame(body)
	b.SetBytes(int64(len(input)))
	for b.Loop() {
		f := newFrameReader(strings.NewReader(input))
		if got, _, err := f.next(); err != nil || len(got) != len(body) {
			b.Fatal(err)
		}
	}
}

// TestHeaderScanSkipsAsSteps holds headerScan.scan, which skips a
// string's quiet bytes and escape pairs eight at a time, to stepping
// byte by byte, on random texts of the bytes that matter cut at random.
func TestHeaderScanSkipsAsSteps(t *testing.T) {
	rng := rand.New(rand.NewPCG(36, 1))
	alphabet := []byte("\"\\\nxcC-:ontelgh Content-Length:")
	for range 3000 {
		p := make([]byte, rng.IntN(80))
		for i := range p {
			p[i] = alphabet[rng.IntN(len(alphabet))]
		}
		var fast, slow headerScan
		for off := 0; off < len(p); {
			end := min(len(p), off+1+rng.IntN(24))
			want := -1
			for i := off; i < end; i++ {
				if slow.step(p[i]) {
					want = i + 1 - off
					break
				}
			}
			got := fast.scan(p[off:end])
			if got != want || fast != slow {
				t.Fatalf("%q, chunk %d..%d: scan %d (state %+v), steps %d (state %+v)", p, off, end, got, fast, want, slow)
			}
			if got >= 0 {
				end = off + got
			}
			off = end
		}
	}
}

// nopCloser is a bytes.Buffer a stream can close.
type nopCloser struct{ *bytes.Buffer }

func (nopCloser) Close() error { return nil }

// TestFrameWriterAsJSONRPC checks that the server writes every kind of
// message byte for byte as jsonrpc2's header stream does, and that a
// message larger than frameKeep leaves no buffer behind.
func TestFrameWriterAsJSONRPC(t *testing.T) {
	ctx := context.Background()
	big := `"` + strings.Repeat("x", 3*frameKeep) + `"`
	msgs := []jsonrpc2.Message{
		jsonrpc2.NewCall(jsonrpc2.NewNumberID(7), "workspace/configuration", jsonrpc2.RawMessage(`{"items":[]}`)),
		jsonrpc2.NewCall(jsonrpc2.NewStringID("a\"b"), "x", nil),
		jsonrpc2.NewNotification("textDocument/publishDiagnostics", jsonrpc2.RawMessage(`{"uri":"file:///a","diagnostics":[]}`)),
		jsonrpc2.NewResponse(jsonrpc2.NewNumberID(1), jsonrpc2.RawMessage(`{"ok":true}`), nil),
		jsonrpc2.NewResponse(jsonrpc2.NewNumberID(2), nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "bad é \"params\"")),
		jsonrpc2.NewResponse(jsonrpc2.NewNumberID(3), jsonrpc2.RawMessage(big), nil),
		jsonrpc2.NewNotification("$/progress", jsonrpc2.RawMessage(`{}`)),
	}
	var ours, theirs bytes.Buffer
	s := newFrameStream(nopCloser{&ours}, slog.New(slog.DiscardHandler))
	js := jsonrpc2.NewHeaderStream(nopCloser{&theirs})
	for i, m := range msgs {
		if _, err := s.Write(ctx, m); err != nil {
			t.Fatal(err)
		}
		if _, err := js.Write(ctx, m); err != nil {
			t.Fatal(err)
		}
		if ours.String() != theirs.String() {
			t.Fatalf("message %d: wrote\n%.300q\nwant\n%.300q", i, ours.String(), theirs.String())
		}
		if cap(s.out.buf) > frameKeep {
			t.Errorf("message %d: a %d-byte buffer kept", i, cap(s.out.buf))
		}
	}
}
