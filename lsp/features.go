package lsp

import (
	"context"
	"encoding/json"

	"go.lsp.dev/protocol"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/ide"
)

// The position features share one way in: the snapshot current when the
// request arrived, the Result to read and the position as an offset.

// ideOptions are the tables ide reads for snap.
func (s *server) ideOptions(snap *Snapshot) ide.Options {
	return ide.Options{Registry: snap.Registry(), Snippets: s.caps.snippets, CreateFiles: s.caps.createFiles}
}

// at resolves a position request: the snapshot, the offset in its text,
// and the Result whose document that offset also addresses. While the
// text does not parse the Result is the last good one, and it is returned
// only for a position before the first byte that changed since (where
// both texts agree); otherwise res is nil.
func (s *server) at(ctx context.Context, u string, p protocol.Position) (snap *Snapshot, res *analysis.Result, off int, err error) {
	snap, err = s.snapshot(ctx, u)
	if err != nil {
		return nil, nil, 0, err
	}
	res, stale := snap.Result()
	m := snap.Mapper()
	if res != nil && res.File != nil {
		m = res.File.Mapper // a stale Result's offsets are in its own parse's coordinates
	}
	off, err = fromPosition(m, p, s.enc)
	if err != nil {
		return nil, nil, 0, invalidParams(err)
	}
	if res == nil || res.File == nil {
		return snap, nil, off, nil
	}
	if stale && off >= staleLimit(res, snap) {
		return snap, nil, off, nil
	}
	return snap, res, off, nil
}

// current returns the snapshot's Result when its text parsed; features
// that edit or describe the whole document read nothing else.
func current(snap *Snapshot) *analysis.Result {
	res := readable(snap)
	if res == nil || res.Repaired != nil {
		return nil
	}
	return res
}

// readable returns the snapshot's Result when it is of this text: parsed,
// or repaired (broken entries left out, every other offset the same).
func readable(snap *Snapshot) *analysis.Result {
	res, stale := snap.Result()
	if stale || res == nil || res.File == nil {
		return nil
	}
	return res
}

// openResults returns the current Results of the open documents other
// than snap's (for references and rename across parents and children).
// Documents whose text does not parse contribute their last good Result.
func (s *server) openResults(ctx context.Context, snap *Snapshot) []*analysis.Result {
	rs, _ := ctx.Value(requestKey{}).(*requestState)
	v := s.session.current()
	if rs != nil {
		v = rs.view
	}
	var out []*analysis.Result
	for _, o := range v.snaps {
		if o == snap || ctx.Err() != nil {
			continue
		}
		if rs != nil {
			rs.use(o)
		}
		if res, _ := o.Result(); res != nil && res.File != nil {
			out = append(out, res)
		}
	}
	return out
}

func (s *server) Completion(ctx context.Context, p *protocol.CompletionParams) (protocol.CompletionResult, error) {
	snap, err := s.snapshot(ctx, string(p.TextDocument.URI))
	if err != nil {
		return nil, err
	}
	off, err := fromPosition(snap.Mapper(), p.Position, s.enc)
	if err != nil {
		return nil, invalidParams(err)
	}
	ed := editMode{cursor: off, insertReplace: s.caps.insertReplace}
	if fd, ok := snap.kind().(featureDoc); ok {
		return toCompletionList(snap.Mapper(), fd.completion(snap, off), s.enc, ed), nil
	}
	if !snap.Dialect().Blueprint {
		return &protocol.CompletionList{Items: []protocol.CompletionItem{}}, nil
	}
	res, _ := snap.Result()
	items, incomplete := ide.CompletionList(res, snap.File().Text, off, s.ideOptions(snap))
	var out *protocol.CompletionList
	if s.caps.resolveDocumentation && len(items) > lazyDocsAbove {
		data, _ := json.Marshal(completionData{URI: snap.ClientURI, Version: snap.Version, Offset: off})
		defaults := listDefaults{data: s.caps.itemDefaultsData, editRange: s.caps.itemDefaultsEditRange, format: s.caps.itemDefaultsFormat}
		out = toLazyCompletionList(snap.Mapper(), items, s.enc, ed, data, defaults)
	} else {
		out = toCompletionList(snap.Mapper(), items, s.enc, ed)
	}
	out.IsIncomplete = incomplete
	return out, nil
}

