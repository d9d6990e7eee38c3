package lsp

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/blueprint-ls/blueprint-ls/internal/gen"
)

// adversarialStrings are JSON string bodies (between the quotes, as
// sent) that exercise every branch of unquoteJSON.
var adversarialStrings = []string{
	``,
	`plain ascii text`,
	`a\nb\r\nc\td`,
	`\"\\\/\b\f\n\r\t`,
	`\\\\\\\\\\\\\\\\\\\\`,
	`\"\"\"\"\"\"\"\"\"`,
	`\u0041\u00e9\u4e2d\uFFFD\u0000\u001f`,
	`\ud83d\ude00 pair`,
	`\uD83D\uDE00\uD83D\uDE00`,
	`\ud83d lone high`,
	`\ude00 lone low`,
	`\ud83d\ud83d two highs`,
	`\ud83d\u0041 high then A`,
	`\ude00\ud83d\ude00 low then pair`,
	`\ud83d`,
	`\ud83d\`,
	`\ud83d\u12`,
	`\ud83d\uzzzz`,
	`\u12`,
	`\u12g4`,
	`\x`,
	`\`,
	"caf\xc3\xa9 \xe4\xb8\xad \xf0\x9f\x98\x80",
	"bad \xff byte",
	"bad \xc3 cut",
	"\xed\xa0\x80 surrogate in utf-8",
	"\xef\xbf\xbd real U+FFFD",
	"\xe4\xb8",
	"\xf0",
	"control \x01 char",
	"tab \t raw",
	"newline \n raw",
	"del \x7f ok",
	"resources:\n  a:\n    type: aws/s3/bucket\n",
	strings.Repeat(`ab\ncd\"ef\\`, 100) + "\xe2\x82\xac" + strings.Repeat("x", 37),
}

// didOpenMessage is a didOpen's params with body as the text's string.
func didOpenMessage(body string) []byte {
	return []byte(`{"textDocument":{"uri":"file:///w/a.blueprint.yaml","languageId":"yaml","version":3,"text":"` + body + `"}}`)
}

// checkDecodeDidOpen compares decodeDidOpen with the library on params:
// when the fast path answers, it must answer what the library does, and
// when the library refuses the params the fast path must not answer.
// It reports whether the fast path answered.
func checkDecodeDidOpen(t *testing.T, params []byte) bool {
	t.Helper()
	var want protocol.DidOpenTextDocumentParams
	werr := protocol.Unmarshal(params, &want)
	p, text, ok := decodeDidOpen(params)
	checkDecodeDidOpenOwned(t, params, p, text, ok)
	if !ok {
		return false
	}
	if werr != nil {
		t.Fatalf("params %q: the library refuses them (%v), the fast path decoded %q", params, werr, text)
	}
	if string(text) != want.TextDocument.Text {
		t.Fatalf("params %q: text %q, the library's %q", params, text, want.TextDocument.Text)
	}
	got := *p
	got.TextDocument.Text = want.TextDocument.Text
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("params %q: (-library +fast)\n%s", params, diff)
	}
	return true
}

// checkDecodeDidOpenOwned holds decodeDidOpenOwned, on a copy of
// params, to decodeDidOpen's answer (p, text, ok), and to leaving the
// params as they were when it does not answer.
func checkDecodeDidOpenOwned(t *testing.T, params []byte, p *protocol.DidOpenTextDocumentParams, text []byte, ok bool) {
	t.Helper()
	owned := bytes.Clone(params)
	op, otext, ook := decodeDidOpenOwned(owned)
	if ook != ok {
		t.Fatalf("params %q: decodeDidOpenOwned ok=%v, decodeDidOpen ok=%v", params, ook, ok)
	}
	if !ok {
		if !bytes.Equal(owned, params) {
			t.Fatalf("params %q: decodeDidOpenOwned refused them but left %q", params, owned)
		}
		return
	}
	if !bytes.Equal(otext, text) {
		t.Fatalf("params %q: decodeDidOpenOwned text %q, decodeDidOpen %q", params, otext, text)
	}
	if diff := cmp.Diff(*p, *op); diff != "" {
		t.Fatalf("params %q: (-decodeDidOpen +decodeDidOpenOwned)\n%s", params, diff)
	}
}

func TestDecodeDidOpenAgrees(t *testing.T) {
	for _, body := range adversarialStrings {
		params := didOpenMessage(body)
		var want protocol.DidOpenTextDocumentParams
		libOK := protocol.Unmarshal(params, &want) == nil
		if fast := checkDecodeDidOpen(t, params); fast != libOK {
			t.Errorf("text %q: fast path answered %v, the library decoded it %v", body, fast, libOK)
		}
	}
	// Shapes the fast path leaves to the library, and shapes it takes.
	for _, c := range []struct {
		params string
		fast   bool
	}{
		{`{"textDocument":{"text":"a\nb","uri":"file:///a.bp","version":1,"languageId":"bp"}}`, true},
		{` { "textDocument" : { "uri" : "file:///a.bp" , "text" : "x\ty" } , "extra" : [1, {"t": "}"}, "\"]"] } `, true},
		{`{"other":{"text":"no"},"textDocument":{"languageId":"yaml","text":"yes","more":{"text":"nested"}}}`, true},
		{`{"textDocument":{"text":"a"},"textDocument":{"text":"b"}}`, false},
		{`{"textDocument":{"text":"a","text":"b"}}`, false},
		{`{"textDocument":{"te\u0078t":"a"}}`, false},
		{`{"textDocument":{"uri":"file:///a","text":null}}`, false},
		{`{"textDocument":{"text":"a"}`, false},
		{`{"textDocument":{"text":"a"}} x`, false},
		{`{"textDocument":{"text":"a","version":1.5}}`, false},
		{`{"textDocument":{"text":"a","uri":"::odd"}}`, true},
		{`{"textDocument":{"text":"a"},}`, false},
		{`{"textDocument":{"text":"a" "b"}}`, false},
		{`null`, false},
		{`{"textDocument":{"text":"a"}, "x": tru}`, false},
	} {
		var lib protocol.DidOpenTextDocumentParams
		libErr := protocol.Unmarshal([]byte(c.params), &lib)
		if fast := checkDecodeDidOpen(t, []byte(c.params)); fast != c.fast {
			t.Errorf("params %s: fast path answered %v, want %v (library error: %v)", c.params, fast, c.fast, libErr)
		}
	}
}

