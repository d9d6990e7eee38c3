package blueprintls

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the generated part of THIRD_PARTY_NOTICES.md")

// licenceFile matches the files of a module whose text a binary
// distribution must carry.
var licenceFile = regexp.MustCompile(`(?i)^(licen[cs]e|copying|notice|patents)(-[a-z0-9.-]+)?(\.(md|txt))?$`)

type module struct{ Path, Version, Dir string }

// linkedModules lists the modules of the packages linked into the
// blueprint-ls binary, the standard library first.
func linkedModules(t *testing.T) []module {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	out, err := exec.Command(goTool, "list", "-deps", "-json=Module", "./cmd/blueprint-ls").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	root, err := exec.Command(goTool, "env", "GOROOT").Output()
	if err != nil {
		t.Fatalf("go env GOROOT: %v", err)
	}
	mods := []module{{Path: "Go standard library", Dir: strings.TrimSpace(string(root))}}
	seen := map[string]bool{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p struct{ Module *module }
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		if m := p.Module; m != nil && m.Version != "" && !seen[m.Path] {
			seen[m.Path] = true
			mods = append(mods, *m)
		}
	}
	slices.SortFunc(mods[1:], func(a, b module) int { return strings.Compare(a.Path, b.Path) })
	return mods
}

// moduleNotices is the generated part of THIRD_PARTY_NOTICES.md: each
// module with the text of its licence, notice and patent files.
func moduleNotices(t *testing.T, mods []module) string {
	var b strings.Builder
	b.WriteString(ModulesHeading + "\n\nGenerated from `go list -deps ./cmd/blueprint-ls` by TestNoticesFresh.\n")
	for _, m := range mods {
		ents, err := os.ReadDir(m.Dir)
		if err != nil {
			t.Fatal(err)
		}
		title := m.Path
		if m.Version != "" {
			title += " " + m.Version
		}
		fmt.Fprintf(&b, "\n### %s\n", title)
		n := 0
		for _, e := range ents {
			if e.IsDir() || !licenceFile.MatchString(e.Name()) {
				continue
			}
			text, err := os.ReadFile(filepath.Join(m.Dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "\n%s:\n\n```text\n%s\n```\n", e.Name(), strings.TrimRight(strings.ReplaceAll(string(text), "\r\n", "\n"), "\n"))
			n++
		}
		if n == 0 {
			t.Errorf("module %s has no licence file in %s", m.Path, m.Dir)
		}
	}
	return b.String()
}

// TestNoticesFresh checks that THIRD_PARTY_NOTICES.md carries the licence
// of every module the binary links, as they are now.
func TestNoticesFresh(t *testing.T) {
	head, _, ok := strings.Cut(Notices, ModulesHeading)
	if !ok {
		t.Fatalf("THIRD_PARTY_NOTICES.md lacks the heading %q", ModulesHeading)
	}
	want := head + moduleNotices(t, linkedModules(t))
	if *update {
		if err := os.WriteFile("THIRD_PARTY_NOTICES.md", []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if diff := cmp.Diff(want, Notices); diff != "" {
		t.Errorf("THIRD_PARTY_NOTICES.md is stale; run `go test . -run Notices -update` (-want +got):\n%s", diff)
	}
}

func TestLicenseIsApache(t *testing.T) {
	if !strings.Contains(License, "Apache License\n                           Version 2.0, January 2004") {
		t.Errorf("LICENSE is not the Apache License 2.0:\n%.200s", License)
	}
}
