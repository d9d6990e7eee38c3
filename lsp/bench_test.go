package lsp

import (
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/metrics"
	"slices"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/blueprint-ls/blueprint-ls/internal/gen"
	"github.com/blueprint-ls/blueprint-ls/schema"
)

// The benchmarks run the real server in-process over net.Pipe on
// generated blueprints, so every figure includes the protocol's encoding.
// Each reports the median and 95th percentile of its operation (p50-ms,
// p95-ms) besides ns/op. Run them with
//
//	go test ./lsp -run '^$' -bench . -benchtime 50x

// latencies records one duration per operation and reports percentiles.
type latencies []time.Duration

func (l *latencies) time(f func()) {
	start := time.Now()
	f()
	*l = append(*l, time.Since(start))
}

func (l latencies) report(b *testing.B) {
	if len(l) == 0 {
		return
	}
	s := slices.Clone(l)
	slices.Sort(s)
	at := func(p float64) float64 {
		i := int(p * float64(len(s)-1))
		return float64(s[i].Microseconds()) / 1000
	}
	b.ReportMetric(at(0.50), "p50-ms")
	b.ReportMetric(at(0.95), "p95-ms")
}

// benchInit is the benchmarks' push client.
const benchInit = `{"capabilities":{"textDocument":{"documentSymbol":{"hierarchicalDocumentSymbolSupport":true},"completion":{"completionList":{"itemDefaults":["data"]},"completionItem":{"snippetSupport":true,"resolveSupport":{"properties":["documentation"]}}}}},"initializationOptions":{"debounceMs":0}}`

// benchDoc opens a generated blueprint of n resources and waits for its
// full diagnostics.
func benchDoc(b *testing.B, n int, format string) (*harness, string, string) {
	return benchDocInit(b, n, format, benchInit)
}

func benchDocInit(b *testing.B, n int, format, init string) (*harness, string, string) {
	content := string(gen.Blueprint(n, format))
	name := "bench.blueprint." + format
	h := newHarness(b)
	h.initialize(init)
	h.open(name, content)
	h.WaitDiagnostics(name, 1)
	return h, name, content
}

// middle returns the UTF-16 position of off(the occurrence of needle in
// the resource halfway through the document).
func middle(b testing.TB, content, needle string, delta int) protocol.Position {
	marker, prefix := "\n  r%d:\n", "\n  r"
	switch {
	case strings.HasPrefix(content, "version \""): // the blueprint language
		marker, prefix = "\nresource r%d: ", "\nresource r"
	case strings.HasPrefix(content, "{"): // JSON
		marker, prefix = "\n    \"r%d\": {", "\n    \"r"
	}
	start := strings.Index(content, fmt.Sprintf(marker, strings.Count(content, prefix)/2))
	if start < 0 {
		b.Fatal("no middle resource")
	}
	i := strings.Index(content[start:], needle)
	if i < 0 {
		b.Fatalf("no %q in the middle resource", needle)
	}
	return newTestMapper(content).pos(start + i + delta)
}

// BenchmarkEditToDiagnostics measures one incremental edit to full
// diagnostics, with debounceMs 0. BenchmarkParseBaseline is the same
// document parsed directly, so the server's overhead shows as the ratio.
// The default-settings cases are a push client that sets nothing, so any
// default debounce shows in them.
func BenchmarkEditToDiagnostics(b *testing.B) {
	defaults := strings.Replace(benchInit, `,"initializationOptions":{"debounceMs":0}`, "", 1)
	for _, n := range []int{100, 1000, 5000} {
		for _, format := range []string{"yaml", "json", "default-settings"} {
			init := benchInit
			if format == "default-settings" {
				init, format = defaults, "yaml"
				if n == 5000 {
					continue
				}
			} else if n == 100 {
				continue
			}
			name := fmt.Sprintf("%s/%d", format, n)
			if init == defaults {
				name = fmt.Sprintf("default-settings/%s/%d", format, n)
			}
			b.Run(name, func(b *testing.B) {
				h, name, content := benchDocInit(b, n, format, init)
				b.SetBytes(int64(len(content)))
				b.ReportAllocs()
				var lat latencies
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					v := int32(i + 2)
					// Alternately insert and delete a space at the very end.
					m := newTestMapper(content)
					end := m.pos(len(content))
					lat.time(func() {
						if i%2 == 0 {
							h.changeRange(name, v, rng(end.Line, end.Character, end.Line, end.Character), " ")
							content += " "
						} else {
							start := m.pos(len(content) - 1)
							h.changeRange(name, v, rng(start.Line, start.Character, end.Line, end.Character), "")
							content = content[:len(content)-1]
						}
						h.WaitDiagnostics(name, v)
					})
				}
				b.StopTimer()
				lat.report(b)
				h.shutdown()
			})
		}
	}
}

