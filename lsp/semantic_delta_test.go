package lsp

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/blueprint-ls/blueprint-ls/internal/gen"
)

// applyTokenEdits applies delta edits to old the way a client does.
func applyTokenEdits(old []uint32, edits []protocol.SemanticTokensEdit) []uint32 {
	out := slices.Clone(old)
	for i := len(edits) - 1; i >= 0; i-- { // from the back, so starts stay valid
		e := edits[i]
		out = slices.Replace(out, int(e.Start), int(e.Start+e.DeleteCount), e.Data...)
	}
	return out
}

func TestTokenEdit(t *testing.T) {
	a, b, c, d := []uint32{0, 0, 1, 1, 0}, []uint32{1, 2, 3, 2, 0}, []uint32{0, 4, 5, 3, 1}, []uint32{2, 0, 2, 0, 0}
	w, w2 := []uint32{300, 70000, 1, 2, 0}, []uint32{300, 70001, 1, 2, 0}
	cat := func(ts ...[]uint32) []uint32 { return slices.Concat(append([][]uint32{{}}, ts...)...) }
	tests := []struct {
		name     string
		old, cur []uint32
		want     []protocol.SemanticTokensEdit
	}{
		{"equal", cat(a, b), cat(a, b), []protocol.SemanticTokensEdit{}},
		{"both empty", nil, nil, []protocol.SemanticTokensEdit{}},
		{"from empty", nil, cat(a), []protocol.SemanticTokensEdit{{Start: 0, DeleteCount: 0, Data: a}}},
		{"to empty", cat(a, b), nil, []protocol.SemanticTokensEdit{{Start: 0, DeleteCount: 10, Data: []uint32{}}}},
		{"insert middle", cat(a, c), cat(a, b, c), []protocol.SemanticTokensEdit{{Start: 5, DeleteCount: 0, Data: b}}},
		{"delete middle", cat(a, b, c), cat(a, c), []protocol.SemanticTokensEdit{{Start: 5, DeleteCount: 5, Data: []uint32{}}}},
		{"replace one", cat(a, b, c), cat(a, d, c), []protocol.SemanticTokensEdit{{Start: 5, DeleteCount: 5, Data: d}}},
		{"append", cat(a), cat(a, b), []protocol.SemanticTokensEdit{{Start: 5, DeleteCount: 0, Data: b}}},
		// A repeated token: prefix and suffix must not overlap.
		{"repeat", cat(a, a), cat(a, a, a), []protocol.SemanticTokensEdit{{Start: 10, DeleteCount: 0, Data: a}}},
		// One changed number inside a token replaces the whole token.
		{"aligned", cat(a, b), cat(a, []uint32{1, 2, 3, 2, 1}), []protocol.SemanticTokensEdit{{Start: 5, DeleteCount: 5, Data: []uint32{1, 2, 3, 2, 1}}}},
		// Numbers past a byte are kept whole (packedTokens.wide).
		{"wide kept", cat(a, w, b), cat(a, w, c), []protocol.SemanticTokensEdit{{Start: 10, DeleteCount: 5, Data: c}}},
		{"wide changed", cat(a, w, b), cat(a, w2, b), []protocol.SemanticTokensEdit{{Start: 5, DeleteCount: 5, Data: w2}}},
		{"255 is wide", cat(a, []uint32{255, 0, 1, 1, 0}), cat(a, []uint32{255, 0, 1, 1, 0}), []protocol.SemanticTokensEdit{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tokenEdit(packTokens(tt.old, packedTokens{}), tt.cur, nil)
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Fatalf("tokenEdit = %v, want %v", got, tt.want)
			}
			if r := applyTokenEdits(tt.old, got); !slices.Equal(r, tt.cur) && len(r)+len(tt.cur) > 0 {
				t.Fatalf("applying gives %v, want %v", r, tt.cur)
			}
		})
	}
}

