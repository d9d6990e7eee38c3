package lsp

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// BenchmarkCompletionResourceType is completion after `type: aws/` in a
// small blueprint: the whole built-in catalog (1,500 types) is offered,
// read from its index without opening a schema, to a client that takes
// the list's item defaults (as VS Code does). The budget is 5 ms p95.
//
//	go test ./lsp -run '^$' -bench CompletionResourceType -benchtime 200x
func BenchmarkCompletionResourceType(b *testing.B) {
	content := "version: 2025-11-02\nresources:\n  fn:\n    type: aws/\n"
	name := "types.blueprint.yaml"
	h := newHarness(b)
	h.initialize(`{"capabilities":{"textDocument":{"completion":{"completionList":{"itemDefaults":["data","editRange","insertTextFormat"]},"completionItem":{"snippetSupport":true,"resolveSupport":{"properties":["documentation"]}}}}},"initializationOptions":{"debounceMs":0}}`)
	h.open(name, content)
	h.WaitDiagnostics(name, 1)
	params := map[string]any{"textDocument": map[string]any{"uri": string(docURI(name))},
		"position": newTestMapper(content).pos(strings.Index(content, "aws/") + len("aws/"))}
	var lat latencies
	var size, items int
	var last []byte
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		var raw json.RawMessage
		lat.time(func() {
			if err := h.call(protocol.MethodTextDocumentCompletion, params, &raw); err != nil {
				b.Fatal(err)
			}
		})
		size = len(raw)
		last = raw
		var list struct{ Items []struct{ Label string } }
		if err := json.Unmarshal(raw, &list); err != nil {
			b.Fatal(err)
		}
		items = len(list.Items)
	}
	b.StopTimer()
	if items < 1500 {
		b.Fatalf("%d items", items)
	}
	lat.report(b)
	// The server's own share: the handler and the encoding of its result,
	// without the pipe and the test client's decoding.
	var srvLat latencies
	cp := &protocol.CompletionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: docURI(name)}, Position: newTestMapper(content).pos(strings.Index(content, "aws/") + len("aws/"))}}
	for range 200 {
		srvLat.time(func() {
			res, err := h.srv.Completion(context.Background(), cp)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := protocol.Marshal(res); err != nil {
				b.Fatal(err)
			}
		})
	}
	slices.Sort(srvLat)
	b.ReportMetric(float64(srvLat[len(srvLat)/2].Microseconds())/1000, "server-p50-ms")
	b.ReportMetric(float64(srvLat[len(srvLat)*95/100].Microseconds())/1000, "server-p95-ms")
	if testing.Verbose() {
		b.Log(string(last[:1500]))
	}
	b.ReportMetric(float64(size), "resp-bytes")
	b.ReportMetric(float64(items), "items")
	h.shutdown()
}
