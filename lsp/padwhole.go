package lsp

import (
	"bytes"
	"cmp"
	"slices"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// A text that arrives whole (didOpen, or a change that replaces the
// text) is padded whole: every definition whose key line ends in its
// colon (or, in JSON and the blueprint language, in the '{' that opens
// its value) gets its padding at once, so that the first keystroke in
// any definition finds padding to take and moves nothing after it
// (slack.go). The text is parsed first and the padding put where the
// parse says an Open definition's key line ends (schema.PadPoints):
// spaces there are where the grammar skips blanks, so the parse of the
// padded text is the same tree with its offsets moved, which
// syntax.PadParsed makes in place of a second parse, and the snapshot
// starts from it (snapshotInit.file). Nothing needs checking afterwards.

// padWhole parses in's text, a whole new one, and pads it when the
// document is a Bluelink blueprint (in any of its formats) that parses
// clean; the parse goes with in to its snapshot.
func (s *session) padWhole(in *snapshotInit) bool {
	if s.noSlack {
		return false
	}
	content := in.text.Bytes()
	if !s.bluelink(in, content) {
		return false
	}
	f := s.parseWhole(in.uri, content)
	if f == nil || !f.Text.Same(in.text) {
		return false
	}
	in.file = f
	points := schema.PadPoints(f)
	if s.noPadWhole || len(points) == 0 {
		in.mapper = f.Mapper // the parse's line table serves the snapshot
		return false
	}
	text, pads := padAt(content, points, f.Format)
	in.mapper = pads.withMapper(f.Mapper.Padded(text, points, func(int) int { return slackSize }))
	in.text = in.mapper.Text()
	syntax.PadParsed(f, content, points, slackSize, in.text, in.mapper)
	return true
}

// carryPadding pads in's text, a whole new one replacing old's, with
// old's padding where old's client text and the new one agree around it
// (a client that sends the whole text at every keystroke changes one
// definition): the runs before the first difference keep their places,
// those after the last one move by the length change, and those on a
// changed line go. Nothing is parsed here: the syntax phase then finds
// the edit by comparing the texts and splices it (schema.Splice), as for
// any edit, and a whole parse checks the padding (checkPadding). It
// reports whether it padded.
func (s *session) carryPadding(in *snapshotInit, old *Snapshot) bool {
	runs := source.SlackOf(old.Mapper.Slack())
	if len(runs) == 0 || s.noSlack {
		return false
	}
	next := in.text.Bytes()
	if !s.bluelink(in, next) {
		return false
	}
	client, _ := unpadded(old.Content(), old.Mapper)
	ct := source.NewText(client)
	pre := source.CommonPrefix(ct, in.text)
	suf := source.CommonSuffix(ct, in.text, min(len(client), len(next))-pre)
	var points, sizes []int
	before := 0 // the padding before the run
	for _, r := range runs {
		at := r.At - before // where the run is in the client's text
		before += r.Len
		switch {
		case at < pre:
			points, sizes = append(points, at), append(sizes, r.Len)
		case bytes.LastIndexByte(client[:at], '\n')+1 >= len(client)-suf:
			points, sizes = append(points, at+len(next)-len(client)), append(sizes, r.Len)
		}
	}
	if len(points) == 0 {
		return false
	}
	text, pads := padSized(next, points, func(i int) int { return sizes[i] }, paddingOf(old.Mapper).format)
	in.mapper = pads.withMapper(source.NewMapper(text))
	in.text = in.mapper.Text()
	return true
}

// bluelink reports whether in's text, content, is a Bluelink blueprint
// (in any of its formats): the only documents padded.
func (s *session) bluelink(in *snapshotInit, content []byte) bool {
	k, _ := detectKind(s.analyzer, in.uri, uriPath(in.clientURI), in.lang, content)
	return k == dialect.Bluelink
}

// parseWhole parses content as the syntax phase would; nil when the
// parser failed (the syntax phase then reports it).
func (s *session) parseWhole(uri string, content []byte) (f *schema.File) {
	defer func() {
		if r := recover(); r != nil {
			f = nil
		}
	}()
	return s.analyzer.Parse(uri, content)
}

// checkPadding is called with the snapshot's parse by every syntax
// phase. A clean parse of an edited text that is not a splice of one
// definition (an edit the splice could not take: one that may change
// how the text after it reads, such as "? " or a block scalar header
// typed at a line start) checks that each run still ends the key
// line of an open definition. When one does not, the padding would be
// read as part of a key or a value: the snapshot is cancelled before
// anything is published from it, and the document is given back its
// text unpadded, same version (mispadded). A splice re-parsed one
// definition alone and kept its key line (keepsKeyLine), so its
// padding still fits; a text padded whole was padded from its parse
// (padWhole).
//
// The check (a lookup per padded definition: 11 ms at 5,000 resources)
// runs beside the analysis, which starts from the parse at once (issue
// 36): it returns a channel closed when the check is done, nil when
// there is nothing to check. File waits for it, and so does the
// analysis before it answers, so nothing is read or published from a
// snapshot before its padding is known to fit.
func (s *Snapshot) checkPadding(f *schema.File, whole bool) chan struct{} {
	pads := s.Mapper.Slack()
	if !whole || pads.Len() == 0 || !f.Text.Same(s.Text) {
		return nil
	}
	if len(f.Diagnostics) > 0 || f.HasSyntaxErrors() {
		// Only a clean parse knows its definitions: the check waits for
		// the next version that parses clean. A broken one is padded as
		// before (where spaces before a line break mean nothing), and
		// replacing it would only answer requests ContentModified.
		return nil
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		fits := false
		defer func() {
			if r := recover(); r != nil {
				s.panicDiagnostic("padding check", r) // logged; the text is analysed unpadded
			}
			if !fits {
				s.refusePadding()
			}
		}()
		fits = paddingFits(f, pads, nil)
	}()
	return done
}

// checkRepairedPadding is checkPadding for a text with syntax errors,
// once its analysis has repaired it: the repaired parse (res.File, the
// same offsets, the broken regions blanked) knows the definitions of
// every line it kept, and its diagnostics may quote their text. Padding
// on a kept line that no longer ends an open definition's key line (an
// explicit "? " key typed above made it part of a key) would be read
// as part of that text: the snapshot is refused as checkPadding refuses
// one. Padding in a blanked region is read by nothing. It reports
// whether the padding fits.
func (s *Snapshot) checkRepairedPadding(res *analysis.Result) bool {
	pads := s.Mapper.Slack()
	if pads.Len() == 0 || res == nil || res.Repaired == nil || res.File == nil || res.File.Text.Len() < s.Text.Len() {
		return true
	}
	if paddingFits(res.File, pads, res.Repaired) {
		return true
	}
	s.refusePadding()
	return false
}

// refusePadding cancels s, whose parse refused its padding, before
// anything is published from it; the document is given back its text
// unpadded, same version (mispadded).
func (s *Snapshot) refusePadding() {
	s.log.Warn("padding refused by the parse; the document is analysed unpadded", "uri", s.URI)
	s.cancel() // superseded: nothing is published from it
	if s.mispadded != nil {
		go s.mispadded(s)
	}
}

// paddingFits reports whether every run of pads, but those inside a
// region of skip, ends the key line of an open definition of f, a clean
// parse.
func paddingFits(f *schema.File, pads source.Slacks, skip []source.Range) bool {
	for i := range pads.Len() {
		r := pads.At(i)
		if inRegion(r.At, skip) {
			continue
		}
		if d, ok := schema.DefinitionAt(f, r.At, r.At); !ok || !d.Open || d.KeyLineEnd != r.At+r.Len {
			return false
		}
	}
	return true
}

// inRegion reports whether off lies inside one of regions (sorted).
func inRegion(off int, regions []source.Range) bool {
	k, _ := slices.BinarySearchFunc(regions, off, func(r source.Range, off int) int { return cmp.Compare(r.End, off) })
	return k < len(regions) && regions[k].Start <= off && off < regions[k].End
}

// unpad replaces snap, when it is still the document's newest snapshot,
// with one of the same version holding the client's text (no padding),
// and returns it (nil when snap was superseded).
func (s *session) unpad(snap *Snapshot) *Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.isCurrent(snap) {
		return nil
	}
	var fresh *Snapshot
	s.publish(func(snaps map[string]*Snapshot, _ **Settings, _ map[string]*workspace) {
		snap.cancel()
		in := snap.init()
		_, in.mapper = unpadded(snap.Content(), snap.Mapper)
		in.text = in.mapper.Text()
		in.edits = nil // a new text: parsed whole
		fresh = s.newSnapshot(in)
		snaps[snap.URI] = fresh
	})
	return fresh
}

// unpad gives the document of snap its text unpadded and re-checks it.
func (s *server) unpad(snap *Snapshot) {
	if fresh := s.session.unpad(snap); fresh != nil {
		s.diags.changed(fresh)
	}
}
