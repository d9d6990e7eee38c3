package lsp

import (
	"path/filepath"
	"slices"
	"unicode/utf16"
	"unicode/utf8"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/blueprint-ls/blueprint-ls/ide"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// itemKinds maps ide's completion kinds onto the protocol's.
var itemKinds = map[ide.ItemKind]protocol.CompletionItemKind{
	ide.ItemProperty:   protocol.CompletionItemKindProperty,
	ide.ItemField:      protocol.CompletionItemKindField,
	ide.ItemVariable:   protocol.CompletionItemKindVariable,
	ide.ItemValue:      protocol.CompletionItemKindConstant,
	ide.ItemDataSource: protocol.CompletionItemKindStruct,
	ide.ItemResource:   protocol.CompletionItemKindClass,
	ide.ItemChild:      protocol.CompletionItemKindModule,
	ide.ItemNamespace:  protocol.CompletionItemKindModule,
	ide.ItemFunction:   protocol.CompletionItemKindFunction,
	ide.ItemEnum:       protocol.CompletionItemKindEnumMember,
	ide.ItemKeyword:    protocol.CompletionItemKindKeyword,
	ide.ItemType:       protocol.CompletionItemKindClass,
}

// retrigger is the client-side command that opens completion again.
const retrigger = "editor.action.triggerSuggest"

// toCompletionList converts items whose ranges are offsets of the text
// mapped by m. The list is complete: ide filters nothing by prefix that
// the client would not filter itself.
func toCompletionList(m *source.Mapper, items []ide.CompletionItem, enc source.Encoding, ed editMode) *protocol.CompletionList {
	return convertCompletion(m, items, enc, ed, nil, false)
}

// editMode is how an item's edit is sent: the request's offset, and
// whether the client takes an InsertReplaceEdit
// (completionItem.insertReplaceSupport).
type editMode struct {
	cursor        int
	insertReplace bool
}

// split reports whether r, the word an item replaces, reaches past the
// cursor, so that inserting (up to the cursor) and replacing (all of r)
// differ; only then is an InsertReplaceEdit sent, to clients that take
// one. Others get r whole: accepting an item never leaves the rest of the
// word behind.
func (e editMode) split(r source.Range) (insert source.Range, ok bool) {
	if !e.insertReplace || r.Start > e.cursor || r.End <= e.cursor {
		return r, false
	}
	return source.R(r.Start, e.cursor), true
}

func (e editMode) textEdit(m *source.Mapper, r source.Range, text string, enc source.Encoding) protocol.CompletionItemTextEdit {
	if ins, ok := e.split(r); ok {
		return &protocol.InsertReplaceEdit{NewText: text, Insert: toRange(m, ins, enc), Replace: toRange(m, r, enc)}
	}
	return &protocol.TextEdit{Range: toRange(m, r, enc), NewText: text}
}

// newText is the text of an item's edit of either kind.
func newText(e protocol.CompletionItemTextEdit) string {
	switch e := e.(type) {
	case *protocol.TextEdit:
		return e.NewText
	case *protocol.InsertReplaceEdit:
		return e.NewText
	}
	return ""
}

// listDefaults says which of a completion list's itemDefaults the client
// applies to its items.
type listDefaults struct{ data, editRange, format bool }

// toLazyCompletionList converts items without their documentation, data
// (the encoded completionData) in their place: in the list's itemDefaults
// when the client applies them, otherwise in every item (one shared
// value). What every item shares (the range its text replaces, its
// insert format) moves to the itemDefaults too when the client takes
// them: a list of the 1,500 catalog types is then a list of labels.
func toLazyCompletionList(m *source.Mapper, items []ide.CompletionItem, enc source.Encoding, ed editMode, data protocol.LSPAny, defaults listDefaults) *protocol.CompletionList {
	out := convertCompletion(m, items, enc, ed, data, defaults.data)
	if defaults.data {
		out.ItemDefaults = &protocol.CompletionItemDefaults{Data: data}
	}
	if len(items) == 0 {
		return out
	}
	if out.ItemDefaults == nil {
		out.ItemDefaults = &protocol.CompletionItemDefaults{}
	}
	if defaults.editRange && sharedReplaceRange(items) {
		r := items[0].ReplaceRange
		if ins, ok := ed.split(r); ok {
			out.ItemDefaults.EditRange = &protocol.EditRangeWithInsertReplace{Insert: toRange(m, ins, enc), Replace: toRange(m, r, enc)}
		} else {
			pr := toRange(m, r, enc)
			out.ItemDefaults.EditRange = &pr
		}
		for i := range out.Items {
			ci := &out.Items[i]
			if t := newText(ci.TextEdit); t != ci.Label {
				ci.TextEditText = protocol.NewOptional(t)
			}
			ci.TextEdit = nil
		}
	}
	if defaults.format && sharedFormat(out.Items) {
		out.ItemDefaults.InsertTextFormat = out.Items[0].InsertTextFormat
		for i := range out.Items {
			out.Items[i].InsertTextFormat = 0
		}
	}
	if out.ItemDefaults.Data == nil && out.ItemDefaults.EditRange == nil && out.ItemDefaults.InsertTextFormat == 0 {
		out.ItemDefaults = nil
	}
	return out
}

func sharedReplaceRange(items []ide.CompletionItem) bool {
	for _, it := range items[1:] {
		if it.ReplaceRange != items[0].ReplaceRange {
			return false
		}
	}
	return true
}

func sharedFormat(items []protocol.CompletionItem) bool {
	for _, it := range items[1:] {
		if it.InsertTextFormat != items[0].InsertTextFormat {
			return false
		}
	}
	return true
}

// ideKinds are the ide kinds a protocol completion kind stands for.
func ideKinds(k protocol.CompletionItemKind) []ide.ItemKind {
	var out []ide.ItemKind
	for ik, pk := range itemKinds {
		if pk == k {
			out = append(out, ik)
		}
	}
	slices.Sort(out)
	return out
}

func convertCompletion(m *source.Mapper, items []ide.CompletionItem, enc source.Encoding, ed editMode, lazy protocol.LSPAny, asDefault bool) *protocol.CompletionList {
	out := &protocol.CompletionList{Items: make([]protocol.CompletionItem, 0, len(items))}
	for _, it := range items {
		ci := protocol.CompletionItem{
			Label:    it.Label,
			Kind:     itemKinds[it.Kind],
			TextEdit: ed.textEdit(m, it.ReplaceRange, it.InsertText, enc),
		}
		if it.Detail != "" {
			ci.Detail = protocol.NewOptional(it.Detail)
		}
		switch {
		case lazy != nil:
			if !asDefault {
				ci.Data = lazy
			}
		case it.Documentation != "":
			ci.Documentation = toMarkup(it.Documentation)
		}
		if it.Snippet {
			ci.InsertTextFormat = protocol.InsertTextFormatSnippet
		} else {
			ci.InsertTextFormat = protocol.InsertTextFormatPlainText
		}
		if it.SortText != "" {
			ci.SortText = protocol.NewOptional(it.SortText)
		}
		if it.FilterText != "" && it.FilterText != it.Label { // the label is the default
			ci.FilterText = protocol.NewOptional(it.FilterText)
		}
		if it.Deprecated {
			ci.Tags = []protocol.CompletionItemTag{protocol.CompletionItemTagDeprecated}
		}
		if it.Retrigger {
			ci.Command = protocol.Command{Title: "Suggest", Command: retrigger}
		}
		out.Items = append(out.Items, ci)
	}
	return out
}

func toMarkup(markdown string) *protocol.MarkupContent {
	return &protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: markdown}
}