// BenchmarkFeatures measures the requests a user makes while typing, on
// the YAML blueprints: completion inside ${..} (variables, and resource
// names, the longest list, whose items go without documentation to this
// client, which resolves it), resolving one of those items, hover on a
// reference, document symbols and full semantic tokens. resp-bytes is the
// size of the last response's result.
func BenchmarkFeatures(b *testing.B) {
	for _, n := range []int{1000, 5000} {
		h, name, content := benchDoc(b, n, "yaml")
		td := map[string]any{"uri": string(docURI(name))}
		cases := []struct {
			name   string
			method string
			params any
		}{
			{"completion-variables", protocol.MethodTextDocumentCompletion,
				map[string]any{"textDocument": td, "position": middle(b, content, "${variables.env}", len("${variables."))}},
			{"completion-resources", protocol.MethodTextDocumentCompletion,
				map[string]any{"textDocument": td, "position": middle(b, content, "${resources.r", len("${resources."))}},
			{"completion-resolve", protocol.MethodCompletionItemResolve, firstItem(b, h, td, middle(b, content, "${resources.r", len("${resources.")))},
			{"hover", protocol.MethodTextDocumentHover,
				map[string]any{"textDocument": td, "position": middle(b, content, "${resources.r", len("${resources.r"))}},
			{"documentSymbol", protocol.MethodTextDocumentDocumentSymbol, map[string]any{"textDocument": td}},
			{"semanticTokens", protocol.MethodTextDocumentSemanticTokensFull, map[string]any{"textDocument": td}},
		}
		for _, c := range cases {
			b.Run(fmt.Sprintf("%s/%d", c.name, n), func(b *testing.B) {
				b.ReportAllocs()
				var lat latencies
				var size int
				for i := 0; i < b.N; i++ {
					lat.time(func() {
						var raw json.RawMessage
						if err := h.call(c.method, c.params, &raw); err != nil {
							b.Fatal(err)
						}
						size = len(raw)
					})
				}
				b.StopTimer()
				lat.report(b)
				b.ReportMetric(float64(size), "resp-bytes")
			})
		}
		h.shutdown()
	}
}

// firstItem completes at p and returns the first item, to be resolved.
func firstItem(b *testing.B, h *harness, td map[string]any, p protocol.Position) protocol.CompletionItem {
	var list protocol.CompletionList
	if err := h.call(protocol.MethodTextDocumentCompletion, map[string]any{"textDocument": td, "position": p}, &list); err != nil || len(list.Items) == 0 {
		b.Fatalf("completion: %v, %d items", err, len(list.Items))
	}
	return list.Items[0]
}

// BenchmarkPeakHeap reports the heap while a 1,000-resource blueprint is
// opened, analysed, edited ten times and asked for the benchmarked
// features: peak-heap-MB is the largest heap (garbage included) a poller
// saw, every millisecond; peak-live-MB the largest live heap, measured
// after a forced GC at the end of each step.
func BenchmarkPeakHeap(b *testing.B) {
	for i := 0; i < b.N; i++ {
		runtime.GC()
		var live uint64
		peak, stop := pollHeap()
		sample := func() {
			var ms runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&ms)
			live = max(live, ms.HeapAlloc)
		}
		h, name, content := benchDoc(b, 1000, "yaml")
		sample()
		td := map[string]any{"uri": string(docURI(name))}
		for v := int32(2); v < 12; v++ {
			h.changeFull(name, v, content)
			h.WaitDiagnostics(name, v)
			sample()
			for _, m := range []string{protocol.MethodTextDocumentDocumentSymbol, protocol.MethodTextDocumentSemanticTokensFull} {
				_ = h.call(m, map[string]any{"textDocument": td}, nil)
				sample()
			}
			_ = h.call(protocol.MethodTextDocumentCompletion, map[string]any{"textDocument": td,
				"position": middle(b, content, "${resources.r", len("${resources."))}, nil)
			sample()
		}
		h.shutdown()
		h.forget()
		stop()
		b.ReportMetric(float64(*peak)/(1<<20), "peak-heap-MB")
		b.ReportMetric(float64(live)/(1<<20), "peak-live-MB")
	}
}

