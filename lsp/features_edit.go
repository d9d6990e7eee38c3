package lsp

import (
	"context"
	"encoding/json"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/ide"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// The editing features (rename, code actions) read only a Result of the
// current text: edits computed on an older text would land in the wrong
// place.

func (s *server) PrepareRename(ctx context.Context, p *protocol.PrepareRenameParams) (protocol.PrepareRenameResult, error) {
	snap, err := s.snapshot(ctx, string(p.TextDocument.URI))
	if err != nil {
		return nil, err
	}
	if !snap.Dialect().Blueprint {
		return nil, nil // nothing renamable: the client says so
	}
	res := current(snap)
	if res == nil {
		return nil, jsonrpc2.NewError(jsonrpc2.Code(protocol.LSPErrorCodesRequestFailed), "the document does not parse; fix it before renaming")
	}
	off, err := fromPosition(snap.Mapper(), p.Position, s.enc)
	if err != nil {
		return nil, invalidParams(err)
	}
	rng, placeholder, ok := ide.PrepareRename(res, off)
	if !ok {
		return nil, nil // nothing renamable here: the client says so
	}
	return &protocol.PrepareRenamePlaceholder{Range: toRange(res.File.Mapper, rng, s.enc), Placeholder: placeholder}, nil
}

func (s *server) Rename(ctx context.Context, p *protocol.RenameParams) (*protocol.WorkspaceEdit, error) {
	snap, err := s.snapshot(ctx, string(p.TextDocument.URI))
	if err != nil {
		return nil, err
	}
	if d := snap.Dialect(); !d.Blueprint {
		return nil, errNotBlueprint("renaming", d)
	}
	res := current(snap)
	if res == nil {
		return nil, jsonrpc2.NewError(jsonrpc2.Code(protocol.LSPErrorCodesRequestFailed), "the document does not parse; fix it before renaming")
	}
	off, err := fromPosition(snap.Mapper(), p.Position, s.enc)
	if err != nil {
		return nil, invalidParams(err)
	}
	we, err := ide.Rename(res, off, p.NewName, s.openResults(ctx, snap), s.ideOptions(snap))
	if err != nil {
		return nil, jsonrpc2.NewError(jsonrpc2.Code(protocol.LSPErrorCodesRequestFailed), err.Error())
	}
	return s.toWorkspaceEdit(we), nil
}

// errNotBlueprint refuses a blueprint-only request on a document of
// another dialect.
func errNotBlueprint(what string, d *dialect.Dialect) error {
	return jsonrpc2.NewError(jsonrpc2.Code(protocol.LSPErrorCodesRequestFailed), what+" is not supported in "+d.Name)
}

func (s *server) CodeAction(ctx context.Context, p *protocol.CodeActionParams) ([]protocol.CommandOrCodeAction, error) {
	snap, err := s.snapshot(ctx, string(p.TextDocument.URI))
	if err != nil {
		return nil, err
	}
	res := current(snap)
	fixesOnly := false
	if res == nil {
		// A repaired tree of this text (a syntax error): the diagnostics'
		// own fixes, edits of this text, are still right; nothing that
		// reads the tree is offered.
		if res = readable(snap); res == nil {
			return []protocol.CommandOrCodeAction{}, nil
		}
		fixesOnly = true
	}
	r, err := fromRange(snap.Mapper(), p.Range, s.enc)
	if err != nil {
		return nil, invalidParams(err)
	}
	// The diagnostics as published: suppress-unused's fix is a code action.
	diags := s.contextDiagnostics(snap, snap.projectDiagnostics(res.Diagnostics, true), r, p.Context.Diagnostics)
	if fixesOnly {
		return s.toCodeActions(snap, ide.SuggestedFixes(res, diags), p.Context.Only), nil
	}
	actions := ide.CodeActions(res, r, diags, s.ideOptions(snap))
	return s.toCodeActions(snap, actions, p.Context.Only), nil
}

// contextDiagnostics finds the analysis diagnostics the client sent back
// in a code action context (same code and range); a client that sends
// none gets those overlapping r.
func (s *server) contextDiagnostics(snap *Snapshot, all []source.Diagnostic, r source.Range, sent []protocol.Diagnostic) []source.Diagnostic {
	var out []source.Diagnostic
	if len(sent) == 0 {
		for _, d := range all {
			if d.Range.Start <= r.End && r.Start <= d.Range.End {
				out = append(out, d)
			}
		}
		return out
	}
	type key struct {
		code string
		rng  protocol.Range
	}
	want := map[key]bool{}
	for _, d := range sent {
		code, _ := d.Code.(protocol.String)
		want[key{string(code), d.Range}] = true
	}
	for _, d := range all {
		if want[key{d.Code, toRange(snap.Mapper(), d.Range, s.enc)}] {
			out = append(out, d)
		}
	}
	return out
}

// commandShowReferences answers the reference-count code lens: arguments
// [uri, position]; the result is the references (clients with their own
// command for showing locations map it in the editor extension).
const commandShowReferences = "blueprint.showReferences"

func (s *server) showReferencesCommand(ctx context.Context, args []protocol.LSPAny) (protocol.LSPAny, error) {
	u, err := commandURI(args)
	if err != nil {
		return nil, err
	}
	var position protocol.Position
	if len(args) < 2 || json.Unmarshal(args[1], &position) != nil {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, `want arguments [uri, position]`)
	}
	snap, res, off, err := s.at(ctx, u, position)
	if err != nil {
		return nil, err
	}
	var locs protocol.LocationSlice
	if res != nil {
		locs = s.toLocations(snap, ide.References(res, off, false, s.openResults(ctx, snap)))
	}
	if locs == nil {
		locs = protocol.LocationSlice{}
	}
	return protocol.Marshal(locs)
}
