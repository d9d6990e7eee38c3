package schema

import (
	"fmt"

	"github.com/blueprint-ls/blueprint-ls/source"
)

var codeExportInvalidType = source.NewCode("export-invalid-type", source.Error,
	"An export type other than string, integer, float, boolean, array or object.",
	"exports:\n  arn:\n    type: text\n    field: resources.fn.state.arn")

func (l *loader) loadInclude(e *Entry) {
	if e.Key == nil {
		return
	}
	what := fmt.Sprintf("include %q", e.Key.Value)
	l.checkName(e.Key, "include")
	inc := &Include{Def: Def{Name: e.Key.Value, Entry: e}}
	if m := l.mappingOf(e, what); m != nil {
		inc.Mapping = m
		fs := l.fields(m, KindInclude, what, e.Key.Rng)
		inc.Path = l.field(fs.at("path"))
		inc.Variables = l.field(fs.at("variables"))
		inc.Metadata = l.field(fs.at("metadata"))
		inc.Description = l.field(fs.at("description"))
		l.scalarValues(inc.Variables, false)
	}
	l.bp.Include.add(inc.Name, inc)
}

func (l *loader) loadExport(e *Entry) {
	if e.Key == nil {
		return
	}
	what := fmt.Sprintf("export %q", e.Key.Value)
	l.checkName(e.Key, "export")
	x := &Export{Def: Def{Name: e.Key.Value, Entry: e}}
	if m := l.mappingOf(e, what); m != nil {
		x.Mapping = m
		fs := l.fields(m, KindExport, what, e.Key.Rng)
		x.Type = l.field(fs.at("type"))
		x.Field = l.field(fs.at("field"))
		x.Description = l.field(fs.at("description"))
		l.description(x.Description, what)
		if x.Type != nil {
			l.oneOf(x.Type, ExportTypes, codeExportInvalidType, "export type")
		}
		if x.Field != nil {
			l.noSubst(x.Field, "an export field (a reference written without ${})")
		}
	}
	l.bp.Exports.add(x.Name, x)
}
