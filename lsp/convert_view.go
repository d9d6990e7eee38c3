package lsp

import (
	"strconv"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/blueprint-ls/blueprint-ls/ide"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// toSemanticTokens encodes absolute tokens as LSP's relative quintuples
// (line delta, start delta, length, type, modifiers) in the negotiated
// encoding. Tokens are sorted by ide and never span lines; tokens that
// reach past limit are dropped.
func toSemanticTokens(m *source.Mapper, toks []ide.SemanticToken, limit int, enc source.Encoding) *protocol.SemanticTokens {
	// The tokens come in document order: a cursor over the line table
	// converts each in a comparison or two, where converting them one
	// by one searched the line table and the padding twice per token
	// (220 ms for a blueprint of 5,000 resources, on every version).
	cur := m.Cursor()
	return &protocol.SemanticTokens{Data: encodeTokens(toks, limit, func(off int) (line, col int) {
		l, c := cur.LineCol(off, enc)
		return l - 1, c - 1
	})}
}

// encodeTokens encodes toks with pos, which gives the 0-based line and
// character of an offset.
func encodeTokens(toks []ide.SemanticToken, limit int, pos func(off int) (line, col int)) []uint32 {
	data := make([]uint32, 0, 5*len(toks))
	var prevLine, prevChar uint32
	first := true
	for _, t := range toks {
		if t.Range.End > limit || t.Range.End <= t.Range.Start {
			continue
		}
		sl, sc := pos(t.Range.Start)
		el, ec := pos(t.Range.End)
		if sl != el {
			continue
		}
		line, char := uint32(sl), uint32(sc)
		if !first && (line < prevLine || line == prevLine && char < prevChar) {
			continue // out of order: the encoding cannot express it
		}
		dl, dc := line-prevLine, char
		if !first && dl == 0 {
			dc = char - prevChar
		}
		if first {
			dl = line
		}
		data = append(data, dl, dc, uint32(ec-sc), uint32(t.Type), t.Modifiers)
		prevLine, prevChar, first = line, char, false
	}
	return data
}

// toSelectionRanges links each chain (innermost first) into parents. A
// position with no chain gets an empty range at itself, as the protocol
// needs one answer per position.
func toSelectionRanges(m *source.Mapper, offs []int, chains [][]source.Range, enc source.Encoding) []protocol.SelectionRange {
	out := make([]protocol.SelectionRange, len(offs))
	for i, off := range offs {
		var chain []source.Range
		if i < len(chains) {
			chain = chains[i]
		}
		if len(chain) == 0 {
			out[i] = protocol.SelectionRange{Range: toRange(m, source.R(off, off), enc)}
			continue
		}
		var parent *protocol.SelectionRange
		for j := len(chain) - 1; j > 0; j-- {
			parent = &protocol.SelectionRange{Range: toRange(m, chain[j], enc), Parent: parent}
		}
		out[i] = protocol.SelectionRange{Range: toRange(m, chain[0], enc), Parent: parent}
	}
	return out
}

func toInlayHints(m *source.Mapper, hints []ide.InlayHint, enc source.Encoding) []protocol.InlayHint {
	out := make([]protocol.InlayHint, 0, len(hints))
	yes := true
	for _, h := range hints {
		ih := protocol.InlayHint{
			Position:    toPosition(m, h.Offset, enc),
			Label:       protocol.String(h.Label),
			PaddingLeft: &yes,
		}
		if h.Tooltip != "" {
			ih.Tooltip = &protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: h.Tooltip}
		}
		out = append(out, ih)
	}
	return out
}

func toDocumentLinks(m *source.Mapper, links []ide.DocumentLink, limit int, enc source.Encoding) []protocol.DocumentLink {
	out := make([]protocol.DocumentLink, 0, len(links))
	for _, l := range links {
		if l.Range.End > limit || l.Target == "" {
			continue
		}
		target := uri.File(l.Target)
		dl := protocol.DocumentLink{Range: toRange(m, l.Range, enc), Target: &target}
		if l.Tooltip != "" {
			tip := l.Tooltip
			dl.Tooltip = &tip
		}
		out = append(out, dl)
	}
	return out
}

