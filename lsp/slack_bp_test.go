package lsp

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/blueprint-ls/blueprint-ls/bplang"
	"github.com/blueprint-ls/blueprint-ls/internal/gen"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// bpEditsTyped are what TestBPPaddedEditsMatchFreshOpen types into a .bp
// document: text that keeps it well-formed most of the time and changes
// what the analysis sees.
var bpEditsTyped = []string{"x", "9", " ", "${values.prefix}", "${variables.env}", "\n        extra = 1", ".5",
	"\"", "#", "}", "{", "\n"}

// serverText returns the server's snapshot of a document and its
// parse's padding, in the client's coordinates.
func serverText(h *harness, name string) (*Snapshot, []source.Slack) {
	snap := h.srv.session.current().snapshot(string(docURI(name)))
	return snap, paddingOf(snap.File().Mapper).clientRuns()
}

// parseIsClients fails t unless snap's text is the client's (content)
// and so is its parse's without the padding.
func parseIsClients(t *testing.T, step int, snap *Snapshot, content string) {
	t.Helper()
	f := snap.File()
	if string(snap.Content()) != content {
		t.Fatalf("step %d: the server's text is not the client's", step)
	}
	if got := unpad(f.Content(), source.SlackOf(f.Mapper.Slack())); string(got) != content {
		t.Fatalf("step %d: the parse's text without its padding is not the client's", step)
	}
}

// openGenBP opens a generated .bp blueprint of n resources as name
// and waits for its diagnostics.
func openGenBP(t *testing.T, name string, n int, opts ...harnessOption) (*harness, string) {
	h := newHarness(t, opts...)
	h.initialize(`{"initializationOptions":{"debounceMs":0}}`)
	content := string(gen.Blueprint(n, "bp"))
	h.open(name, content)
	h.WaitDiagnostics(name, 1)
	return h, content
}

// TestBPPaddedEditsMatchFreshOpen types random edits into the resources
// of a .bp blueprint, each an incremental didChange, and checks after
// every edit that the server's text without its padding is the client's,
// that diagnostics, document symbols and semantic tokens are those of
// the client's text opened fresh, and that an edit in the body of a
// padded declaration left the text after it where it was (a splice with
// delta 0); the versions that parse must be padded.
func TestBPPaddedEditsMatchFreshOpen(t *testing.T) {
	steps := 40
	if testing.Short() {
		steps = 12
	}
	const name = "edited.bp"
	h, content := openGenBP(t, name, 12)
	rng := rand.New(rand.NewSource(11))
	first := strings.Index(content, "\nresource r0:")
	clean, padded, kept, v := 0, 0, 0, int32(1)
	for step := 0; step < steps; step++ {
		at, del, ins := randomEditBetween(rng, first+1, strings.Index(content, "\nexport "), bpEditsTyped)
		m := newTestMapper(content)
		from, to := m.pos(at), m.pos(at+del)
		at, del = m.offset(from), m.offset(to)-m.offset(from)
		prev, _ := serverText(h, name)
		prevFile := prev.File()
		v++
		h.changeRange(name, v, rng2(from, to), ins)
		before := content
		content = content[:at] + ins + content[at+del:]
		got := h.WaitDiagnostics(name, v)

		snap, slack := serverText(h, name)
		parseIsClients(t, step, snap, content)
		if f := snap.File(); len(f.Diagnostics) == 0 && !f.HasSyntaxErrors() {
			clean++
			if len(slack) > 0 {
				padded++
			}
		}
		// An edit spliced into a padded declaration keeps the text
		// after it where it was.
		if sp, ok := snap.File().Spliced(prevFile); ok && len(source.SlackOf(prevFile.Mapper.Slack())) > 0 {
			kept++
			if sp.Delta != 0 || snap.File().Text.Len() != prevFile.Text.Len() {
				t.Errorf("step %d: the edit %q in a padded declaration moved the text after it (%+v)", step, ins, sp)
			}
		}
		if !sameAsFresh(t, h, name, fmt.Sprintf("fresh%d.bp", step), content, got) {
			continue
		}
		// Undo a breaking edit, so that the next one starts from clean text.
		v++
		content = h.undo(name, v, content, before, at, del, ins)
	}
	t.Logf("%d edits: %d clean, %d of them padded, %d spliced into a padded declaration", steps, clean, padded, kept)
	if padded*10 < clean*9 || kept*4 < steps {
		t.Errorf("%d of %d clean versions were padded, %d edits were spliced into a padded declaration", padded, clean, kept)
	}
	h.shutdown()
}

