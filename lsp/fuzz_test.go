package lsp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// The documents every FuzzServerRequests input starts from.
const (
	fuzzValidURI  = "file:///ws/main.blueprint.yaml"
	fuzzBrokenURI = "file:///ws/broken.blueprint.yaml"

	fuzzValidText = `version: 2023-04-20
variables:
  env:
    type: string
    default: dev
values:
  prefix:
    type: string
    value: ${variables.env}-app
resources:
  queue:
    type: aws/sqs/queue
    spec:
      queueName: ${values.prefix}
`
	fuzzBrokenText = "version: 2023-04-20\nresources:\n  a:\n    type: [\n    spec:\n      x: ${values.\n\t\"\xff\n"
)

// fuzzHover is a hover inside ${variables.env} in fuzzValidText.
var fuzzHover = `{"textDocument":{"uri":"` + fuzzValidURI + `"},"position":{"line":8,"character":20}}`

// fuzzMethod is a method the server advertises and well-formed params for
// it, which the fuzz input mutates.
type fuzzMethod struct {
	method string
	notify bool
	params string
}

const (
	fuzzTD    = `"textDocument":{"uri":"` + fuzzValidURI + `"}`
	fuzzPos   = `"position":{"line":8,"character":20}`
	fuzzRange = `"range":{"start":{"line":2,"character":0},"end":{"line":9,"character":5}}`
)

var fuzzMethods = []fuzzMethod{
	{protocol.MethodTextDocumentHover, false, `{` + fuzzTD + `,` + fuzzPos + `}`},
	{protocol.MethodTextDocumentCompletion, false, `{` + fuzzTD + `,` + fuzzPos + `,"context":{"triggerKind":2,"triggerCharacter":"."}}`},
	{protocol.MethodCompletionItemResolve, false, `{"label":"env","kind":6,"data":{"uri":"` + fuzzValidURI + `","offset":150,"name":"variables.env"}}`},
	{protocol.MethodTextDocumentSignatureHelp, false, `{` + fuzzTD + `,` + fuzzPos + `,"context":{"triggerKind":2,"triggerCharacter":"(","isRetrigger":false}}`},
	{protocol.MethodTextDocumentDefinition, false, `{` + fuzzTD + `,` + fuzzPos + `}`},
	{protocol.MethodTextDocumentReferences, false, `{` + fuzzTD + `,` + fuzzPos + `,"context":{"includeDeclaration":true}}`},
	{protocol.MethodTextDocumentDocumentHighlight, false, `{` + fuzzTD + `,` + fuzzPos + `}`},
	{protocol.MethodTextDocumentPrepareRename, false, `{` + fuzzTD + `,` + fuzzPos + `}`},
	{protocol.MethodTextDocumentRename, false, `{` + fuzzTD + `,` + fuzzPos + `,"newName":"stage"}`},
	{protocol.MethodTextDocumentDocumentSymbol, false, `{` + fuzzTD + `}`},
	{protocol.MethodWorkspaceSymbol, false, `{"query":"env"}`},
	{protocol.MethodTextDocumentSemanticTokensFull, false, `{` + fuzzTD + `}`},
	{protocol.MethodTextDocumentSemanticTokensRange, false, `{` + fuzzTD + `,` + fuzzRange + `}`},
	{protocol.MethodTextDocumentFoldingRange, false, `{` + fuzzTD + `}`},
	{protocol.MethodTextDocumentSelectionRange, false, `{` + fuzzTD + `,"positions":[{"line":8,"character":20},{"line":0,"character":0}]}`},
	{protocol.MethodTextDocumentInlayHint, false, `{` + fuzzTD + `,` + fuzzRange + `}`},
	{protocol.MethodTextDocumentDocumentLink, false, `{` + fuzzTD + `}`},
	{protocol.MethodTextDocumentCodeLens, false, `{` + fuzzTD + `}`},
	{protocol.MethodTextDocumentCodeAction, false, `{` + fuzzTD + `,` + fuzzRange + `,"context":{"diagnostics":[{"range":{"start":{"line":8,"character":13},"end":{"line":8,"character":16}},"message":"x","code":"unknown-reference","source":"blueprint-ls"}],"only":["quickfix"]}}`},
	{protocol.MethodTextDocumentFormatting, false, `{` + fuzzTD + `,"options":{"tabSize":2,"insertSpaces":true}}`},
	{protocol.MethodTextDocumentRangeFormatting, false, `{` + fuzzTD + `,` + fuzzRange + `,"options":{"tabSize":2,"insertSpaces":true}}`},
	{protocol.MethodTextDocumentDiagnostic, false, `{` + fuzzTD + `,"previousResultId":"1"}`},
	{protocol.MethodWorkspaceExecuteCommand, false, `{"command":"` + commandShowReferences + `","arguments":["` + fuzzValidURI + `",{"line":8,"character":20}]}`},
	{protocol.MethodWorkspaceExecuteCommand, false, `{"command":"` + commandPlan + `","arguments":[{"uri":"` + fuzzValidURI + `"}]}`},
	{protocol.MethodTextDocumentDidChange, true, `{"textDocument":{"uri":"` + fuzzValidURI + `","version":2},"contentChanges":[{"range":{"start":{"line":8,"character":13},"end":{"line":8,"character":16}},"text":"env2"},{"text":"version: 2023-04-20\n"}]}`},
	{protocol.MethodTextDocumentDidChange, true, `{"textDocument":{"uri":"` + fuzzBrokenURI + `","version":2},"contentChanges":[{"range":{"start":{"line":3,"character":4},"end":{"line":5,"character":0}},"rangeLength":9,"text":"x: ${"}]}`},
	{protocol.MethodTextDocumentDidOpen, true, `{"textDocument":{"uri":"file:///ws/other.blueprint.yaml","languageId":"yaml","version":1,"text":"version: 2023-04-20\nvalues:\n  a:\n    value: ${b}\n"}}`},
}