// toCodeLenses converts lenses and their commands: the plan command takes
// the document as {"uri"}, show-references its URI and a position. A
// large blueprint has thousands of lenses, asked for after every edit:
// their ranges convert through one cursor over the line table (they come
// in declaration order, mostly down the document), the URI is marshalled
// once and each position is written without reflection.
func toCodeLenses(m *source.Mapper, clientURI string, lenses []ide.CodeLens, enc source.Encoding) []protocol.CodeLens {
	out := make([]protocol.CodeLens, 0, len(lenses))
	cur := m.Cursor()
	pos := func(off int) protocol.Position {
		l, c := cur.LineCol(off, enc)
		return protocol.Position{Line: uint32(l - 1), Character: uint32(c - 1)}
	}
	var docURI protocol.LSPAny
	for _, l := range lenses {
		cmd := protocol.Command{Title: l.Title, Command: l.Command}
		start := pos(l.Range.Start)
		switch l.Command {
		case ide.CommandPlan, commandRender:
			arg, _ := protocol.Marshal(map[string]string{"uri": clientURI})
			cmd.Arguments = []protocol.LSPAny{arg}
		case ide.CommandShowReferences:
			if docURI == nil {
				docURI, _ = protocol.Marshal(clientURI)
			}
			cmd.Arguments = []protocol.LSPAny{docURI, positionJSON(start)}
		default:
			for _, a := range l.Arguments {
				b, err := protocol.Marshal(a)
				if err == nil {
					cmd.Arguments = append(cmd.Arguments, b)
				}
			}
		}
		out = append(out, protocol.CodeLens{Range: protocol.Range{Start: start, End: pos(l.Range.End)}, Command: cmd})
	}
	return out
}

// positionJSON is protocol.Marshal(p), written directly.
func positionJSON(p protocol.Position) protocol.LSPAny {
	b := make([]byte, 0, 32)
	b = append(b, `{"line":`...)
	b = strconv.AppendUint(b, uint64(p.Line), 10)
	b = append(b, `,"character":`...)
	b = strconv.AppendUint(b, uint64(p.Character), 10)
	return append(b, '}')
}

// symbolKindsIDE maps ide's symbol kinds onto the protocol's.
var symbolKindsIDE = map[ide.SymbolKind]protocol.SymbolKind{
	ide.SymbolSection:    protocol.SymbolKindNamespace,
	ide.SymbolVariable:   protocol.SymbolKindVariable,
	ide.SymbolValue:      protocol.SymbolKindConstant,
	ide.SymbolDataSource: protocol.SymbolKindStruct,
	ide.SymbolField:      protocol.SymbolKindField,
	ide.SymbolResource:   protocol.SymbolKindObject,
	ide.SymbolChild:      protocol.SymbolKindModule,
	ide.SymbolExport:     protocol.SymbolKindProperty,
	ide.SymbolProperty:   protocol.SymbolKindProperty,
	ide.SymbolLink:       protocol.SymbolKindEvent,
}

func (s *server) toWorkspaceSymbols(syms []ide.WorkspaceSymbol) protocol.SymbolInformationSlice {
	out := make(protocol.SymbolInformationSlice, 0, len(syms))
	for _, w := range syms {
		if w.Location.Mapper == nil {
			continue
		}
		si := protocol.SymbolInformation{
			BaseSymbolInformation: protocol.BaseSymbolInformation{Name: symbolName(w.Name), Kind: symbolKindsIDE[w.Kind]},
			Location:              s.toLocation(w.Location),
		}
		if w.Container != "" {
			c := w.Container
			si.ContainerName = &c
		}
		out = append(out, si)
	}
	return out
}