func toHover(m *source.Mapper, h *ide.HoverInfo, enc source.Encoding) *protocol.Hover {
	out := &protocol.Hover{Contents: &protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: h.Markdown}}
	if h.Range.End > h.Range.Start {
		r := toRange(m, h.Range, enc)
		out.Range = &r
	}
	return out
}

// toSignatureHelp converts one signature; parameter spans become offsets
// in the label counted in the negotiated encoding.
func toSignatureHelp(sig *ide.SignatureInfo, enc source.Encoding) *protocol.SignatureHelp {
	si := protocol.SignatureInformation{Label: sig.Label}
	if sig.Documentation != "" {
		si.Documentation = &protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: sig.Documentation}
	}
	for _, p := range sig.Params {
		pi := protocol.ParameterInformation{Label: protocol.ParameterInformationLabelTuple{
			labelUnits(sig.Label, p.Start, enc), labelUnits(sig.Label, p.End, enc)}}
		if p.Documentation != "" {
			pi.Documentation = &protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: p.Documentation}
		}
		si.Parameters = append(si.Parameters, pi)
	}
	zero := uint32(0)
	out := &protocol.SignatureHelp{Signatures: []protocol.SignatureInformation{si}, ActiveSignature: &zero}
	if len(sig.Params) > 0 {
		out.ActiveParameter = protocol.NewNullable(uint32(sig.ActiveParameter))
	}
	return out
}

// labelUnits counts the first off bytes of s in enc's units.
func labelUnits(s string, off int, enc source.Encoding) uint32 {
	off = max(0, min(off, len(s)))
	prefix := s[:off]
	switch enc {
	case source.UTF8:
		return uint32(len(prefix))
	case source.UTF32:
		return uint32(utf8.RuneCountInString(prefix))
	}
	n := 0
	for _, r := range prefix {
		n += utf16.RuneLen(r)
	}
	return uint32(n)
}

// docURI is the URI the client knows a document of a Result by: an open
// document's own spelling, a file URI for a child read from disk.
func (s *server) clientURI(name, path string) string {
	v := s.session.current()
	if o := v.snapshot(name); o != nil {
		return o.ClientURI
	}
	if path != "" {
		if o := v.byPath(filepath.Clean(path)); o != nil {
			return o.ClientURI
		}
		return string(uri.File(path))
	}
	return fileURI(name)
}

func (s *server) toLocation(l ide.Location) protocol.Location {
	return protocol.Location{URI: uri.URI(s.clientURI(l.URI, l.Path)), Range: toRange(l.Mapper, l.Range, s.enc)}
}

// toLocations converts locations; it never returns nil, so the answer is
// [] rather than null when there is nothing.
func (s *server) toLocations(_ *Snapshot, locs []ide.Location) protocol.LocationSlice {
	out := make(protocol.LocationSlice, 0, len(locs))
	for _, l := range locs {
		if l.Mapper == nil {
			continue
		}
		out = append(out, s.toLocation(l))
	}
	return out
}

func toHighlights(m *source.Mapper, hs []ide.Highlight, enc source.Encoding) []protocol.DocumentHighlight {
	out := make([]protocol.DocumentHighlight, 0, len(hs))
	for _, h := range hs {
		kind := protocol.DocumentHighlightKindRead
		if h.Kind == ide.HighlightWrite {
			kind = protocol.DocumentHighlightKindWrite
		}
		out = append(out, protocol.DocumentHighlight{Range: toRange(m, h.Range, enc), Kind: kind})
	}
	return out
}