// fuzzStrings replace strings: URIs of every odd kind, odd text, and raw
// JSON string literals (lone surrogates, invalid UTF-8) encoding/json
// would not produce.
var fuzzStrings = []string{
	`"` + fuzzBrokenURI + `"`, `"` + fuzzValidURI + `"`, `""`, `"file://"`, `"file:///"`,
	`"file:///ws/%E0%A4%A"`, `"file:///ws/%zz.yaml"`, `"file:///ws/a%00b.yaml"`, `"file:///ws/main%2Eblueprint.yaml"`,
	`"file:///C:/ws/x.yaml"`, `"file:///c%3A/ws/x.yaml"`, `"C:\\ws\\x.yaml"`, `"\\\\server\\share\\x.yaml"`,
	`"untitled:Untitled-1"`, `"http://example.com/a.yaml"`, `"vscode-notebook-cell:/x#y"`, `":"`, `"%"`,
	`"file:///ws/../../etc/passwd"`, `"file:///ws/dir/"`, `"relative/path.yaml"`,
	`"\ud800"`, `"a\udc00b"`, `"\udbff\udfff"`, "\"\xff\xfe\xc0\x80\"", `"\u0000"`, `"\r\n\r"`, `"😀\u00e9"`,
	`"${"`, `"${variables."`, `"[{"`, `"json"`, `"yaml"`, `"blueprint"`,
	`"version: 2023-04-20\nresources:\n  a:\n    type: aws/sqs/queue\n    spec: ${values.x(}\n"`,
	`"{\"version\": \"2023-04-20\", \"resources\": {\"a\": {\"type\": [}}}"`,
	`"{\"schema\":\"cloud-assembly/1\",\"artifacts\":{}}"`,
	`"` + commandPlan + `"`, `"` + commandShowReferences + `"`,
}

var fuzzNumbers = []string{
	"-1", "0", "1", "2147483647", "2147483648", "4294967295", "4294967296", "-2147483649",
	"9007199254740993", "-9223372036854775808", "18446744073709551616", "1e308", "1e400", "0.5", "-0", "1e-7",
}

// rawJSON is a JSON value written verbatim.
type rawJSON string

// fuzzMutator rewrites a decoded JSON value, driven by the input's bytes.
type fuzzMutator struct{ data []byte }

func (m *fuzzMutator) next() (byte, bool) {
	if len(m.data) == 0 {
		return 0, false
	}
	b := m.data[0]
	m.data = m.data[1:]
	return b, true
}

func (m *fuzzMutator) pick(n int) int {
	b, _ := m.next()
	return int(b) % n
}

// mutate returns the replacement of v; del reports that the member is to
// be dropped.
func (m *fuzzMutator) mutate(v any) (out any, del bool) {
	b, ok := m.next()
	if !ok {
		return v, false
	}
	switch b % 16 {
	case 6:
		return nil, false
	case 7:
		return nil, true
	case 8, 9:
		return rawJSON(fuzzNumbers[m.pick(len(fuzzNumbers))]), false
	case 10:
		return rawJSON(fuzzStrings[m.pick(len(fuzzStrings))]), false
	case 11:
		return b&0x10 != 0, false
	case 12:
		return []any{}, false
	case 13:
		return map[string]any{}, false
	case 14:
		return []any{v}, false
	case 15:
		// The next bytes, verbatim, as a string.
		n := m.pick(64)
		if n > len(m.data) {
			n = len(m.data)
		}
		s := m.data[:n]
		m.data = m.data[n:]
		return rawJSON(rawString(s)), false
	}
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			nv, d := m.mutate(x[k])
			if d {
				delete(x, k)
			} else {
				x[k] = nv
			}
		}
		if b&0x10 != 0 {
			x["extra"] = rawJSON(fuzzStrings[m.pick(len(fuzzStrings))])
		}
	case []any:
		out := x[:0]
		for _, e := range x {
			if nv, d := m.mutate(e); !d {
				out = append(out, nv)
			}
		}
		if b&0x10 != 0 && len(out) > 0 {
			out = append(out, out[len(out)-1])
		}
		return out, false
	}
	return v, false
}

