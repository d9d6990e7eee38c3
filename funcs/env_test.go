package funcs

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestLocalEnvFile(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "bp")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(root, "certs"), 0o755))
	must(os.WriteFile(filepath.Join(root, "certs", "server.pem"), []byte("PEM"), 0o644))
	must(os.WriteFile(filepath.Join(dir, "secret.txt"), []byte("secret"), 0o644))
	must(os.Symlink(filepath.Join(dir, "secret.txt"), filepath.Join(root, "escape.txt")))
	must(os.Symlink(filepath.Join(root, "certs", "server.pem"), filepath.Join(root, "inside.pem")))

	env := DefaultEnv(root)
	c := NewCtx(context.Background(), Core(), env)
	for _, tc := range []struct {
		path, want, err string
	}{
		{path: "certs/server.pem", want: "PEM"},
		{path: "./certs/../certs/server.pem", want: "PEM"},
		{path: "inside.pem", want: "PEM"},
		{path: filepath.Join(root, "certs", "server.pem"), want: "PEM"},
		{path: "../secret.txt", err: "outside the blueprint directory"},
		{path: filepath.Join(dir, "secret.txt"), err: "outside the blueprint directory"},
		{path: "escape.txt", err: "through a symbolic link"},
		{path: "missing.txt", err: `file "missing.txt" does not exist`},
		{path: "certs", err: "not a regular file"},
		{path: "s3://my-bucket/certificates/server.pem", err: "remote file sources (s3://) are not supported"},
	} {
		v, err := c.Call("file", []Value{String(tc.path)}, nil)
		if tc.err != "" {
			var re *RuntimeError
			if err == nil || !strings.Contains(err.Error(), tc.err) || !errors.As(err, &re) || re.Arg != 1 {
				t.Errorf("file(%q) err = %v, want %q on argument 1", tc.path, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("file(%q): %v", tc.path, err)
			continue
		}
		if b, _ := v.Bytes(); string(b) != tc.want || v.Kind() != KindBinary {
			t.Errorf("file(%q) = %v %q", tc.path, v.Kind(), b)
		}
	}
	if _, err := (&LocalEnv{}).ReadFile(context.Background(), "x"); err == nil || !strings.Contains(err.Error(), "file access is off") {
		t.Errorf("no root: %v", err)
	}
}

func TestHTTPResourceOffByDefault(t *testing.T) {
	for _, env := range []Env{DefaultEnv(t.TempDir()), &TestEnv{}} {
		c := NewCtx(context.Background(), Core(), env)
		_, err := c.Call("http_resource", []Value{String("https://example.com/app.json")}, nil)
		if err == nil || !errors.Is(err, ErrNetworkOff) || !strings.Contains(err.Error(), "not evaluated: network access is off") {
			t.Errorf("%T: err = %v", env, err)
		}
	}
	fetched := ""
	env := DefaultEnv("")
	env.Fetch = func(ctx context.Context, url string) ([]byte, error) { fetched = url; return []byte("body"), nil }
	c := NewCtx(context.Background(), Core(), env)
	v, err := c.Call("http_resource", []Value{String("https://example.com/x")}, nil)
	if b, _ := v.Bytes(); err != nil || string(b) != "body" || fetched != "https://example.com/x" {
		t.Errorf("with Fetch: %q %v", b, err)
	}
	if _, err := c.Call("http_resource", []Value{String("ftp://x")}, nil); err == nil || !strings.Contains(err.Error(), "not an http:// or https:// URL") {
		t.Errorf("ftp: %v", err)
	}
}

func TestEnvDependentFunctions(t *testing.T) {
	env := &TestEnv{
		Time:    time.Date(2021, 1, 22, 10, 40, 0, 0, time.FixedZone("X", 3600)),
		UUIDs:   []string{"u1", "u2"},
		WorkDir: "/home/me",
		Files:   map[string][]byte{"config.json": []byte(`{"a":1}`)},
	}
	c := NewCtx(context.Background(), Core(), env)
	call := func(name string, args ...Value) string {
		t.Helper()
		v, err := c.Call(name, args, nil)
		if err != nil {
			return "error: " + err.Error()
		}
		return jsonOf(t, v)
	}
	for _, tc := range []struct{ got, want string }{
		{call("datetime", String("unix")), `"1611308400"`},
		{call("datetime", String("rfc3339")), `"2021-01-22T09:40:00Z"`},
		{call("datetime", String("tag")), `"2021-01-22--09-40-00"`},
		{call("datetime", String("tagcompact")), `"20210122094000"`},
		{call("datetime", String("iso")), `error: datetime: argument 1: unknown format "iso": use one of unix, rfc3339, tag, tagcompact`},
		{call("uuid"), `"u1"`},
		{call("uuid"), `"u2"`},
		{call("cwd"), `"/home/me"`},
		{call("utf8", lit(t, "base64decode", "eyJhIjoxfQ==")), `"{\"a\":1}"`},
		{call("md5", mustCall(t, c, "file", String("config.json"))), `"bb6cb5c68df4652941caf652a366f2d8"`},
	} {
		if tc.got != tc.want {
			t.Errorf("got %s, want %s", tc.got, tc.want)
		}
	}
	// The default test env: 2023-01-02T15:04:05Z as in the spec's examples.
	c = newTestCtx(nil)
	if v := mustCall(t, c, "datetime", String("tag")); jsonOf(t, v) != `"2023-01-02--15-04-05"` {
		t.Errorf("default tag = %s", jsonOf(t, v))
	}
	if v := mustCall(t, c, "datetime", String("unix")); jsonOf(t, v) != `"1672671845"` {
		t.Errorf("default unix = %s", jsonOf(t, v))
	}
	u, err := RandomUUID()
	if err != nil || len(u) != 36 || u[14] != '4' || !strings.ContainsRune("89ab", rune(u[19])) {
		t.Errorf("RandomUUID = %q, %v", u, err)
	}
}

func mustCall(t testing.TB, c *Ctx, name string, args ...Value) Value {
	t.Helper()
	v, err := c.Call(name, args, nil)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return v
}

// TestLocalEnvFileBudget: file() reads at most 64 MiB and only regular
// files (a FIFO would block the evaluation forever).
func TestLocalEnvFileBudget(t *testing.T) {
	root := t.TempDir()
	f, err := os.Create(filepath.Join(root, "big"))
	if err != nil {
		t.Fatal(err)
	}
	f.Truncate(maxFileSize + 1) // sparse: nothing is written
	f.Close()
	if err := syscall.Mkfifo(filepath.Join(root, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := &LocalEnv{Root: root}
	for name, want := range map[string]string{
		"big":  `file "big" is larger than 64 MiB`,
		"fifo": `"fifo" is not a regular file`,
	} {
		if _, err := env.ReadFile(context.Background(), name); err == nil || err.Error() != want {
			t.Errorf("%s: got %v, want %q", name, err, want)
		}
	}
}