// TestBPTypingKeepsTextAfter types into one resource of a .bp document
// key by key and checks the padding the parse keeps: the resource's
// first line is padded, every edit leaves the text after the resource
// where it was (a splice with delta 0), and what the client sees is the
// client's text.
func TestBPTypingKeepsTextAfter(t *testing.T) {
	const name = "typed.bp"
	h, content := openGenBP(t, name, 6)
	head := strings.Index(content, "resource r3: ")
	keyLine := head + strings.IndexByte(content[head:], '\n')
	at := head + strings.Index(content[head:], "visibilityTimeout = 45") + len("visibilityTimeout = 4")
	v := int32(1)
	// Type "45" into 45, delete it, type and delete a space at the
	// end of the first line (where the padding starts), and add a line.
	edits := []struct {
		at, del int
		text    string
	}{{at, 0, "4"}, {at + 1, 0, "5"}, {at + 1, 1, ""}, {at, 1, ""}, {keyLine, 0, " "}, {keyLine, 1, ""},
		{at + 1, 0, "\n        memorySize = 256"}}
	r4 := -1 // where r4 starts in the server's text
	for i, e := range edits {
		m := newTestMapper(content)
		prev, _ := serverText(h, name)
		prevFile := prev.File()
		v++
		h.changeRange(name, v, rng2(m.pos(e.at), m.pos(e.at+e.del)), e.text)
		content = content[:e.at] + e.text + content[e.at+e.del:]
		if e.at <= keyLine {
			keyLine += len(e.text) - e.del
		}
		got := h.WaitDiagnostics(name, v)
		snap, slack := serverText(h, name)
		// A run ends r3's first line.
		if !slices.ContainsFunc(slack, func(s source.Slack) bool { return s.At == keyLine && s.Len > 0 }) {
			t.Fatalf("edit %d: padding %v, want a run at the end of r3's first line (%d)", i, slack, keyLine)
		}
		parseIsClients(t, i, snap, content)
		off := strings.Index(string(snap.File().Content()), "resource r4: ")
		{
			// Typing where the padding starts may leave the text as it was.
			if sp, ok := snap.File().Spliced(prevFile); (!ok || sp.Delta != 0) && string(snap.File().Content()) != string(prevFile.Content()) {
				t.Errorf("edit %d: Spliced = %+v, %v; want the text after r3 kept", i, sp, ok)
			}
			if r4 >= 0 && off != r4 {
				t.Errorf("edit %d: r4 starts at %d, want %d", i, off, r4)
			}
		}
		r4 = off
		sameAsFresh(t, h, name, fmt.Sprintf("fresh%d.bp", i), content, got)
	}
	h.shutdown()
}

// scalarValues lists the values of every scalar of a tree, keys
// included, in order.
func scalarValues(n schema.Node, out []string) []string {
	switch n := n.(type) {
	case *schema.Mapping:
		for _, e := range n.Entries {
			out = append(out, e.Key.Value)
			out = scalarValues(e.Value, out)
		}
	case *schema.Sequence:
		for _, it := range n.Items {
			out = scalarValues(it, out)
		}
	case *schema.Scalar:
		out = append(out, n.Value)
	}
	return out
}

