package lsp

import (
	"path/filepath"
	"slices"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/blueprint-ls/blueprint-ls/ide"
)

// toWorkspaceEdit converts edits keyed by Result URI (a child read from
// disk is keyed by its file path) into changes keyed by client URI.
func (s *server) toWorkspaceEdit(we *ide.WorkspaceEdit) *protocol.WorkspaceEdit {
	out := &protocol.WorkspaceEdit{Changes: map[uri.URI][]protocol.TextEdit{}}
	if we == nil {
		return out
	}
	names := make([]string, 0, len(we.Changes))
	for name := range we.Changes {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		m := we.Mappers[name]
		if m == nil {
			continue
		}
		path := ""
		if filepath.IsAbs(name) {
			path = name
		}
		target := uri.URI(s.clientURI(name, path))
		out.Changes[target] = append(out.Changes[target], toTextEdits(m, we.Changes[name], s.enc)...)
	}
	if len(we.Creates) > 0 {
		// Creating a file needs documentChanges; the text is one insert
		// into the new, empty file.
		for _, f := range we.Creates {
			u := uri.URI(f.URI)
			out.DocumentChanges = append(out.DocumentChanges,
				&protocol.CreateFile{Kind: "create", URI: u, Options: &protocol.CreateFileOptions{}},
				&protocol.TextDocumentEdit{
					TextDocument: protocol.OptionalVersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: u}},
					Edits:        []protocol.TextDocumentEditElement{&protocol.TextEdit{NewText: f.Text}},
				})
		}
		for target, edits := range out.Changes {
			out.DocumentChanges = append(out.DocumentChanges, &protocol.TextDocumentEdit{
				TextDocument: protocol.OptionalVersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: target}},
				Edits:        textEditElements(edits),
			})
		}
		out.Changes = nil
	}
	return out
}

func textEditElements(edits []protocol.TextEdit) []protocol.TextDocumentEditElement {
	out := make([]protocol.TextDocumentEditElement, len(edits))
	for i := range edits {
		out[i] = &edits[i]
	}
	return out
}

// toCodeActions converts actions, keeping only the kinds the client asked
// for (a requested kind also admits its sub-kinds).
func (s *server) toCodeActions(snap *Snapshot, actions []ide.CodeAction, only []protocol.CodeActionKind) []protocol.CommandOrCodeAction {
	out := make([]protocol.CommandOrCodeAction, 0, len(actions))
	for _, a := range actions {
		kind := protocol.CodeActionKind(a.Kind)
		if !kindWanted(kind, only) {
			continue
		}
		ca := &protocol.CodeAction{Title: a.Title, Kind: &kind, Edit: s.toWorkspaceEdit(&a.Edit)}
		if a.Preferred {
			yes := true
			ca.IsPreferred = &yes
		}
		if len(a.Diagnostics) > 0 {
			ca.Diagnostics = toDiagnostics(snap.Mapper(), snap.ClientURI, a.Diagnostics, s.enc, snap.Settings, s.documents(snap))
		}
		out = append(out, ca)
	}
	return out
}

func kindWanted(k protocol.CodeActionKind, only []protocol.CodeActionKind) bool {
	if len(only) == 0 {
		return true
	}
	for _, o := range only {
		if k == o || len(k) > len(o) && string(k[:len(o)]) == string(o) && k[len(o)] == '.' {
			return true
		}
	}
	return false
}
