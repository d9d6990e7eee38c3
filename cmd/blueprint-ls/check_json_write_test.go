package main

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// TestWriteJSONFileSame holds jsonWriter.writeFile to encoding/json
// (marshalIndent) on files with every optional field present and absent
// and strings holding what JSON escapes: quotes, backslashes, control
// characters, HTML characters, non-ASCII, U+2028, invalid UTF-8.
func TestWriteJSONFileSame(t *testing.T) {
	strs := []string{"", "plain", `a "quoted" \ back`, "tab\tnew\nline\r\b\f\x00\x1f", "<a href='x'>&amp;</a>",
		"héllo wörld ✓ 日本", "line\u2028sep\u2029", "bad \xff\xfe utf8", "${variables.env}", "\x7f del"}
	rng := rand.New(rand.NewPCG(36, 2))
	pick := func() string {
		if rng.IntN(4) == 0 {
			b := make([]byte, rng.IntN(12))
			for i := range b {
				b[i] = byte(rng.IntN(256))
			}
			return string(b)
		}
		return strs[rng.IntN(len(strs))]
	}
	r := func() jsonRange {
		return jsonRange{Start: jsonPos{rng.IntN(100), rng.IntN(100), rng.IntN(1 << 20)}, End: jsonPos{rng.IntN(100), rng.IntN(100), rng.IntN(1 << 20)}}
	}
	for i := range 500 {
		f := jsonFile{Path: pick(), Diagnostics: []jsonDiagnostic{}}
		if i%3 == 0 {
			f.Error = pick()
		}
		n := rng.IntN(4)
		if i == 499 { // past the writer's 64 KiB pieces
			n = 300
		}
		for range n {
			d := jsonDiagnostic{Code: pick(), Severity: pick(), Message: pick(), Range: r()}
			for range rng.IntN(3) {
				d.Related = append(d.Related, jsonRelated{URI: pick(), Range: r(), Message: pick()})
			}
			for range rng.IntN(3) {
				s := jsonSuggestion{Title: pick(), Edits: []jsonEdit{}}
				if rng.IntN(5) == 0 {
					s.Edits = nil
				}
				for range rng.IntN(3) {
					s.Edits = append(s.Edits, jsonEdit{Range: r(), NewText: pick()})
				}
				d.Suggestions = append(d.Suggestions, s)
			}
			f.Diagnostics = append(f.Diagnostics, d)
		}
		for _, prefix := range []string{"", "    "} {
			want, err := marshalIndent(f, prefix)
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			w := jsonWriter{prefix: prefix, out: &out}
			if err := w.writeFile(&f); err != nil || !bytes.Equal(out.Bytes(), want) {
				t.Fatalf("file %d, prefix %q (%v):\ngot:\n%s\nwant:\n%s", i, prefix, err, out.Bytes(), want)
			}
		}
	}
}

// TestWriteResultSame holds writeResult, which streams a file's
// diagnostics through one reused jsonDiagnostic, to writeFile of the
// whole jsonFile built as the report built it before (referenceFileOf):
// diagnostics with and without related places (in the file, in another
// file with and without its text, in another file under the file's own
// path) and suggestions of zero to three edits, many files through one
// writer, as writeJSON uses it.
func TestWriteResultSame(t *testing.T) {
	text := []byte("version: 2025-05-12\nresources:\n  a:\n    type: aws/sqs/queue # ✓ non-ASCII\n    spec:\n      queueName: \"${variables.env}\"\n")
	other := []byte("line one\nline two é\n\nline four\n")
	// Every other file is ASCII, whose columns the writer's cursor
	// subtracts rather than counts.
	ascii := []byte("version: 2025-05-12\r\nresources:\n  a:\n    type: aws/sqs/queue\n\n    spec:\n      queueName: \"${variables.env}\"\n")
	m, om, am := source.NewMapper(text), source.NewMapper(other), source.NewMapper(ascii)
	rng := rand.New(rand.NewPCG(36, 3))
	at := func(n int) source.Range {
		a, b := rng.IntN(n+1), rng.IntN(n+1)
		return source.Range{Start: min(a, b), End: max(a, b)}
	}
	words := []string{"", "plain", `a "quoted" \ back`, "héllo", "tab\tnew\nline"}
	pick := func() string { return words[rng.IntN(len(words))] }
	var want, got bytes.Buffer
	wantW := jsonWriter{prefix: "    ", out: &want}
	gotW := jsonWriter{prefix: "    ", out: &got}
	for i := range 300 {
		r := fileResult{path: "/p/a.blueprint.yaml", mapper: m, others: map[string]*source.Mapper{"/p/b.blueprint.yaml": om}}
		text := text
		if i%2 == 1 {
			r.mapper, text = am, ascii
		}
		if i%7 == 0 {
			r.err = errors.New(pick())
		}
		n := rng.IntN(6)
		if i == 299 {
			n = 2000 // past the writer's 64 KiB pieces
		}
		for range n {
			d := source.Diagnostic{Range: at(len(text)), Severity: source.Severity(1 + rng.IntN(4)), Code: pick(), Message: pick()}
			for range rng.IntN(3) {
				switch rng.IntN(4) {
				case 0:
					d.Related = append(d.Related, source.Related{Range: at(len(text)), Message: pick()})
				case 1:
					d.Related = append(d.Related, source.Related{URI: "/p/b.blueprint.yaml", Range: at(len(other)), Message: pick()})
				case 2:
					d.Related = append(d.Related, source.Related{URI: "/p/c.blueprint.yaml", Range: at(5), Message: pick()})
				default:
					d.Related = append(d.Related, source.Related{URI: r.path, Range: at(len(text)), Message: pick()})
				}
			}
			for range rng.IntN(3) {
				s := source.Suggestion{Title: pick()}
				for range rng.IntN(4) {
					s.Edits = append(s.Edits, source.Edit{Range: at(len(text)), NewText: pick()})
				}
				d.Suggestions = append(d.Suggestions, s)
			}
			r.diags = append(r.diags, d)
		}
		f := referenceFileOf(&r)
		if err := wantW.writeFile(&f); err != nil {
			t.Fatal(err)
		}
		if err := gotW.writeResult(&r); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Fatalf("file %d:\ngot:\n%s\nwant:\n%s", i, got.Bytes(), want.Bytes())
		}
		if f2 := jsonFileOf(&r); !reflect.DeepEqual(f2, f) {
			t.Fatalf("file %d: jsonFileOf differs from the reference", i)
		}
	}
}

