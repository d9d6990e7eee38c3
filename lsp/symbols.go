package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// symbol is a document symbol before conversion: the top-level sections
// and the named definitions inside them.
type symbol struct {
	name, detail string
	kind         protocol.SymbolKind
	rng, sel     source.Range
	children     []symbol
}

// outline says which top-level sections of a document hold named
// definitions: the symbol kind of those definitions, and the field of a
// definition shown beside its name.
type outline struct {
	kinds  map[string]protocol.SymbolKind
	detail map[string]string
}

// blueprintOutline is the outline of a blueprint's syntax tree, used
// while its text does not parse.
var blueprintOutline = outline{kinds: sectionKinds, detail: detailField}

// manifestOutline lists a Cloud Assembly manifest's droplets (with their
// type specifiers) and missing entries.
var manifestOutline = outline{
	kinds:  map[string]protocol.SymbolKind{"droplets": protocol.SymbolKindObject, "missing": protocol.SymbolKindField},
	detail: map[string]string{"droplets": "type", "missing": "provider"},
}

// sectionKinds gives the symbol kind of the definitions in each top-level
// section that holds named definitions.
var sectionKinds = map[string]protocol.SymbolKind{
	"variables":   protocol.SymbolKindVariable,
	"values":      protocol.SymbolKindConstant,
	"datasources": protocol.SymbolKindStruct,
	"resources":   protocol.SymbolKindObject,
	"include":     protocol.SymbolKindModule,
	"exports":     protocol.SymbolKindField,
}

// detailField is the field of a definition shown beside its name.
var detailField = map[string]string{
	"variables":   "type",
	"values":      "type",
	"datasources": "type",
	"resources":   "type",
	"include":     "path",
	"exports":     "type",
}

// DocumentSymbol lists the sections of a blueprint and their definitions:
// ide's semantic outline when the text parses, otherwise one from the
// syntax tree alone (so it keeps working while the text is being typed).
// A Cloud Assembly manifest gets its droplets from the syntax tree.
func (s *server) DocumentSymbol(ctx context.Context, p *protocol.DocumentSymbolParams) (protocol.DocumentSymbolResult, error) {
	snap, err := s.snapshot(ctx, string(p.TextDocument.URI))
	if err != nil {
		return nil, err
	}
	syms := snap.kind().outline(snap)
	if !s.caps.hierarchicalSymbols {
		return toSymbolInformation(snap.Mapper, snap.ClientURI, syms, s.enc), nil
	}
	return toDocumentSymbols(snap.Mapper, syms, s.enc), nil
}

func documentSymbols(f *schema.File, o outline) []symbol {
	root, _ := f.Root.(*schema.Mapping)
	if root == nil {
		return nil
	}
	var out []symbol
	for _, e := range root.Entries {
		if e.Key == nil {
			continue
		}
		sym := symbol{name: e.Key.Value, kind: protocol.SymbolKindNamespace, rng: entryRange(e), sel: e.Key.Range()}
		kind, isSection := o.kinds[e.Key.Value]
		if sc, ok := e.Value.(*schema.Scalar); ok {
			sym.kind = protocol.SymbolKindProperty
			sym.detail = sc.Value
		}
		if m, ok := e.Value.(*schema.Mapping); ok && isSection {
			for _, d := range m.Entries {
				if d.Key == nil {
					continue
				}
				child := symbol{name: d.Key.Value, kind: kind, rng: entryRange(d), sel: d.Key.Range()}
				if dm, ok := d.Value.(*schema.Mapping); ok {
					if v, ok := dm.Get(o.detail[e.Key.Value]).(*schema.Scalar); ok {
						child.detail = v.Value
					}
				}
				sym.children = append(sym.children, child)
			}
		}
		out = append(out, sym)
	}
	return out
}

// entryRange covers an entry from its key to the end of its value.
func entryRange(e *schema.Entry) source.Range {
	r := e.Key.Range()
	if e.Value != nil {
		r = r.Union(e.Value.Range())
	}
	return r
}