// TestDecodeDidOpenGenerated decodes the opens of the generated
// blueprints, as the client encodes them, both ways.
func TestDecodeDidOpenGenerated(t *testing.T) {
	for _, format := range []string{"yaml", "json", "bp"} {
		text := string(gen.Blueprint(200, format))
		params, err := protocol.Marshal(&protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
			URI: uri.URI("file:///w/g.blueprint." + format), LanguageID: protocol.LanguageKind(format), Version: 1, Text: text}})
		if err != nil {
			t.Fatal(err)
		}
		if !checkDecodeDidOpen(t, params) {
			t.Errorf("%s: the fast path left the generated blueprint to the library", format)
		}
	}
}

// TestUnquoteJSONAgainstEncodingJSON holds unquoteJSON to encoding/json,
// which decodes strings by the same rules (invalid UTF-8 and unpaired
// surrogates become U+FFFD) and refuses the same ones.
func TestUnquoteJSONAgainstEncodingJSON(t *testing.T) {
	for _, body := range adversarialStrings {
		compareUnquote(t, body)
	}
}

func compareUnquote(t *testing.T, body string) {
	t.Helper()
	raw := []byte(`"` + body + `"`)
	var want string
	werr := json.Unmarshal(raw, &want)
	got, next, ok := unquoteJSON(raw, 0)
	if ok && next != len(raw) {
		// The body held a quote: the string ended early, encoding/json
		// refuses the rest.
		return
	}
	if ok != (werr == nil) {
		t.Fatalf("%q: unquoteJSON ok=%v, encoding/json error %v", body, ok, werr)
	}
	if ok && string(got) != want {
		t.Fatalf("%q: unquoteJSON %q, encoding/json %q", body, got, want)
	}
	// checkJSONString accepts what unquoteJSON does, but invalid UTF-8;
	// what it accepts decodes in place to unquoteJSON's answer.
	cnext, cok := checkJSONString(raw, 0)
	if cok && (!ok || cnext != next) || !cok && ok && utf8.Valid(raw) {
		t.Fatalf("%q: checkJSONString (%d, %v), unquoteJSON (%d, %v)", body, cnext, cok, next, ok)
	}
	if cok {
		if in := unquoteJSONInPlace(raw, 0, cnext); string(in) != string(got) {
			t.Fatalf("%q: unquoteJSONInPlace %q, unquoteJSON %q", body, in, got)
		}
	}
}

func FuzzUnquoteJSON(f *testing.F) {
	for _, s := range adversarialStrings {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		compareUnquote(t, body)
		checkDecodeDidOpen(t, didOpenMessage(body))
	})
}

// FuzzDecodeDidOpen mutates whole params: whatever the fast path
// answers must be the library's answer.
func FuzzDecodeDidOpen(f *testing.F) {
	for _, s := range adversarialStrings[:8] {
		f.Add(didOpenMessage(s))
	}
	f.Add([]byte(`{"other":{"text":"no"},"textDocument":{"languageId":"yaml","text":"yes","more":{"text":"n\"}"}}}`))
	f.Add([]byte(` { "textDocument" : { "uri" : "file:///a.bp" , "text" : "x\ty" } , "extra" : [1, {"t": "}"}, "\"]"] } `))
	f.Fuzz(func(t *testing.T, params []byte) {
		checkDecodeDidOpen(t, params)
	})
}

// BenchmarkDecodeDidOpen decodes the didOpen of the generated
// 5,000-resource YAML blueprint: the library's decoder (and the copy
// the server made of its string) against decodeDidOpen.
//
//	go test ./lsp -run '^$' -bench DecodeDidOpen -benchmem
func BenchmarkDecodeDidOpen(b *testing.B) {
	params, err := protocol.Marshal(&protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: "file:///w/g.blueprint.yaml", LanguageID: "yaml", Version: 1, Text: string(gen.Blueprint(5000, "yaml"))}})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("library", func(b *testing.B) {
		b.SetBytes(int64(len(params)))
		b.ReportAllocs()
		for b.Loop() {
			var p protocol.DidOpenTextDocumentParams
			if err := protocol.Unmarshal(params, &p); err != nil {
				b.Fatal(err)
			}
			_ = []byte(p.TextDocument.Text)
		}
	})
	b.Run("fast", func(b *testing.B) {
		b.SetBytes(int64(len(params)))
		b.ReportAllocs()
		for b.Loop() {
			if _, _, ok := decodeDidOpen(params); !ok {
				b.Fatal("not decoded")
			}
		}
	})
}
