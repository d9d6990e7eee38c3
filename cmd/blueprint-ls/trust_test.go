package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The hostile inputs of docs/security.md, each as a committed file would
// bring it: every one ends at once with a clear message and exit status
// 1 or 2, never reading past a budget or outside the project.

// hostileProject lays out a project (with a .blueprint-ls.yaml) holding a
// FIFO, a credentials file, a symbolic link to a directory outside and one
// to /dev/zero, and the directory outside. It returns the project.
func hostileProject(t *testing.T, files map[string]string) string {
	t.Helper()
	base := t.TempDir()
	proj := filepath.Join(base, "proj")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(base, "elsewhere"), 0o755))
	must(os.MkdirAll(proj, 0o755))
	must(os.WriteFile(filepath.Join(base, "elsewhere", "creds"), []byte("aws_access_key_id = AKIAEXAMPLEEXAMPLE\n"), 0o600))
	must(os.WriteFile(filepath.Join(proj, "creds"), []byte("aws_access_key_id = AKIAEXAMPLEEXAMPLE\n"), 0o600))
	must(syscall.Mkfifo(filepath.Join(proj, "fifo"), 0o644))
	must(os.Symlink(filepath.Join(base, "elsewhere"), filepath.Join(proj, "linked")))
	for name, content := range files {
		p := filepath.Join(proj, filepath.FromSlash(name))
		must(os.MkdirAll(filepath.Dir(p), 0o755))
		must(os.WriteFile(p, []byte(content), 0o644))
	}
	return proj
}

func inDir(t *testing.T, dir string) {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chdir(wd) })
}

