package lsp

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/bits"
	"strconv"
	"sync"

	"go.lsp.dev/jsonrpc2"
)

// The framing reader replaces jsonrpc2's header reader, which ends the
// connection at the first malformed frame. Ours answers a frame it cannot
// use with a JSON-RPC error (Parse error for bytes that are not a
// message, Invalid Request for JSON that is not one), with the request's id
// when one can be read from what arrived and null otherwise, then finds
// the next header and carries on. Only the end of the input (or a failing
// read) ends it.
//
// Finding the next header relies on one fact: the text "Content-Length:"
// cannot occur in a JSON text outside a string, and a JSON string holds no
// raw line feed. A scan that follows strings (and forgets a string at a
// line feed) therefore never cuts a well-formed body, and finds the next
// frame behind a body whose Content-Length says more than was sent, a body
// sent without a header, or the tail of a body whose length said less.

const (
	// maxFrameSize bounds one message body: eight times the document
	// budget (safefs.DefaultDocumentLimit, 8 MiB), room for a document at
	// that budget with every byte escaped. A larger frame is refused
	// without being buffered.
	maxFrameSize = 64 << 20
	// maxHeaderSize bounds a frame's header block.
	maxHeaderSize = 4 << 10
	// frameBufSize is the read buffer; it holds a whole header block.
	frameBufSize = 64 << 10
	// idScanLimit bounds how much of a refused body is read for its id.
	idScanLimit = 4 << 10
)

// headerKey is what starts a frame, compared case-insensitively.
const headerKey = "content-length:"

// frameProblem is a frame the reader could not use: answered with code and
// message, to id (a JSON number or string; nil for null).
type frameProblem struct {
	code jsonrpc2.Code
	msg  string
	id   []byte
}

// frameReader reads LSP frames from src, recovering from malformed ones.
type frameReader struct {
	src  io.Reader
	buf  []byte // buf[r:w] is read but not consumed
	r, w int
	err  error  // the read error that ended src; sticky
	body []byte // the last body returned; valid until the next call
	// quiet is set after a problem was reported and cleared by the next
	// well-formed header: the garbage after a broken frame is its tail,
	// not a second problem.
	quiet bool
}

// frameKeep is the largest body buffer kept for the next frame: larger
// messages (an open, a whole text) are rare, and a buffer kept for them
// stays alive as large as the largest document (issue 36).
const frameKeep = 64 << 10

// frameOwned reports whether a body of n bytes, or a message whose
// params are n bytes, is in a buffer of its own: one that the reader
// never reads into again and that nothing reads once the message is
// handled, so its handler may decode over it (decodeDidOpenOwned).
func frameOwned(n int) bool { return n > frameKeep }

func newFrameReader(src io.Reader) *frameReader {
	return &frameReader{src: src, buf: make([]byte, frameBufSize)}
}

// fill reads more bytes into the buffer, first moving the unconsumed bytes
// to its front. It reports false when src has ended.
func (f *frameReader) fill() bool {
	if f.err != nil {
		return false
	}
	if f.r > 0 {
		f.w = copy(f.buf, f.buf[f.r:f.w])
		f.r = 0
	}
	if f.w == len(f.buf) {
		f.buf = append(f.buf, make([]byte, len(f.buf))...)
	}
	for {
		n, err := f.src.Read(f.buf[f.w:])
		f.w += n
		if err != nil {
			f.err = err
			return n > 0
		}
		if n > 0 {
			return true
		}
	}
}

// endErr is the error that ends the stream: io.EOF at a frame boundary,
// io.ErrUnexpectedEOF inside one, or src's own error.
func (f *frameReader) endErr(mid bool) error {
	if errors.Is(f.err, io.EOF) && mid {
		return io.ErrUnexpectedEOF
	}
	return f.err
}

