package lsp

import (
	"encoding/json"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/blueprint-ls/blueprint-ls/internal/gen"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// TestCompletionResolve checks that a long completion list goes without
// documentation to a client that can resolve it, that resolving an item
// gives the documentation a client without resolve gets inline, that a
// short list keeps its documentation, and that an item of an older
// version resolves to itself.
func TestCompletionResolve(t *testing.T) {
	content := string(gen.Blueprint(300, "yaml"))
	at := strings.Index(content, "${resources.r") + len("${resources.")
	// complete completes at off and, like a client, gives every item the
	// list's default data.
	complete := func(h *harness, u string, off int) []protocol.CompletionItem {
		t.Helper()
		var list protocol.CompletionList
		p := map[string]any{"textDocument": map[string]any{"uri": u}, "position": newTestMapper(content).pos(off)}
		if err := h.call(protocol.MethodTextDocumentCompletion, p, &list); err != nil {
			t.Fatal(err)
		}
		if list.ItemDefaults != nil && len(list.ItemDefaults.Data) > 0 {
			for i := range list.Items {
				if len(list.Items[i].Data) > 0 {
					t.Fatalf("item %s has data besides the default", list.Items[i].Label)
				}
				list.Items[i].Data = list.ItemDefaults.Data
			}
		}
		return list.Items
	}
	open := func(init string) (*harness, string) {
		h := newHarness(t)
		h.initialize(init)
		u := "file:///w/big.blueprint.yaml"
		h.open(u, content)
		h.WaitDiagnostics(u, 1)
		return h, u
	}
	plain, pu := open(fastInit)
	inline := complete(plain, pu, at)
	plain.shutdown()

	for _, list := range []string{`{}`, `{"itemDefaults":["editRange","data"]}`} {
		h, u := open(`{"capabilities":{"textDocument":{"completion":{"completionList":` + list + `,"completionItem":{"resolveSupport":{"properties":["documentation","detail"]}}}}},"initializationOptions":{"debounceMs":0}}`)
		lazy := complete(h, u, at)
		if len(lazy) != len(inline) || len(lazy) <= lazyDocsAbove {
			t.Fatalf("%d lazy items, %d inline; want the same number, over %d", len(lazy), len(inline), lazyDocsAbove)
		}
		resolved := 0
		for i, it := range lazy {
			if it.Documentation != nil || len(it.Data) == 0 {
				t.Fatalf("item %s: documentation %v, data %s; want none and some", it.Label, it.Documentation, it.Data)
			}
			if i%25 != 0 {
				continue
			}
			var got protocol.CompletionItem
			if err := h.call(protocol.MethodCompletionItemResolve, it, &got); err != nil {
				t.Fatal(err)
			}
			if want := docOf(t, inline[i]); want == "" || docOf(t, got) != want {
				t.Errorf("resolved %s: %v, want %v", it.Label, got.Documentation, want)
			}
			resolved++
		}
		if resolved == 0 {
			t.Fatal("nothing resolved")
		}
		short := complete(h, u, strings.Index(content, "${variables.")+len("${variables."))
		if len(short) == 0 || len(short) > lazyDocsAbove || short[0].Documentation == nil || len(short[0].Data) != 0 {
			t.Errorf("short list: %d items, first %+v; want documentation inline", len(short), short)
		}
		// The data holds the offset in the server's text (padded).
		v1 := h.srv.session.current().snapshot(u)
		srvAt, err := fromPosition(v1.Mapper(), newTestMapper(content).pos(at), source.UTF16)
		if err != nil {
			t.Fatal(err)
		}
		h.changeFull(u, 2, content+"\n")
		h.WaitDiagnostics(u, 2)
		var got protocol.CompletionItem
		if err := h.call(protocol.MethodCompletionItemResolve, lazy[0], &got); err != nil {
			t.Fatal(err)
		}
		if got.Documentation != nil {
			t.Errorf("an item of version 1 resolved against version 2: %v", got.Documentation)
		}
		var d completionData
		if err := json.Unmarshal(lazy[0].Data, &d); err != nil || d.Version != 1 || d.Offset != srvAt {
			t.Errorf("data %s (%v): want version 1, offset %d", lazy[0].Data, err, srvAt)
		}
		h.shutdown()
	}
}

// docOf is an item's documentation as JSON ("" when it has none).
func docOf(t *testing.T, it protocol.CompletionItem) string {
	t.Helper()
	if it.Documentation == nil {
		return ""
	}
	b, err := protocol.Marshal(it.Documentation)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
