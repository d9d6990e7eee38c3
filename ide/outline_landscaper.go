package ide

import (
	"github.com/blueprint-ls/blueprint-ls/schema"
)

// landscaperLists are the top-level lists of a Landscaper blueprint whose
// items are named definitions: the symbol kind of each item, and the
// field shown beside its name.
var landscaperLists = map[string]outlineGroup{
	"imports":                   {SymbolVariable, "type"},
	"exports":                   {SymbolExport, "type"},
	"importExecutions":          {SymbolValue, "type"},
	"deployExecutions":          {SymbolValue, "type"},
	"exportExecutions":          {SymbolValue, "type"},
	"subinstallationExecutions": {SymbolValue, "type"},
	"subinstallations":          {SymbolChild, "file"},
}

// landscaperOutline is a Landscaper document's outline: its top-level
// entries, and inside the lists above their items by name (a
// subinstallation in a file by its file name), conditional imports nested
// under their import.
func landscaperOutline(f *schema.File) []DocumentSymbol {
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
		if sc, ok := e.Value.(*schema.Scalar); ok {
			sym.Kind, sym.Detail = SymbolProperty, sc.Value
		}
		if g, ok := landscaperLists[e.Key.Value]; ok {
			sym.Children = landscaperItems(e.Value, g)
		}
		out = append(out, sym)
	}
	return out
}

func landscaperItems(n schema.Node, g outlineGroup) []DocumentSymbol {
	seq, _ := n.(*schema.Sequence)
	if seq == nil {
		return nil
	}
	var out []DocumentSymbol
	for _, it := range seq.Items {
		m, _ := it.(*schema.Mapping)
		if m == nil {
			continue
		}
		name, _ := m.Get("name").(*schema.Scalar)
		detail := ""
		if name == nil {
			name, _ = m.Get("file").(*schema.Scalar) // a subinstallation in a file
		} else if d, ok := m.Get(g.detail).(*schema.Scalar); ok {
			detail = d.Value
		}
		if name == nil || name.Value == "" {
			continue
		}
		sym := DocumentSymbol{Name: name.Value, Detail: detail, Kind: g.kind, Range: m.Range(), SelectionRange: name.Range()}
		if g.kind == SymbolVariable {
			sym.Children = landscaperItems(m.Get("imports"), g)
		}
		out = append(out, sym)
	}
	return out
}