// next returns the next frame's body, or a problem to answer (body nil),
// or the error that ended the input.
func (f *frameReader) next() ([]byte, *frameProblem, error) {
	for {
		// Line breaks between frames are tolerated.
		for {
			for f.r < f.w && (f.buf[f.r] == '\r' || f.buf[f.r] == '\n') {
				f.r++
			}
			if f.r < f.w {
				break
			}
			if !f.fill() {
				return nil, nil, f.endErr(false)
			}
		}
		length, p, err := f.header()
		if err != nil {
			return nil, nil, err
		}
		if p != nil {
			if err := f.resync(); err != nil {
				return nil, nil, err
			}
			if f.quiet {
				continue
			}
			f.quiet = true
			return nil, p, nil
		}
		f.quiet = false
		if length > maxFrameSize {
			id := recoverID(f.buf[f.r:min(f.w, f.r+min(length, idScanLimit))])
			if err := f.resync(); err != nil {
				return nil, nil, err
			}
			f.quiet = true
			return nil, &frameProblem{jsonrpc2.ParseError, fmt.Sprintf("message of %d bytes is past the budget of %d MiB", length, maxFrameSize>>20), id}, nil
		}
		body, cut, err := f.readBody(length)
		if err != nil {
			return nil, nil, err
		}
		if cut {
			f.quiet = true
			return nil, &frameProblem{jsonrpc2.ParseError, fmt.Sprintf("Content-Length %d, but the next header starts after %d bytes", length, len(body)), recoverID(body)}, nil
		}
		return body, nil, nil
	}
}

// header parses the header block at f.r and consumes it. A malformed block
// is a problem; the caller resynchronises from one byte past its start.
func (f *frameReader) header() (int, *frameProblem, error) {
	start := f.r
	pos := start
	length := -1
	for {
		nl := bytes.IndexByte(f.buf[pos:f.w], '\n')
		for nl < 0 {
			if f.w-start > maxHeaderSize {
				f.r = start + 1
				return 0, &frameProblem{jsonrpc2.ParseError, fmt.Sprintf("no message header (a header block ends with a blank line within %d bytes)", maxHeaderSize), nil}, nil
			}
			off := pos - start
			if !f.fill() {
				return 0, nil, f.endErr(true)
			}
			start = f.r
			pos = start + off
			nl = bytes.IndexByte(f.buf[pos:f.w], '\n')
		}
		line := bytes.TrimRight(f.buf[pos:pos+nl], "\r")
		pos += nl + 1
		if pos-start > maxHeaderSize {
			f.r = start + 1
			return 0, &frameProblem{jsonrpc2.ParseError, fmt.Sprintf("message header longer than %d bytes", maxHeaderSize), nil}, nil
		}
		if len(line) == 0 {
			break
		}
		name, value, ok := bytes.Cut(line, []byte(":"))
		if !ok || !isToken(name) {
			f.r = start + 1
			return 0, &frameProblem{jsonrpc2.ParseError, fmt.Sprintf("malformed message header %q", clip(line)), nil}, nil
		}
		if !bytes.EqualFold(name, []byte("Content-Length")) {
			continue // Content-Type and headers we do not know
		}
		n, err := strconv.Atoi(string(bytes.TrimSpace(value)))
		if err != nil || n <= 0 {
			f.r = start + 1
			return 0, &frameProblem{jsonrpc2.ParseError, fmt.Sprintf("invalid Content-Length %q", clip(bytes.TrimSpace(value))), nil}, nil
		}
		length = n
	}
	f.r = pos
	if length < 0 {
		return 0, &frameProblem{jsonrpc2.ParseError, "message header without Content-Length", nil}, nil
	}
	return length, nil, nil
}

// readBody reads a body of n bytes, stopping early where a header starts
// (cut): a well-formed body never holds one.
func (f *frameReader) readBody(n int) (body []byte, cut bool, err error) {
	if frameOwned(n) {
		// A large body (an open) is not kept for the next frame: it would
		// stay alive, the size of the document, until a smaller message
		// came (issue 36).
		defer func() { f.body = nil }()
		f.body = make([]byte, 0, n)
	}
	f.body = f.body[:0]
	var s headerScan
	for len(f.body) < n {
		if f.r == f.w && !f.fill() {
			return nil, false, f.endErr(true)
		}
		end := min(f.w, f.r+n-len(f.body))
		if i := s.scan(f.buf[f.r:end]); i >= 0 {
			f.body = append(f.body, f.buf[f.r:f.r+i]...)
			f.r += i
			at := len(f.body) - len(headerKey)
			f.unread(f.body[at:])
			f.body = f.body[:at]
			return f.body, true, nil
		}
		f.body = append(f.body, f.buf[f.r:end]...)
		f.r = end
	}
	return f.body, false, nil
}

