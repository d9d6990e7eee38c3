package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
)

func TestVersionForms(t *testing.T) {
	line := regexp.MustCompile(`^blueprint-ls \S+\ncommit: \S+\nbuilt:  \S+\ngo:     go\S* \w+/\w+\n$`)
	for _, args := range [][]string{{"version"}, {"--version"}, {"-version"}} {
		code, out, errs := runArgs(args...)
		if code != exitOK || errs != "" || !line.MatchString(out) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errs)
		}
	}
	if code, _, errs := runArgs("version", "extra"); code != exitUsage || !strings.Contains(errs, `unexpected argument "extra"`) {
		t.Errorf("version extra: exit %d, stderr %q", code, errs)
	}
}

func TestVersionNotices(t *testing.T) {
	code, out, _ := runArgs("version", "--notices")
	for _, want := range []string{"# Third-party notices", "MIT No Attribution", "### go.lsp.dev/protocol", "### Go standard library"} {
		if code != exitOK || !strings.Contains(out, want) {
			t.Errorf("version --notices: exit %d, output lacks %q", code, want)
		}
	}
	if code, out, _ := runArgs("--version", "--license"); code != exitOK || !strings.Contains(out, "Apache License") {
		t.Errorf("--version --license: exit %d, output %.100q", code, out)
	}
}

var built struct {
	once sync.Once
	dir  string
	bin  string
	err  error
}

func TestMain(m *testing.M) {
	defaultRuleSets = "none" // the rules' tests (check_rules_test.go) pass --rules
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// testBinary builds blueprint-ls once per test run, stamped with the
// release's -ldflags, for tests that need a real process.
func testBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	built.once.Do(func() {
		if built.dir, built.err = os.MkdirTemp("", "blueprint-ls-test"); built.err != nil {
			return
		}
		built.bin = filepath.Join(built.dir, "blueprint-ls")
		build := exec.Command("go", "build", "-o", built.bin, "-ldflags", "-X main.version=1.2.3 -X main.commit=abc1234 -X main.date=2026-01-02T03:04:05Z", ".")
		build.Env = append(os.Environ(), "GOFLAGS=-buildvcs=false")
		if out, err := build.CombinedOutput(); err != nil {
			built.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.bin
}

// TestVersionStamped checks that the release's -ldflags stamps come out.
func TestVersionStamped(t *testing.T) {
	out, err := exec.Command(testBinary(t), "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	want := "blueprint-ls 1.2.3\ncommit: abc1234\nbuilt:  2026-01-02T03:04:05Z\n"
	if !strings.HasPrefix(string(out), want) {
		t.Errorf("--version printed\n%s\nwant it to start\n%s", out, want)
	}
}