// TestPackTokens: a packed array gives back every token, numbers past a
// byte included, whether packed alone or after another array; packed
// after one that differs in a few tokens (a wide one's numbers among
// them), it shares the chunks that hold none of them and copies those
// that do.
func TestPackTokens(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	number := func() uint32 {
		switch r.IntN(4) {
		case 0:
			return r.Uint32()
		case 1:
			return uint32(250 + r.IntN(10))
		default:
			return uint32(r.IntN(20))
		}
	}
	unpack := func(p packedTokens) []uint32 {
		var got []uint32
		for i := range p.tokens() {
			tok := p.token(i)
			got = append(got, tok[:]...)
		}
		return got
	}
	for range 200 {
		data := make([]uint32, semTokenLen*r.IntN(3*packChunk/semTokenLen))
		for i := range data {
			data[i] = number()
		}
		p := packTokens(data, packedTokens{})
		if got := unpack(p); !slices.Equal(got, data) && len(got)+len(data) > 0 {
			t.Fatalf("packed %v, unpacked %v", data, got)
		}
		if len(data) == 0 {
			continue
		}
		next := slices.Clone(data)
		changed := map[int]bool{}
		for range r.IntN(3) {
			i := r.IntN(len(next))
			if v := number(); v != next[i] {
				next[i] = v
				changed[i/packChunk] = true
			}
		}
		q := packTokens(next, p)
		if got := unpack(q); !slices.Equal(got, next) {
			t.Fatalf("packed after another %v, unpacked %v", next, got)
		}
		for k := range q.chunks {
			shared, same := &q.chunks[k][0] == &p.chunks[k][0], string(q.chunks[k]) == string(p.chunks[k])
			if shared != same || !changed[k] && !shared {
				t.Fatalf("chunk %d: shared %v, same bytes %v, a token changed %v", k, shared, same, changed[k])
			}
		}
	}
}

// deltaReply is either answer of full/delta.
type deltaReply struct {
	ResultID *string                       `json:"resultId"`
	Data     []uint32                      `json:"data"`
	Edits    []protocol.SemanticTokensEdit `json:"edits"`
}

func tokensCall(t testing.TB, h *harness, method string, params any) (deltaReply, int) {
	t.Helper()
	var raw json.RawMessage
	if err := h.call(method, params, &raw); err != nil {
		t.Fatal(err)
	}
	var r deltaReply
	if err := json.Unmarshal(raw, &r); err != nil || r.ResultID == nil {
		t.Fatalf("%s: %v, %s", method, err, raw)
	}
	return r, len(raw)
}

