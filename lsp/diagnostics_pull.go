package lsp

import (
	"context"
	"encoding/hex"
	"hash/fnv"

	"go.lsp.dev/protocol"
)

// Diagnostic answers textDocument/diagnostic (pull diagnostics). The
// result id is a hash of the converted set, so a client whose previous
// result id matches gets an "unchanged" report.
func (s *server) Diagnostic(ctx context.Context, p *protocol.DocumentDiagnosticParams) (protocol.DocumentDiagnosticReport, error) {
	snap, err := s.snapshot(ctx, string(p.TextDocument.URI))
	if err != nil {
		return nil, err
	}
	a := snap.Analysis()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	pds := s.diags.convert(snap, snap.projectDiagnostics(a.Diagnostics, true))
	key, err := marshalDiagnostics(pds)
	if err != nil {
		return nil, err
	}
	h := fnv.New64a()
	h.Write(key)
	id := hex.EncodeToString(h.Sum(nil))
	if p.PreviousResultID != nil && *p.PreviousResultID == id {
		return &protocol.RelatedUnchangedDocumentDiagnosticReport{
			UnchangedDocumentDiagnosticReport: protocol.UnchangedDocumentDiagnosticReport{
				Kind: "unchanged", ResultID: id,
			},
		}, nil
	}
	return &protocol.RelatedFullDocumentDiagnosticReport{
		FullDocumentDiagnosticReport: protocol.FullDocumentDiagnosticReport{
			Kind: "full", ResultID: &id, Items: pds,
		},
	}, nil
}