// pollHeap samples the bytes of live and dead heap objects every
// millisecond until stop is called; *peak is the largest sample.
func pollHeap() (peak *uint64, stop func()) {
	peak = new(uint64)
	done, finished := make(chan struct{}), make(chan struct{})
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	go func() {
		defer close(finished)
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(s)
			*peak = max(*peak, s[0].Value.Uint64())
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return peak, func() { close(done); <-finished }
}

func BenchmarkParseBaseline(b *testing.B) {
	for _, n := range []int{1000, 5000} {
		for _, format := range []string{"yaml", "json"} {
			b.Run(fmt.Sprintf("%s/%d", format, n), func(b *testing.B) {
				content := gen.Blueprint(n, format)
				uri := "file:///bench.blueprint." + format
				b.SetBytes(int64(len(content)))
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					f := schema.Parse(uri, content)
					schema.Load(f)
				}
			})
		}
	}
}

// BenchmarkEditInResource is BenchmarkEditToDiagnostics with the edit
// inside the resource in the middle of the document: an x typed after an
// integer of its spec and removed again, so that every edit adds or
// removes an error. The server splices the resource into the previous
// tree and carries the other definitions over from the previous analysis.
func BenchmarkEditInResource(b *testing.B) { editInResource(b, "yaml", "visibilityTimeout: 45", "x") }

// BenchmarkEditInResourceBP is BenchmarkEditInResource on the same
// blueprint in the blueprint language (.bp): the server re-parses the
// edited resource statement alone (bplang.Splice). ".5" is typed rather
// than "x" (45x would be a syntax error, which is never spliced): 45.5
// is a float where the field takes an integer.
func BenchmarkEditInResourceBP(b *testing.B) {
	editInResource(b, "bp", "visibilityTimeout = 45", ".5")
}

// BenchmarkEditInResourceJSON is BenchmarkEditInResource on the same
// blueprint in JSON: the server re-parses the edited member alone
// (reparseJSON). ".5" is typed, as in .bp (45x would be a syntax error).
func BenchmarkEditInResourceJSON(b *testing.B) {
	editInResource(b, "json", `"visibilityTimeout": 45`, ".5")
}

// editInResource types typed after needle in the middle resource and
// removes it again, each version to its diagnostics.
func editInResource(b *testing.B, format, needle, typed string) {
	for _, n := range []int{100, 1000, 5000, 20000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			typeAndUndo(b, n, format, func(content string) protocol.Position {
				return middle(b, content, needle, len(needle))
			}, typed)
		})
	}
}

// typeAndUndo opens the generated blueprint of n resources in format,
// then types typed at the position at finds and removes it again, each
// version to its diagnostics, reporting the latencies.
func typeAndUndo(b *testing.B, n int, format string, at func(content string) protocol.Position, typed string) {
	h, name, content := benchDoc(b, n, format)
	typeAndUndoIn(b, h, name, content, at, typed)
}

// typeAndUndoIn is typeAndUndo on the document name, open in h.
func typeAndUndoIn(b *testing.B, h *harness, name, content string, at func(content string) protocol.Position, typed string) {
	p := at(content)
	b.SetBytes(int64(len(content)))
	b.ReportAllocs()
	var lat latencies
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		v := int32(i + 2)
		lat.time(func() {
			typeOrUndo(h, name, v, p, typed)
			h.WaitDiagnostics(name, v)
		})
	}
	b.StopTimer()
	lat.report(b)
	h.shutdown()
}

// typeOrUndo makes version v of the document name: typed inserted at p
// when v is even, removed again when it is odd.
func typeOrUndo(h *harness, name string, v int32, p protocol.Position, typed string) {
	if v%2 == 0 {
		h.changeRange(name, v, rng(p.Line, p.Character, p.Line, p.Character), typed)
	} else {
		h.changeRange(name, v, rng(p.Line, p.Character, p.Line, p.Character+uint32(len(typed))), "")
	}
}

