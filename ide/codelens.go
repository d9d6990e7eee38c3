package ide

import (
	"fmt"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// Commands the code lenses invoke; the language server implements them.
const (
	CommandPlan           = "blueprint.plan"           // arguments: document URI
	CommandShowReferences = "blueprint.showReferences" // arguments: document URI, offset
)

// CodeLens is a command shown above Range.
type CodeLens struct {
	Range     source.Range
	Title     string
	Command   string
	Arguments []any
}

// CodeLenses returns a "Preview plan" lens at the top of the document and
// a reference count above every variable, value, data source, resource
// and child blueprint.
func CodeLenses(res *analysis.Result) []CodeLens {
	if res == nil || res.Blueprint == nil || res.Blueprint.Root == nil {
		return nil
	}
	out := []CodeLens{{Range: source.R(0, 0), Title: "Preview plan", Command: CommandPlan, Arguments: []any{res.URI}}}
	// Counted from the records (analysis.Result.UseCounts), not from
	// tables over the whole document: the lenses are asked for again
	// after every edit.
	uses := res.UseCounts()
	for i, s := range res.Symbols() {
		switch s.Kind {
		case analysis.VariableSymbol, analysis.ValueSymbol, analysis.DataSourceSymbol, analysis.ResourceSymbol, analysis.ChildSymbol:
		default:
			continue
		}
		n := uses[i]
		title := fmt.Sprintf("%d references", n)
		if n == 1 {
			title = "1 reference"
		}
		out = append(out, CodeLens{Range: s.NameRange, Title: title, Command: CommandShowReferences, Arguments: []any{res.URI, s.NameRange.Start}})
	}
	return out
}
