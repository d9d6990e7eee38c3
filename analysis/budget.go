package analysis

import (
	"github.com/blueprint-ls/blueprint-ls/source"
)

// MaxDiagnostics bounds the diagnostics of one document: past it, one
// summary says how many more there are. A file of 100,000 mistakes
// otherwise made 15 MB of output and an editor that could not keep up
// (docs/security.md).
const MaxDiagnostics = 1000

var codeTooMany = source.NewCode("too-many-diagnostics", source.Warning,
	"The document has more than 1,000 diagnostics; the rest are summarised in one. Its severity is that of the most severe one left out, so the check still fails when an error was.",
	"")

// capDiagnostics keeps the first MaxDiagnostics of ds (sorted, in
// document order) and adds the summary of the rest at the range of the
// first left out.
func capDiagnostics(ds []source.Diagnostic) []source.Diagnostic {
	if len(ds) <= MaxDiagnostics {
		return ds
	}
	rest := ds[MaxDiagnostics:]
	worst := source.Hint
	for _, d := range rest {
		if d.Severity < worst {
			worst = d.Severity
		}
	}
	sum := codeTooMany.New(rest[0].Range, "%d more diagnostics in this document are not shown (at most %d are reported)", len(rest), MaxDiagnostics)
	sum.Severity = worst
	return append(ds[:MaxDiagnostics:MaxDiagnostics], sum)
}
