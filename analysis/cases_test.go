package analysis

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the want sections of testdata/cases/*.txtar")

// A case archive holds small blueprints, each followed by its expected
// diagnostics:
//
//	-- name.blueprint.yaml --
//	...blueprint...
//	-- want --
//	3:12-3:30 ref-unknown-variable "variables.nam"
//
// Every diagnostic the file gets is listed, one a line, as its range
// (line:col, 1-based, columns in characters), its code, and the text the
// range covers (quoted, cut to 40 characters) so a reviewer sees what is
// underlined. An empty want section asserts a clean file. The blueprints
// are analysed as if they sat in testdata/cases, so includes name
// ../children/*.

// archiveSection is one "-- name --" section of an archive.
type archiveSection struct {
	name string
	data []byte
}

// parseArchive splits a txtar-style archive into its sections; text before
// the first section is the archive's comment.
func parseArchive(data []byte) (comment []byte, sections []archiveSection) {
	lines := bytes.SplitAfter(data, []byte("\n"))
	cur := -1
	for _, l := range lines {
		t := bytes.TrimRight(l, "\r\n")
		if bytes.HasPrefix(t, []byte("-- ")) && bytes.HasSuffix(t, []byte(" --")) && len(t) > 6 {
			sections = append(sections, archiveSection{name: string(t[3 : len(t)-3])})
			cur = len(sections) - 1
			continue
		}
		if cur < 0 {
			comment = append(comment, l...)
		} else {
			sections[cur].data = append(sections[cur].data, l...)
		}
	}
	return comment, sections
}

func formatArchive(comment []byte, sections []archiveSection) []byte {
	var b bytes.Buffer
	b.Write(comment)
	for _, s := range sections {
		fmt.Fprintf(&b, "-- %s --\n", s.name)
		b.Write(s.data)
		if len(s.data) > 0 && s.data[len(s.data)-1] != '\n' {
			b.WriteByte('\n')
		}
	}
	return b.Bytes()
}

// describeDiag renders one diagnostic the way want sections list them.
func describeDiag(r *Result, d source.Diagnostic) string {
	m := r.File.Mapper
	l1, c1 := m.LineCol(d.Range.Start, source.UTF32)
	l2, c2 := m.LineCol(d.Range.End, source.UTF32)
	text := ""
	if content := m.Content(); d.Range.Start >= 0 && d.Range.End <= len(content) && d.Range.Start <= d.Range.End {
		text = string(content[d.Range.Start:d.Range.End])
	}
	text = strings.ReplaceAll(text, "\n", `\n`)
	if r := []rune(text); len(r) > 40 {
		text = string(r[:37]) + "..."
	}
	return fmt.Sprintf("%d:%d-%d:%d %s %q", l1, c1, l2, c2, d.Code, text)
}

func analyzeCase(t testing.TB, dir, name string, content []byte, loader *Loader) *Result {
	t.Helper()
	path, err := filepath.Abs(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	f := schema.Parse(path, content)
	return Analyze(context.Background(), f, Options{Path: path, Loader: loader})
}

// TestCases runs every blueprint of testdata/cases/*.txtar and compares
// its diagnostics, exactly, with the want section after it.
func TestCases(t *testing.T) {
	archives, _ := filepath.Glob("testdata/cases/*.txtar")
	if len(archives) == 0 {
		t.Fatal("no case archives")
	}
	dir, _ := filepath.Abs("testdata/cases")
	loader := NewLoader(nil, Options{})
	total := 0
	for _, arch := range archives {
		data, err := os.ReadFile(arch)
		if err != nil {
			t.Fatal(err)
		}
		comment, sections := parseArchive(data)
		changed := false
		t.Run(strings.TrimSuffix(filepath.Base(arch), ".txtar"), func(t *testing.T) {
			for i := 0; i < len(sections); i++ {
				s := sections[i]
				if s.name == "want" {
					t.Errorf("want section without a blueprint before it (section %d)", i)
					continue
				}
				hasWant := i+1 < len(sections) && sections[i+1].name == "want"
				total++
				t.Run(s.name, func(t *testing.T) {
					r := analyzeCase(t, dir, s.name, s.data, loader)
					var got []string
					for _, d := range r.Diagnostics {
						got = append(got, describeDiag(r, d))
					}
					sort.Strings(got)
					if *update {
						body := strings.Join(got, "\n")
						if body != "" {
							body += "\n"
						}
						if hasWant {
							if string(sections[i+1].data) != body {
								sections[i+1].data = []byte(body)
								changed = true
							}
						} else {
							sections = append(sections[:i+1], append([]archiveSection{{name: "want", data: []byte(body)}}, sections[i+1:]...)...)
							changed = true
						}
						return
					}
					if !hasWant {
						t.Fatalf("no want section (run with -update)")
					}
					var want []string
					for _, l := range strings.Split(string(sections[i+1].data), "\n") {
						if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
							want = append(want, l)
						}
					}
					sort.Strings(want)
					if diff := cmp.Diff(want, got); diff != "" {
						t.Errorf("diagnostics (-want +got):\n%s", diff)
						for _, d := range r.Diagnostics {
							t.Logf("  %s: %s", d.Code, d.Message)
						}
					}
				})
				if hasWant {
					i++
				}
			}
		})
		if *update && changed {
			if err := os.WriteFile(arch, formatArchive(comment, sections), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if total < 150 {
		t.Errorf("only %d cases; the suite promises at least 150", total)
	}
	t.Logf("%d cases", total)
}
