package ide

import (
	"slices"
	"strconv"

	"github.com/blueprint-ls/blueprint-ls/providers/resschema"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// keyContext is where a key of a provider resource schema is being
// typed or pointed at.
type keyContext struct {
	top     bool            // the schema's top level (else a property schema)
	m       *syntax.Mapping // the object the key belongs to
	key     *syntax.Scalar  // the key under the cursor, nil between entries
	replace source.Range    // what a completion replaces
}

// schemaKeyAt finds the object of a resource schema whose key position
// holds off, and says whether it is the top level or a property schema
// (a member of properties, definitions or patternProperties, at any
// depth, or an array's items); ok is false anywhere else (in a value,
// in handlers, tagging, ...).
func schemaKeyAt(f *syntax.File, off int) (kc keyContext, ok bool) {
	tree, _ := f.Tree()
	root, isMap := tree.(*syntax.Mapping)
	if !isMap || off <= root.Rng.Start || off > root.Rng.End {
		return kc, false
	}
	m, path := root, []string(nil)
descend:
	for {
		for _, e := range m.Entries {
			if e.Key != nil && off >= e.Key.Rng.Start && off <= e.Key.Rng.End {
				kc.key = e.Key
				break descend
			}
			if e.Value == nil {
				continue
			}
			r := e.Value.Range()
			if off <= r.Start || off >= r.End {
				continue
			}
			next, isMap := e.Value.(*syntax.Mapping)
			if !isMap {
				return kc, false // in a scalar or a list
			}
			m, path = next, append(path, e.Key.Value)
			continue descend
		}
		break
	}
	kc.m = m
	switch n := len(path); {
	case n == 0:
		kc.top = true
	case n >= 2 && (path[n-2] == "properties" || path[n-2] == "definitions" || path[n-2] == "patternProperties"), path[n-1] == "items":
	default:
		return kc, false
	}
	if kc.key != nil {
		kc.replace = kc.key.Rng
	} else {
		kc.replace = wordAround(f.Content(), off)
	}
	return kc, true
}

// wordAround is the partial key at off: letters, digits and $ back to
// an opening quote, if any, and forward to a closing one.
func wordAround(text []byte, off int) source.Range {
	start, end := off, off
	for start > 0 && keyByte(text[start-1]) {
		start--
	}
	if start > 0 && text[start-1] == '"' {
		start--
	}
	for end < len(text) && keyByte(text[end]) {
		end++
	}
	if end < len(text) && text[end] == '"' && start < off && text[start] == '"' {
		end++
	}
	return source.R(start, end)
}

func keyByte(c byte) bool {
	return c == '$' || c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// SchemaKeywordCompletion offers the meta-schema's keywords where a key
// of a provider resource schema (JSON text) is typed: the top level's,
// or a property schema's. Keywords the object already has are left out.
// The partial key under the cursor is blanked before parsing, so that
// the text around it (`"desc` with no colon yet) reads as the object it
// is being typed into.
func SchemaKeywordCompletion(text []byte, off int) []CompletionItem {
	if off < 0 || off > len(text) {
		return nil
	}
	w := wordAround(text, off)
	blank := slices.Clone(text)
	for i := w.Start; i < w.End; i++ {
		blank[i] = ' '
	}
	kc, ok := schemaKeyAt(syntax.ParseJSON(blank, true), off)
	if !ok {
		return nil
	}
	kc.replace = w
	list := resschema.PropertyKeywords
	if kc.top {
		list = resschema.TopKeywords
	}
	var items []CompletionItem
	for _, k := range list {
		if e := kc.m.Entry(k.Name); e != nil && e.Key != kc.key {
			continue
		}
		q := strconv.Quote(k.Name)
		items = append(items, CompletionItem{Label: k.Name, Kind: ItemProperty, Documentation: k.Doc,
			InsertText: q, FilterText: q, ReplaceRange: kc.replace})
	}
	return items
}

// SchemaKeywordHover describes the meta-schema keyword under the cursor.
func SchemaKeywordHover(f *syntax.File, off int) *HoverInfo {
	kc, ok := schemaKeyAt(f, off)
	if !ok || kc.key == nil {
		return nil
	}
	doc, ok := resschema.KeywordDoc(kc.key.Value, kc.top)
	if !ok {
		return nil
	}
	where := "property keyword"
	if kc.top {
		where = "resource schema keyword"
	}
	return &HoverInfo{Markdown: "**" + kc.key.Value + "** (" + where + ")\n\n" + doc, Range: kc.key.Rng}
}
