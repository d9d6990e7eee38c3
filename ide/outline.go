package ide

import (
	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/schema"
)

// Outline is the document outline of any dialect: a blueprint's semantic
// outline (DocumentSymbols) when res, the Result of the current text, is
// given; otherwise one read off the syntax tree alone with the dialect's
// sections, so it keeps working while a blueprint's text is being typed
// and serves manifests, configs and unknown documents too.
func Outline(d *dialect.Dialect, f *schema.File, res *analysis.Result) []DocumentSymbol {
	if d.Blueprint && res != nil {
		return DocumentSymbols(res)
	}
	return syntaxOutline(f, outlines[d.Kind])
}

// outline says which top-level entries of a document hold named
// definitions: the symbol kind of those definitions and the field of a
// definition shown beside its name.
type outline map[string]outlineGroup

type outlineGroup struct {
	kind   SymbolKind
	detail string
	// nested is, for a group that is a list of named items (Landscaper),
	// the field of an item holding more items of the group ("" for none).
	nested string
}

// outlines are the syntax outlines of the dialects. A project config is
// outlined like a blueprint; an unknown document lists its top-level keys.
var outlines = map[dialect.Kind]outline{
	dialect.Bluelink:   blueprintOutline,
	dialect.Config:     blueprintOutline,
	dialect.Landscaper: landscaperOutline,
	dialect.Manifest: {
		"droplets": {kind: SymbolResource, detail: "type"},
		"missing":  {kind: SymbolField, detail: "provider"},
	},
}

var blueprintOutline = outline{
	dialect.Variables.Key():   {kind: SymbolVariable, detail: "type"},
	dialect.Values.Key():      {kind: SymbolValue, detail: "type"},
	dialect.DataSources.Key(): {kind: SymbolDataSource, detail: "type"},
	dialect.Resources.Key():   {kind: SymbolResource, detail: "type"},
	dialect.Include.Key():     {kind: SymbolChild, detail: "path"},
	dialect.Exports.Key():     {kind: SymbolField, detail: "type"},
}

// syntaxOutline lists the top-level entries of f (a scalar one as a
// property with its value as detail) and the definitions inside the
// groups o names: the entries of a mapping, or the items of a list by
// name.
func syntaxOutline(f *schema.File, o outline) []DocumentSymbol {
	if f == nil {
		return nil
	}
	root, _ := f.Root.(*schema.Mapping)
	if root == nil {
		return nil
	}
	var out []DocumentSymbol
	for _, e := range root.Entries {
		if e.Key == nil {
			continue
		}
		sym := DocumentSymbol{Name: e.Key.Value, Kind: SymbolSection, Range: entryRange(e), SelectionRange: e.Key.Range()}
		g, isGroup := o[e.Key.Value]
		if sc, ok := e.Value.(*schema.Scalar); ok {
			sym.Kind = SymbolProperty
			sym.Detail = sc.Value
		}
		if seq, ok := e.Value.(*schema.Sequence); ok && isGroup {
			sym.Children = listItems(seq, g)
		}
		if m, ok := e.Value.(*schema.Mapping); ok && isGroup {
			for _, d := range m.Entries {
				if d.Key == nil {
					continue
				}
				child := DocumentSymbol{Name: d.Key.Value, Kind: g.kind, Range: entryRange(d), SelectionRange: d.Key.Range()}
				if dm, ok := d.Value.(*schema.Mapping); ok {
					if v, ok := dm.Get(g.detail).(*schema.Scalar); ok {
						child.Detail = v.Value
					}
				}
				sym.Children = append(sym.Children, child)
			}
		}
		out = append(out, sym)
	}
	return out
}
