package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestPlanDetailedExitcode checks Terraform's convention under
// --detailed-exitcode: 0 no changes, 1 any failure, 2 changes.
func TestPlanDetailedExitcode(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"q.blueprint.yaml": goodYAML,
		"same.json":        `{"resources": {"q": {"type": "aws/sqs/queue", "spec": {}}}}`,
		"bad.blueprint.yaml": "version: 2023-04-20\nresources:\n  q:\n    type: aws/sqs/queue\n" +
			"    spec:\n      queueName: ${variables.nope}\n",
	})
	bp, same, bad := filepath.Join(dir, "q.blueprint.yaml"), filepath.Join(dir, "same.json"), filepath.Join(dir, "bad.blueprint.yaml")
	cases := []struct {
		name string
		args []string
		want int
	}{
		{"changes", []string{bp}, 2},
		{"no changes", []string{bp, "--state", same}, 0},
		{"flag first", []string{"--detailed-exitcode=true", bp, "--state", same}, 0},
		{"errors in the blueprint", []string{bad}, 1},
		{"missing file", []string{filepath.Join(dir, "nope.blueprint.yaml")}, 1},
		{"missing state", []string{bp, "--state", filepath.Join(dir, "nope.json")}, 1},
		{"bad format", []string{bp, "--format", "xml"}, 1},
		{"unknown flag before it", []string{"--bogus", bp}, 1},
		{"no file", nil, 1},
		{"help", []string{"-h"}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := append([]string{"plan", "--detailed-exitcode"}, c.args...)
			if c.name == "flag first" || c.name == "unknown flag before it" {
				args = append([]string{"plan"}, append(c.args, "--detailed-exitcode")...)
			}
			if code, out, errs := runArgs(args...); code != c.want {
				t.Errorf("%q: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", args, code, c.want, out, errs)
			}
		})
	}
	// Without the flag a usage failure stays 2 and changes are success.
	if code, _, _ := runArgs("plan", filepath.Join(dir, "nope.blueprint.yaml")); code != exitUsage {
		t.Errorf("plan missing file without --detailed-exitcode: exit %d, want 2", code)
	}
	if code, _, _ := runArgs("plan", bp); code != exitOK {
		t.Errorf("plan with changes without --detailed-exitcode: exit %d, want 0", code)
	}
}

func TestUnknownCommandSuggests(t *testing.T) {
	cases := []struct{ arg, want string }{
		{"chek", `unknown command "chek"; did you mean "check"?`},
		{"plna", `unknown command "plna"; did you mean "plan"?`},
		{"frmt", `unknown command "frmt"; did you mean "fmt"?`},
		{"deploy", "unknown command \"deploy\"\n"},
	}
	for _, c := range cases {
		code, out, errs := runArgs(c.arg)
		if code != exitUsage || out != "" || !strings.HasPrefix(errs, "blueprint-ls: "+c.want) || !strings.Contains(errs, "Commands:") {
			t.Errorf("%s: exit %d, stdout %q, stderr:\n%s", c.arg, code, out, errs)
		}
	}
}

// TestHelpPointsOnline checks that usage names the online documentation:
// an installed binary has no docs/ beside it.
func TestHelpPointsOnline(t *testing.T) {
	const base = "https://github.com/blueprint-ls/blueprint-ls/blob/main/docs/"
	cases := []struct {
		args []string
		page string
	}{
		{[]string{"-h"}, "guide.md"},
		{[]string{"check", "-h"}, "cli.md"},
		{[]string{"plan", "-h"}, "plan.md"},
		{[]string{"eval", "-h"}, "plan.md"},
		{[]string{"fmt", "-h"}, "formatting.md"},
		{[]string{"serve", "-h"}, "lsp.md"},
		{[]string{"assembly", "-h"}, "assembly.md"},
		{[]string{"assembly", "verify", "-h"}, "assembly.md"},
		{[]string{"version", "-h"}, "guide.md"},
	}
	for _, c := range cases {
		code, out, errs := runArgs(c.args...)
		text := out + errs
		if code != exitOK || !strings.Contains(text, "Documentation: "+base+c.page+"\n") {
			t.Errorf("%q: exit %d, want the link to %s in:\n%s", c.args, code, c.page, text)
		}
		if strings.Contains(strings.ReplaceAll(text, base, ""), "docs/") {
			t.Errorf("%q: usage names a local docs/ path:\n%s", c.args, text)
		}
	}
	for _, page := range commandDocs {
		if _, err := os.Stat(filepath.Join("..", "..", "docs", page)); err != nil {
			t.Errorf("commandDocs names %s: %v", page, err)
		}
	}
}

func TestMissingFilePlainWords(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "orders.blueprint.yaml")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"check", missing}, "blueprint-ls check: " + missing + " does not exist\n"},
		{[]string{"plan", missing}, "blueprint-ls plan: " + missing + " does not exist\n"},
		{[]string{"plan", ordersAPI, "--vars", missing}, missing + " does not exist\n"},
		{[]string{"eval", "x", "--blueprint", missing}, "blueprint-ls eval: " + missing + " does not exist\n"},
	}
	for _, c := range cases {
		code, _, errs := runArgs(c.args...)
		if code != exitUsage || !strings.HasSuffix(errs, c.want) || strings.Contains(errs, "no such file") {
			t.Errorf("%q: exit %d, stderr %q, want it to end %q", c.args, code, errs, c.want)
		}
	}
}