// BenchmarkFirstEditInResource types into a resource no edit has touched
// yet, a different one each time, spread over the document: each edit
// is the first in its definition. Padded whole at the open (the
// default), it finds padding to take and moves nothing after it;
func BenchmarkFirstEditInResource(b *testing.B) {
	for _, format := range []string{"yaml", "bp", "json"} {
		for _, mode := range []string{"whole"} {
			for _, n := range []int{100, 1000, 5000, 20000} {
				b.Run(fmt.Sprintf("%s/%s/%d", format, mode, n), func(b *testing.B) {
					var opts []harnessOption
					content := string(gen.Blueprint(n, format))
					name := "bench.blueprint." + format
					h := newHarness(b, opts...)
					h.initialize(benchInit)
					h.open(name, content)
					h.WaitDiagnostics(name, 1)
					m := newTestMapper(content)
					b.SetBytes(int64(len(content)))
					b.ReportAllocs()
					var lat latencies
					b.ResetTimer()
					for i := 0; i < b.N; i++ {
						// A resource never edited before (b.N <= n), spread
						// over the document; the text before it is unchanged.
						b.StopTimer()
						k := (i*7919 + n/2) % n
						at := strings.Index(content, fmt.Sprintf("'Resource %d of", k))
						if at < 0 {
							at = strings.Index(content, fmt.Sprintf("\"Resource %d of", k))
						}
						if at < 0 {
							b.Fatalf("no description in r%d", k)
						}
						p := m.pos(at + 1)
						b.StartTimer()
						v := int32(i + 2)
						lat.time(func() {
							h.changeRange(name, v, rng(p.Line, p.Character, p.Line, p.Character), "x")
							h.WaitDiagnostics(name, v)
						})
						// The next edit's position needs no new text: each
						// edit types on a line of its own resource, never
						// edited before, and adds no line, so every other
						// resource's line and column stay what they were.
						// (Making the client's text again here left 27 MB
						// of garbage per edit at 20,000 resources, whose
						// collection then landed in the server's next edit.)
					}
					b.StopTimer()
					lat.report(b)
					h.shutdown()
				})
			}
		}
	}
}

// BenchmarkEditInValue breaks and mends a reference in the value every
// resource references (values.prefix: "${join(list(variables.env, ...":
// variables.env becomes variables.envX, an unknown variable, and back).
// The value's declared type fixes what its dependents read, so they are
// not checked again: the edit costs what an edit inside one resource
// costs, however many resources reference the value.
func BenchmarkEditInValue(b *testing.B) {
	for _, format := range []string{"yaml", "json", "bp"} {
		for _, n := range []int{100, 1000, 5000, 20000} {
			b.Run(fmt.Sprintf("%s/%d", format, n), func(b *testing.B) {
				typeAndUndo(b, n, format, func(content string) protocol.Position {
					at := strings.Index(content, "join(list(variables.env")
					if at < 0 {
						b.Fatal("no values.prefix")
					}
					return newTestMapper(content).pos(at + len("join(list(variables.env"))
				}, "X")
			})
		}
	}
}

// BenchmarkCompleteAfterEdit is what typing asks: an edit (a digit
// typed after an integer of the middle resource's spec and removed
// again), then at once a completion in that resource, answered for the
// edited version: inside ${..} (expr: the variables' names, a short list,
// so that the cost is the edited version's, not the list's) and of the
// spec's keys (key: the path to the cursor read from the text). The
// latency runs from the change to the completion list; the diagnostics
// are not awaited.
func BenchmarkCompleteAfterEdit(b *testing.B) {
	for _, kind := range []string{"expr", "key"} {
		for _, n := range []int{1000, 5000, 20000} {
			b.Run(fmt.Sprintf("%s/%d", kind, n), func(b *testing.B) {
				h, name, content := benchDoc(b, n, "yaml")
				td := map[string]any{"uri": string(docURI(name))}
				edit := middle(b, content, "visibilityTimeout: 45", len("visibilityTimeout: 45"))
				comp := middle(b, content, "${variables.env}", len("${variables."))
				if kind == "key" {
					comp = middle(b, content, "visibilityTimeout: 45", len("visibility"))
				}
				b.ReportAllocs()
				var lat latencies
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					v := int32(i + 2)
					lat.time(func() {
						typeOrUndo(h, name, v, edit, "7")
						var list protocol.CompletionList
						if err := h.call(protocol.MethodTextDocumentCompletion, map[string]any{"textDocument": td, "position": comp}, &list); err != nil || len(list.Items) == 0 {
							b.Fatalf("completion: %v, %d items", err, len(list.Items))
						}
					})
				}
				b.StopTimer()
				lat.report(b)
				h.shutdown()
			})
		}
	}
}