// unread puts p back in front of the unconsumed bytes.
func (f *frameReader) unread(p []byte) {
	if f.r < len(p) {
		nb := make([]byte, len(p)+max(len(f.buf), f.w-f.r))
		f.w = len(p) + copy(nb[len(p):], f.buf[f.r:f.w])
		f.buf, f.r = nb, len(p)
	}
	f.r -= len(p)
	copy(f.buf[f.r:], p)
}

// resync consumes bytes up to the next header key outside a JSON string.
func (f *frameReader) resync() error {
	var s headerScan
	for {
		if i := s.scan(f.buf[f.r:f.w]); i >= 0 {
			f.r += i - len(headerKey)
			return nil
		}
		// Keep a partly matched key for the next read.
		f.r = f.w - s.k
		if !f.fill() {
			return f.endErr(false)
		}
		// The kept bytes are scanned again from the start of the key.
		s.k = 0
	}
}

// headerScan finds "Content-Length:" outside JSON strings, one byte at a
// time.
type headerScan struct {
	inStr, esc bool
	k          int // bytes of the key matched
}

// scan steps through p and returns the offset just past the key, or -1.
// Bytes that change nothing (inside a string, outside one before a key)
// are skipped in a tight loop.
func (s *headerScan) scan(p []byte) int {
	for i := 0; i < len(p); i++ {
		if s.k == 0 && !s.esc {
			if s.inStr {
				i = stringQuiet(p, i)
			} else {
				for i < len(p) && plainOut[p[i]] {
					i++
				}
			}
			if i == len(p) {
				break
			}
		}
		if s.step(p[i]) {
			return i + 1
		}
	}
	return -1
}

// plainOut are the bytes that leave a headerScan outside a string as it
// is, before any of the key is matched.
var plainOut = func() (out [256]bool) {
	for c := range 256 {
		out[c] = c != '"' && c != '\n' && c != 'c' && c != 'C'
	}
	return out
}()

// stringQuiet returns the offset of the first byte at or after i, inside
// a string, that changes a headerScan: a quote, a line feed, or a
// backslash that escapes a line feed or ends p. The string's other
// bytes and escape pairs are skipped eight bytes at a time (a text's
// line feeds are escapes every few dozen bytes: the 3 MB string of a
// large didOpen, issue 36).
func stringQuiet(p []byte, i int) int {
	for {
		for ; i+8 <= len(p); i += 8 {
			w := binary.LittleEndian.Uint64(p[i:])
			if m := zeroByte(w^(lo8*'"')) | zeroByte(w^(lo8*'\\')) | zeroByte(w^(lo8*'\n')); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
		}
		for i < len(p) && p[i] != '"' && p[i] != '\\' && p[i] != '\n' {
			i++
		}
		if i+1 < len(p) && p[i] == '\\' && p[i+1] != '\n' {
			i += 2 // an escape pair leaves the scan in the string
			continue
		}
		return i
	}
}

func (s *headerScan) step(b byte) bool {
	switch {
	case b == '\n':
		*s = headerScan{}
	case s.inStr:
		switch {
		case s.esc:
			s.esc = false
		case b == '\\':
			s.esc = true
		case b == '"':
			s.inStr = false
		}
	case b == '"':
		s.inStr, s.k = true, 0
	default:
		if b >= 'A' && b <= 'Z' {
			b += 'a' - 'A'
		}
		switch {
		case b == headerKey[s.k]:
			s.k++
			if s.k == len(headerKey) {
				s.k = 0
				return true
			}
		case b == headerKey[0]:
			s.k = 1
		default:
			s.k = 0
		}
	}
	return false
}

// isToken reports whether name is a header field name (RFC 9110 token).
func isToken(name []byte) bool {
	if len(name) == 0 {
		return false
	}
	for _, c := range name {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case bytes.IndexByte([]byte("!#$%&'*+-.^_`|~"), c) >= 0:
		default:
			return false
		}
	}
	return true
}

// clip shortens bytes quoted in a message.
func clip(b []byte) []byte {
	if len(b) > 40 {
		return b[:40]
	}
	return b
}

