package ide

import (
	"path"
	"strconv"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/bplang"
	"github.com/blueprint-ls/blueprint-ls/convert"
	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
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

// bpDeclaration is a new declaration at the end of a blueprint-language
// document: `variable name: type {}`, its other fields in the block.
// fields hold values as JSON writes them (a quoted type is unquoted: the
// language writes types bare).
func bpDeclaration(res *analysis.Result, section dialect.Section, name string, fields [][2]string) source.Edit {
	var typ string
	var b strings.Builder
	for _, f := range fields {
		if f[0] == "type" {
			typ = f[1]
			if u, err := strconv.Unquote(typ); err == nil {
				typ = u
			}
			continue
		}
		b.WriteString("\n    " + bpKey(f[0]) + " = " + f[1])
	}
	body := "{}"
	if b.Len() > 0 {
		body = "{" + b.String() + "\n}"
	}
	content := res.File.Content()
	lead := "\n"
	if len(content) > 0 && content[len(content)-1] != '\n' {
		lead = "\n\n"
	}
	text := lead + bplang.Keyword(section) + " " + bpKey(name) + ": " + typ + " " + body + "\n"
	return source.Edit{Range: source.R(len(content), len(content)), NewText: text}
}
