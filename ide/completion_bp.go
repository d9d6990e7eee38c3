package ide

import (
	"sort"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/bplang"
	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/subst"
)

// statementItems are the top-level statements of the blueprint language.
var statementItems = []struct{ kw, insert, doc string }{
	{"version", `version "` + schema.Versions[len(schema.Versions)-1] + `"`, "The spec version of the blueprint (the newest)."},
	{"transform", "transform ", "Transforms applied to the blueprint."},
	{"variable", "variable ", "variable name: type { .. }: an input of the blueprint."},
	{"value", "value ", "value name: type { value = .. }: a static or computed value."},
	{"data", "data ", "data name: provider/type { filter .. export .. }: data from outside the blueprint."},
	{"resource", "resource ", "resource name: provider/type { spec { .. } }: a resource the blueprint deploys."},
	{"include", "include ", `include name "path" { .. }: a child blueprint.`},
	{"export", "export ", "export name: type { field = .. }: a field exported from the blueprint."},
	{"metadata", "metadata {", "metadata { .. }: free-form metadata of the blueprint."},
}

// bpCompletion completes in a blueprint-language document from its text:
// statements at the top level, a declaration's type, the fields of the
// block the cursor is in (written the language's way), values, and
// references in expressions and in the ${..} of strings.
func (c *completer) bpCompletion() []CompletionItem {
	cur, ok := c.bpCursor()
	if !ok {
		return nil
	}
	sc := structCtx{path: cur.Path, key: cur.Key, replace: cur.Replace, present: cur.Present,
		prefix: c.src.String(cur.Replace.Start, c.off)}
	c.setPath(cur.Path)
	c.declType = cur.DeclType
	switch {
	case cur.Statement:
		out := make([]CompletionItem, 0, len(statementItems))
		for i, s := range statementItems {
			out = append(out, CompletionItem{Label: s.kw, Kind: ItemKeyword, Documentation: s.doc, InsertText: s.insert, ReplaceRange: cur.Replace, SortText: sortKey(i, s.kw)})
		}
		return out
	case cur.Type:
		return c.prefill(c.valueItems(sc, cur.Path), sc)
	case cur.Key:
		return c.bpKeys(sc, cur)
	case cur.String:
		return c.bpExpr(source.R(cur.StringStart, c.off), false)
	}
	start := c.off
	for start > 0 && isExprByte(c.src.At(start-1)) {
		start--
	}
	if !cur.Expr && start == c.off || start < c.off && c.src.At(start) != '"' && !isWordByte(c.src.At(start)) {
		if items := c.valueItems(sc, cur.Path); len(items) > 0 {
			return items
		}
	}
	return c.bpExpr(source.R(start, c.off), true)
}

// isExprByte says whether c may be part of the expression text before
// the cursor: a word, an index's brackets, a string's quote.
func isExprByte(c byte) bool {
	return isWordByte(c) || c == '[' || c == ']' || c == '"'
}

// bpExpr completes in the expression text of r: bare (a value written
// without ${..}) or a string's text with its interpolations.
func (c *completer) bpExpr(r source.Range, bare bool) []CompletionItem {
	text := c.src.String(r.Start, r.End)
	m := source.Identity(r.Start, len(text))
	if bare {
		text = "${" + text
		m = source.OffsetMap{Base: r.Start, Segments: []source.Segment{{Dec: 0, DecLen: 2, Src: 0, SrcLen: 0}}}
		if r.Len() > 0 {
			m.Segments = append(m.Segments, source.Segment{Dec: 2, DecLen: r.Len(), Src: 0, SrcLen: r.Len()})
		}
	}
	if !strings.Contains(text, "${") {
		return nil
	}
	sub := subst.SubAt(subst.ParseTemplate(text, &m), c.off)
	if sub == nil {
		return nil
	}
	return c.exprItems(sub.Expr, false)
}

// bpKeys lists the fields of the block at the cursor, each inserted the
// language's way: `name = `, `name {` for a mapping in a declaration, and
// the statements of resources (foreach, select by label) and data
// sources (filter, export).
func (c *completer) bpKeys(sc structCtx, cur bplang.Cursor) []CompletionItem {
	items := c.keyItems(sc, cur.Path)
	out := items[:0]
	direct := len(cur.Path) == 2 && cur.Kind != ""
	for _, it := range items {
		name := it.Label
		switch {
		case direct && (name == "type" || cur.Kind == "include" && name == "path"):
			continue // in the declaration's header
		case cur.Kind == "resource" && name == "each":
			it.Label, it.InsertText = "foreach", "foreach "
		case cur.Kind == "resource" && name == "linkSelector":
			it.Label, it.InsertText = "select by label", "select by label {"
		case cur.Kind == "data" && name == "filter":
			it.InsertText = "filter "
		case cur.Kind == "data" && name == "exports":
			it.Label, it.InsertText = "export", "export "
		case direct && strings.HasSuffix(it.InsertText, ":") && isBlockField(cur.Path, name):
			it.InsertText = bpKey(name) + " {"
		default:
			it.InsertText = bpKey(name) + " = "
		}
		it.FilterText = it.Label
		out = append(out, it)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].SortText < out[j].SortText })
	return out
}

// isBlockField says whether a declaration's mapping field is written as
// a block: spec, metadata, an include's variables.
func isBlockField(path []string, name string) bool {
	switch name {
	case "spec", "metadata":
		return true
	case "variables":
		return dialect.SectionOf(path[0]) == dialect.Include
	}
	return false
}

func bpKey(name string) string {
	for i := 0; i < len(name); i++ {
		if !isWordByte(name[i]) || name[i] == '.' || name[i] == '/' {
			return `"` + name + `"`
		}
	}
	return name
}