// TestBPLineBreakAtPaddingKeepsValues: a line break typed where a
// padded first line ends (the client's end of the line), then a
// multi-line string on the new line, never leaves padding anywhere but
// at the end of a statement's first line, so the server's tree holds
// the values of the client's text.
func TestBPLineBreakAtPaddingKeepsValues(t *testing.T) {
	const name = "heredoc.bp"
	h, content := openGenBP(t, name, 4)
	head := strings.Index(content, "resource r2: ")
	keyLine := head + strings.IndexByte(content[head:], '\n')
	v := int32(1)
	// The client types at the end of the line it is on, as Enter and
	// typing do: the first edit pads r2's first line, the second breaks
	// it, the rest write a description on the new line.
	at := head + strings.Index(content[head:], "Resource 2 of") + len("Resource 2 of")
	typed := []struct {
		at   int
		text string
	}{{at, " the"}, {keyLine, "\n    "}, {-1, `summary = """`}, {-1, "\n        hello"}, {-1, "\n        \"\"\""}}
	end := 0
	for i, e := range typed {
		if e.at < 0 {
			e.at = end
		}
		m := newTestMapper(content)
		v++
		h.changeRange(name, v, rng2(m.pos(e.at), m.pos(e.at)), e.text)
		content = content[:e.at] + e.text + content[e.at:]
		end = e.at + len(e.text)
		got := h.WaitDiagnostics(name, v)
		snap, slack := serverText(h, name)
		parseIsClients(t, i, snap, content)
		for _, s := range slack {
			line := content[strings.LastIndexByte(content[:s.At], '\n')+1 : s.At]
			if !bpStatementLine.MatchString(line) || !strings.HasSuffix(line, "{") {
				t.Errorf("edit %d: padding %v at the end of %q, not of a statement's first line", i, s, line)
			}
		}
		fresh := bplang.Parse(name, []byte(content))
		if g, w := scalarValues(snap.File().Root, nil), scalarValues(fresh.Root, nil); !slices.Equal(g, w) {
			t.Errorf("edit %d: the server's tree holds other values than the client's text", i)
		}
		sameAsFresh(t, h, name, fmt.Sprintf("fresh%d.bp", i), content, got)
	}
	h.shutdown()
}

// bpPieces are what TestBPSlackBookkeeping types: single characters,
// line breaks, the bytes that open and close blocks, strings, multi-line
// strings and comments, and whole fields.
var bpPieces = []string{"x", "9", " ", "\n", "\r\n", "\n    ", "{", "}", "\"", `"""`, "\n        \"\"\"", "#", "# note",
	"=", ",", "\t", "\n    y = 1", "\n    z = \"\"\"\n        hi\n        \"\"\"", "é"}

// bpStringValue matches a field's one-line string value.
var bpStringValue = regexp.MustCompile(`= "[^"\r\n]*"`)

// bpStatementLine matches the first line of a declaration's statement.
var bpStatementLine = regexp.MustCompile(`(?m)^(resource|variable|value|data|include|export) [^\r\n]*`)

// TestBPSlackBookkeeping feeds random edits of .bp blueprints (in a
// statement near the last edit, anywhere, at and past the end of a
// statement's first line, its line break, its keyword) to a client copy
// and a session, and checks after each (slackDoc.check): the session's
// text is the client's, its parse the client's text's with padding only
// at the ends of open declarations' first lines, and an edit spliced
// into a padded declaration keeps the parse's length.
func TestBPSlackBookkeeping(t *testing.T) {
	steps := 300
	if testing.Short() {
		steps = 80
	}
	spliced, kept := 0, 0
	for i, d := range bpSlackDocs(t) {
		t.Run(d.uri[len("file:///ws/"):], func(t *testing.T) {
			rng := rand.New(rand.NewSource(int64(17 + i)))
			for range steps {
				d.step(t, rng)
			}
			spliced, kept = spliced+d.spliced, kept+d.kept
		})
	}
	t.Logf("%d edits spliced into a padded declaration, %d kept its length", spliced, kept)
	if spliced < steps/2 || kept*3 < spliced*2 {
		t.Errorf("only %d edits were spliced into a padded declaration, %d kept its length", spliced, kept)
	}
}

