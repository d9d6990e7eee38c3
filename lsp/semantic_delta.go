package lsp

import (
	"context"
	"strconv"
	"sync"

	"go.lsp.dev/protocol"

	"github.com/blueprint-ls/blueprint-ls/ide"
)

// tokenResults remembers the last full token arrays sent per document, by
// result id, so that textDocument/semanticTokens/full/delta can answer
// with the one edit that turns the client's array into the current one.
// Memory is bounded: at most keptResults arrays per open document, all
// dropped on close.
type tokenResults struct {
	mu   sync.Mutex
	next uint64
	docs map[string][]tokenResult // by canonical URI, oldest first
}

type tokenResult struct {
	id   string
	data packedTokens
	// units says where each definition's tokens are in data, for the
	// next version to take over (semantic_units.go); only the newest
	// result keeps it.
	units *unitTable
}

// keptResults is how many arrays a document keeps: the last one, and the
// one before it for a client whose delta request crossed a full one.
const keptResults = 2

// semTokenLen is the length of one encoded token.
const semTokenLen = 5

func newTokenResults() *tokenResults { return &tokenResults{docs: map[string][]tokenResult{}} }

// store records data, whose definitions units places (nil: unknown), as
// uri's newest result and returns its id.
func (t *tokenResults) store(uri string, data []uint32, units *unitTable) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.next++
	id := strconv.FormatUint(t.next, 10)
	rs := t.docs[uri]
	var prev packedTokens
	var kept *unitTable
	if len(rs) > 0 {
		prev, kept = rs[len(rs)-1].data, rs[len(rs)-1].units
		rs[len(rs)-1].units = nil
	}
	packed := packTokens(data, prev)
	if units != nil {
		units.data, units.id = packed, id
	} else {
		// A version coloured whole (its text does not parse: the last
		// good version's tokens) leaves the table, with the array it
		// places, to the next one, which likely parses again.
		units = kept
	}
	rs = append(rs, tokenResult{id: id, data: packed, units: units})
	if len(rs) > keptResults {
		rs = append([]tokenResult(nil), rs[len(rs)-keptResults:]...)
	}
	t.docs[uri] = rs
	return id
}

// lookup returns the array uri's result id named, if it is still kept.
func (t *tokenResults) lookup(uri, id string) (packedTokens, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, r := range t.docs[uri] {
		if r.id == id {
			return r.data, true
		}
	}
	return packedTokens{}, false
}

// units returns where the definitions' tokens are in uri's newest
// array (nil: unknown).
func (t *tokenResults) units(uri string) *unitTable {
	t.mu.Lock()
	defer t.mu.Unlock()
	if rs := t.docs[uri]; len(rs) > 0 {
		return rs[len(rs)-1].units
	}
	return nil
}

// drop forgets uri's arrays (the document was closed).
func (t *tokenResults) drop(uri string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.docs, uri)
}

// tokenEdit is the single edit turning old into cur: everything between
// their common prefix and common suffix, both counted in whole tokens.
// Equal arrays give no edit. same lists runs of tokens known to be equal
// (a definition's tokens taken over from old): the comparison steps over
// them instead of reading them.
func tokenEdit(old packedTokens, cur []uint32, same []sameRun) []protocol.SemanticTokensEdit {
	nOld, nCur := old.tokens(), len(cur)/semTokenLen
	n := min(nOld, nCur)
	eq := func(i, j int) bool { return old.token(i) == [semTokenLen]uint32(cur[j*semTokenLen:]) }
	pre, k := 0, 0
	for pre < n {
		for k < len(same) && (same[k].shift != 0 || same[k].lo < pre) {
			k++
		}
		if k < len(same) && same[k].lo == pre {
			pre = same[k].hi
			continue
		}
		if !eq(pre, pre) {
			break
		}
		pre++
	}
	// From the end, cur's token nCur-1-suf is old's nOld-1-suf.
	suf, k, d := 0, len(same)-1, nOld-nCur
	for suf < n-pre {
		for k >= 0 && (same[k].shift != d || nCur-same[k].hi < suf) {
			k--
		}
		if k >= 0 && nCur-same[k].hi == suf {
			suf = min(nCur-same[k].lo, n-pre)
			continue
		}
		if !eq(nOld-suf-1, nCur-suf-1) {
			break
		}
		suf++
	}
	start, oldEnd, curEnd := pre*semTokenLen, (nOld-suf)*semTokenLen, (nCur-suf)*semTokenLen
	if start == oldEnd && start == curEnd {
		return []protocol.SemanticTokensEdit{}
	}
	return []protocol.SemanticTokensEdit{{
		Start:       uint32(start),
		DeleteCount: uint32(oldEnd - start),
		Data:        append([]uint32{}, cur[start:curEnd]...),
	}}
}

// sameRun says that cur's tokens [lo, hi) are old's [lo+shift, hi+shift).
type sameRun struct{ lo, hi, shift int }

// fullTokens computes the document's whole token array (empty when there
// is nothing to colour) and, for a blueprint, where each definition's
// tokens are in it: those of the definitions an edit did not touch are
// taken over from the array sent before (semantic_units.go).
func (s *server) fullTokens(ctx context.Context, docURI string) (string, []uint32, *unitTable, error) {
	snap, err := s.snapshot(ctx, docURI)
	if err != nil {
		return "", nil, nil, err
	}
	if vd, ok := snap.kind().(viewDoc); ok {
		return snap.URI, toSemanticTokens(snap.Mapper(), vd.tokens(snap), snap.Text.Len(), s.enc).Data, nil, nil
	}
	res, limit := viewResult(snap)
	if res == nil {
		return snap.URI, []uint32{}, nil, nil
	}
	if limit >= res.File.Text.Len() {
		if data, units, ok := unitTokens(res, s.tokens.units(snap.URI), s.enc); ok {
			return snap.URI, data, units, nil
		}
	}
	return snap.URI, toSemanticTokens(res.File.Mapper, ide.SemanticTokens(res, nil), limit, s.enc).Data, nil, nil
}

func (s *server) SemanticTokensFull(ctx context.Context, p *protocol.SemanticTokensParams) (*protocol.SemanticTokens, error) {
	key, data, units, err := s.fullTokens(ctx, string(p.TextDocument.URI))
	if err != nil {
		return nil, err
	}
	id := s.tokens.store(key, data, units)
	return &protocol.SemanticTokens{ResultID: &id, Data: data}, nil
}

// SemanticTokensFullDelta answers with the edit from the array the
// client's previousResultId names to the current one, or with the full
// array when that id is unknown or no longer kept.
func (s *server) SemanticTokensFullDelta(ctx context.Context, p *protocol.SemanticTokensDeltaParams) (protocol.SemanticTokensDeltaResult, error) {
	key, data, units, err := s.fullTokens(ctx, string(p.TextDocument.URI))
	if err != nil {
		return nil, err
	}
	old, ok := s.tokens.lookup(key, p.PreviousResultID)
	id := s.tokens.store(key, data, units)
	if !ok {
		return &protocol.SemanticTokens{ResultID: &id, Data: data}, nil
	}
	return &protocol.SemanticTokensDelta{ResultID: &id, Edits: tokenEdit(old, data, units.sameAs(p.PreviousResultID))}, nil
}
