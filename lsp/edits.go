package lsp

import "github.com/blueprint-ls/blueprint-ls/schema"

// The syntax phase of a version splices its text into the newest parse
// of an older version of the document (docState.parsed), which may be
// several versions back: the versions in between were superseded before
// anything asked for their parse. A snapshot therefore knows where its
// text differs from each recent version's (editFrom), each client
// change folded in as it arrives (schema.Change.Then), so that the
// splice is told where the edit is instead of comparing the two texts
// whole (schema.SpliceAt).

// maxEdits bounds a snapshot's edits: a version parsed from one further
// back (nothing asked for a parse for that long) is spliced by comparing
// the texts (schema.Splice).
const maxEdits = 32

// editFrom says that the text of the document's snapshot with creation
// order from became this snapshot's text by edit.
type editFrom struct {
	from uint64
	edit schema.Change
}

// editsThen returns the edits of a successor of s whose text is s's
// changed by edit (the zero Change: the same text): s's own edits
// carried through it, and s's text to the successor's. Edits from
// versions older than the document's newest parse are dropped: no later
// syntax phase starts from them (docState.lastParse).
func (s *Snapshot) editsThen(edit schema.Change) []editFrom {
	var floor uint64
	if p := s.doc.parsed.Load(); p != nil {
		floor = p.seq
	}
	keep := s.edits
	for len(keep) > 0 && keep[0].from < floor {
		keep = keep[1:] // in creation order
	}
	if len(keep) >= maxEdits {
		keep = keep[len(keep)-maxEdits+1:]
	}
	out := make([]editFrom, 0, len(keep)+1)
	for _, e := range keep {
		out = append(out, editFrom{from: e.from, edit: e.edit.Then(edit)})
	}
	return append(out, editFrom{from: s.seq, edit: edit})
}

// editSince returns where s's text differs from that of the document's
// snapshot with creation order seq, or nil when s does not know.
func (s *Snapshot) editSince(seq uint64) *schema.Change {
	for _, e := range s.edits {
		if e.from == seq {
			return &e.edit // a copy: the snapshot's are shared
		}
	}
	return nil
}
