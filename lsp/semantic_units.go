package lsp

import (
	"sort"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/ide"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// Semantic tokens per definition (issue 32): a document's token array is
// the tokens outside its definitions (ide.SemanticTokenUnits), coloured
// on every version, and each definition's, taken over from the array
// sent before when nothing they read changed, so that a keystroke
// colours the definition it touched. unitTable says where each
// definition's tokens are in an array; the array is the packed one
// tokenResults keeps for deltas, so they are not kept twice.
//
// A definition's tokens are read in the form the protocol sends them:
// each is relative to the one before, so all but the first are the same
// wherever the definition is. The first is kept as a line relative to
// the definition's anchor (where its text starts) and a column: a
// definition at the same place in the syntax tree whose anchor is on
// another line moves its lines, and one whose anchor is at another
// column (its line's text before it changed) is coloured again.

// unitTable is where each definition's tokens are in one array (data),
// in text order.
type unitTable struct {
	enc  source.Encoding
	data packedTokens
	// id is data's result id; base is the id of the array the spans
	// taken over came from ("": none).
	id, base string
	units    []unitSpan
}

// unitSpan is one definition's tokens in a unitTable's array. sym, recs
// and col are the key: a later version with the same symbol (the same
// entry, unmoved), the same records (the same sites, references and
// targets' secrecy, under the same names) and its anchor at the same
// column colours the definition as this one.
type unitSpan struct {
	sym  *analysis.Symbol
	recs analysis.RecordsID
	col  uint32 // the anchor's column
	// at and n: the tokens the array holds for it, from token index at;
	// from is where they were in the base array when taken over, else -1.
	at, n, from int32
	// The first and last token sent: lines relative to the anchor's.
	firstLine, firstCol, lastLine, lastCol uint32
	// start and end are where its tokens (those ide gave, sent or not)
	// start and end: none of the tokens outside definitions may fall
	// between.
	start, end int32
}

// anchor is where a definition's text starts; its tokens' lines are
// counted from the anchor's.
func anchor(s *analysis.Symbol) int { return s.Range.Start }

// tokenEncoder encodes tokens as encodeTokens does, a part at a time.
type tokenEncoder struct {
	data               []uint32
	prevLine, prevChar uint32
	started            bool
}

// ordered reports whether a token at line and char may follow the last
// one sent (encodeTokens drops one that may not).
func (e *tokenEncoder) ordered(line, char uint32) bool {
	return !e.started || line > e.prevLine || line == e.prevLine && char >= e.prevChar
}

// put appends one token at line and char.
func (e *tokenEncoder) put(line, char, length uint32, typ int, mods uint32) {
	dl, dc := line-e.prevLine, char
	if e.started && dl == 0 {
		dc = char - e.prevChar
	}
	if !e.started {
		dl = line
	}
	e.data = append(e.data, dl, dc, length, uint32(typ), mods)
	e.prevLine, e.prevChar, e.started = line, char, true
}

// unitTokens builds the document's token array from the tokens outside
// its definitions and each definition's, taking over prev's where their
// key is the same, and the table of where each definition is in it.
// ok is false when the parts overlap (ide.SemanticTokens would have
// dropped a token of one for another's): the caller colours the whole
// document then.
func unitTokens(res *analysis.Result, prev *unitTable, enc source.Encoding) (data []uint32, table *unitTable, ok bool) {
	doc, units := ide.SemanticTokenUnits(res)
	if prev != nil && prev.enc != enc {
		prev = nil
	}
	m := res.File.Mapper
	j := &tokenJoin{doc: doc, cur: m.Cursor(), enc: enc}
	table = &unitTable{enc: enc, units: make([]unitSpan, 0, len(units))}
	if prev != nil {
		table.base = prev.id
		j.data = make([]uint32, 0, prev.data.n)
	}
	unitCur := m.Cursor()
	for k, u := range units {
		al, ac := unitCur.LineCol(anchor(u.Symbol), enc)
		aLine, aCol := uint32(al-1), uint32(ac-1)
		span, src, hit := prev.find(k, u, aCol)
		var fresh []uint32 // the definition's tokens encoded from its anchor, when not taken over
		if !hit {
			span, fresh = encodeUnit(res, u, unitCur, aLine, aCol, enc)
		}
		if span.end > span.start {
			if !j.putDoc(int(span.start)) || int(span.start) < j.end {
				return nil, nil, false
			}
			j.end = int(span.end)
		}
		from := int(span.at) // in prev's array, when taken over
		span.at, span.from = int32(len(j.data)/semTokenLen), -1
		if hit {
			span.from = int32(from)
		}
		table.units = append(table.units, span)
		if span.n == 0 {
			continue
		}
		line := aLine + span.firstLine
		if !j.ordered(line, span.firstCol) {
			return nil, nil, false
		}
		if hit {
			t := src.token(from)
			j.put(line, span.firstCol, t[2], int(t[3]), t[4])
			j.data = src.appendTokens(j.data, from+1, int(span.n)-1)
		} else {
			j.put(line, span.firstCol, fresh[2], int(fresh[3]), fresh[4])
			j.data = append(j.data, fresh[semTokenLen:]...)
		}
		j.prevLine, j.prevChar = aLine+span.lastLine, span.lastCol
	}
	if !j.putDoc(res.File.Text.Len() + 1) {
		return nil, nil, false
	}
	return j.data, table, true
}

// tokenJoin puts a document's array together: the tokens outside its
// definitions (doc, converted with cur) between the definitions'.
type tokenJoin struct {
	tokenEncoder
	doc []ide.SemanticToken
	cur *source.LineCursor
	enc source.Encoding
	// end is where the last part's tokens end (offsets): a part that
	// starts before it would have overlapped it in ide.SemanticTokens.
	end int
}

// putDoc sends the tokens outside definitions that end by end; false
// when one overlaps the part before it.
func (j *tokenJoin) putDoc(end int) bool {
	for ; len(j.doc) > 0 && j.doc[0].Range.End <= end; j.doc = j.doc[1:] {
		t := j.doc[0]
		if t.Range.Start < j.end {
			return false
		}
		j.end = t.Range.End
		sl, sc := j.cur.LineCol(t.Range.Start, j.enc)
		el, ec := j.cur.LineCol(t.Range.End, j.enc)
		line, char := uint32(sl-1), uint32(sc-1)
		if sl != el || !j.ordered(line, char) {
			continue
		}
		j.put(line, char, uint32(ec-sc), t.Type, t.Modifiers)
	}
	return true
}

// find returns the span of definition u, the k-th, at anchor column col
// in t and the array it is in, when t has one with the same key: the
// k-th, or the one whose symbol starts where u's does (the spans are in
// text order).
func (t *unitTable) find(k int, u ide.TokenUnit, col uint32) (unitSpan, packedTokens, bool) {
	if t == nil {
		return unitSpan{}, packedTokens{}, false
	}
	i := k
	if i >= len(t.units) || t.units[i].sym != u.Symbol {
		at := anchor(u.Symbol)
		i = sort.Search(len(t.units), func(j int) bool { return anchor(t.units[j].sym) >= at })
		if i == len(t.units) || t.units[i].sym != u.Symbol {
			return unitSpan{}, packedTokens{}, false
		}
	}
	s := t.units[i]
	if s.recs != u.Records || s.col != col {
		return unitSpan{}, packedTokens{}, false
	}
	return s, t.data, true
}

// encodeUnit colours definition u, whose anchor is at line and col, and
// encodes its tokens as encodeTokens would on their own: the first
// token's line is relative to the anchor's.
func encodeUnit(res *analysis.Result, u ide.TokenUnit, cur *source.LineCursor, line, col uint32, enc source.Encoding) (unitSpan, []uint32) {
	toks := ide.UnitTokens(res, u)
	span := unitSpan{sym: u.Symbol, recs: u.Records, col: col}
	if len(toks) == 0 {
		return span, nil
	}
	span.start, span.end = int32(toks[0].Range.Start), int32(toks[len(toks)-1].Range.End)
	e := &tokenEncoder{data: make([]uint32, 0, len(toks)*semTokenLen)}
	for _, t := range toks {
		sl, sc := cur.LineCol(t.Range.Start, enc)
		el, ec := cur.LineCol(t.Range.End, enc)
		l, c := uint32(sl-1), uint32(sc-1)
		if sl != el || !e.ordered(l, c) {
			continue
		}
		e.put(l, c, uint32(ec-sc), t.Type, t.Modifiers)
		if span.n == 0 {
			span.firstLine, span.firstCol = l-line, c
		}
		span.n++
		span.lastLine, span.lastCol = l-line, c
	}
	return span, e.data
}

// sameAs lists the runs of t's array known to equal the array of result
// id (tokenEdit steps over them): the definitions taken over from it, but
// their first tokens, which are placed anew.
func (t *unitTable) sameAs(id string) []sameRun {
	if t == nil || t.base == "" || t.base != id {
		return nil
	}
	var runs []sameRun
	for _, s := range t.units {
		if s.from >= 0 && s.n > 1 {
			runs = append(runs, sameRun{lo: int(s.at) + 1, hi: int(s.at + s.n), shift: int(s.from - s.at)})
		}
	}
	return runs
}
