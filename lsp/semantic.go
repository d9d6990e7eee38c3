package lsp

import "go.lsp.dev/protocol"

// semanticLegend is the token legend advertised in initialize.
func (s *server) semanticLegend() protocol.SemanticTokensLegend {
	return protocol.SemanticTokensLegend{TokenTypes: []string{}, TokenModifiers: []string{}}
}
