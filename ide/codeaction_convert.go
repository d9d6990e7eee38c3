package ide

import (
	"path"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/convert"
	"github.com/blueprint-ls/blueprint-ls/schema"
)

// KindRefactorRewrite is the kind of the actions that rewrite a document.
const KindRefactorRewrite = "refactor.rewrite"

// convertActions offers the document in the other syntax as a new file
// beside it: "Convert to blueprint language" for YAML and JSON (x.bp),
// "Convert to YAML" for the language (x.blueprint.yaml). Only for a
// document that parses and converts, and a client that can create files.
func convertActions(res *analysis.Result, opts Options) []CodeAction {
	f := res.File
	if !opts.CreateFiles || f.HasSyntaxErrors() || !strings.HasPrefix(res.URI, "file:") {
		return nil
	}
	title, target, ext := "Convert to blueprint language", schema.BP, ".bp"
	if f.Format == schema.BP {
		title, target, ext = "Convert to YAML", schema.YAML, ".blueprint.yaml"
	}
	text, err := convert.To(f, target)
	if err != nil {
		return nil
	}
	return []CodeAction{{
		Title: title,
		Kind:  KindRefactorRewrite,
		Edit:  WorkspaceEdit{Creates: []NewFile{{URI: convertedName(res.URI) + ext, Text: string(text)}}},
	}}
}

// convertedName is a document's URI without its extension (and without a
// .blueprint before it): app.blueprint.yaml and app.bp give app.
func convertedName(uri string) string {
	stem := strings.TrimSuffix(uri, path.Ext(uri))
	return strings.TrimSuffix(stem, ".blueprint")
}
