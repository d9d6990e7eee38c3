package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/blueprint-ls/blueprint-ls/project"
)

// projectDir writes files (name → content) into a temporary directory and
// returns it.
func projectDir(t testing.TB, files map[string]string) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const projectBlueprint = "version: 2023-04-20\nvariables:\n  unused:\n    type: string\nresources:\n  q:\n    type: aws/sqs/queue\n    spec:\n      queueName: ${variables.nope} # blueprint-ls:ignore cycle\n"

// codeSeverities is "code severity" per diagnostic.
func codeSeverities(ds []protocol.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		code, _ := d.Code.(protocol.String)
		out = append(out, string(code)+" "+severityName(d.Severity))
	}
	return out
}

// TestProjectClientSeverityWins: the client's severity setting applies on
// top of the config's and wins for the codes it names, "off" included.
func TestProjectClientSeverityWins(t *testing.T) {
	dir := projectDir(t, map[string]string{
		project.FileName: "severity:\n  unused-variable: off\n  ref-unknown-variable: warning\n  suppress-unused: information\n",
	})
	h := newHarness(t)
	h.initialize(`{"capabilities":{},"initializationOptions":{"debounceMs":0,"severity":{"unused-variable":"warning","suppress-unused":"off"}}}`)
	u := string(uri.File(filepath.Join(dir, "a.blueprint.yaml")))
	h.open(u, projectBlueprint)
	got := codeSeverities(h.WaitDiagnostics(u, 1))
	want := []string{"unused-variable warning", "ref-unknown-variable warning"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	h.shutdown()
}

// TestProjectPull: a pulling client gets the same set as a pushed one,
// with suppress-unused tagged Unnecessary and carrying its fix, and is
// asked to pull again when a config file changes.
func TestProjectPull(t *testing.T) {
	dir := projectDir(t, map[string]string{project.FileName: "severity:\n  ref-unknown-variable: warning\n"})
	h := newHarness(t)
	h.initialize(`{"capabilities":{"textDocument":{"diagnostic":{}},"workspace":{"diagnostics":{"refreshSupport":true}}}}`)
	u := string(uri.File(filepath.Join(dir, "a.blueprint.yaml")))
	h.open(u, projectBlueprint)
	pull := func() []protocol.Diagnostic {
		t.Helper()
		var rep protocol.DocumentDiagnosticReport
		p := &protocol.DocumentDiagnosticParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.URI(u)}}
		if err := h.call(protocol.MethodTextDocumentDiagnostic, p, &rep); err != nil {
			t.Fatal(err)
		}
		full, ok := rep.(*protocol.RelatedFullDocumentDiagnosticReport)
		if !ok {
			t.Fatalf("report %#v", rep)
		}
		return full.Items
	}
	items := pull()
	want := []string{"unused-variable hint", "ref-unknown-variable warning", "suppress-unused hint"}
	if diff := cmp.Diff(want, codeSeverities(items)); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	unused := items[2]
	if tags := unused.Tags.Slice(); len(tags) != 1 || tags[0] != protocol.DiagnosticTagUnnecessary {
		t.Errorf("suppress-unused tags %v, want Unnecessary", tags)
	}
	var data diagnosticData
	if err := json.Unmarshal(unused.Data, &data); err != nil || len(data.Suggestions) != 1 || !strings.HasPrefix(data.Suggestions[0].Title, "Remove") {
		t.Errorf("suppress-unused data %s (%v)", unused.Data, err)
	}

	if err := os.WriteFile(filepath.Join(dir, project.FileName), []byte("severity: {ref-unknown-variable: off}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h.notify(protocol.MethodWorkspaceDidChangeWatchedFiles, map[string]any{"changes": []map[string]any{
		{"uri": string(uri.File(filepath.Join(dir, project.FileName))), "type": 2}}})
	h.waitFor("diagnostic refresh", func() bool { return h.refreshes > 0 })
	if diff := cmp.Diff([]string{"unused-variable hint", "suppress-unused hint"}, codeSeverities(pull())); diff != "" {
		t.Errorf("after the config changed (-want +got):\n%s", diff)
	}
	h.shutdown()
}

// TestProjectIgnoredFile: a file the config's ignore list excludes (which
// check skips) shows nothing in the editor either.
func TestProjectIgnoredFile(t *testing.T) {
	dir := projectDir(t, map[string]string{project.FileName: "ignore: [generated/**]\n"})
	h := newHarness(t)
	h.initialize(fastInit)
	u := string(uri.File(filepath.Join(dir, "generated", "a.blueprint.yaml")))
	h.open(u, "version: [\n")
	if got := h.WaitDiagnostics(u, 1); len(got) != 0 {
		t.Errorf("ignored file published %v", codeSeverities(got))
	}
	h.shutdown()
}

// TestProjectWatcherRegistered: config files are watched along with
// blueprints.
func TestProjectWatcherRegistered(t *testing.T) {
	h := newHarness(t)
	h.initialize(`{"capabilities":{"workspace":{"didChangeWatchedFiles":{"dynamicRegistration":true}}}}`)
	h.notify(protocol.MethodInitialized, map[string]any{})
	h.waitFor("registerCapability", func() bool { return len(h.registrations) > 0 })
	h.mu.Lock()
	reg := string(h.registrations[0])
	h.mu.Unlock()
	for _, g := range []string{`"**/*.{yaml,yml,json,jsonc,bp,blueprint}"`, `"**/.blueprint-ls.yaml"`} {
		if !strings.Contains(reg, g) {
			t.Errorf("registration %s lacks %s", reg, g)
		}
	}
	h.shutdown()
}
