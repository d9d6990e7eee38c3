package safefs

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
)

// ErrOutside marks a path that leaves the project: lexically or through a
// symbolic link.
var ErrOutside = errors.New("outside the project")

// Roots is the set of directories a project may read below: the project
// root and any extra roots its config allows. Paths are compared after
// resolving symbolic links. A nil *Roots confines nothing (library use and
// tests that name no project).
type Roots struct {
	dirs []string // absolute, as given (messages name these)
	real []string // the same with symbolic links resolved
}

// NewRoots returns the roots dirs (relative ones against the working
// directory). A directory that can not be resolved still confines
// lexically.
func NewRoots(dirs ...string) *Roots {
	r := &Roots{}
	for _, d := range dirs {
		if d == "" {
			continue
		}
		abs, err := filepath.Abs(d)
		if err != nil {
			continue
		}
		real, err := filepath.EvalSymlinks(abs)
		if err != nil {
			real = abs
		}
		r.dirs = append(r.dirs, abs)
		r.real = append(r.real, real)
	}
	return r
}

// Primary returns the project root (the first directory), or "".
func (r *Roots) Primary() string {
	if r == nil || len(r.dirs) == 0 {
		return ""
	}
	return r.dirs[0]
}

// Check returns nil when path, with every symbolic link resolved, lies
// inside one of the roots. A path that does not exist yet is judged by its
// nearest existing parent. The error wraps ErrOutside and names the root.
func (r *Roots) Check(path string) error {
	if r == nil || len(r.dirs) == 0 {
		return nil
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	real, err := resolve(abs)
	if err != nil {
		return err
	}
	for _, root := range r.real {
		if Within(root, real) {
			return nil
		}
	}
	lexical := false
	for _, root := range r.dirs {
		lexical = lexical || Within(root, abs)
	}
	how := ""
	if lexical {
		how = " through a symbolic link"
	}
	return &fs.PathError{Op: "read", Path: path, Err: fmt.Errorf("%w: it leads outside the project root %s%s", ErrOutside, r.dirs[0], how)}
}

// ReadFile is ReadFile after Check.
func (r *Roots) ReadFile(path string, limit int64) ([]byte, error) {
	if err := r.Check(path); err != nil {
		return nil, err
	}
	return ReadFile(path, limit)
}

// resolve evaluates the symbolic links of abs; for a path that does not
// exist, those of its nearest existing parent, with the rest appended.
func resolve(abs string) (string, error) {
	rest := ""
	p := abs
	for {
		real, err := filepath.EvalSymlinks(p)
		if err == nil {
			return filepath.Join(real, rest), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		parent := filepath.Dir(p)
		if parent == p {
			return abs, nil
		}
		rest = filepath.Join(filepath.Base(p), rest)
		p = parent
	}
}

// Within reports whether p is root or below it (both absolute and clean).
func Within(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	if err != nil {
		return false
	}
	return rel == "." || (rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel))
}
