package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// serverSpec names a server and the command that starts it on stdio.
type serverSpec struct {
	name string
	argv []string
}

// parseServer reads NAME=PATH[,ARG...].
func parseServer(s string) (serverSpec, error) {
	name, cmd, ok := strings.Cut(s, "=")
	if !ok || name == "" || cmd == "" {
		return serverSpec{}, fmt.Errorf("-server %q: want NAME=PATH[,ARG...]", s)
	}
	return serverSpec{name: name, argv: strings.Split(cmd, ",")}, nil
}

// session is one running server with an open document.
type session struct {
	cmd     *exec.Cmd
	c       *conn
	dir     string
	uri     string
	version int
	pull    bool // the client pulls and the server offers it
	offers  bool // the server offers pull diagnostics
	full    bool // the server wants the whole text on every change
}

// start runs the server in a fresh folder and initializes it as a pull or
// push client.
func start(spec serverSpec, pull bool, timeout time.Duration) (*session, error) {
	dir, err := os.MkdirTemp("", "lspbench-")
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(spec.argv[0], spec.argv[1:]...)
	cmd.Dir = dir
	stderr, err := os.Create(filepath.Join(dir, "server-stderr.log"))
	if err != nil {
		return nil, err
	}
	cmd.Stderr = stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", spec.name, err)
	}
	s := &session{cmd: cmd, c: newConn(out, in), dir: dir}
	textDocument := map[string]any{
		"synchronization":    map[string]any{"didSave": true},
		"publishDiagnostics": map[string]any{"versionSupport": true, "relatedInformation": true},
		"completion":         map[string]any{"completionItem": map[string]any{"snippetSupport": true}},
		"hover":              map[string]any{"contentFormat": []string{"markdown", "plaintext"}},
	}
	if pull {
		textDocument["diagnostic"] = map[string]any{"dynamicRegistration": false, "relatedDocumentSupport": false}
	}
	root := "file://" + dir
	res, _, _, err := s.c.call("initialize", map[string]any{
		"processId":        os.Getpid(),
		"clientInfo":       map[string]any{"name": "lspbench"},
		"rootUri":          root,
		"capabilities":     map[string]any{"textDocument": textDocument, "workspace": map[string]any{"configuration": true, "workspaceFolders": true}},
		"workspaceFolders": []map[string]any{{"uri": root, "name": "bench"}},
	}, timeout)
	if err != nil {
		s.kill()
		return nil, err
	}
	var init struct {
		Capabilities struct {
			TextDocumentSync   json.RawMessage `json:"textDocumentSync"`
			DiagnosticProvider json.RawMessage `json:"diagnosticProvider"`
		} `json:"capabilities"`
	}
	if err := json.Unmarshal(res, &init); err != nil {
		s.kill()
		return nil, fmt.Errorf("initialize result: %w", err)
	}
	s.full = syncKind(init.Capabilities.TextDocumentSync) == 1
	p := string(init.Capabilities.DiagnosticProvider)
	s.offers = p != "" && p != "null" && p != "false"
	s.pull = pull && s.offers
	if _, err := s.c.notify("initialized", map[string]any{}); err != nil {
		s.kill()
		return nil, err
	}
	return s, nil
}

// syncKind reads textDocumentSync: a number or an object with "change".
func syncKind(raw json.RawMessage) int {
	var n int
	if json.Unmarshal(raw, &n) == nil {
		return n
	}
	var o struct {
		Change int `json:"change"`
	}
	_ = json.Unmarshal(raw, &o)
	return o.Change
}

// diagnostic is the part of an LSP diagnostic the measurements read.
type diagnostic struct {
	Message string `json:"message"`
}

// The LSP error codes after which a client asks again.
const (
	contentModified = -32801
	serverCancelled = -32802
)

// open writes the document to disk, opens it and returns the time until
// its first diagnostics, and those diagnostics.
func (s *session) open(name string, text []byte, timeout time.Duration) (time.Duration, []diagnostic, error) {
	path := filepath.Join(s.dir, name)
	if err := os.WriteFile(path, text, 0o644); err != nil {
		return 0, nil, err
	}
	s.uri = "file://" + path
	s.version = 1
	lang := "yaml"
	switch {
	case strings.HasSuffix(name, ".json"):
		lang = "json"
	case strings.HasSuffix(name, ".bp"):
		lang = "bp"
	}
	sent, err := s.c.notify("textDocument/didOpen", map[string]any{
		"textDocument": map[string]any{"uri": s.uri, "languageId": lang, "version": 1, "text": string(text)},
	})
	if err != nil {
		return 0, nil, err
	}
	ds, at, err := s.diagnostics(func([]diagnostic) bool { return true }, timeout)
	return at.Sub(sent), ds, err
}

