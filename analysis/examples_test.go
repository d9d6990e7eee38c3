package analysis

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
)

func analyzeFile(t testing.TB, path string) *Result {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(path)
	f := schema.Parse(abs, data)
	return Analyze(context.Background(), f, Options{Path: abs, Loader: NewLoader(nil, Options{})})
}

func describe(r *Result, d source.Diagnostic) string {
	l, c := r.File.Mapper.LineCol(d.Range.Start, source.UTF32)
	return strings.Join([]string{strconv.Itoa(l) + ":" + strconv.Itoa(c), d.Severity.String(), d.Code, d.Message}, " ")
}

// TestValidExamples: no valid example produces an error or warning.
func TestValidExamples(t *testing.T) {
	files, _ := filepath.Glob("../testdata/examples/valid/*.blueprint.*")
	inc, _ := filepath.Glob("../testdata/examples/valid/include/*.blueprint.*")
	files = append(files, inc...)
	if len(files) == 0 {
		t.Fatal("no examples")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			r := analyzeFile(t, f)
			for _, d := range r.Diagnostics {
				if d.Severity <= source.Warning {
					t.Errorf("%s", describe(r, d))
				}
			}
		})
	}
}

var expectRe = regexp.MustCompile(`#\s*expect:\s*(.*)$`)

// TestInvalidExamples: every `# expect:` line gets a diagnostic on that
// line, and no unmarked line gets an error.
func TestInvalidExamples(t *testing.T) {
	files, _ := filepath.Glob("../testdata/examples/invalid/*.blueprint.*")
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			r := analyzeFile(t, f)
			data, _ := os.ReadFile(f)
			lines := strings.Split(string(data), "\n")
			got := map[int][]source.Diagnostic{}
			for _, d := range r.Diagnostics {
				l, _ := r.File.Mapper.LineCol(d.Range.Start, source.UTF32)
				got[l] = append(got[l], d)
			}
			marked := map[int]bool{}
			for i, line := range lines {
				if expectRe.MatchString(line) {
					marked[i+1] = true
				}
			}
			// An error on an unmarked line is a follow-on effect when the
			// definition it belongs to has a marked line (the README's rule).
			followOn := func(d source.Diagnostic) bool {
				for _, s := range r.Symbols() {
					if !s.Range.ContainsRange(d.Range) {
						continue
					}
					from, _ := r.File.Mapper.LineCol(s.Range.Start, source.UTF32)
					to, _ := r.File.Mapper.LineCol(s.Range.End, source.UTF32)
					for l := from; l <= to; l++ {
						if marked[l] {
							return true
						}
					}
				}
				return false
			}
			for i, line := range lines {
				m := expectRe.FindStringSubmatch(line)
				if m == nil {
					for _, d := range got[i+1] {
						if d.Severity == source.Error && !followOn(d) {
							t.Errorf("unexpected on unmarked line %d: %s", i+1, describe(r, d))
						}
					}
					continue
				}
				if len(got[i+1]) == 0 {
					t.Errorf("line %d: no diagnostic; want %q", i+1, m[1])
				}
			}
			if testing.Verbose() {
				for _, d := range r.Diagnostics {
					t.Logf("%s", describe(r, d))
				}
			}
		})
	}
}