func TestHostileIncludes(t *testing.T) {
	proj := hostileProject(t, map[string]string{
		".blueprint-ls.yaml": "",
		"a.blueprint.yaml": `version: 2025-11-02
include:
  zero:
    path: /dev/zero
  up:
    path: ../elsewhere/creds
  abs:
    path: /etc/passwd
  linked:
    path: linked/creds
  fifo:
    path: fifo
  text:
    path: creds
resources: {}
`,
	})
	inDir(t, proj)
	code, out, errs := runArgs("check", "--no-summary", "--color", "never", "a.blueprint.yaml")
	root := proj
	if real, err := filepath.EvalSymlinks(proj); err == nil && real != proj {
		t.Logf("temp dir %s is %s", proj, real)
	}
	want := strings.Join([]string{
		"a.blueprint.yaml:4:11: error[include-outside-project]: child blueprint /dev/zero is outside the project root " + root + " and was not read (a .blueprint-ls.yaml can allow more directories under roots)",
		"a.blueprint.yaml:6:11: error[include-outside-project]: child blueprint ../elsewhere/creds is outside the project root " + root + " and was not read (a .blueprint-ls.yaml can allow more directories under roots)",
		"a.blueprint.yaml:8:11: error[include-outside-project]: child blueprint /etc/passwd is outside the project root " + root + " and was not read (a .blueprint-ls.yaml can allow more directories under roots)",
		"a.blueprint.yaml:10:11: error[include-outside-project]: child blueprint linked/creds is outside the project root " + root + " and was not read (a .blueprint-ls.yaml can allow more directories under roots)",
		"a.blueprint.yaml:12:11: error[include-missing]: child blueprint fifo can not be read: not a regular file: it is a named pipe (FIFO)",
		"a.blueprint.yaml:14:11: error[include-broken]: child blueprint creds is not a blueprint: found a text file",
		"    creds:1:1: the file creds starts here",
	}, "\n")
	if code != exitProblems || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	if !strings.HasPrefix(out, want+"\n") {
		t.Errorf("output (-want +got):\n%s", cmp.Diff(want, out))
	}
	for _, format := range []string{"text", "json", "sarif", "github", "junit"} {
		_, out, _ := runArgs("check", "--format", format, "a.blueprint.yaml")
		if strings.Contains(out, "AKIA") || strings.Contains(out, "aws_access_key_id") {
			t.Errorf("%s output quotes the credentials file:\n%s", format, out)
		}
	}

	// A config's extra roots let an include leave the project.
	if err := os.WriteFile(filepath.Join(proj, ".blueprint-ls.yaml"), []byte("roots: [../elsewhere]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, out, _ = runArgs("check", "--no-summary", "--color", "never", "a.blueprint.yaml")
	if !strings.Contains(out, "a.blueprint.yaml:6:11: error[include-broken]: child blueprint ../elsewhere/creds is not a blueprint: found a text file") {
		t.Errorf("an extra root should allow ../elsewhere:\n%s", out)
	}
}

func TestHostileDiscovery(t *testing.T) {
	proj := hostileProject(t, map[string]string{"ok.blueprint.yaml": goodYAML})
	if err := os.Symlink("/dev/zero", filepath.Join(proj, "z.blueprint.yaml")); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(filepath.Dir(proj), "elsewhere", "x.blueprint.yaml")
	if err := os.WriteFile(outside, []byte(messyYAML), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(proj, "out.blueprint.yaml")); err != nil {
		t.Fatal(err)
	}
	inDir(t, proj)
	code, _, errs := runArgs("check", "--no-summary", ".")
	want := "blueprint-ls check: out.blueprint.yaml is a symbolic link leading outside .: not followed\n" +
		"blueprint-ls check: z.blueprint.yaml is a symbolic link leading outside .: not followed\n"
	if code != exitUsage || errs != want {
		t.Errorf("check .: exit %d, stderr (-want +got):\n%s", code, cmp.Diff(want, errs))
	}
	code, out, errs := runArgs("fmt", "-w", ".")
	want = strings.ReplaceAll(want, "check", "fmt")
	if code != exitUsage || errs != want || out != "" {
		t.Errorf("fmt -w .: exit %d, stdout %q, stderr (-want +got):\n%s", code, out, cmp.Diff(want, errs))
	}
	if b, _ := os.ReadFile(outside); string(b) != messyYAML {
		t.Errorf("fmt -w . rewrote the file outside the tree through a symbolic link")
	}
}

func TestHostileProviders(t *testing.T) {
	proj := hostileProject(t, map[string]string{
		".blueprint-ls.yaml": "providers: [providers]\n",
		"a.blueprint.yaml":   goodYAML,
	})
	if err := os.MkdirAll(filepath.Join(proj, "providers"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(proj, "providers", "z.json")); err != nil {
		t.Fatal(err)
	}
	inDir(t, proj)
	// An unreadable file of a providers directory is reported on that
	// file (exit 1: an error in the project), the directory's other files
	// still load and the blueprint is still checked.
	code, out, errs := runArgs("check", "--no-summary", "a.blueprint.yaml")
	want := "providers/z.json:1:1: error[provider-file-invalid]: cannot read this provider file: read " + filepath.Join(proj, "providers", "z.json") +
		": outside the project: it leads outside the project root " + filepath.Join(proj, "providers") + " through a symbolic link; the directory's other files still load\n"
	if code != exitProblems || errs != "" || out != want {
		t.Errorf("exit %d, stderr %q, stdout (-want +got):\n%s", code, errs, cmp.Diff(want, out))
	}
	os.Remove(filepath.Join(proj, "providers", "z.json"))
	if err := syscall.Mkfifo(filepath.Join(proj, "providers", "f.json"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs = runArgs("check", "--no-summary", "a.blueprint.yaml")
	want = "providers/f.json:1:1: error[provider-file-invalid]: cannot read this provider file: read " + filepath.Join(proj, "providers", "f.json") +
		": not a regular file: it is a named pipe (FIFO); the directory's other files still load\n"
	if code != exitProblems || errs != "" || out != want {
		t.Errorf("exit %d, stderr %q, stdout (-want +got):\n%s", code, errs, cmp.Diff(want, out))
	}
	if err := os.WriteFile(filepath.Join(proj, ".blueprint-ls.yaml"), []byte("providers: [../elsewhere]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs = runArgs("check", "--no-summary", "a.blueprint.yaml")
	want = "blueprint-ls check: config: " + filepath.Join(proj, ".blueprint-ls.yaml") + ":1:13: providers: ../elsewhere is outside the project root " + proj + " (list extra directories under roots)\n"
	if code != exitUsage || errs != want {
		t.Errorf("exit %d, stderr (-want +got):\n%s", code, cmp.Diff(want, errs))
	}
}

func TestHostileInputFiles(t *testing.T) {
	proj := hostileProject(t, map[string]string{"a.blueprint.yaml": goodYAML, "big.json": "{}" + strings.Repeat(" ", 9<<20)})
	inDir(t, proj)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"plan", "--state", "/dev/zero", "a.blueprint.yaml"}, "blueprint-ls plan: read /dev/zero: not a regular file: it is a device\n"},
		{[]string{"plan", "--state", "fifo", "a.blueprint.yaml"}, "blueprint-ls plan: read fifo: not a regular file: it is a named pipe (FIFO)\n"},
		{[]string{"plan", "--state", "creds", "a.blueprint.yaml"}, "blueprint-ls plan: state: not a JSON document (the first error is at byte 1)\n"},
		{[]string{"plan", "--vars", "creds", "a.blueprint.yaml"}, "blueprint-ls plan: creds: want a mapping at the top level, got string\n"},
		{[]string{"plan", "--vars", "/dev/zero", "a.blueprint.yaml"}, "blueprint-ls plan: read /dev/zero: not a regular file: it is a device\n"},
		{[]string{"plan", "--vars", "big.json", "a.blueprint.yaml"}, "blueprint-ls plan: read big.json: larger than the size limit of 8 MiB\n"},
		{[]string{"plan", "fifo"}, "blueprint-ls plan: read fifo: not a regular file: it is a named pipe (FIFO)\n"},
		{[]string{"check", "--no-summary", "fifo"}, "blueprint-ls check: read fifo: not a regular file: it is a named pipe (FIFO)\n"},
		{[]string{"fmt", "fifo"}, "read fifo: not a regular file: it is a named pipe (FIFO)\n"},
		{[]string{"eval", "--blueprint", "fifo", "${1}"}, "blueprint-ls eval: read fifo: not a regular file: it is a named pipe (FIFO)\n"},
		{[]string{"assembly", "verify", "fifo"}, "blueprint-ls assembly verify: read fifo: not a regular file: it is a named pipe (FIFO)\n"},
	}
	for _, tt := range tests {
		code, _, errs := runArgs(tt.args...)
		if code != exitUsage || errs != tt.want {
			t.Errorf("%v: exit %d, stderr (-want +got):\n%s", tt.args, code, cmp.Diff(tt.want, errs))
		}
	}
}

// TestFmtWriteFailureKeepsTheFile formats a file while the process may
// write at most 500 bytes per file (RLIMIT_FSIZE): the write fails part
// way and the original must be whole, with no temporary file left.
func TestFmtWriteFailureKeepsTheFile(t *testing.T) {
	if path := os.Getenv("BLS_FSIZE_CHILD"); path != "" {
		syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: 500, Max: 500})
		code, _, errs := runArgs("fmt", "-w", path)
		os.Stderr.WriteString(errs)
		os.Exit(code)
	}
	messy := strings.Repeat(messyYAML[:len(messyYAML)-1]+"\n", 1)
	for i := 0; len(messy) < 1262; i++ {
		messy += "# padding line " + strings.Repeat("x", 40) + "    \n"
	}
	dir := writeFiles(t, map[string]string{"a.blueprint.yaml": messy})
	path := filepath.Join(dir, "a.blueprint.yaml")
	os.Chmod(path, 0o640)
	cmd := exec.Command(os.Args[0], "-test.run", "^TestFmtWriteFailureKeepsTheFile$")
	cmd.Env = append(os.Environ(), "BLS_FSIZE_CHILD="+path)
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("fmt -w under a 500-byte file size limit succeeded: %s", out)
	}
	if !strings.Contains(string(out), "a.blueprint.yaml: writing the formatted text: write ") || !strings.Contains(string(out), "file too large (the file is unchanged)") {
		t.Errorf("message: %s", out)
	}
	if b, _ := os.ReadFile(path); string(b) != messy {
		t.Errorf("the file was changed: %d bytes left of %d", len(b), len(messy))
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
	// Without the limit it is written whole, keeping its mode.
	if code, _, errs := runArgs("fmt", "-w", path); code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want 0640", st.Mode().Perm())
	}
}

// TestHostileNesting: trim() nested 32,000 deep (200 KB) took plan 46 s;
// past subst.MaxDepth the substitution is one error, at once.
func TestHostileNesting(t *testing.T) {
	n := 32_000
	expr := "${" + strings.Repeat("trim(", n) + `"a"` + strings.Repeat(")", n) + "}"
	dir := writeFiles(t, map[string]string{"a.blueprint.yaml": "version: 2023-04-20\nresources:\n  q:\n    type: aws/sqs/queue\n    spec:\n      queueName: " + expr + "\n"})
	path := filepath.Join(dir, "a.blueprint.yaml")
	want := path + ":6:1020: error[subst-too-deep]: the expression is nested more than 200 levels deep; the rest of the substitution is not read\n"
	for _, args := range [][]string{{"plan", path}, {"check", "--no-summary", "--color", "never", path}} {
		code, out, errs := runArgs(args...)
		if code != exitProblems || out+errs != want {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", args[0], code, out, errs)
		}
	}
	code, out, errs := runArgs("eval", expr)
	if code != exitProblems || errs != "<template>:1:1003: error[subst-too-deep]: the expression is nested more than 200 levels deep; the rest of the substitution is not read\n" {
		t.Errorf("eval: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

// TestSecretsInCommands: the three leaks of issue 22 through the commands
// a CI log shows: a function error quoting its secret argument (plan and
// eval), and the deployed value of a field that is secret now.
func TestSecretsInCommands(t *testing.T) {
	secretQueue := func(queueName string) string {
		return "version: 2023-04-20\nvariables:\n  pw:\n    type: string\n    secret: true\n    default: HUNTER2SECRETPW\n" +
			"resources:\n  q:\n    type: aws/sqs/queue\n    spec:\n      queueName: " + queueName + "\n"
	}
	dir := writeFiles(t, map[string]string{
		"a.blueprint.yaml":   secretQueue("q-${variables.pw}"),
		"bad.blueprint.yaml": secretQueue("${cidrsubnet(variables.pw, 4, 1)}"),
		"state.json":         `{"resources": {"q": {"type": "aws/sqs/queue", "spec": {"queueName": "q-OLDHUNTER2"}}}}`,
	})
	inDir(t, dir)
	tests := []struct {
		args           []string
		code           int
		stdout, stderr string
	}{
		{[]string{"plan", "--state", "state.json", "a.blueprint.yaml"}, 0, "~ queueName: (sensitive) -> (sensitive)", ""},
		{[]string{"plan", "--format", "json", "--state", "state.json", "a.blueprint.yaml"}, 0, `"before": {`, ""},
		{[]string{"plan", "bad.blueprint.yaml"}, 1, "", "bad.blueprint.yaml:11:31: error[eval-runtime-error]: cidrsubnet: argument 1: (sensitive) is not a CIDR block such as 10.0.0.0/16; the argument is sensitive, so the message says no more\n"},
		{[]string{"eval", "--blueprint", "bad.blueprint.yaml", "${cidrsubnet(variables.pw, 4, 1)}"}, 1, "", "<template>:1:14: error[eval-runtime-error]: cidrsubnet: argument 1: (sensitive) is not a CIDR block such as 10.0.0.0/16; the argument is sensitive, so the message says no more\n"},
	}
	for _, tt := range tests {
		code, out, errs := runArgs(tt.args...)
		if code != tt.code || !strings.Contains(out, tt.stdout) || tt.stderr != "" && !strings.HasPrefix(errs, tt.stderr) {
			t.Errorf("%v: exit %d\nstdout %s\nstderr %s", tt.args, code, out, errs)
		}
		if strings.Contains(out+errs, "HUNTER2") {
			t.Errorf("%v: the secret is printed:\n%s%s", tt.args, out, errs)
		}
	}
}

// TestHostileGrowth: text that grows past the value budgets fails with a
// clear error instead of asking for gigabytes (nested replace() of 300
// bytes, values that double each other forty times).
func TestHostileGrowth(t *testing.T) {
	var b strings.Builder
	b.WriteString("version: 2023-04-20\nvalues:\n  v0:\n    type: string\n    value: " + strings.Repeat("a", 100) + "\n")
	for i := 1; i < 40; i++ {
		fmt.Fprintf(&b, "  v%d:\n    type: string\n    value: ${values.v%d}${values.v%d}\n", i, i-1, i-1)
	}
	b.WriteString("resources:\n  q:\n    type: aws/sqs/queue\n    spec:\n      queueName: ${values.v39}\n")
	dir := writeFiles(t, map[string]string{"a.blueprint.yaml": b.String()})
	inDir(t, dir)
	code, _, errs := runArgs("plan", "a.blueprint.yaml")
	want := "a.blueprint.yaml:65:27: error[eval-runtime-error]: values.v19 can not be interpolated into a string: the string would be larger than 64 MiB\n"
	if code != exitProblems || !strings.HasPrefix(errs, want) {
		t.Errorf("plan: exit %d, stderr (want first line %q):\n%.600s", code, want, errs)
	}
	r := `"aaaaaaaaaa"`
	for range 9 {
		r = `replace(` + r + `, "", "aaaaaaaaaa")`
	}
	code, _, errs = runArgs("eval", "${"+r+"}")
	want = "<template>:1:19: error[eval-runtime-error]: replace: the result would be larger than the text budget (at most 64 MiB of text or 1048576 items per value)\n"
	if code != exitProblems || errs != want {
		t.Errorf("eval: exit %d, stderr %q, want %q", code, errs, want)
	}
}

// TestFmtExplicitSymlink: a file named on the command line that is a
// symbolic link is formatted through to its target only inside the
// project.
func TestFmtExplicitSymlink(t *testing.T) {
	proj := hostileProject(t, map[string]string{".blueprint-ls.yaml": "", "real.blueprint.yaml": messyYAML})
	outside := filepath.Join(filepath.Dir(proj), "elsewhere", "x.blueprint.yaml")
	if err := os.WriteFile(outside, []byte(messyYAML), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]string{"in.blueprint.yaml": "real.blueprint.yaml", "out.blueprint.yaml": outside} {
		if err := os.Symlink(target, filepath.Join(proj, name)); err != nil {
			t.Fatal(err)
		}
	}
	inDir(t, proj)
	if code, _, errs := runArgs("fmt", "-w", "in.blueprint.yaml"); code != exitOK {
		t.Errorf("inside: exit %d: %s", code, errs)
	}
	if b, _ := os.ReadFile("real.blueprint.yaml"); string(b) != tidyYAML {
		t.Errorf("the target inside was not formatted:\n%s", b)
	}
	if st, _ := os.Lstat("in.blueprint.yaml"); st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced by a file")
	}
	code, _, errs := runArgs("fmt", "-w", "out.blueprint.yaml")
	if want := "out.blueprint.yaml is a symbolic link leading outside its project: not written\n"; code != exitUsage || errs != want {
		t.Errorf("outside: exit %d, stderr %q, want %q", code, errs, want)
	}
	if b, _ := os.ReadFile(outside); string(b) != messyYAML {
		t.Errorf("the file outside was rewritten")
	}
}