// FuzzBPSlackBookkeeping is TestBPSlackBookkeeping's property with the
// fuzzer choosing the edits.
func FuzzBPSlackBookkeeping(f *testing.F) {
	slackFuzzSeeds(f, 1)
	f.Fuzz(func(t *testing.T, start uint8, data []byte) {
		fuzzSlackSteps(t, bpSlackDocs(t), start, data)
	})
}

// bpSlackDocs are the documents the bookkeeping tests edit, each new: a
// generated blueprint, in LF and CRLF, and the comment and multi-line
// string inputs of testdata/bp.
func bpSlackDocs(t testing.TB) []*slackDoc {
	gen8 := string(gen.Blueprint(8, "bp"))
	docs := [][2]string{{"gen.bp", gen8}, {"crlf.bp", strings.ReplaceAll(gen8, "\n", "\r\n")}}
	for _, name := range []string{"comments-basic.bp", "variable-multiline-description.bp", "expr-multiline-string.bp"} {
		b, err := os.ReadFile("../testdata/bp/" + name)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, [2]string{name, string(b)})
	}
	out := make([]*slackDoc, len(docs))
	for i, d := range docs {
		out[i] = newSlackDoc("file:///ws/"+d[0], d[1], source.UTF16)
	}
	return out
}

// bpStep makes one edit of a .bp document (randomBPEdit, or when the
// client's text does not parse, often the change back to its last clean
// text) and sends it (slackDoc.send).
func (d *slackDoc) bpStep(t testing.TB, c chooser) {
	t.Helper()
	cm := source.NewMapper(d.client)
	from, to, piece := randomBPEdit(c, d.client, d.near)
	if !bytes.Equal(d.client, d.clean) && schema.Parse(d.uri, d.client).HasSyntaxErrors() && c.Intn(2) == 0 {
		// Back to the last clean text: one change of what differs.
		pre := commonPrefix(d.client, d.clean)
		suf := commonPrefix(reversed(d.client[pre:]), reversed(d.clean[pre:]))
		from, to, piece = pre, len(d.client)-suf, string(d.clean[pre:len(d.clean)-suf])
	}
	pr := protocol.Range{Start: toPosition(cm, from, source.UTF16), End: toPosition(cm, to, source.UTF16)}
	if d.steps%3 == 0 && to < len(d.client) && (d.client[to] == '\n' || d.client[to] == '\r') {
		// Past the line's end: the same place to the client.
		pr.End.Character += 5
		if from == to {
			pr.Start = pr.End
		}
	}
	// Where the client puts it: a position past a line's end, or between
	// its "\r" and "\n", is the line's end.
	cfrom, _ := fromPosition(cm, pr.Start, source.UTF16)
	cto, _ := fromPosition(cm, pr.End, source.UTF16)
	next := slices.Concat(d.client[:cfrom:cfrom], []byte(piece), d.client[cto:])
	e := clientEdit{r: pr, from: cfrom, to: cto, text: piece}
	d.near = cfrom
	d.send(t, c, []protocol.TextDocumentContentChangeEvent{&protocol.TextDocumentContentChangePartial{Range: pr, Text: piece}}, next, &e)
}

// randomBPEdit picks an edit of text: typing or deleting in a string
// near the last edit, at a statement's first line's end (or past it),
// its line break or its keyword, or anywhere. It returns the bytes
// [from, to) replaced and what replaces them.
func randomBPEdit(rng chooser, text []byte, near int) (from, to int, piece string) {
	piece = bpPieces[rng.Intn(len(bpPieces))]
	from = rng.Intn(len(text) + 1)
	del := 0
	switch k := rng.Intn(10); {
	case k < 5:
		lo := max(near-400, 0)
		if vals := bpStringValue.FindAllIndex(text[lo:min(near+400, len(text))], -1); len(vals) > 0 {
			v := vals[rng.Intn(len(vals))]
			from = lo + v[0] + 3 + rng.Intn(v[1]-v[0]-3)
			if piece = string(rune('a' + rng.Intn(26))); rng.Intn(3) == 0 && text[from] != '"' {
				del, piece = 1, ""
			}
		}
	case k < 8:
		if lines := bpStatementLine.FindAllIndex(text, -1); len(lines) > 0 {
			l := lines[rng.Intn(len(lines))]
			from = l[1]
			if text[from-1] == '\r' {
				from--
			}
			switch rng.Intn(4) {
			case 0:
				del = 1 // its line break
			case 1:
				from, del = l[0], rng.Intn(3) // its keyword
			}
		}
	default:
		if rng.Intn(4) == 0 {
			del, piece = 1+rng.Intn(3), ""
		}
	}
	to = min(from+del, len(text))
	for from > 0 && from < len(text) && text[from]&0xC0 == 0x80 {
		from-- // a character's first byte
	}
	for to < len(text) && text[to]&0xC0 == 0x80 {
		to++
	}
	return from, to, piece
}