// TestCheckSummary checks the one-line summary on stderr: after the report
// whatever the format (so `check 2>&1 | cat` ends with it), not repeated
// when the coloured text output carries it, and gone with --no-summary.
func TestCheckSummary(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"a.blueprint.yaml": goodYAML + "extra: 1\n",
		"b.blueprint.yaml": "resources: {}\n",
		"c.blueprint.yaml": goodYAML,
	})
	const line = "2 errors, 1 warning in 3 files\n"
	for _, format := range checkFormats {
		var both strings.Builder
		code := run([]string{"check", "--format", format, dir}, &both, &both)
		if code != exitProblems || !strings.HasSuffix(both.String(), line) || strings.Count(both.String(), line) != 1 {
			t.Errorf("--format %s: exit %d, output does not end with the summary once:\n%s", format, code, both.String())
		}
		if _, _, errs := runArgs("check", "--format", format, "--no-summary", dir); errs != "" {
			t.Errorf("--format %s --no-summary: stderr %q", format, errs)
		}
	}
	code, out, errs := runArgs("check", "--color", "always", dir)
	if code != exitProblems || errs != "" || !strings.Contains(out, "\x1b[1m2 errors, 1 warning\x1b[0m in 3 files\n") {
		t.Errorf("--color always: exit %d, stderr %q, stdout:\n%s", code, errs, out)
	}
	clean := writeFiles(t, map[string]string{"ok.blueprint.yaml": goodYAML})
	if code, _, errs := runArgs("check", clean); code != exitOK || errs != "0 errors, 0 warnings in 1 file\n" {
		t.Errorf("clean: exit %d, stderr %q", code, errs)
	}
	// A file refused by its size budget is counted as not read, not as a
	// clean file.
	big := writeFiles(t, map[string]string{"ok.blueprint.yaml": goodYAML, "big.blueprint.yaml": "a: \"" + strings.Repeat("a", 9<<20) + "\"\n"})
	if code, _, errs := runArgs("check", big); code != exitUsage || !strings.Contains(errs, "0 errors, 0 warnings in 2 files (1 not read)\n") {
		t.Errorf("one file too large: exit %d, stderr %q", code, errs)
	}
}

// TestServeOnDevNull runs `blueprint-ls </dev/null`: /dev/null is a
// character device but not a terminal, so the language server starts (and
// stops at the end of its input) instead of the usage being printed.
func TestServeOnDevNull(t *testing.T) {
	cmd := exec.Command(testBinary(t))
	devnull, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	cmd.Stdin = devnull
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	// The input ends without shutdown and exit: the protocol's exit code 1.
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || stdout.String() != "" || !strings.Contains(stderr.String(), "client disconnected") || strings.Contains(stderr.String(), "Usage") {
		t.Errorf("err %v, stdout %q, stderr:\n%s", err, stdout.String(), stderr.String())
	}
}

// TestServeStopsOnSIGTERM: a server told to stop (SIGTERM) ends while its
// input is a flood of bytes that never make a frame (/dev/zero: the frame
// reader resyncs through it without end) and while its client keeps the
// input open and idle. Before, a server fed /dev/zero ignored SIGTERM and
// had to be killed: only the input's end or exit ended it.
func TestServeStopsOnSIGTERM(t *testing.T) {
	bin := testBinary(t)
	if _, err := os.Stat("/proc/self/io"); err != nil {
		t.Skip("needs /proc to see the server read")
	}
	for _, flood := range []bool{true, false} {
		t.Run(fmt.Sprintf("flood=%v", flood), func(t *testing.T) {
			cmd := exec.Command(bin, "serve")
			var zero *os.File
			if flood {
				var err error
				if zero, err = os.Open("/dev/zero"); err != nil {
					t.Skip(err)
				}
				defer zero.Close()
				cmd.Stdin = zero
			}
			in, out := io.Writer(nil), io.Reader(nil)
			if !flood {
				w, err := cmd.StdinPipe()
				if err != nil {
					t.Fatal(err)
				}
				defer w.Close()
				r, err := cmd.StdoutPipe()
				if err != nil {
					t.Fatal(err)
				}
				in, out = w, r
			}
			var stderr strings.Builder
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			if flood {
				// Running once it has read far more than starting reads:
				// the flood.
				deadline := time.Now().Add(30 * time.Second)
				for read := 0; read < 64<<20; {
					b, err := os.ReadFile(fmt.Sprintf("/proc/%d/io", cmd.Process.Pid))
					if err != nil || time.Now().After(deadline) {
						cmd.Process.Kill()
						t.Fatalf("the server read no flood (%v)", err)
					}
					fmt.Sscanf(strings.TrimPrefix(strings.SplitN(string(b), "\n", 2)[0], "rchar: "), "%d", &read)
					time.Sleep(10 * time.Millisecond)
				}
			} else {
				// Running once it answers a frame (Invalid Request: {} is
				// no message); the input then stays open, idle.
				if _, err := in.Write([]byte("Content-Length: 2\r\n\r\n{}")); err != nil {
					t.Fatal(err)
				}
				if _, err := out.Read(make([]byte, 1)); err != nil {
					t.Fatalf("no answer: %v", err)
				}
				go io.Copy(io.Discard, out)
			}
			go func() { done <- cmd.Wait() }()
			if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				cmd.Process.Kill()
				<-done
				t.Fatalf("the server did not stop on SIGTERM; stderr:\n%s", stderr.String())
			}
		})
	}
}