// diagnostics waits for the document's diagnostics to satisfy want: by
// pulling (again while they do not) or by reading what the server pushes.
func (s *session) diagnostics(want func([]diagnostic) bool, timeout time.Duration) ([]diagnostic, time.Time, error) {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		var ds []diagnostic
		var at time.Time
		if s.pull {
			res, _, got, err := s.c.call("textDocument/diagnostic", map[string]any{"textDocument": map[string]any{"uri": s.uri}}, time.Until(deadline))
			var rerr *rpcError
			if errors.As(err, &rerr) && (rerr.Code == contentModified || rerr.Code == serverCancelled) {
				continue // what an editor does: ask again for the current text
			}
			if err != nil {
				return nil, time.Time{}, err
			}
			var report struct {
				Kind  string       `json:"kind"`
				Items []diagnostic `json:"items"`
			}
			if err := json.Unmarshal(res, &report); err != nil {
				return nil, time.Time{}, fmt.Errorf("diagnostic report: %w", err)
			}
			ds, at = report.Items, got
		} else {
			r, err := s.c.next("textDocument/publishDiagnostics", time.Until(deadline))
			if err != nil {
				return nil, time.Time{}, err
			}
			var p struct {
				URI         string       `json:"uri"`
				Version     *int         `json:"version"`
				Diagnostics []diagnostic `json:"diagnostics"`
			}
			if err := json.Unmarshal(r.msg.Params, &p); err != nil {
				return nil, time.Time{}, fmt.Errorf("publishDiagnostics: %w", err)
			}
			if p.URI != s.uri || (p.Version != nil && *p.Version < s.version) {
				continue // another document, or an older version
			}
			ds, at = p.Diagnostics, r.at
		}
		if want(ds) {
			return ds, at, nil
		}
	}
	return nil, time.Time{}, errors.New("the diagnostics never showed the edit")
}

// edit replaces the text between two columns of one line (an insertion
// when they are equal); text is the whole document after the edit, for
// servers that take full-text changes. It returns when it was written.
func (s *session) edit(line, from, to int, insert string, text []byte) (time.Time, error) {
	s.version++
	change := map[string]any{"text": string(text)}
	if !s.full {
		change = map[string]any{
			"range": map[string]any{
				"start": map[string]any{"line": line, "character": from},
				"end":   map[string]any{"line": line, "character": to},
			},
			"text": insert,
		}
	}
	return s.c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": s.uri, "version": s.version},
		"contentChanges": []any{change},
	})
}

// complete asks for completion at a position and returns its latency and
// the number of items.
func (s *session) complete(line, col int, timeout time.Duration) (time.Duration, int, error) {
	res, sent, got, err := s.c.call("textDocument/completion", map[string]any{
		"textDocument": map[string]any{"uri": s.uri},
		"position":     map[string]any{"line": line, "character": col},
		"context":      map[string]any{"triggerKind": 1},
	}, timeout)
	if err != nil {
		return 0, 0, err
	}
	var list struct {
		Items []json.RawMessage `json:"items"`
	}
	var items []json.RawMessage
	if json.Unmarshal(res, &items) != nil {
		_ = json.Unmarshal(res, &list)
		items = list.Items
	}
	return got.Sub(sent), len(items), nil
}

// peakRSS is the server's peak resident set (VmHWM), in bytes.
func (s *session) peakRSS() (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb * 1024, err
		}
	}
	return 0, errors.New("no VmHWM in /proc status")
}

// cpuTime is the CPU time the server's threads have had so far, read
// from the scheduler's per-thread accounting (nanoseconds; /proc's
// utime counts 10 ms ticks, too coarse for an open of a few tens of
// milliseconds). A thread that exited in between is not counted; Go
// servers keep theirs.
func (s *session) cpuTime() (time.Duration, error) {
	tasks, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/schedstat", s.cmd.Process.Pid))
	if err != nil || len(tasks) == 0 {
		return 0, fmt.Errorf("no scheduler statistics for the server: %v", err)
	}
	var total time.Duration
	for _, t := range tasks {
		b, err := os.ReadFile(t)
		if err != nil {
			continue // the thread exited
		}
		f := strings.Fields(string(b))
		if len(f) == 0 {
			continue
		}
		ns, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("%s: %w", t, err)
		}
		total += time.Duration(ns)
	}
	return total, nil
}

// stop shuts the server down politely, then for good, and removes its
// folder.
func (s *session) stop() {
	if _, _, _, err := s.c.call("shutdown", nil, 10*time.Second); err == nil {
		_, _ = s.c.notify("exit", nil)
	}
	done := make(chan struct{})
	go func() {
		_ = s.cmd.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		s.kill()
		<-done
	}
	_ = os.RemoveAll(s.dir)
}

func (s *session) kill() {
	_ = s.cmd.Process.Kill()
}