// referenceFileOf is jsonFileOf as it was before writeResult: every
// diagnostic's own lists, grown by append.
func referenceFileOf(r *fileResult) jsonFile {
	f := jsonFile{Path: r.path, Diagnostics: []jsonDiagnostic{}}
	if r.err != nil {
		f.Error = r.err.Error()
	}
	for _, d := range r.diags {
		jd := jsonDiagnostic{Code: d.Code, Severity: d.Severity.String(), Message: d.Message, Range: jsonRangeOf(r.mapper, d.Range)}
		for _, rel := range d.Related {
			jr := jsonRelated{Message: rel.Message}
			p, m := r.relatedMapper(rel)
			if p != r.path {
				jr.URI = rel.URI
			}
			if m != nil {
				jr.Range = jsonRangeOf(m, rel.Range)
			}
			jd.Related = append(jd.Related, jr)
		}
		for _, s := range d.Suggestions {
			js := jsonSuggestion{Title: s.Title, Edits: []jsonEdit{}}
			for _, e := range s.Edits {
				js.Edits = append(js.Edits, jsonEdit{Range: jsonRangeOf(r.mapper, e.Range), NewText: e.NewText})
			}
			jd.Suggestions = append(jd.Suggestions, js)
		}
		f.Diagnostics = append(f.Diagnostics, jd)
	}
	return f
}

// jsonFileOf is a file's report as one value, through
// jsonDiagnosticOf (the report itself streams it: writeResult).
func jsonFileOf(r *fileResult) jsonFile {
	f := jsonFile{Path: r.path, Diagnostics: make([]jsonDiagnostic, len(r.diags))}
	if r.err != nil {
		f.Error = r.err.Error()
	}
	for i := range r.diags {
		var edits []jsonEdit
		jsonDiagnosticOf(r, &r.diags[i], &f.Diagnostics[i], &edits, r.mapper.Cursor())
	}
	return f
}

// writeFile (test-only: the report streams through writeResult) writes f to w's output as marshalIndent(f, w.prefix) would,
// byte for byte, without reflection or the re-indenting pass (encoding
// the diagnostics was a fifth of `check` on a large blueprint, issue
// 36), in pieces of about 64 KiB (a large blueprint's report is
// megabytes). One writer serves every file of a report, so a monorepo's
// 25,000 files share one buffer. TestWriteJSONFileSame holds it to
// marshalIndent.
func (w *jsonWriter) writeFile(f *jsonFile) error {
	w.file(f)
	w.flush()
	return w.err
}

func (w *jsonWriter) file(f *jsonFile) {
	w.fileOf(f.Path, f.Error, len(f.Diagnostics), func(i int) *jsonDiagnostic { return &f.Diagnostics[i] })
}

// TestJSONPlain8 holds jsonPlain8 to jsonPlain: every byte value at
// every place of eight, among plain bytes and beside another odd one.
func TestJSONPlain8(t *testing.T) {
	for c := range 256 {
		for at := range 8 {
			for _, fill := range []byte{'a', ' ', '~', 0x7F, '"'} {
				b := []byte{fill, fill, fill, fill, fill, fill, fill, fill}
				b[at] = byte(c)
				want := true
				for _, x := range b {
					want = want && jsonPlain[x]
				}
				if got := jsonPlain8(string(b)); got != want {
					t.Fatalf("% x: jsonPlain8 %v, want %v", b, got, want)
				}
			}
		}
	}
}
