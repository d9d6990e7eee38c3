package ide

import "github.com/blueprint-ls/blueprint-ls/analysis"

// symbolItemKinds are the item kinds that name exactly one definition of
// a Result by their label; their documentation is the definition's.
var symbolItemKinds = map[ItemKind]analysis.SymbolKind{
	ItemVariable:   analysis.VariableSymbol,
	ItemValue:      analysis.ValueSymbol,
	ItemDataSource: analysis.DataSourceSymbol,
	ItemResource:   analysis.ResourceSymbol,
	ItemChild:      analysis.ChildSymbol,
}

// CompletionDocumentation returns the documentation of the completion item
// with the given label and kind that Completion offered at offset in text,
// so that a long list can travel without documentation and each item be
// resolved when the user looks at it. Items naming a definition are found
// by name; any other is found by completing again. ok is false when no
// such item is offered there (the Result or text changed since).
func CompletionDocumentation(res *analysis.Result, text []byte, offset int, label string, kind ItemKind, opts Options) (doc string, ok bool) {
	if sk, named := symbolItemKinds[kind]; named && res != nil {
		if s := res.Lookup(sk, label); s != nil {
			return symbolDoc(s), true
		}
	}
	for _, it := range Completion(res, text, offset, opts) {
		if it.Label == label && it.Kind == kind {
			if kind == ItemType && it.Detail == resourceTypeDetail {
				// The list of 1,800 types carries their names only; the
				// full text opens the one type looked at.
				if rt, ok := opts.registry().ResourceType(label); ok && rt.Err == nil {
					return resourceTypeMarkdown(rt), true
				}
			}
			return it.Documentation, true
		}
	}
	return "", false
}