// BenchmarkFeaturesAfterEdit is every request an editor sends on the
// version an edit makes: a character is typed (or removed again) in the
// description of the middle resource, then at once the request is sent
// and answered for that version. The latency runs from the change to the
// answer; the diagnostics are not awaited. The positions are in the
// middle resources, the inlay hints' range is the ~60 lines a window
// shows around them; semanticTokens/full/delta asks against the array it
// answered last.
func BenchmarkFeaturesAfterEdit(b *testing.B) {
	for _, format := range []string{"yaml", "bp"} {
		for _, n := range []int{1000, 5000, 20000} {
			featuresAfterEdit(b, format, n)
		}
	}
}

// afterEditNeedles are, per format, the text found in the middle
// resources for each position the requests ask at: the edit, a key being
// typed, a variable, a resource reference and a function call.
var afterEditNeedles = map[string]struct{ edit, key, expr, ref, call string }{
	"yaml": {"description: 'Resource ", "\n      t", "${variables.", "${resources.r", "${if("},
	"bp":   {"description = \"Resource ", "\n        t", "${variables.", "${resources.r", "${if("},
}

// featuresAfterEdit runs BenchmarkFeaturesAfterEdit's requests on one
// generated blueprint of n resources in format.
func featuresAfterEdit(b *testing.B, format string, n int) {
	h, name, content := benchDoc(b, n, format)
	defer h.shutdown()
	td := map[string]any{"uri": string(docURI(name))}
	nd := afterEditNeedles[format]
	at := func(needle string) protocol.Position { return middle(b, content, needle, len(needle)) }
	edit, key, expr, ref, call := at(nd.edit), at(nd.key), at(nd.expr), at(nd.ref), at(nd.call)
	here := map[string]any{"textDocument": td, "position": ref}
	window := rng(max(ref.Line, 30)-30, 0, ref.Line+30, 0)
	var lastTokens string
	cases := []struct {
		name, method string
		params       func() any
	}{
		{"completion-expr", protocol.MethodTextDocumentCompletion, func() any { return map[string]any{"textDocument": td, "position": expr} }},
		{"completion-key", protocol.MethodTextDocumentCompletion, func() any { return map[string]any{"textDocument": td, "position": key} }},
		{"hover", protocol.MethodTextDocumentHover, func() any { return here }},
		{"signatureHelp", protocol.MethodTextDocumentSignatureHelp, func() any { return map[string]any{"textDocument": td, "position": call} }},
		{"documentHighlight", protocol.MethodTextDocumentDocumentHighlight, func() any { return here }},
		{"definition", protocol.MethodTextDocumentDefinition, func() any { return here }},
		{"semanticTokens-full", protocol.MethodTextDocumentSemanticTokensFull, func() any { return map[string]any{"textDocument": td} }},
		{"semanticTokens-delta", protocol.MethodTextDocumentSemanticTokensFullDelta, func() any {
			return map[string]any{"textDocument": td, "previousResultId": lastTokens}
		}},
		{"documentSymbol", protocol.MethodTextDocumentDocumentSymbol, func() any { return map[string]any{"textDocument": td} }},
		{"codeLens", protocol.MethodTextDocumentCodeLens, func() any { return map[string]any{"textDocument": td} }},
		{"inlayHint", protocol.MethodTextDocumentInlayHint, func() any { return map[string]any{"textDocument": td, "range": window} }},
		{"foldingRange", protocol.MethodTextDocumentFoldingRange, func() any { return map[string]any{"textDocument": td} }},
		{"documentLink", protocol.MethodTextDocumentDocumentLink, func() any { return map[string]any{"textDocument": td} }},
		{"codeAction", protocol.MethodTextDocumentCodeAction, func() any {
			return map[string]any{"textDocument": td, "range": protocol.Range{Start: ref, End: ref}, "context": map[string]any{"diagnostics": []any{}}}
		}},
	}
	v := int32(1)
	for _, c := range cases {
		b.Run(fmt.Sprintf("%s/%s/%d", format, c.name, n), func(b *testing.B) {
			b.ReportAllocs()
			var lat latencies
			for i := 0; i < b.N; i++ {
				v++
				params := c.params()
				lat.time(func() {
					typeOrUndo(h, name, v, edit, "7")
					var raw json.RawMessage
					if err := h.call(c.method, params, &raw); err != nil || len(raw) == 0 || string(raw) == "null" {
						b.Fatalf("%s: %v, %s", c.method, err, raw)
					}
					var tokens struct{ ResultID string }
					if json.Unmarshal(raw, &tokens) == nil && tokens.ResultID != "" {
						lastTokens = tokens.ResultID
					}
				})
			}
			b.StopTimer()
			lat.report(b)
		})
	}
}
