package lsp

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.lsp.dev/protocol"
	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite the expected sections of testdata/*.txtar")

// TestScenarios runs testdata/*.txtar against the real server. The
// "script" section is one command per line (# starts a comment):
//
//	open NAME                      open archive file NAME as version 1
//	edit NAME VERSION L:C-L:C TEXT incremental change; TEXT is a Go string
//	replace NAME VERSION FILE      full change to archive file FILE
//	close NAME
//	diags NAME VERSION GOLDEN      diagnostics once VERSION settled, one
//	                               "L:C-L:C severity code" per line
//	request METHOD NAME GOLDEN     a textDocument request on NAME; the
//	                               result as indented JSON
//
// GOLDEN sections are rewritten with -update.
func TestScenarios(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.txtar")
	if len(files) == 0 {
		t.Fatal("no scenarios")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			runScenario(t, file, ar)
		})
	}
}

func section(ar *txtar.Archive, name string) ([]byte, bool) {
	for _, f := range ar.Files {
		if f.Name == name {
			return f.Data, true
		}
	}
	return nil, false
}

func setSection(ar *txtar.Archive, name string, data []byte) {
	for i, f := range ar.Files {
		if f.Name == name {
			ar.Files[i].Data = data
			return
		}
	}
	ar.Files = append(ar.Files, txtar.File{Name: name, Data: data})
}

func runScenario(t *testing.T, file string, ar *txtar.Archive) {
	script, ok := section(ar, "script")
	if !ok {
		t.Fatal("no script section")
	}
	h := newHarness(t)
	h.initialize(`{"capabilities":{"general":{"positionEncodings":["utf-16"]},"textDocument":{"documentSymbol":{"hierarchicalDocumentSymbolSupport":true}}},"initializationOptions":{"debounceMs":0}}`)
	changed := false
	check := func(golden string, got []byte) {
		want, _ := section(ar, golden)
		if *update {
			if !bytes.Equal(want, got) {
				setSection(ar, golden, got)
				changed = true
			}
			return
		}
		if diff := cmp.Diff(string(want), string(got)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", golden, diff)
		}
	}
	for n, line := range strings.Split(string(script), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		fail := func(format string, args ...any) {
			t.Fatalf("script line %d %q: %s", n+1, line, fmt.Sprintf(format, args...))
		}
		arg := func(i int) string {
			if i >= len(fields) {
				fail("missing argument %d", i)
			}
			return fields[i]
		}
		version := func(i int) int32 {
			v, err := strconv.Atoi(arg(i))
			if err != nil {
				fail("bad version: %v", err)
			}
			return int32(v)
		}
		switch fields[0] {
		case "open":
			data, ok := section(ar, arg(1))
			if !ok {
				fail("no file %s", arg(1))
			}
			h.open(arg(1), string(data))
		case "replace":
			data, ok := section(ar, arg(3))
			if !ok {
				fail("no file %s", arg(3))
			}
			h.changeFull(arg(1), version(2), string(data))
		case "edit":
			var l1, c1, l2, c2 uint32
			if _, err := fmt.Sscanf(arg(3), "%d:%d-%d:%d", &l1, &c1, &l2, &c2); err != nil {
				fail("bad range: %v", err)
			}
			rest := strings.TrimSpace(line[strings.Index(line, arg(3))+len(arg(3)):])
			text, err := strconv.Unquote(rest)
			if err != nil {
				fail("bad text: %v", err)
			}
			h.changeRange(arg(1), version(2), rng(l1, c1, l2, c2), text)
		case "close":
			h.close(arg(1))
		case "diags":
			var b strings.Builder
			for _, d := range h.WaitDiagnostics(arg(1), version(2)) {
				code, _ := d.Code.(protocol.String)
				fmt.Fprintf(&b, "%d:%d-%d:%d %s %s\n", d.Range.Start.Line, d.Range.Start.Character,
					d.Range.End.Line, d.Range.End.Character, severityName(d.Severity), code)
			}
			check(arg(3), []byte(b.String()))
		case "request":
			params := fmt.Sprintf(`{"textDocument":{"uri":%q}}`, docURI(arg(2)))
			var raw json.RawMessage
			if err := h.call(arg(1), params, &raw); err != nil {
				fail("%v", err)
			}
			var out bytes.Buffer
			if err := json.Indent(&out, raw, "", "  "); err != nil {
				fail("%v", err)
			}
			out.WriteByte('\n')
			check(arg(3), out.Bytes())
		default:
			fail("unknown command")
		}
	}
	h.shutdown()
	if changed {
		if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func severityName(s protocol.DiagnosticSeverity) string {
	switch s {
	case protocol.DiagnosticSeverityError:
		return "error"
	case protocol.DiagnosticSeverityWarning:
		return "warning"
	case protocol.DiagnosticSeverityInformation:
		return "information"
	}
	return "hint"
}
