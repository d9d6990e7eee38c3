package lsp

import (
	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// The syntax phase of a version starts from the newest parse of an
// older version of the document (docState.parsed), told where the
// client's text changed since (edits.go):
//
//   - a Bluelink blueprint whose last parse is padded has the edit put in
//     that parse's coordinates (padEdit), the edited definition
//     re-parsed alone (Reparser), and its padding kept when the new tree
//     still ends its open key line there (fits);
//   - anything else, and whatever does not splice, is the client's text
//     parsed whole and, when it parses clean, padded (padWhole) with the
//     sizes the previous version's padding had where it still fits, so
//     that the two versions' coordinates agree outside the edit.
//
// A parse with syntax errors is not padded: the analysis repairs it by
// parsing again, which must not read spaces the client's text lacks.
// Its padding is carried to the next whole parse (parsedAt.carry).

// parse is the syntax phase: the parse of the snapshot's text and, for a
// parse without padding, the padding to carry on.
func (s *Snapshot) parse() (*schema.File, []source.Slack) {
	p := s.doc.lastParse(s.seq)
	var e *schema.Change
	if p != nil && p.file.URI == s.URI {
		// Narrowed to the bytes that differ: edits folded over several
		// versions may span more (typed in one place, then in another,
		// then undone in the first). Not told (parsed too many versions
		// back), the texts are compared.
		n := syntax.EditOf(p.client, s.Text, s.editSince(p.seq))
		e = &n
	}
	r, reparses := s.analyzer.(Reparser)
	if s.noSlack || s.Dialect().Kind != dialect.Bluelink {
		if reparses && e != nil && paddingOf(p.file.Mapper).Len() == 0 {
			if f := r.Splice(p.file, s.Text, *e); f != nil {
				return f, nil
			}
		}
		return s.parseWhole(), nil
	}
	var carry []source.Slack
	if e != nil {
		pads := paddingOf(p.file.Mapper)
		if reparses && e.Start == e.OldEnd && e.OldEnd == e.NewEnd {
			// The same text (new settings, a child changed): the same
			// tree, in the same coordinates.
			if f := r.Splice(p.file, p.file.Text, *e); f != nil {
				f.Mapper = pads.withMapper(f.Mapper)
				return f, nil
			}
		}
		if reparses {
			if pads.Len() == 0 {
				if f := r.Splice(p.file, s.Text, *e); f != nil {
					return f, nil
				}
			} else if pe, ok := padEdit(p.file, pads, s.Text, *e); ok {
				if f := r.Splice(p.file, pe.text, pe.ch); f != nil && fits(f, pe.pads, pe.run) {
					f.Mapper = pe.pads.withMapper(f.Mapper)
					return f, nil
				}
			}
		}
		carry = p.carry
		if pads.Len() > 0 {
			carry = pads.clientRuns()
		}
		carry = carried(carry, *e)
	}
	f := s.parseWhole()
	if f == nil || len(f.Diagnostics) > 0 || f.HasSyntaxErrors() {
		return f, carry
	}
	padWhole(f, carry)
	return f, nil
}

// parseWhole parses the client's text whole, with the snapshot's line
// table when the analyzer takes it (MappedParser): the syntax phase
// makes that table beside the parse, which then waits at most for the
// rest of it instead of making its own.
func (s *Snapshot) parseWhole() *schema.File {
	if p, ok := s.analyzer.(MappedParser); ok {
		return p.ParseMapped(s.URI, s.Lines())
	}
	return s.analyzer.Parse(s.URI, s.Content())
}
