package main

import (
	"bytes"
	"math/rand/v2"
	"testing"
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