// recoverID reads the "id" of a request from the start of a body that may
// be broken or cut short: the top-level members are walked in order until
// the text stops making sense. Nothing is returned for a response (a body
// with "result" or "error"), which must not be answered.
func recoverID(body []byte) []byte {
	var id []byte
	d := json.NewDecoder(bytes.NewReader(body))
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	for d.More() {
		t, err := d.Token()
		if err != nil {
			break
		}
		key, _ := t.(string)
		var v json.RawMessage
		if err := d.Decode(&v); err != nil {
			break
		}
		switch key {
		case "result", "error":
			return nil
		case "id":
			if len(v) > 0 && (v[0] == '"' || v[0] == '-' || v[0] >= '0' && v[0] <= '9') {
				id = append([]byte(nil), v...)
			}
		}
	}
	return id
}

// frameStream is the connection's jsonrpc2.Stream: frames are read by a
// frameReader and written by a frameWriter, and a frame that is not a
// message is answered here and skipped.
type frameStream struct {
	in  *frameReader
	out *frameWriter
	log *slog.Logger
}

func newFrameStream(rwc io.ReadWriteCloser, log *slog.Logger) *frameStream {
	return &frameStream{in: newFrameReader(rwc), out: &frameWriter{w: rwc, c: rwc}, log: log}
}

// frameWriter writes messages with their Content-Length header, one
// Write each. It keeps its buffer for the next message unless the buffer
// grew past frameKeep: jsonrpc2's own writer keeps the largest message
// it ever wrote (a document's semantic tokens or diagnostics, megabytes)
// for the life of the connection, after the document is closed too.
type frameWriter struct {
	mu  sync.Mutex
	w   io.Writer
	c   io.Closer
	buf []byte
}

func (f *frameWriter) write(ctx context.Context, body func([]byte) []byte) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	const header = "Content-Length: "
	// The body is appended after room for the longest header, then the
	// header is written just before it.
	const room = len(header) + 20 + 4
	buf := append(f.buf[:0], make([]byte, room)...)
	buf = body(buf)
	n := len(buf) - room
	var hb [room]byte
	h := strconv.AppendInt(append(hb[:0], header...), int64(n), 10)
	h = append(h, "\r\n\r\n"...)
	at := room - len(h)
	copy(buf[at:], h)
	k, err := f.w.Write(buf[at:])
	if cap(buf) <= frameKeep {
		f.buf = buf[:0]
	} else {
		f.buf = nil
	}
	return int64(k), err
}

// Read implements jsonrpc2.Stream.
func (s *frameStream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		body, p, err := s.in.next()
		if err != nil {
			return nil, 0, err
		}
		if p == nil {
			msg, derr := jsonrpc2.DecodeMessage(body)
			if derr == nil {
				return msg, int64(len(body)), nil
			}
			s.in.quiet = true // what follows may be the rest of it
			p = &frameProblem{jsonrpc2.ParseError, "message body is not JSON", recoverID(body)}
			if json.Valid(body) {
				p.code, p.msg = jsonrpc2.InvalidRequest, "message is not a JSON-RPC request, notification or response"
				if bytes.HasPrefix(bytes.TrimSpace(body), []byte("[")) {
					p.msg = "batches are not part of the language server protocol"
				}
			}
		}
		if err := s.answer(ctx, p); err != nil {
			return nil, 0, err
		}
	}
}

// answer logs a frame problem and answers it to the client.
func (s *frameStream) answer(ctx context.Context, p *frameProblem) error {
	id := p.id
	if id == nil {
		id = []byte("null")
	}
	s.log.Warn("malformed message", "problem", p.msg, "id", string(id))
	msg, _ := json.Marshal(p.msg)
	body := fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"error":{"code":%d,"message":%s}}`, id, p.code, msg)
	_, err := s.out.write(ctx, func(b []byte) []byte { return append(b, body...) })
	return err
}

// Write implements jsonrpc2.Stream.
func (s *frameStream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	return s.out.write(ctx, func(b []byte) []byte { return jsonrpc2.AppendMessage(b, msg) })
}

// Close implements jsonrpc2.Stream.
func (s *frameStream) Close() error { return s.out.c.Close() }
