package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/url"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/blueprint-ls/blueprint-ls/lsp"
)

// TestCheckAgreesWithEditor: check and the language server report the
// same problems (code, severity and range) for the same text, including a
// YAML blueprint with a syntax error, whose other entries both analyse
// with the broken one left out (check used to report the syntax error
// only: 1 problem where the editor showed 4).
func TestCheckAgreesWithEditor(t *testing.T) {
	texts := map[string]string{
		"syntax-and-substitution.blueprint.yaml": "version: 2025-11-02\nvariables:\n  env:\n    type: string\n    default: [dev\nresources:\n  q:\n    type: aws/sqs/queue\n    spec:\n      queueName: ${variables.env}\nexports:\n  url:\n    type: string\n    field: ${resources.q.state.nope(}\n",
		"syntax-and-reference.blueprint.yaml":    "version: 2025-11-02\nvariables:\n  env:\n    type: string\n    default: [dev\nexports:\n  url:\n    type: string\n    field: ${variables.env.nope(}\nvalues:\n  v:\n    type: string\n    value: ${variables.nope}\n",
		"syntax-only.blueprint.yaml":             "version: 2025-11-02\nvariables:\n  env:\n    type: string\n    default: \"dev\n",
		"clean-with-mistakes.blueprint.yaml":     "version: 2025-11-02\nvariables:\n  env:\n    type: strin\nvalues:\n  v:\n    type: string\n    value: ${variables.ennv}\n",
		"broken.blueprint.json":                  "{\"version\": \"2025-11-02\", \"values\": {\"v\": {\"type\": \"string\", \"value\": \"${variables.x}\"}},\n",
		"broken.bp":                              "version \"2025-11-02\"\n\nvalue v: string {\n    value = variables.x(\n}\n",
	}
	dir := writeFiles(t, texts)
	c := startEditor(t)
	names := make([]string, 0, len(texts))
	for name := range texts {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, name)
			_, out, errs := runArgs("check", "--format", "json", "--no-summary", path)
			var report struct {
				Files []struct {
					Diagnostics []struct {
						Code, Severity string
						Range          struct{ Start, End struct{ Line, Column int } }
					}
				}
			}
			if err := json.Unmarshal([]byte(out), &report); err != nil {
				t.Fatalf("check: %v\n%s%s", err, out, errs)
			}
			var cli []string
			for _, f := range report.Files {
				for _, d := range f.Diagnostics {
					cli = append(cli, fmt.Sprintf("%d:%d-%d:%d %s %s", d.Range.Start.Line-1, d.Range.Start.Column-1, d.Range.End.Line-1, d.Range.End.Column-1, d.Severity, d.Code))
				}
			}
			editor := c.diagnostics(t, path, texts[name])
			sort.Strings(cli)
			sort.Strings(editor)
			if diff := cmp.Diff(editor, cli); diff != "" {
				t.Errorf("check and the editor disagree (-editor +check):\n%s", diff)
			}
			if len(cli) < 2 && name == "syntax-and-substitution.blueprint.yaml" {
				t.Errorf("check reported %v: the entries besides the broken one are not analysed", cli)
			}
		})
	}
}

// editorClient is a minimal LSP client of an in-process server.
type editorClient struct {
	conn net.Conn
	in   *bufio.Reader
	id   int
}

func startEditor(t *testing.T) *editorClient {
	server, client := net.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = lsp.Serve(ctx, server, lsp.Options{})
	}()
	c := &editorClient{conn: client, in: bufio.NewReader(client)}
	t.Cleanup(func() {
		cancel()
		client.Close()
		<-done
	})
	c.request(t, "initialize", `{"capabilities":{"general":{"positionEncodings":["utf-8"]},"textDocument":{"diagnostic":{}}},"initializationOptions":{"debounceMs":0}}`)
	c.send(t, `{"jsonrpc":"2.0","method":"initialized","params":{}}`)
	return c
}

func (c *editorClient) send(t *testing.T, msg string) {
	t.Helper()
	_ = c.conn.SetWriteDeadline(time.Now().Add(10 * time.Second))
	if _, err := fmt.Fprintf(c.conn, "Content-Length: %d\r\n\r\n%s", len(msg), msg); err != nil {
		t.Fatal(err)
	}
}

// read returns the next message, answering the server's requests with
// null on the way.
func (c *editorClient) read(t *testing.T) map[string]json.RawMessage {
	t.Helper()
	for {
		_ = c.conn.SetReadDeadline(time.Now().Add(10 * time.Second))
		n := 0
		for {
			line, err := c.in.ReadString('\n')
			if err != nil {
				t.Fatalf("reading from the server: %v", err)
			}
			line = strings.TrimSpace(line)
			if line == "" {
				break
			}
			if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
				n, _ = strconv.Atoi(v)
			}
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(c.in, body); err != nil {
			t.Fatal(err)
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(body, &m); err != nil {
			t.Fatal(err)
		}
		if m["method"] != nil && m["id"] != nil {
			c.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":null}`, m["id"]))
			continue
		}
		return m
	}
}

func (c *editorClient) request(t *testing.T, method, params string) json.RawMessage {
	t.Helper()
	c.id++
	c.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`, c.id, method, params))
	for {
		m := c.read(t)
		if string(m["id"]) == strconv.Itoa(c.id) {
			return m["result"]
		}
	}
}

// diagnostics opens path with text and returns the diagnostics the
// server reports for it when pulled (0-based UTF-8 positions: check's
// JSON less one).
func (c *editorClient) diagnostics(t *testing.T, path, text string) []string {
	t.Helper()
	uri := (&url.URL{Scheme: "file", Path: path}).String()
	lang := "yaml"
	switch filepath.Ext(path) {
	case ".json":
		lang = "json"
	case ".bp":
		lang = "blueprint"
	}
	td, _ := json.Marshal(map[string]any{"uri": uri, "languageId": lang, "version": 1, "text": text})
	c.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":%s}}`, td))
	var report struct {
		Items []struct {
			Range struct {
				Start, End struct{ Line, Character int }
			}
			Severity int
			Code     string
		}
	}
	if err := json.Unmarshal(c.request(t, "textDocument/diagnostic", fmt.Sprintf(`{"textDocument":{"uri":%q}}`, uri)), &report); err != nil {
		t.Fatal(err)
	}
	severities := map[int]string{1: "error", 2: "warning", 3: "information", 4: "hint"}
	var out []string
	for _, d := range report.Items {
		out = append(out, fmt.Sprintf("%d:%d-%d:%d %s %s", d.Range.Start.Line, d.Range.Start.Character, d.Range.End.Line, d.Range.End.Character, severities[d.Severity], d.Code))
	}
	return out
}
