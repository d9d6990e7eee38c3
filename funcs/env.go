package funcs

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"time"

	"github.com/blueprint-ls/blueprint-ls/internal/safefs"
)

// Env is everything the environment-dependent functions (file,
// http_resource, cwd, uuid, datetime, link) may touch. Evaluation injects
// it so results are reproducible in tests and safe in the editor.
type Env interface {
	// ReadFile returns the contents of a file named by file().
	ReadFile(ctx context.Context, path string) ([]byte, error)
	// HTTPResource fetches a URL named by http_resource().
	HTTPResource(ctx context.Context, url string) ([]byte, error)
	// Cwd returns the working directory cwd() reports.
	Cwd() (string, error)
	// Now returns the current time for datetime().
	Now() time.Time
	// UUID returns a fresh version 4 UUID.
	UUID() (string, error)
	// Link returns what is known about the link between two resources,
	// usually an unknown value before deployment.
	Link(ctx context.Context, a, b string) (Value, error)
}

// ErrNetworkOff is returned by http_resource when the environment does not
// allow network access (the default).
var ErrNetworkOff = errors.New("not evaluated: network access is off")

// maxFileSize bounds what file() reads.
const maxFileSize = 64 << 20

// LocalEnv reads files below Root and takes time, UUIDs and the working
// directory from its fields. The network is off unless Fetch is set.
type LocalEnv struct {
	Root    string                                                // file() reads only inside this directory
	WorkDir string                                                // what cwd() returns
	Clock   func() time.Time                                      // nil: time.Now
	NewUUID func() (string, error)                                // nil: a random version 4 UUID
	Fetch   func(ctx context.Context, url string) ([]byte, error) // nil: network access is off
}

// DefaultEnv returns a LocalEnv rooted at root, with the real clock, random
// UUIDs, the process's working directory and no network access.
func DefaultEnv(root string) *LocalEnv {
	wd, _ := os.Getwd()
	return &LocalEnv{Root: root, WorkDir: wd}
}

var uriScheme = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*://`)

// ReadFile implements Env. Paths are relative to Root; a path that leaves
// Root, lexically or through a symbolic link, is refused.
func (e *LocalEnv) ReadFile(ctx context.Context, path string) ([]byte, error) {
	if m := uriScheme.FindString(path); m != "" {
		return nil, fmt.Errorf("remote file sources (%s) are not supported; only local paths are read", m)
	}
	if e.Root == "" {
		return nil, errors.New("file access is off: no root directory is configured")
	}
	root, err := filepath.Abs(e.Root)
	if err != nil {
		return nil, err
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, fmt.Errorf("root directory: %w", err)
	}
	p := path
	if !filepath.IsAbs(p) {
		p = filepath.Join(root, p)
	}
	p = filepath.Clean(p)
	if !safefs.Within(root, p) && !safefs.Within(realRoot, p) {
		return nil, fmt.Errorf("path %q is outside the blueprint directory", path)
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("file %q does not exist", path)
		}
		return nil, err
	}
	if !safefs.Within(realRoot, real) {
		return nil, fmt.Errorf("path %q leads outside the blueprint directory through a symbolic link", path)
	}
	b, err := safefs.ReadFile(real, maxFileSize)
	switch {
	case errors.Is(err, safefs.ErrNotRegular):
		return nil, fmt.Errorf("%q is not a regular file", path)
	case errors.Is(err, safefs.ErrTooLarge):
		return nil, fmt.Errorf("file %q is larger than %d MiB", path, maxFileSize>>20)
	}
	return b, err
}

// HTTPResource implements Env: ErrNetworkOff unless Fetch is set.
func (e *LocalEnv) HTTPResource(ctx context.Context, url string) ([]byte, error) {
	if e.Fetch == nil {
		return nil, ErrNetworkOff
	}
	return e.Fetch(ctx, url)
}

// Cwd implements Env.
func (e *LocalEnv) Cwd() (string, error) {
	if e.WorkDir == "" {
		return "", errors.New("no working directory is configured")
	}
	return e.WorkDir, nil
}

// Now implements Env.
func (e *LocalEnv) Now() time.Time {
	if e.Clock != nil {
		return e.Clock()
	}
	return time.Now()
}

// UUID implements Env.
func (e *LocalEnv) UUID() (string, error) {
	if e.NewUUID != nil {
		return e.NewUUID()
	}
	return RandomUUID()
}

// Link implements Env: links are only known after deployment.
func (e *LocalEnv) Link(ctx context.Context, a, b string) (Value, error) {
	return Unknown(fmt.Sprintf("link(%s, %s)", a, b)), nil
}

// RandomUUID returns a random (version 4, variant 10) UUID.
func RandomUUID() (string, error) {
	var u [16]byte
	if _, err := rand.Read(u[:]); err != nil {
		return "", err
	}
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", u[0:4], u[4:6], u[6:8], u[8:10], u[10:16]), nil
}

// TestEnv is a deterministic Env for tests and the editor's previews:
// files come from a map, the clock and UUIDs are fixed, the network is off
// unless HTTP has an entry.
type TestEnv struct {
	Files   map[string][]byte
	HTTP    map[string][]byte // nil: network access is off
	Time    time.Time         // zero: 2023-01-02T15:04:05Z
	UUIDs   []string          // handed out in turn; empty: a fixed UUID
	WorkDir string            // empty: /work
	Links   map[[2]string]Value

	next int
}

// ReadFile implements Env.
func (e *TestEnv) ReadFile(ctx context.Context, path string) ([]byte, error) {
	if b, ok := e.Files[path]; ok {
		return b, nil
	}
	return nil, fmt.Errorf("file %q does not exist", path)
}

// HTTPResource implements Env.
func (e *TestEnv) HTTPResource(ctx context.Context, url string) ([]byte, error) {
	if e.HTTP == nil {
		return nil, ErrNetworkOff
	}
	if b, ok := e.HTTP[url]; ok {
		return b, nil
	}
	return nil, fmt.Errorf("GET %s: 404 not found", url)
}

// Cwd implements Env.
func (e *TestEnv) Cwd() (string, error) {
	if e.WorkDir == "" {
		return "/work", nil
	}
	return e.WorkDir, nil
}

// Now implements Env.
func (e *TestEnv) Now() time.Time {
	if e.Time.IsZero() {
		return time.Date(2023, 1, 2, 15, 4, 5, 0, time.UTC)
	}
	return e.Time
}

// UUID implements Env.
func (e *TestEnv) UUID() (string, error) {
	if len(e.UUIDs) == 0 {
		return "123e4567-e89b-42d3-a456-426614174000", nil
	}
	u := e.UUIDs[e.next%len(e.UUIDs)]
	e.next++
	return u, nil
}

// Link implements Env.
func (e *TestEnv) Link(ctx context.Context, a, b string) (Value, error) {
	if v, ok := e.Links[[2]string{a, b}]; ok {
		return v, nil
	}
	return Unknown(fmt.Sprintf("link(%s, %s)", a, b)), nil
}
