package ide

import (
	"github.com/blueprint-ls/blueprint-ls/schema"
)

// landscaperOutline groups a Landscaper document's lists of named
// definitions: imports (conditional imports nested under theirs),
// exports, each execution list and the subinstallations (one in a file
// by its file name); beside each its type, or nothing.
var landscaperOutline = outline{
	"imports":                   {kind: SymbolVariable, detail: "type", nested: "imports"},
	"exports":                   {kind: SymbolExport, detail: "type"},
	"importExecutions":          {kind: SymbolValue, detail: "type"},
	"deployExecutions":          {kind: SymbolValue, detail: "type"},
	"exportExecutions":          {kind: SymbolValue, detail: "type"},
	"subinstallationExecutions": {kind: SymbolValue, detail: "type"},
	"subinstallations":          {kind: SymbolChild},
}

// listItems are the items of a list group by their name (or, lacking
// one, their file), with g.nested's items as children.
func listItems(seq *schema.Sequence, g outlineGroup) []DocumentSymbol {
	var out []DocumentSymbol
	for _, it := range seq.Items {
		m, _ := it.(*schema.Mapping)
		if m == nil {
			continue
		}
		name, _ := m.Get("name").(*schema.Scalar)
		if name == nil {
			name, _ = m.Get("file").(*schema.Scalar)
		}
		if name == nil || name.Value == "" {
			continue
		}
		sym := DocumentSymbol{Name: name.Value, Kind: g.kind, Range: m.Range(), SelectionRange: name.Range()}
		if d, ok := m.Get(g.detail).(*schema.Scalar); ok && g.detail != "" {
			sym.Detail = d.Value
		}
		if inner, ok := m.Get(g.nested).(*schema.Sequence); ok && g.nested != "" {
			sym.Children = listItems(inner, g)
		}
		out = append(out, sym)
	}
	return out
}