// rawString quotes b as a JSON string, escaping only what JSON requires,
// so invalid UTF-8 reaches the server as is.
func rawString(b []byte) string {
	var sb strings.Builder
	sb.WriteByte('"')
	for _, c := range b {
		switch {
		case c == '"' || c == '\\':
			sb.WriteByte('\\')
			sb.WriteByte(c)
		case c < 0x20:
			fmt.Fprintf(&sb, `\u%04x`, c)
		default:
			sb.WriteByte(c)
		}
	}
	sb.WriteByte('"')
	return sb.String()
}

func encodeFuzz(buf *bytes.Buffer, v any) {
	switch x := v.(type) {
	case rawJSON:
		buf.WriteString(string(x))
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		buf.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				buf.WriteByte(',')
			}
			buf.WriteString(strconv.Quote(k))
			buf.WriteByte(':')
			encodeFuzz(buf, x[k])
		}
		buf.WriteByte('}')
	case []any:
		buf.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				buf.WriteByte(',')
			}
			encodeFuzz(buf, e)
		}
		buf.WriteByte(']')
	default:
		b, _ := json.Marshal(x)
		buf.Write(b)
	}
}

// fuzzParams returns the params the input stands for: data itself when it
// is JSON, else the method's template mutated by data's bytes.
func fuzzParams(fm fuzzMethod, data []byte) []byte {
	if len(data) > 0 && json.Valid(data) {
		return data
	}
	d := json.NewDecoder(strings.NewReader(fm.params))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		panic(fm.method + ": bad template: " + err.Error())
	}
	m := &fuzzMutator{data: data}
	v, del := m.mutate(v)
	var buf bytes.Buffer
	if del {
		buf.WriteString("null")
	} else {
		encodeFuzz(&buf, v)
	}
	return buf.Bytes()
}

// FuzzServerRequests checks that the server survives anything a client
// sends: sel picks the method (and, above that, the client's position
// encoding and diagnostics mode), data the params (see fuzzParams). Every
// request is answered, nothing panics, and a hover on the valid document
// still answers afterwards.
func FuzzServerRequests(f *testing.F) {
	f.Fuzz(func(t *testing.T, sel uint8, data []byte) {
		fm := fuzzMethods[int(sel)%len(fuzzMethods)]
		variant := int(sel) / len(fuzzMethods)
		params := fuzzParams(fm, data)

		enc := []string{"utf-16", "utf-8", "utf-32"}[variant%3]
		pull := ""
		if variant&4 != 0 {
			pull = `,"textDocument":{"diagnostic":{}}`
		}
		h := newHarness(t)
		h.initialize(`{"capabilities":{"general":{"positionEncodings":["` + enc + `"]}` + pull + `},"initializationOptions":{"debounceMs":0}}`)
		h.open(fuzzValidURI, fuzzValidText)
		h.open(fuzzBrokenURI, fuzzBrokenText)

		if fm.notify {
			h.notify(fm.method, json.RawMessage(params))
		} else {
			err := h.call(fm.method, json.RawMessage(params), nil) // fails the test on a timeout
			if errCode(err) == jsonrpc2.InternalError {
				t.Errorf("%s %s: %v", fm.method, params, err)
			}
		}
		var hover *protocol.Hover
		err := h.call(protocol.MethodTextDocumentHover, fuzzHover, &hover)
		switch {
		case errCode(err) == jsonrpc2.InternalError:
			t.Errorf("follow-up hover after %s %s: %v", fm.method, params, err)
		case err == nil && hover == nil && !fm.notify:
			// Only a notification can have changed the valid document.
			t.Errorf("follow-up hover after %s %s: no answer", fm.method, params)
		}
		h.shutdown() // waits for the background work (diagnostics) to finish
		h.mu.Lock()
		defer h.mu.Unlock()
		for _, l := range append(append([]string(nil), h.srvLogs...), h.logs...) {
			if strings.Contains(l, "panic") {
				t.Errorf("%s %s: server log: %s", fm.method, params, l)
			}
		}
	})
}