// lazyDocsAbove is the length of a completion list above which items go
// without documentation, to clients that can resolve it: after
// "${resources." in a large blueprint the documentation would be most of
// every response, and the user reads at most a few items.
const lazyDocsAbove = 200

// completionData rides in Data of items sent without documentation (in
// the list's itemDefaults when the client takes them): the document
// version and offset of the completion. With the item's own label and
// kind it identifies the item, so CompletionResolve can recompute it.
type completionData struct {
	URI     string `json:"uri"`
	Version int32  `json:"version"`
	Offset  int    `json:"offset"`
}

// CompletionResolve fills in the documentation of an item Completion sent
// without it. An item whose document has changed since, or that is not
// offered there any more, comes back as it was.
func (s *server) CompletionResolve(ctx context.Context, item *protocol.CompletionItem) (*protocol.CompletionItem, error) {
	var d completionData
	if len(item.Data) == 0 || json.Unmarshal(item.Data, &d) != nil || d.URI == "" || item.Documentation != nil {
		return item, nil
	}
	snap, err := s.snapshot(ctx, d.URI)
	if err != nil || snap.Version != d.Version || !snap.Dialect().Blueprint {
		return item, nil
	}
	res, _ := snap.Result()
	for _, kind := range ideKinds(item.Kind) {
		if doc, ok := ide.CompletionDocumentation(res, snap.File().Content(), d.Offset, item.Label, kind, s.ideOptions(snap)); ok {
			if doc != "" {
				item.Documentation = toMarkup(doc)
			}
			break
		}
	}
	return item, nil
}

func (s *server) Hover(ctx context.Context, p *protocol.HoverParams) (*protocol.Hover, error) {
	snap, res, off, err := s.at(ctx, string(p.TextDocument.URI), p.Position)
	if err != nil {
		return nil, err
	}
	if fd, ok := snap.kind().(featureDoc); ok {
		if h := fd.hover(snap, off); h != nil {
			return toHover(snap.Mapper(), h, s.enc), nil
		}
		return nil, nil
	}
	if res == nil {
		return nil, nil
	}
	h := ide.Hover(res, off, s.ideOptions(snap))
	if h == nil {
		return nil, nil
	}
	deployConfigHover(snap, res, off, h)
	transformHover(snap, res, off, h)
	return toHover(res.File.Mapper, h, s.enc), nil
}

func (s *server) SignatureHelp(ctx context.Context, p *protocol.SignatureHelpParams) (*protocol.SignatureHelp, error) {
	snap, err := s.snapshot(ctx, string(p.TextDocument.URI))
	if err != nil {
		return nil, err
	}
	off, err := fromPosition(snap.Mapper(), p.Position, s.enc)
	if err != nil {
		return nil, invalidParams(err)
	}
	if !snap.Dialect().Blueprint {
		return nil, nil
	}
	res, _ := snap.Result()
	sig := ide.SignatureHelp(res, snap.File().Text, off, s.ideOptions(snap))
	if sig == nil {
		return nil, nil
	}
	return toSignatureHelp(sig, s.enc), nil
}

func (s *server) Definition(ctx context.Context, p *protocol.DefinitionParams) (protocol.DefinitionResult, error) {
	snap, res, off, err := s.at(ctx, string(p.TextDocument.URI), p.Position)
	if err != nil {
		return nil, err
	}
	if vd, ok := snap.kind().(viewDoc); ok {
		return s.toLocations(snap, vd.definition(snap, off)), nil
	}
	if res == nil {
		return nil, nil
	}
	return s.toLocations(snap, ide.Definition(res, off)), nil
}

func (s *server) References(ctx context.Context, p *protocol.ReferenceParams) ([]protocol.Location, error) {
	snap, res, off, err := s.at(ctx, string(p.TextDocument.URI), p.Position)
	if err != nil || res == nil {
		return nil, err
	}
	locs := ide.References(res, off, p.Context.IncludeDeclaration, s.openResults(ctx, snap))
	return s.toLocations(snap, locs), nil
}

func (s *server) DocumentHighlight(ctx context.Context, p *protocol.DocumentHighlightParams) ([]protocol.DocumentHighlight, error) {
	_, res, off, err := s.at(ctx, string(p.TextDocument.URI), p.Position)
	if err != nil || res == nil {
		return nil, err
	}
	return toHighlights(res.File.Mapper, ide.DocumentHighlight(res, off), s.enc), nil
}
