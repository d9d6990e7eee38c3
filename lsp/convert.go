package lsp

import (
	"encoding/json"
	"fmt"
	"path/filepath"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// This file and the other convert*.go files are the only places where the
// language packages' types (source.Range, source.Diagnostic, ...) become
// protocol types. Every position goes through source.Mapper in the
// negotiated encoding.

// diagnosticsDocBase is where each diagnostic code's documentation lives;
// the code itself is the anchor.
const diagnosticsDocBase = "https://github.com/blueprint-ls/blueprint-ls/blob/main/docs/diagnostics.md#"

// diagnosticSource is the "source" shown beside every diagnostic.
const diagnosticSource = "blueprint"

func encodingKind(e source.Encoding) protocol.PositionEncodingKind {
	switch e {
	case source.UTF8:
		return protocol.PositionEncodingKindUTF8
	case source.UTF32:
		return protocol.PositionEncodingKindUTF32
	}
	return protocol.PositionEncodingKindUTF16
}

func toPosition(m *source.Mapper, off int, enc source.Encoding) protocol.Position {
	p := m.OffsetPosition(off, enc)
	return protocol.Position{Line: uint32(p.Line), Character: uint32(p.Character)}
}

func toRange(m *source.Mapper, r source.Range, enc source.Encoding) protocol.Range {
	return protocol.Range{Start: toPosition(m, r.Start, enc), End: toPosition(m, r.End, enc)}
}

func fromPosition(m *source.Mapper, p protocol.Position, enc source.Encoding) (int, error) {
	return m.PositionOffset(source.Position{Line: int(p.Line), Character: int(p.Character)}, enc)
}

func fromRange(m *source.Mapper, r protocol.Range, enc source.Encoding) (source.Range, error) {
	start, err := fromPosition(m, r.Start, enc)
	if err != nil {
		return source.Range{}, err
	}
	end, err := fromPosition(m, r.End, enc)
	if err != nil {
		return source.Range{}, err
	}
	if end < start {
		return source.Range{}, fmt.Errorf("range end %d:%d before start %d:%d",
			r.End.Line, r.End.Character, r.Start.Line, r.Start.Character)
	}
	return source.R(start, end), nil
}

// mapperFor finds another document, for related information that points
// elsewhere: the URI to show the client and the mapper of the content the
// ranges refer to (nil when the document is unknown).
type mapperFor func(uri string) (clientURI string, m *source.Mapper)

// diagnosticData is what rides in Diagnostic.data: the suggestions a code
// action can offer, with ranges already in protocol positions so they stay
// meaningful to the client without the snapshot.
type diagnosticData struct {
	Suggestions []suggestionData `json:"suggestions,omitempty"`
}

type suggestionData struct {
	Title string     `json:"title"`
	Edits []editData `json:"edits,omitempty"`
}

type editData struct {
	Range   protocol.Range `json:"range"`
	NewText string         `json:"newText"`
}

// toDiagnostics converts diagnostics of the document with mapper m, applying
// severity overrides; a code overridden to "off" is dropped. The result is
// never nil so that it encodes as [] and clears the client's list.
func toDiagnostics(m *source.Mapper, docURI string, ds []source.Diagnostic, enc source.Encoding, settings *Settings, others mapperFor) []protocol.Diagnostic {
	out := make([]protocol.Diagnostic, 0, len(ds))
	// Diagnostics come mostly in document order: a cursor over the line
	// table converts each place in a comparison or two, where the
	// mapper searched the table for each (issue 32: 0.6 ms of an edit
	// that shows 600 findings).
	cur := m.Cursor()
	pos := func(off int) protocol.Position {
		l, c := cur.LineCol(off, enc)
		return protocol.Position{Line: uint32(l - 1), Character: uint32(c - 1)}
	}
	for _, d := range ds {
		sev, ok := settings.severityFor(d.Code, d.Severity)
		if !ok {
			continue
		}
		out = append(out, toDiagnostic(m, pos, docURI, d, sev, enc, others))
	}
	return out
}

// setSource replaces the "source" of converted diagnostics (a manifest's
// are not the blueprint checker's).
func setSource(pds []protocol.Diagnostic, src string) {
	for i := range pds {
		pds[i].Source = protocol.NewOptional(src)
	}
}

// toDiagnostic converts d, a diagnostic of the document with mapper m
// whose places pos converts.
func toDiagnostic(m *source.Mapper, pos func(off int) protocol.Position, docURI string, d source.Diagnostic, sev source.Severity, enc source.Encoding, others mapperFor) protocol.Diagnostic {
	at := func(r source.Range) protocol.Range { return protocol.Range{Start: pos(r.Start), End: pos(r.End)} }
	pd := protocol.Diagnostic{
		Range:    at(d.Range),
		Severity: protocol.DiagnosticSeverity(sev),
		Source:   protocol.NewOptional(diagnosticSource),
		Message:  protocol.String(d.Message),
	}
	if d.Code != "" {
		pd.Code = protocol.String(d.Code)
		href := diagnosticsDocBase + d.Code
		if c, ok := source.LookupCode(d.Code); ok && c.Doc != "" {
			href = c.Doc // a rule's own page (docs/rules.md)
		}
		pd.CodeDescription = protocol.CodeDescription{Href: uri.URI(href)}
	}
	if len(d.Tags) > 0 {
		tags := make([]protocol.DiagnosticTag, len(d.Tags))
		for i, t := range d.Tags {
			tags[i] = protocol.DiagnosticTag(t)
		}
		pd.Tags = protocol.NewDiagnosticTags(tags...)
	}
	for _, rel := range d.Related {
		target, tm := docURI, m
		if rel.URI != "" && canonicalURI(rel.URI) != canonicalURI(docURI) {
			target = fileURI(rel.URI)
			tm = nil
			if others != nil {
				target, tm = others(rel.URI)
			}
		}
		var r protocol.Range
		switch {
		case tm == m:
			r = at(rel.Range)
		case tm != nil:
			r = toRange(tm, rel.Range, enc)
		}
		pd.RelatedInformation = append(pd.RelatedInformation, protocol.DiagnosticRelatedInformation{
			Location: protocol.Location{URI: uri.URI(target), Range: r},
			Message:  rel.Message,
		})
	}
	if len(d.Suggestions) > 0 {
		var data diagnosticData
		for _, s := range d.Suggestions {
			sd := suggestionData{Title: s.Title}
			for _, e := range s.Edits {
				sd.Edits = append(sd.Edits, editData{Range: at(e.Range), NewText: e.NewText})
			}
			data.Suggestions = append(data.Suggestions, sd)
		}
		if b, err := json.Marshal(data); err == nil {
			pd.Data = b
		}
	}
	return pd
}

// documents resolves the documents a result of snap may point into: open
// documents by URI or path, then the child blueprints snap's analysis
// loaded (named by file path).
func (s *server) documents(snap *Snapshot) mapperFor {
	v := s.session.current()
	var children map[string]*source.Mapper
	// An open document's places are in its parse's coordinates: a
	// child's loader reads it so too (session.readFile).
	return func(name string) (string, *source.Mapper) {
		if o := v.snapshot(name); o != nil {
			return o.ClientURI, o.Mapper()
		}
		if o := v.byPath(filepath.Clean(name)); filepath.IsAbs(name) && o != nil {
			return o.ClientURI, o.Mapper()
		}
		if children == nil {
			children = map[string]*source.Mapper{}
			if res, _ := snap.Result(); res != nil {
				forEachChild(res, func(c *analysis.Child) {
					if c.Result != nil && c.Result.File != nil {
						children[c.Result.URI] = c.Result.File.Mapper
					}
				})
			}
		}
		return fileURI(name), children[name]
	}
}