// TestSemanticTokensDelta: full, a one-line edit in the middle of a
// 1,000-resource blueprint, then a delta whose edits turn the first array
// into exactly the new full array; an unknown id gets the full array.
func TestSemanticTokensDelta(t *testing.T) {
	h := newHarness(t)
	res := h.initialize(fastInit)
	if opts, ok := res.Capabilities.SemanticTokensProvider.(*protocol.SemanticTokensOptions); !ok {
		t.Fatalf("semanticTokensProvider = %#v", res.Capabilities.SemanticTokensProvider)
	} else if f, ok := opts.Full.(*protocol.SemanticTokensFullDelta); !ok || f.Delta == nil || !*f.Delta {
		t.Fatalf("full = %#v, want {delta: true}", opts.Full)
	}
	content := string(gen.Blueprint(1000, "yaml"))
	h.open("big.blueprint.yaml", content)
	h.WaitDiagnostics("big.blueprint.yaml", 1)
	td := map[string]any{"uri": string(docURI("big.blueprint.yaml"))}

	first, fullSize := tokensCall(t, h, protocol.MethodTextDocumentSemanticTokensFull, map[string]any{"textDocument": td})
	// Insert one comment line before the middle resource.
	at := strings.Index(content, "\n  r500:\n")
	if at < 0 {
		t.Fatal("no resource r500")
	}
	line := uint32(strings.Count(content[:at+1], "\n"))
	h.changeRange("big.blueprint.yaml", 2, rng(line, 0, line, 0), "  # note\n")
	h.WaitDiagnostics("big.blueprint.yaml", 2)

	delta, deltaSize := tokensCall(t, h, protocol.MethodTextDocumentSemanticTokensFullDelta,
		map[string]any{"textDocument": td, "previousResultId": *first.ResultID})
	if delta.Data != nil || len(delta.Edits) != 1 {
		t.Fatalf("delta = %d data, %d edits; want one edit", len(delta.Data), len(delta.Edits))
	}
	if *delta.ResultID == *first.ResultID {
		t.Errorf("delta kept result id %s", *delta.ResultID)
	}
	now, _ := tokensCall(t, h, protocol.MethodTextDocumentSemanticTokensFull, map[string]any{"textDocument": td})
	if got := applyTokenEdits(first.Data, delta.Edits); !slices.Equal(got, now.Data) {
		t.Fatalf("first array + delta (%d numbers) differs from the full array (%d numbers)", len(got), len(now.Data))
	}
	if e := delta.Edits[0]; e.Start%semTokenLen != 0 || e.DeleteCount%semTokenLen != 0 || len(e.Data)%semTokenLen != 0 {
		t.Errorf("edit %+v not aligned to whole tokens", e)
	}
	t.Logf("one-line edit, 1,000 resources: full %d bytes, delta %d bytes", fullSize, deltaSize)
	if deltaSize*20 > fullSize {
		t.Errorf("delta %d bytes is not much smaller than full %d bytes", deltaSize, fullSize)
	}

	// The delta answered against the array just fetched: nothing changed.
	same, _ := tokensCall(t, h, protocol.MethodTextDocumentSemanticTokensFullDelta,
		map[string]any{"textDocument": td, "previousResultId": *now.ResultID})
	if same.Edits == nil || len(same.Edits) != 0 {
		t.Errorf("unchanged document: edits %v, want []", same.Edits)
	}
	for _, id := range []string{"nope", *first.ResultID} { // unknown, and evicted (only two kept)
		full, _ := tokensCall(t, h, protocol.MethodTextDocumentSemanticTokensFullDelta,
			map[string]any{"textDocument": td, "previousResultId": id})
		if full.Edits != nil || !slices.Equal(full.Data, now.Data) {
			t.Errorf("previousResultId %q: %d edits, %d data; want the full array", id, len(full.Edits), len(full.Data))
		}
	}
	h.close("big.blueprint.yaml")
	h.shutdown()
	if n := len(h.srv.tokens.docs); n != 0 {
		t.Errorf("%d documents' token arrays kept after close", n)
	}
}

// TestTokenEditRuns holds tokenEdit stepping over runs known to be equal
// to it reading every token: random arrays with a change in the middle,
// and true runs in the prefix, in the suffix and across the change.
func TestTokenEditRuns(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 32))
	tok := func() []uint32 { return []uint32{uint32(r.IntN(3)), uint32(r.IntN(300)), 1, uint32(r.IntN(3)), 0} }
	for range 500 {
		var old []uint32
		for range r.IntN(60) {
			old = append(old, tok()...)
		}
		nOld := len(old) / semTokenLen
		at := r.IntN(nOld + 1)
		del := r.IntN(nOld - at + 1)
		var ins []uint32
		for range r.IntN(5) {
			ins = append(ins, tok()...)
		}
		cur := slices.Concat(old[:at*semTokenLen], ins, old[(at+del)*semTokenLen:])
		nCur := len(cur) / semTokenLen
		// Runs: pieces of the part before the change (shift 0) and after
		// it (shift del-len(ins)), in order, apart.
		var runs []sameRun
		for i := 0; i < nCur; {
			lo := i + r.IntN(4)
			hi := lo + r.IntN(6)
			i = hi + 1
			shift := 0
			if lo >= at+len(ins)/semTokenLen {
				shift = del - len(ins)/semTokenLen
			} else if hi > at {
				continue
			}
			if lo < hi && hi <= nCur && hi+shift <= nOld {
				runs = append(runs, sameRun{lo, hi, shift})
			}
		}
		old2 := packTokens(old, packedTokens{})
		if got, want := tokenEdit(old2, cur, runs), tokenEdit(old2, cur, nil); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("old %v\ncur %v\nruns %v\ngot %v\nwant %v", old, cur, runs, got, want)
		}
	}
}