// TestBPSlackInvisibleToClient is TestSlackInvisibleToClient for the
// blueprint language: random edits of a .bp blueprint (randomBPEdit),
// diagnostics awaited between them so the server pads, and every few
// clean versions every feature asked of the padded document and of the
// client's text opened fresh (compareFeatures); a server with padding
// off must publish the same diagnostics at every version.
func TestBPSlackInvisibleToClient(t *testing.T) {
	steps, every := 48, 4
	if testing.Short() {
		steps = 16
	}
	h := newHarness(t)
	plain := newHarness(t, func(s *server) { s.session.noSlack = true })
	const name = "padded.bp"
	client := gen.Blueprint(6, "bp")
	for _, x := range []*harness{h, plain} {
		x.initialize(`{"capabilities":{"textDocument":{"documentSymbol":{"hierarchicalDocumentSymbolSupport":true}}},"initializationOptions":{"debounceMs":0}}`)
		x.open(name, string(client))
		x.WaitDiagnostics(name, 1)
	}
	rng := rand.New(rand.NewSource(9))
	clean, near, padded, compared := client, 0, 0, 0
	for step, v := 0, int32(2); step < steps; step, v = step+1, v+1 {
		from, to, piece := randomBPEdit(rng, client, near)
		if !bytes.Equal(client, clean) && schema.Parse(name, client).HasSyntaxErrors() {
			pre := commonPrefix(client, clean)
			suf := commonPrefix(reversed(client[pre:]), reversed(clean[pre:]))
			from, to, piece = pre, len(client)-suf, string(clean[pre:len(clean)-suf])
		}
		cm := source.NewMapper(client)
		pr := protocol.Range{Start: toPosition(cm, from, source.UTF16), End: toPosition(cm, to, source.UTF16)}
		cfrom, _ := fromPosition(cm, pr.Start, source.UTF16)
		cto, _ := fromPosition(cm, pr.End, source.UTF16)
		client, near = slices.Concat(client[:cfrom:cfrom], []byte(piece), client[cto:]), cfrom
		for _, x := range []*harness{h, plain} {
			x.changeRange(name, v, pr, piece)
		}
		if g, w := jsonOf(t, h.WaitDiagnostics(name, v)), jsonOf(t, plain.WaitDiagnostics(name, v)); g != w {
			t.Fatalf("step %d: diagnostics with padding\n%s\nwithout\n%s", step, g, w)
		}
		snap := h.srv.session.current().snapshot(string(docURI(name)))
		parseIsClients(t, step, snap, string(client))
		if len(source.SlackOf(snap.File().Mapper.Slack())) > 0 {
			padded++
		}
		if schema.Parse(name, client).HasSyntaxErrors() {
			continue
		}
		clean = client
		if step%every != 0 {
			continue
		}
		compared++
		fresh := fmt.Sprintf("fresh%d.bp", step)
		h.open(fresh, string(client))
		h.WaitDiagnostics(fresh, 1)
		compareFeatures(t, h, name, fresh, client, snap, rng)
		h.close(fresh)
	}
	endRoundTrip(t, h, plain, steps, padded, compared)
}
