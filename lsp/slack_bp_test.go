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

// lazyPadding opens documents unpadded: a definition is padded when it
// is first edited, as one typed after the open is (the tests of that
// path use it).
func lazyPadding(s *server) { s.session.noPadWhole = true }

// serverText returns the server's copy of a document and its padding.
func serverText(h *harness, name string) (*Snapshot, []source.Slack) {
	snap := h.srv.session.current().snapshot(string(docURI(name)))
	return snap, source.SlackOf(snap.Mapper.Slack())
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
// delta 0); most versions must be padded.
func TestBPPaddedEditsMatchFreshOpen(t *testing.T) {
	steps := 40
	if testing.Short() {
		steps = 12
	}
	const name = "edited.bp"
	h, content := openGenBP(t, name, 12)
	rng := rand.New(rand.NewSource(11))
	first := strings.Index(content, "\nresource r0:")
	padded, kept, v := 0, 0, int32(1)
	for step := 0; step < steps; step++ {
		at, del, ins := randomEditBetween(rng, first+1, strings.Index(content, "\nexport "), bpEditsTyped)
		m := newTestMapper(content)
		from, to := m.pos(at), m.pos(at+del)
		at, del = m.offset(from), m.offset(to)-m.offset(from)
		prev, _ := serverText(h, name)
		prevFile := prev.File()
		// An edit in the body of a declaration whose padding absorbs it
		// must keep the server's text after it where it was.
		r, err := fromRange(prev.Mapper, rng2(from, to), source.UTF16)
		if err != nil {
			t.Fatal(err)
		}
		must := mustKeepBP(prevFile, source.SlackOf(prev.Mapper.Slack()), r, ins)
		v++
		h.changeRange(name, v, rng2(from, to), ins)
		before := content
		content = content[:at] + ins + content[at+del:]
		got := h.WaitDiagnostics(name, v)

		snap, slack := serverText(h, name)
		if client, _ := unpadded(snap.Content(), snap.Mapper); string(client) != content {
			t.Fatalf("step %d: the server's text without its padding is not the client's", step)
		}
		if len(slack) > 0 {
			padded++
		}
		if must {
			kept++
			if sp, ok := snap.File().Spliced(prevFile); len(snap.Content()) != len(prev.Content()) || ok && sp.Delta != 0 {
				t.Errorf("step %d: the edit %v %q in a padded declaration moved the text after it (%+v, %v)", step, r, ins, sp, ok)
			}
		}
		if !sameAsFresh(t, h, name, fmt.Sprintf("fresh%d.bp", step), content, got) {
			continue
		}
		// Undo a breaking edit, so that the next one starts from clean text.
		v++
		content = h.undo(name, v, content, before, at, del, ins)
	}
	t.Logf("%d edits: %d padded, %d in the body of a padded declaration", steps, padded, kept)
	if padded*2 < steps || kept*4 < steps {
		t.Errorf("%d of %d versions were padded, %d edits were in the body of a padded declaration", padded, steps, kept)
	}
	h.shutdown()
}

// TestBPTypingKeepsTextAfter types into one resource of a .bp document
// key by key and checks the padding the server keeps: the resource's
// first line is padded on the first edit, every edit after it leaves the
// text after the resource where it was (a splice with delta 0), and
// what the client sees is the client's text.
func TestBPTypingKeepsTextAfter(t *testing.T) {
	const name = "typed.bp"
	h, content := openGenBP(t, name, 6, lazyPadding)
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
		// One run, ending r3's first line: nothing before it is padded.
		if len(slack) != 1 || slack[0].At != keyLine || slack[0].Len == 0 || snap.Content()[slack[0].At+slack[0].Len] != '\n' {
			t.Fatalf("edit %d: padding %v, want one run at the end of r3's first line (%d)", i, slack, keyLine)
		}
		if client, _ := unpadded(snap.Content(), snap.Mapper); string(client) != content {
			t.Fatalf("edit %d: the server's text without its padding is not the client's", i)
		}
		off := strings.Index(string(snap.Content()), "resource r4: ")
		if i > 0 {
			// Typing where the padding starts may leave the text as it was.
			if sp, ok := snap.File().Spliced(prevFile); (!ok || sp.Delta != 0) && string(snap.Content()) != string(prev.Content()) {
				t.Errorf("edit %d: Spliced = %+v, %v; want the text after r3 kept", i, sp, ok)
			}
			if off != r4 {
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
// at the end of the statement's first line (keepsKeyLine), so the
// server's tree holds the values of the client's text.
func TestBPLineBreakAtPaddingKeepsValues(t *testing.T) {
	const name = "heredoc.bp"
	h, content := openGenBP(t, name, 4, lazyPadding)
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
		if client, _ := unpadded(snap.Content(), snap.Mapper); string(client) != content {
			t.Fatalf("edit %d: the server's text without its padding is not the client's", i)
		}
		for _, s := range slack {
			if s.At != keyLine && s.Len > 0 {
				t.Errorf("edit %d: padding %v, want it only at the end of r2's first line (%d)", i, slack, keyLine)
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
// and to applyChanges with the parse of the server's copy, and checks
// after each: the server's text without its padding is the client's,
// both have the same diagnostics and, when they parse, the same keys
// and values, padding in a clean parse lies only after a '{' that ends
// a declaration's first line, and an edit in the body of a padded
// declaration keeps the server's length.
func TestBPSlackBookkeeping(t *testing.T) {
	steps := 300
	if testing.Short() {
		steps = 80
	}
	planned, inBody := 0, 0
	for i, d := range bpSlackDocs(t) {
		t.Run(d.uri[len("file:///ws/"):], func(t *testing.T) {
			rng := rand.New(rand.NewSource(int64(17 + i)))
			for range steps {
				d.step(t, rng)
			}
			planned, inBody = planned+d.planned, inBody+d.inBody
		})
	}
	t.Logf("%d edits in the body of a declaration, %d of them of a padded one", inBody, planned)
	if planned*4 < inBody {
		t.Errorf("only %d of %d edits in a declaration's body found it padded", planned, inBody)
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

// bpSlackDoc is one .bp document as the client and the server hold it.
type bpSlackDoc struct {
	uri                   string
	client, server, clean []byte
	m                     *source.Mapper // the server's, with its padding
	near                  int            // where the last edit was, in the client's text
	steps                 int
	inBody, planned       int // edits in a declaration's body, and in a padded one's
}

// bpSlackDocs are the documents the bookkeeping tests edit, each new: a
// generated blueprint, in LF and CRLF, and the comment and multi-line
// string inputs of testdata/bp.
func bpSlackDocs(t testing.TB) []*bpSlackDoc {
	gen8 := string(gen.Blueprint(8, "bp"))
	docs := [][2]string{{"gen.bp", gen8}, {"crlf.bp", strings.ReplaceAll(gen8, "\n", "\r\n")}}
	for _, name := range []string{"comments-basic.bp", "variable-multiline-description.bp", "expr-multiline-string.bp"} {
		b, err := os.ReadFile("../testdata/bp/" + name)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, [2]string{name, string(b)})
	}
	out := make([]*bpSlackDoc, len(docs))
	for i, d := range docs {
		text := []byte(d[1])
		out[i] = &bpSlackDoc{uri: "file:///ws/" + d[0], client: text, server: text, clean: text, m: source.NewMapper(text)}
	}
	// The generated one and the multi-line strings padded whole, as an
	// open pads them.
	for _, i := range []int{0, len(out) - 1} {
		w := *out[i]
		w.uri = strings.Replace(w.uri, ".bp", "-whole.bp", 1)
		w.server, w.m = padWholeStart(w.uri, w.client)
		out = append(out, &w)
	}
	return out
}

// step makes one edit (randomBPEdit, or when the client's text does not
// parse, often the change back to its last clean text), gives it to both
// copies, the server's through applyChanges with the parse of its text,
// and checks them (checkBPSlack).
func (d *bpSlackDoc) step(t testing.TB, c chooser) {
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
	last := schema.Parse(d.uri, d.server)
	r, err := fromRange(d.m, pr, source.UTF16)
	if err != nil {
		t.Fatal(err)
	}
	if def, ok := bplang.DefinitionAt(last, r.Start, r.End); ok && r.Start > def.KeyLineEnd {
		d.inBody++
	}
	must := mustKeepBP(last, source.SlackOf(d.m.Slack()), r, piece)
	changes := []protocol.TextDocumentContentChangeEvent{&protocol.TextDocumentContentChangePartial{Range: pr, Text: piece}}
	next, nm, err := applyChanges(d.server, d.m, changes, source.UTF16, last)
	if err != nil {
		t.Fatal(err)
	}
	// Where the client puts it: a position past a line's end, or between
	// its "\r" and "\n", is the line's end.
	cfrom, _ := fromPosition(cm, pr.Start, source.UTF16)
	cto, _ := fromPosition(cm, pr.End, source.UTF16)
	d.client = slices.Concat(d.client[:cfrom:cfrom], []byte(piece), d.client[cto:])
	if must {
		d.planned++
		if len(next) != len(d.server) {
			t.Errorf("step %d: an edit %v %q in a padded declaration moved the text after it by %d", d.steps, r, piece, len(next)-len(d.server))
		}
	}
	d.server, d.m, d.near = next, nm, cfrom
	checkBPSlack(t, d.steps, d.uri, d.client, d.server, d.m)
	if !schema.Parse(d.uri, d.client).HasSyntaxErrors() {
		d.clean = d.client
	}
	d.steps++
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

// mustKeepBP reports whether an edit of r (in the server's text) to text
// lands in the body of a declaration of the clean parse last whose first
// line is padded, and the padding absorbs it: then it keeps the length.
//
// An edit of a line that holds a """ (or that types a quote) may change
// which lines the """ strings take, and the padding they take goes
// (capturedBP): it need not keep the length.
func mustKeepBP(last *schema.File, slack []source.Slack, r source.Range, text string) bool {
	def, ok := bplang.DefinitionAt(last, r.Start, r.End)
	if !ok || r.Start <= def.KeyLineEnd || holdsTriple(last.Text, r.Start, r.End) || strings.Contains(text, `"`) {
		return false
	}
	for _, s := range slack {
		if s.At+s.Len == def.KeyLineEnd {
			size := s.Len - (len(text) - r.Len())
			return size >= 0 && size <= slackMax
		}
	}
	return false
}

// checkBPSlack asserts that the server's text is the client's with
// padding only where it may go, and means the same.
func checkBPSlack(t testing.TB, step int, uri string, client, server []byte, m *source.Mapper) {
	t.Helper()
	if got, _ := unpadded(server, m); !bytes.Equal(got, client) {
		i := commonPrefix(got, client)
		t.Fatalf("step %d: the server's text without padding has\n%q\nwhere the client's has\n%q", step, got[max(i-40, 0):min(i+40, len(got))], client[max(i-40, 0):min(i+40, len(client))])
	}
	// The same values when the text parses (a """ left open takes the
	// rest of the text, padding included, into a value no feature
	// reads: features answer from the last clean version), and always
	// the same diagnostics.
	sf, cf := schema.Parse(uri, server), schema.Parse(uri, client)
	if g, w := scalarValues(sf.Root, nil), scalarValues(cf.Root, nil); !cf.HasSyntaxErrors() && !slices.Equal(g, w) {
		t.Fatalf("step %d: the server's text means\n%q\nthe client's\n%q", step, g, w)
	}
	messages := func(f *schema.File) []string {
		var out []string
		for _, d := range f.Diagnostics {
			out = append(out, d.Code+" "+d.Message)
		}
		return out
	}
	if g, w := messages(sf), messages(cf); !slices.Equal(g, w) {
		t.Fatalf("step %d: the server's text has the diagnostics\n%q\nthe client's\n%q", step, g, w)
	}
	for _, s := range source.SlackOf(m.Slack()) {
		if s.Len <= 0 || s.At+s.Len >= len(server) || strings.Trim(string(server[s.At:s.At+s.Len]), " ") != "" ||
			server[s.At+s.Len] != '\n' && server[s.At+s.Len] != '\r' {
			t.Fatalf("step %d: padding %v is not spaces before a line break", step, s)
		}
		if sf.HasSyntaxErrors() {
			continue
		}
		// At the end of a declaration's first line, or of one the
		// client made from it in place (a separator typed before its
		// keyword): after a '{', between tokens.
		d, ok := bplang.DefinitionAt(sf, s.At, s.At)
		if !(ok && d.KeyLineEnd == s.At+s.Len) && !bytes.HasSuffix(bytes.TrimRight(server[:s.At], " \t"), []byte("{")) {
			t.Fatalf("step %d: padding %v is not at the end of a declaration's first line: %q", step, s, server[max(s.At-40, 0):s.At])
		}
	}
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
		if c, _ := unpadded(snap.Content(), snap.Mapper); !bytes.Equal(c, client) {
			t.Fatalf("step %d: the server's text without padding is not the client's", step)
		}
		if len(source.SlackOf(snap.Mapper.Slack())) > 0 {
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
