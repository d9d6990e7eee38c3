package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/rand"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/blueprint-ls/blueprint-ls/internal/gen"
	"github.com/blueprint-ls/blueprint-ls/internal/parsetest"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// The parse's coordinates (padding.go) through a session: a client's
// copy of a document and the session's, fed the same edits, each
// version parsed (the syntax phase) and held to the client's text.

// chooser makes the random choices of an edit script: math/rand in the
// property test, the fuzzer's bytes in the fuzz target.
type chooser interface{ Intn(n int) int }

// byteChooser reads choices from a fuzzer's input (0 once it runs out).
type byteChooser struct{ data []byte }

func (b *byteChooser) Intn(n int) int {
	if len(b.data) == 0 || n <= 1 {
		return 0
	}
	v := int(b.data[0])
	if len(b.data) > 1 {
		v = v<<8 | int(b.data[1])
		b.data = b.data[2:]
	} else {
		b.data = nil
	}
	return v % n
}

func (b *byteChooser) done() bool { return len(b.data) == 0 }

// slackDoc is one document as the client and a session hold it.
type slackDoc struct {
	uri    string
	enc    source.Encoding
	client []byte
	clean  []byte // the client's last text that parsed clean
	near   int    // where the client last edited

	s    *session
	snap *Snapshot
	// prev is the last version's parse, and its padded text's length.
	prev    *schema.File
	prevLen int

	steps, spliced, kept int    // edits checked, spliced into a padded parse, that kept its length
	last                 string // the last didChange, for failure messages
}

func newSlackDoc(uri, text string, enc source.Encoding) *slackDoc {
	b := []byte(text)
	return &slackDoc{uri: uri, enc: enc, client: b, clean: b}
}

// open opens the document in a session of its own (the first step).
func (d *slackDoc) open() {
	if d.s != nil {
		return
	}
	d.s = newSession(context.Background(), defaultAnalyzer{}, slog.New(slog.DiscardHandler))
	d.snap = d.s.open(d.uri, 1, "", d.client, nil)
	d.prev = d.snap.File()
	d.prevLen = d.prev.Text.Len()
}

// keyLine matches the key line of a definition (two spaces in), its
// end being where padding goes.
var keyLine = regexp.MustCompile(`(?m)^  [A-Za-z0-9_]+:\r?$`)

// sectionLine matches a top-level key alone on its line.
var sectionLine = regexp.MustCompile(`(?m)^[a-z]+:\r?$`)

// valueLine matches the value of a plain "key: value" line, where
// typing letters keeps the YAML well formed.
var valueLine = regexp.MustCompile(`(?m): [a-z][a-z0-9.-]*\r?$`)

