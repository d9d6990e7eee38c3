package project

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/internal/safefs"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// RootDir returns the project root that the files of dir are confined to
// (docs/security.md): the directory of the governing config c, else the
// nearest directory at or above dir holding .git, else fallback (the
// editor's workspace folder, the CLI's working directory).
func RootDir(c *Config, dir, fallback string) string {
	if c != nil && c.Dir != "" {
		return c.Dir
	}
	if abs, err := filepath.Abs(dir); err == nil {
		for d := abs; ; {
			if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
				return d
			}
			parent := filepath.Dir(d)
			if parent == d {
				break
			}
			d = parent
		}
	}
	return fallback
}

// ProjectRoots returns the roots the files of dir may read below: the
// project root (RootDir) and the config's extra roots.
func ProjectRoots(c *Config, dir, fallback string) *safefs.Roots {
	dirs := []string{RootDir(c, dir, fallback)}
	if c != nil {
		dirs = append(dirs, c.Roots...)
	}
	return safefs.NewRoots(dirs...)
}

// confineProviders drops and reports provider directories that leave
// the project (the config's directory and its extra roots).
func (p *configParser) confineProviders(root syntax.Node) {
	m, _ := root.(*syntax.Mapping)
	if m == nil || len(p.cfg.Providers) == 0 {
		return
	}
	seq, _ := m.Get("providers").(*syntax.Sequence)
	if seq == nil {
		return
	}
	roots := safefs.NewRoots(append([]string{p.cfg.Dir}, p.cfg.Roots...)...)
	var kept []string
	for _, it := range seq.Items {
		s, ok := it.(*syntax.Scalar)
		if !ok || s.Value == "" {
			continue // reported by stringList
		}
		dir := p.abspaths([]string{s.Value})[0]
		if err := roots.Check(dir); errors.Is(err, safefs.ErrOutside) {
			p.fail(s.Range(), "providers: %s is outside the project root %s (list extra directories under roots)", s.Value, p.cfg.Dir)
			continue
		}
		kept = append(kept, dir)
	}
	p.cfg.Providers = kept
}

// limits reads the per-file size budgets: documentSize and schemaSize,
// in bytes or with a KiB, MiB or GiB suffix.
func (p *configParser) limits(n syntax.Node) {
	if isNull(n) {
		return
	}
	m, ok := n.(*syntax.Mapping)
	if !ok {
		p.fail(n.Range(), "limits must be a mapping (known: documentSize, schemaSize)")
		return
	}
	for _, e := range m.Entries {
		var dst *int64
		switch e.Key.Value {
		case "documentSize":
			dst = &p.cfg.Limits.Document
		case "schemaSize":
			dst = &p.cfg.Limits.Schema
		default:
			p.fail(e.Key.Range(), "unknown field %q in limits (known: documentSize, schemaSize)", e.Key.Value)
			continue
		}
		s, _ := e.Value.(*syntax.Scalar)
		v, err := int64(0), errors.New("not a scalar")
		if s != nil {
			v, err = ParseSize(s.Value)
		}
		if err != nil {
			p.fail(e.Value.Range(), "limits.%s must be a positive size such as 16MiB or 1048576", e.Key.Value)
			continue
		}
		*dst = v
	}
}

// ParseSize reads a byte count: digits with an optional KiB, MiB or GiB
// suffix.
func ParseSize(s string) (int64, error) {
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}} {
		if t, ok := strings.CutSuffix(s, u.suffix); ok {
			s, mult = strings.TrimSpace(t), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 || n > math.MaxInt64/mult {
		return 0, fmt.Errorf("bad size %q", s)
	}
	return n * mult, nil
}
