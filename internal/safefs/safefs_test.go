package safefs

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"testing/iotest"
)

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	sparse := filepath.Join(dir, "sparse")
	if f, err := os.Create(sparse); err != nil {
		t.Fatal(err)
	} else {
		f.Truncate(10 << 30) // 10 GiB of nothing: the budget refuses it from the size
		f.Close()
	}
	link := filepath.Join(dir, "zero.blueprint.yaml")
	if err := os.Symlink("/dev/zero", link); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path string
		limit      int64
		want       string // the error, "" for success
		is         error
	}{
		{"small file", write("a", "hello"), 5, "", nil},
		{"one byte over", write("b", "hello!"), 5, "read " + dir + "/b: larger than the size limit of 5 bytes", ErrTooLarge},
		{"/dev/zero", "/dev/zero", 1 << 20, "read /dev/zero: not a regular file: it is a device", ErrNotRegular},
		{"symlink to /dev/zero", link, 1 << 20, "read " + link + ": not a regular file: it is a device", ErrNotRegular},
		{"a FIFO is never opened", fifo, 1 << 20, "read " + fifo + ": not a regular file: it is a named pipe (FIFO)", ErrNotRegular},
		{"a directory", dir, 1 << 20, "read " + dir + ": not a regular file: it is a directory", ErrNotRegular},
		{"10 GiB sparse file", sparse, 8 << 20, "read " + sparse + ": larger than the size limit of 8 MiB", ErrTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := ReadFile(tt.path, tt.limit)
			if tt.want == "" {
				if err != nil || int64(len(b)) > tt.limit {
					t.Fatalf("got %d bytes, %v", len(b), err)
				}
				return
			}
			if err == nil || err.Error() != tt.want || !errors.Is(err, tt.is) {
				t.Fatalf("got %v, want %q", err, tt.want)
			}
		})
	}
}

// TestReadAllStopsAtTheBudget reads an endless stream: the read stops one
// byte past the budget.
func TestReadAllStopsAtTheBudget(t *testing.T) {
	zero, err := os.Open("/dev/zero")
	if err != nil {
		t.Skip(err)
	}
	defer zero.Close()
	_, err = ReadAll(zero, "stdin", 1<<20)
	if err == nil || err.Error() != "read stdin: larger than the size limit of 1 MiB" {
		t.Fatalf("got %v", err)
	}
	b, err := ReadAll(iotest.OneByteReader(strings.NewReader("abc")), "x", 3)
	if err != nil || string(b) != "abc" {
		t.Fatalf("got %q, %v", b, err)
	}
}

func TestRootsCheck(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "project")
	outside := filepath.Join(base, "elsewhere")
	for _, d := range []string{filepath.Join(root, "sub"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(outside, "creds"), []byte("x"), 0o644)
	os.Symlink(outside, filepath.Join(root, "linked"))
	os.Symlink(filepath.Join(root, "sub"), filepath.Join(root, "inner"))
	r := NewRoots(root)
	tests := []struct{ path, want string }{
		{filepath.Join(root, "sub", "a.yaml"), ""},
		{filepath.Join(root, "inner", "a.yaml"), ""},
		{filepath.Join(root, "missing", "deeper", "a.yaml"), ""},
		{filepath.Join(root, "..", "elsewhere", "creds"), "read " + filepath.Join(root, "..", "elsewhere", "creds") + ": outside the project: it leads outside the project root " + root},
		{"/etc/passwd", "read /etc/passwd: outside the project: it leads outside the project root " + root},
		{filepath.Join(root, "linked", "creds"), "read " + filepath.Join(root, "linked", "creds") + ": outside the project: it leads outside the project root " + root + " through a symbolic link"},
	}
	for _, tt := range tests {
		err := r.Check(tt.path)
		got := ""
		if err != nil {
			got = err.Error()
			if !errors.Is(err, ErrOutside) {
				t.Errorf("%s: %v is not ErrOutside", tt.path, err)
			}
		}
		if got != tt.want {
			t.Errorf("Check(%s) = %q, want %q", tt.path, got, tt.want)
		}
	}
	if err := NewRoots(root, outside).Check(filepath.Join(root, "linked", "creds")); err != nil {
		t.Errorf("an extra root allows it: %v", err)
	}
	var none *Roots
	if err := none.Check("/etc/passwd"); err != nil {
		t.Errorf("nil roots confine nothing: %v", err)
	}
}