// slackPieces are what the edits type: plain characters, spaces, line
// breaks (LF and CRLF), whole entries, YAML punctuation and characters
// that are not ASCII.
var slackPieces = []string{"x", "9", " ", "  ", "\n", "\r\n", "\n      extra: 1", "${values.prefix}", "é", "😀x", "#", "'", ": ", "- ",
	` "a\`, `"`, `\`, " |", " >", "? ", "[", "&a ", "*a", "!!str ",
	strings.Repeat("abcdefgh", 9)}

// jsonKeyLineRe, jsonValueLine and jsonSlackPieces are keyLine,
// valueLine and slackPieces for JSON and JSONC: a resource's key line
// ("    \"r0\": {"), a string value, and what the edits type (the
// punctuation of JSON, strings and escapes, both kinds of comment and
// their ends, whole members).
var (
	jsonKeyLineRe   = regexp.MustCompile(`(?m)^    "[A-Za-z0-9_]+": \{\r?$`)
	jsonValueLine   = regexp.MustCompile(`": "[a-zA-Z][^"\\\r\n]*`)
	jsonSlackPieces = []string{"x", "9", " ", "  ", "\n", "\r\n", "\n      \"extra\": 1,", "${values.prefix}", "é", "😀x",
		`"`, `\`, `\"`, "{", "}", "[", "]", ",", ":", "//", "// c", "/*", "*/", "/* c */", "'", "\t", `"k": {`}
)

// jsonOpenLine matches a JSON key line whose definition is Open, up to
// its padding (syntax.DefinitionAt).
var jsonOpenLine = regexp.MustCompile(`^[ \t]*"(?:[^"\\\r\n]|\\[^\r\n])*" *: *\{ *$`)

// isJSON reports whether the document named uri is JSON or JSONC.
func isJSON(uri string) bool {
	f := syntax.FormatOfText(uri, source.Text{})
	return f == syntax.JSON || f == syntax.JSONC
}

// clientEdit is one change the client makes: the range it sends and the
// offsets it means in its own text.
type clientEdit struct {
	r        protocol.Range
	from, to int
	text     string
}

// edit turns the client offsets [from, to) into the range the client
// sends (past the line's end when past is set) and back into the offsets
// that range means, as any client would.
func (d *slackDoc) edit(cm *source.Mapper, from, to int, text string, past bool) clientEdit {
	s, e := toPosition(cm, from, d.enc), toPosition(cm, to, d.enc)
	if past {
		e.Character += 3
		if s.Line == e.Line {
			s.Character += 3
		}
	}
	a, _ := fromPosition(cm, s, d.enc)
	b, _ := fromPosition(cm, e, d.enc)
	return clientEdit{r: protocol.Range{Start: s, End: e}, from: a, to: b, text: text}
}

// randomEdit picks one change of the client's text.
func (d *slackDoc) randomEdit(c chooser, text []byte) clientEdit {
	cm := source.NewMapper(text)
	json := isJSON(d.uri)
	keyRe, valueRe, pieces := keyLine, valueLine, slackPieces
	if json {
		keyRe, valueRe, pieces = jsonKeyLineRe, jsonValueLine, jsonSlackPieces
	}
	keys := keyRe.FindAllIndex(text, -1)
	piece := pieces[c.Intn(len(pieces))]
	at := c.Intn(len(text) + 1)
	k := c.Intn(11)
	switch {
	case k < 6 && d.near > 0: // type or delete in a value near the last edit
		vals := valueRe.FindAllIndex(text[max(d.near-400, 0):min(d.near+400, len(text))], -1)
		if len(vals) > 0 {
			v := vals[c.Intn(len(vals))]
			at = max(d.near-400, 0) + v[0] + c.Intn(v[1]-v[0]+1)
			if c.Intn(3) == 0 && at < len(text) && text[at] != '\n' && text[at] != '\r' {
				return d.edit(cm, at, at+1, "", false)
			}
			return d.edit(cm, at, at, string(rune('a'+c.Intn(26))), false)
		}
		fallthrough
	case k < 7 || len(keys) == 0: // type or delete anywhere
		del := 0
		if c.Intn(3) == 0 {
			del, piece = 1+c.Intn(4), ""
		} else if c.Intn(4) == 0 {
			del = 1 + c.Intn(3)
		}
		return d.edit(cm, at, min(at+del, len(text)), piece, false)
	}
	if k == 7 && c.Intn(2) == 0 { // make or unmake a block scalar header on a section's line
		if secs := sectionLine.FindAllIndex(text, -1); len(secs) > 0 {
			sec := secs[c.Intn(len(secs))]
			end := sec[1]
			if text[end-1] == '\r' {
				end--
			}
			headers := []string{" |", " >-", " |2", " # x"}
			if c.Intn(3) == 0 {
				return d.edit(cm, sec[0], min(end+1, len(text)), "", false) // the whole line
			}
			return d.edit(cm, end, end, headers[c.Intn(len(headers))], false)
		}
	}
	key := keys[c.Intn(len(keys))]
	end := key[1]
	if text[end-1] == '\r' {
		end--
	}
	brk := end + 1
	if text[end] == '\r' {
		brk++
	}
	switch c.Intn(7) {
	case 0: // type at the key line's end, or past it
		return d.edit(cm, end, end, piece, c.Intn(2) == 0)
	case 1: // swallow the key line's line break
		return d.edit(cm, end, brk, "", false)
	case 2: // swallow the line break before the key line
		return d.edit(cm, max(key[0]-1, 0), key[0]+2, "", false)
	case 3: // the whole key line
		return d.edit(cm, key[0], brk, "", false)
	case 4: // rename the key
		if json { // inside its quotes
			return d.edit(cm, key[0]+5, end-3, "renamed", false)
		}
		return d.edit(cm, key[0]+2, end-1, "renamed", false)
	case 5: // a new definition after the key line (in JSON, a field)
		if json {
			return d.edit(cm, end, end, "\n      \"added"+string(rune('a'+c.Intn(26)))+"\": {},", false)
		}
		return d.edit(cm, end, end, "\n  added"+string(rune('a'+c.Intn(26)))+":", false)
	default: // from the key line's end into the definition
		return d.edit(cm, end, min(brk+c.Intn(12), len(text)), piece, false)
	}
}

// step makes one didChange: one to three range changes, a whole-document
// replacement, or (when the client's text does not parse) the change back
// to its last clean text; it applies it to both copies and checks them.
func (d *slackDoc) step(t testing.TB, c chooser) {
	t.Helper()
	if strings.HasSuffix(d.uri, ".bp") {
		d.bpStep(t, c)
		return
	}
	changes, next, single := d.choose(c)
	d.send(t, c, changes, next, single)
}

// choose picks the next didChange's changes: it returns them, the
// client's text after them, and the one range change when they are one.
func (d *slackDoc) choose(c chooser) (changes []protocol.TextDocumentContentChangeEvent, next []byte, single *clientEdit) {
	next = d.client
	switch k := c.Intn(40); {
	case k == 0:
		next = slices.Clone(d.clean)
		changes = append(changes, &protocol.TextDocumentContentChangeWholeDocument{Text: string(next)})
	case k < 30 && !bytes.Equal(d.client, d.clean) && unusual(d.uri, d.client):
		// Back to the last clean text: one change of what differs.
		pre := commonPrefix(d.client, d.clean)
		suf := commonPrefix(reversed(d.client[pre:]), reversed(d.clean[pre:]))
		e := d.edit(source.NewMapper(d.client), pre, len(d.client)-suf, string(d.clean[pre:len(d.clean)-suf]), false)
		changes = append(changes, &protocol.TextDocumentContentChangePartial{Range: e.r, Text: e.text})
		next = slices.Concat(d.client[:e.from:e.from], []byte(e.text), d.client[e.to:])
		single = &e
	default:
		n := 1
		if c.Intn(5) == 0 {
			n = 2 + c.Intn(2)
		}
		for range n {
			e := d.randomEdit(c, next)
			changes = append(changes, &protocol.TextDocumentContentChangePartial{Range: e.r, Text: e.text})
			next = slices.Concat(next[:e.from:e.from], []byte(e.text), next[e.to:])
			d.near = e.from
			if n == 1 {
				single = &e
			}
		}
	}
	return changes, next, single
}

// send gives changes, which make the client's text next, to the
// session, parses the new version and checks it; single is the one
// range change when changes is one.
func (d *slackDoc) send(t testing.TB, c chooser, changes []protocol.TextDocumentContentChangeEvent, next []byte, single *clientEdit) {
	t.Helper()
	if c == nil {
		c = rand.New(rand.NewSource(1))
	}
	d.open()
	js, _ := json.Marshal(changes)
	d.last = string(js)
	snap, err := d.s.change(d.uri, int32(d.steps+2), changes, d.enc)
	if err != nil {
		t.Fatalf("step %d: %v", d.steps, err)
	}
	d.snap, d.client = snap, next
	if !unusual(d.uri, next) {
		d.clean = next
	}
	f := snap.File()
	if _, ok := f.Spliced(d.prev); ok && single != nil && paddingOf(d.prev.Mapper).Len() > 0 {
		d.spliced++
		if f.Text.Len() == d.prevLen {
			d.kept++
		}
	}
	d.check(t, c, f)
	d.prev, d.prevLen = f, f.Text.Len()
	d.steps++
}

// check asserts that the session's text is the client's, that its
// parse is the parse of the client's text with padding only where
// padding may go (the ends of open definitions' key lines), and that
// every position the client may send means the same character in the
// parse's coordinates.
func (d *slackDoc) check(t testing.TB, c chooser, f *schema.File) {
	t.Helper()
	if got := d.snap.Content(); !bytes.Equal(got, d.client) {
		t.Fatalf("step %d: the session's text\n%q\nis not the client's\n%q", d.steps, got, d.client)
	}
	server, m := f.Content(), f.Mapper
	slack := source.SlackOf(m.Slack())
	if got := unpad(server, slack); !bytes.Equal(got, d.client) {
		t.Fatalf("step %d: the parse's text without padding\n%q\nis not the client's\n%q", d.steps, got, d.client)
	}
	if !bytes.Equal(m.Content(), server) || !slices.Equal(m.LineStarts(), source.NewMapper(server).LineStarts()) {
		t.Fatalf("step %d: the mapper is not of the parse's text", d.steps)
	}
	// The tree is the parse of its text, and that text means what the
	// client's does: every key and value, block scalars (which keep
	// spaces before a line break) included, and the same syntax errors
	// where the client sees them.
	sf, cf := schema.Parse(d.uri, server), schema.Parse(d.uri, d.client)
	if diff := parsetest.Diff(f, sf); diff != "" {
		t.Fatalf("step %d: the tree is not the parse of its text: %s\nafter %s", d.steps, diff, d.last)
	}
	if g, w := parsetest.Meaning(sf.Root), parsetest.Meaning(cf.Root); g != w {
		t.Fatalf("step %d: the parse's text means\n%s\nthe client's\n%s\nafter %s", d.steps, g, w, d.last)
	}
	if g, w := seenDiagnostics(sf.Diagnostics, m, d.enc), seenDiagnostics(cf.Diagnostics, source.NewMapper(d.client), d.enc); g != w {
		t.Fatalf("step %d: the parse's syntax errors\n%s\nthe client's\n%s\nafter %s", d.steps, g, w, d.last)
	}
	if len(slack) > 0 && (len(sf.Diagnostics) > 0 || sf.HasSyntaxErrors()) {
		t.Fatalf("step %d: a parse with syntax errors is padded", d.steps)
	}
	for i, s := range slack {
		if i > 0 && slack[i-1].At+slack[i-1].Len >= s.At {
			t.Fatalf("step %d: padding %v not sorted apart", d.steps, slack)
		}
		if s.Len <= 0 || s.At+s.Len >= len(server) || strings.Trim(string(server[s.At:s.At+s.Len]), " ") != "" ||
			(server[s.At+s.Len] != '\n' && server[s.At+s.Len] != '\r') {
			t.Fatalf("step %d: padding %v is not spaces before a line break: %q", d.steps, s, around(server, s.At))
		}
		if def, ok := schema.DefinitionAt(sf, s.At, s.At); !ok || !def.Open || def.KeyLineEnd != s.At+s.Len {
			t.Fatalf("step %d: padding %v is not at the end of an open definition's key line: %q\nafter %s", d.steps, s, around(server, s.At), d.last)
		}
	}
	// Every line's end (and past it) and random positions: the client's
	// position means, in the parse, the character the client means.
	cm := source.NewMapper(d.client)
	var ps []protocol.Position
	for l := range cm.LineCount() {
		e := toPosition(cm, cm.LineStart(l+1), d.enc)
		if l+1 < cm.LineCount() {
			e = toPosition(cm, max(cm.LineStart(l+1)-1, 0), d.enc)
		}
		ps = append(ps, e, protocol.Position{Line: e.Line, Character: e.Character + 1 + uint32(c.Intn(80))})
	}
	for range 60 {
		ps = append(ps, toPosition(cm, c.Intn(len(d.client)+1), d.enc))
	}
	for _, p := range ps {
		co, _ := fromPosition(cm, p, d.enc)
		so, err := fromPosition(m, p, d.enc)
		if err != nil {
			t.Fatal(err)
		}
		if g, w := toPosition(m, so, d.enc), toPosition(cm, co, d.enc); g != w {
			t.Fatalf("step %d: position %v is offset %d in the parse, back at %v; the client has it at %v", d.steps, p, so, g, w)
		}
		// At a padded line's end the next character is, past the pad,
		// the line break.
		if i, ok := slices.BinarySearchFunc(slack, so, func(s source.Slack, at int) int { return s.At - at }); ok {
			so += slack[i].Len
		}
		if (co == len(d.client)) != (so == len(server)) || co < len(d.client) && d.client[co] != server[so] {
			t.Fatalf("step %d: position %v: the parse's byte at %d %q is not the client's at %d %q",
				d.steps, p, so, around(server, so), co, around(d.client, co))
		}
	}
}

// unpad returns text without the padding slack lists.
func unpad(text []byte, slack []source.Slack) []byte {
	out := make([]byte, 0, len(text))
	prev := 0
	for _, s := range slack {
		out = append(out, text[prev:s.At]...)
		prev = s.At + s.Len
	}
	return append(out, text[prev:]...)
}

func parseBroken(uri string, text []byte) bool {
	return schema.Parse(uri, text).HasSyntaxErrors()
}

// unusual reports text that the edits should undo soon: it does not
// parse, or a section is a block scalar.
func unusual(uri string, text []byte) bool {
	return blockSection.Match(text) || parseBroken(uri, text)
}

var blockSection = regexp.MustCompile(`(?m)^[a-z]+: [|>]`)

func reversed(b []byte) []byte {
	r := slices.Clone(b)
	slices.Reverse(r)
	return r
}

// around quotes the text near off, for failure messages.
func around(text []byte, off int) string {
	return string(text[max(off-20, 0):min(off+20, len(text))])
}

// slackStarts are the texts the bookkeeping tests edit: generated
// blueprints, a real example (with block scalars and comments), in CRLF
// and with characters that are not ASCII.
func slackStarts(t testing.TB) []*slackDoc {
	slackTextsOnce.Do(func() {
		example, err := os.ReadFile("../testdata/examples/valid/orders-api.blueprint.yaml")
		if err != nil {
			slackTextsErr = err
			return
		}
		gen8 := string(gen.Blueprint(8, "yaml"))
		json8 := string(gen.Blueprint(8, "json"))
		// JSONC: comments before a section, after a key line's '{'
		// (that line is not padded) and in a resource, a trailing
		// comma, CRLF breaks.
		jsonc := strings.Replace(json8, "\n  \"resources\": {", "\n  // the resources\n  \"resources\": { /* all */", 1)
		jsonc = strings.Replace(jsonc, "\"r1\": {", "\"r1\": { // one", 1)
		jsonc = strings.Replace(jsonc, "\"type\": \"aws/", "/* t */ \"type\": \"aws/", 1)
		jsonc = strings.Replace(jsonc, "\"orders\"\n", "\"orders\",\n", 1)
		jsonc = strings.ReplaceAll(strings.Replace(jsonc, "\"r2\": {", "\"r2\": {\n      \"a\": 1,", 1), "\n", "\r\n")
		slackTexts = []string{gen8, string(example), strings.ReplaceAll(string(example), "\n", "\r\n"),
			strings.ReplaceAll(gen8, "Name: ", "Name: ünï😀 "), strings.ReplaceAll(gen8, "Name: ", "Name: 中 "), json8, jsonc}
	})
	if slackTextsErr != nil {
		t.Fatal(slackTextsErr)
	}
	return []*slackDoc{
		newSlackDoc("file:///ws/gen.blueprint.yaml", slackTexts[0], source.UTF16),
		newSlackDoc("file:///ws/orders.blueprint.yaml", slackTexts[1], source.UTF16),
		newSlackDoc("file:///ws/crlf.blueprint.yaml", slackTexts[2], source.UTF16),
		newSlackDoc("file:///ws/wide.blueprint.yaml", slackTexts[3], source.UTF32),
		newSlackDoc("file:///ws/bytes.blueprint.yaml", slackTexts[4], source.UTF8),
		newSlackDoc("file:///ws/gen.blueprint.json", slackTexts[5], source.UTF16),
		newSlackDoc("file:///ws/crlf.blueprint.jsonc", slackTexts[6], source.UTF16),
	}
}

var (
	slackTextsOnce sync.Once
	slackTexts     []string
	slackTextsErr  error
)

// TestSlackBookkeeping: random edits of real blueprints, as one change
// or several per didChange, typing, deleting, breaking lines, editing
// key lines and their line breaks and replacing the whole text: after
// each the session's text is the client's, its parse is the client's
// text's with padding at the ends of open definitions' key lines, every
// client position means the same character in both, and an edit spliced
// into a padded definition keeps the parse's coordinates (most do).
func TestSlackBookkeeping(t *testing.T) {
	eachSlackStart(t, 31, 200, func(t *testing.T, d *slackDoc, rng *rand.Rand, steps int) {
		for range steps {
			d.step(t, rng)
		}
		t.Logf("%d steps, %d spliced into a padded parse, %d kept its length", d.steps, d.spliced, d.kept)
		if d.spliced < steps/20 || d.kept*3 < d.spliced*2 {
			t.Errorf("only %d of %d edits were spliced into a padded parse, %d kept its length", d.spliced, steps, d.kept)
		}
	})
}

// eachSlackStart runs f on each of slackStarts in a subtest, with a
// random source seeded from seed and the document's index, for steps
// steps (half with -short).
func eachSlackStart(t *testing.T, seed int64, steps int, f func(t *testing.T, d *slackDoc, rng *rand.Rand, steps int)) {
	if testing.Short() {
		steps /= 2
	}
	for i, d := range slackStarts(t) {
		t.Run(d.uri[len("file:///ws/"):], func(t *testing.T) {
			f(t, d, rand.New(rand.NewSource(seed+int64(i))), steps)
		})
	}
}

// FuzzSlackBookkeeping is TestSlackBookkeeping's property with the
// fuzzer choosing the edits.
func FuzzSlackBookkeeping(f *testing.F) {
	slackFuzzSeeds(f, 2)
	f.Fuzz(func(t *testing.T, start uint8, data []byte) {
		fuzzSlackSteps(t, slackStarts(t), start, data)
	})
}

// slackFuzzSeeds adds the seeds of the padding fuzz targets: edits of
// the first text, and of the text at crlf (the one with CRLF breaks).
func slackFuzzSeeds(f *testing.F, crlf uint8) {
	for _, s := range []string{"", "\x00\x01\x02\x03\x04\x05", "edit the key lines\x07\x08\x09", "\xff\xfe\x10\x20\x30\x40\x50\x60\x70\x80\x90"} {
		f.Add(uint8(0), []byte(s))
	}
	f.Add(crlf, []byte("crlf \x01\x02\x03\x04\x05\x06\x07"))
}

// fuzzSlackSteps makes up to 64 of the fuzzer's edits (data) to the
// document docs[start] (modulo their number).
func fuzzSlackSteps[D interface {
	step(testing.TB, chooser)
}](t *testing.T, docs []D, start uint8, data []byte) {
	d := docs[int(start)%len(docs)]
	c := &byteChooser{data: data}
	for n := 0; n < 64 && !c.done(); n++ {
		d.step(t, c)
	}
}

// TestSlackStaysOnKeyLine: edits that would carry a definition's padding
// off its key line, onto a line a block scalar holds (where YAML keeps
// spaces before a line break, so the server's value would not be the
// client's), remove it instead; edits along the key line keep it.
func TestSlackStaysOnKeyLine(t *testing.T) {
	const start = "version: 2023-04-20\nresources:\n  a:\n    type: aws/s3/bucket\n    spec:\n      script: |\n        echo hi\n" +
		"  b:\n    type: aws/sqs/queue\n    spec:\n      queueName: q\n"
	bLine := strings.Index(start, "  b:")
	tests := []struct {
		name     string
		from, to int // in start
		text     string
		padded   bool // b's padding is still there after
	}{
		// The new lines go after the padding, which stays on b's line.
		{"a line break typed at the key line's end", bLine + 4, bLine + 4, "\n    description: |\n      hello", true},
		{"a line break typed inside the key line", bLine + 3, bLine + 3, "\n", false},
		{"the key line indented into the block scalar above", bLine, bLine, "      ", false},
		{"the key line joined to the block scalar's line", bLine - 1, bLine + 2, "", false},
		{"the line break before the key line and the key", bLine - 1, bLine + 4, "", false},
		{"a space typed before the key", bLine + 2, bLine + 2, " ", false},
		{"typed at the key line's end", bLine + 4, bLine + 4, " # queue", false},
		{"the key renamed", bLine + 2, bLine + 3, "orders", true},
		{"inside the key", bLine + 3, bLine + 3, "2", true},
		{"a line above", 9, 9, " ", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := newSlackDoc("file:///ws/keyline.blueprint.yaml", start, source.UTF16)
			cm := source.NewMapper(d.client)
			// Typing in b's value pads b's key line.
			q := strings.Index(start, ": q") + 3
			e := d.edit(cm, q, q, "x", false)
			d.send(t, nil, []protocol.TextDocumentContentChangeEvent{&protocol.TextDocumentContentChangePartial{Range: e.r, Text: e.text}},
				[]byte(start[:q]+"x"+start[q:]), &e)
			if s := source.SlackOf(d.snap.File().Mapper.Slack()); len(s) != 2 || s[1].At != bLine+4+slackSize {
				t.Fatalf("after typing in b: padding %v, want b's at %d", s, bLine+4+slackSize)
			}
			cm = source.NewMapper(d.client)
			e = d.edit(cm, tt.from, tt.to, tt.text, false)
			next := slices.Concat(d.client[:e.from:e.from], []byte(e.text), d.client[e.to:])
			d.send(t, nil, []protocol.TextDocumentContentChangeEvent{&protocol.TextDocumentContentChangePartial{Range: e.r, Text: e.text}}, next, &e)
			if got := d.bPadded(); got != tt.padded {
				t.Errorf("b padded after the edit: %v, want %v (padding %v, text %q)", got, tt.padded, source.SlackOf(d.snap.File().Mapper.Slack()), d.snap.File().Content())
			}
		})
	}
}

// bPadded reports whether a definition's key line other than a's is
// padded in the parse of d's text.
func (d *slackDoc) bPadded() bool {
	f := d.snap.File()
	text := f.Content()
	for _, s := range source.SlackOf(f.Mapper.Slack()) {
		line := text[bytes.LastIndexByte(text[:s.At], '\n')+1 : s.At]
		if strings.TrimSpace(string(line)) != "a:" {
			return true
		}
	}
	return false
}

// seenDiagnostics spells diagnostics as a client sees them: places as
// positions through m.
func seenDiagnostics(ds []source.Diagnostic, m *source.Mapper, enc source.Encoding) string {
	var b strings.Builder
	r := func(r source.Range) string {
		s, e := m.RangePositions(r, enc)
		return fmt.Sprintf("%d:%d-%d:%d", s.Line, s.Character, e.Line, e.Character)
	}
	for _, d := range ds {
		fmt.Fprintf(&b, "%s %s %s\n", r(d.Range), d.Code, d.Message)
		for _, rel := range d.Related {
			fmt.Fprintf(&b, "  related %s %s\n", r(rel.Range), rel.Message)
		}
		for _, s := range d.Suggestions {
			for _, e := range s.Edits {
				fmt.Fprintf(&b, "  %s: %s %q\n", s.Title, r(e.Range), e.NewText)
			}
		}
	}
	return b.String()
}

// TestSlackNotAfterBackslash: in a double-quoted string, a backslash
// before the padding would escape its first space instead of the line
// break ("a\\" then a line break is "a" joined to the next line; "a\\ "
// is "a "), so a key line that comes to end in one loses its padding.
func TestSlackNotAfterBackslash(t *testing.T) {
	const start = "resources:\n  a:\n    type: x\n  b:\n    type: x\"\n"
	d := newSlackDoc("file:///ws/backslash.blueprint.yaml", start, source.UTF16)
	type step struct {
		at   int
		text string
	}
	for i, s := range []step{
		{strings.LastIndex(start, "x"), "y"}, // pads b
		{strings.Index(start, "  b:") + 4, ` "a\`},
	} {
		cm := source.NewMapper(d.client)
		e := d.edit(cm, s.at, s.at, s.text, false)
		next := slices.Concat(d.client[:e.from:e.from], []byte(e.text), d.client[e.to:])
		d.send(t, nil, []protocol.TextDocumentContentChangeEvent{&protocol.TextDocumentContentChangePartial{Range: e.r, Text: e.text}}, next, &e)
		if want := i == 0; d.bPadded() != want {
			t.Fatalf("after edit %d: b padded %v, want %v (padding %v)", i, !want, want, source.SlackOf(d.snap.File().Mapper.Slack()))
		}
	}
	if got := parsetest.Meaning(schema.Parse(d.uri, d.snap.File().Content()).Root); !regexp.MustCompile(`"b"/[^ ]*: "atype: yx"/`).MatchString(got) {
		t.Errorf("the server's text means %s", got)
	}
}

// parsedClient returns the text of snap's parse without its padding (the
// client's text, when all is well) and the client's mapper.
func parsedClient(snap *Snapshot) ([]byte, *source.Mapper) {
	f := snap.File()
	return unpad(f.Content(), source.SlackOf(f.Mapper.Slack())), snap.Lines()
}
