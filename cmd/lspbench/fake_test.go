package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
)

// TestMain turns the test binary into a minimal language server when
// LSPBENCH_FAKE is set (push, pull or full): the servers the driver is
// tested against, run as real processes over stdio.
func TestMain(m *testing.M) {
	if mode := os.Getenv("LSPBENCH_FAKE"); mode != "" {
		if err := fakeServer(mode, bufio.NewReader(os.Stdin), os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "fake server:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// fakeServer keeps one document and reports the unknown variable envX
// while its text holds it. push: diagnostics are pushed after every
// change; pull: they are answered to textDocument/diagnostic; full: like
// push, with full-text synchronisation. It asks the client for its
// configuration once, as real servers do.
func fakeServer(mode string, r *bufio.Reader, w io.Writer) error {
	send := func(m any) error {
		b, err := json.Marshal(m)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(w, "Content-Length: %d\r\n\r\n%s", len(b), b)
		return err
	}
	var lines []string
	var uri string
	version := 0
	diags := func() []map[string]any {
		out := []map[string]any{{"message": "a warning that is always there"}}
		if strings.Contains(strings.Join(lines, "\n"), marker) {
			out = append(out, map[string]any{"message": `unknown variable "` + marker + `"`})
		}
		return out
	}
	publish := func() error {
		if mode == "pull" {
			return nil
		}
		return send(map[string]any{"jsonrpc": "2.0", "method": "textDocument/publishDiagnostics",
			"params": map[string]any{"uri": uri, "version": version, "diagnostics": diags()}})
	}
	configured := false
	for {
		body, err := readFrame(r)
		if err != nil {
			return err
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				TextDocument struct {
					URI     string `json:"uri"`
					Version int    `json:"version"`
					Text    string `json:"text"`
				} `json:"textDocument"`
				ContentChanges []struct {
					Range *struct {
						Start struct{ Line, Character int } `json:"start"`
						End   struct{ Line, Character int } `json:"end"`
					} `json:"range"`
					Text string `json:"text"`
				} `json:"contentChanges"`
			} `json:"params"`
			Result json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal(body, &m); err != nil {
			return err
		}
		reply := func(result any) error {
			return send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": result})
		}
		switch m.Method {
		case "initialize":
			caps := map[string]any{"textDocumentSync": 2, "completionProvider": map[string]any{}}
			if mode == "full" {
				caps["textDocumentSync"] = map[string]any{"openClose": true, "change": 1}
			}
			if mode == "pull" {
				caps["diagnosticProvider"] = map[string]any{"interFileDependencies": false}
			}
			err = reply(map[string]any{"capabilities": caps})
		case "initialized":
			err = send(map[string]any{"jsonrpc": "2.0", "id": "config", "method": "workspace/configuration",
				"params": map[string]any{"items": []any{map[string]any{"section": "fake"}}}})
		case "textDocument/didOpen":
			uri, version = m.Params.TextDocument.URI, m.Params.TextDocument.Version
			lines = strings.Split(m.Params.TextDocument.Text, "\n")
			err = publish()
		case "textDocument/didChange":
			version = m.Params.TextDocument.Version
			for _, c := range m.Params.ContentChanges {
				if c.Range == nil {
					lines = strings.Split(c.Text, "\n")
					continue
				}
				if mode == "full" {
					return fmt.Errorf("a range change to a full-sync server")
				}
				s, e := c.Range.Start, c.Range.End
				if s.Line != e.Line || s.Line >= len(lines) || s.Character > e.Character || e.Character > len(lines[s.Line]) {
					return fmt.Errorf("change %+v outside the text", c.Range)
				}
				l := lines[s.Line]
				lines[s.Line] = l[:s.Character] + c.Text + l[e.Character:]
			}
			err = publish()
		case "textDocument/diagnostic":
			err = reply(map[string]any{"kind": "full", "items": diags()})
		case "textDocument/completion":
			items := []any{}
			if configured { // the client answered workspace/configuration
				items = []any{map[string]any{"label": "env"}, map[string]any{"label": "region"}}
			}
			err = reply(items)
		case "shutdown":
			err = reply(nil)
		case "exit":
			return nil
		case "":
			// The client's answer to our configuration request.
			if string(m.ID) != `"config"` || string(m.Result) != "[{}]" {
				return fmt.Errorf("unexpected answer %s", body)
			}
			configured = true
		}
		if err != nil {
			return err
		}
	}
}
