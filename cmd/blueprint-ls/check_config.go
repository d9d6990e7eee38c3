package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// configName is the project config file discovered upward from each
// checked file (docs/cli.md, "Project config").
const configName = ".blueprint-ls.yaml"

// severityOff in a config's severity table drops a code altogether.
const severityOff source.Severity = 0

// projectConfig is a parsed .blueprint-ls.yaml. Paths in it are relative to
// the directory holding it and are stored absolute.
type projectConfig struct {
	Path        string                     // the file read; "" for the empty config
	Dir         string                     // its directory, the base of relative paths and ignore globs
	Providers   []string                   // provider directories, absolute
	Severity    map[string]source.Severity // per-code overrides; severityOff drops the code
	Ignore      []string                   // globs, matched against paths relative to Dir
	StrictTypes bool
	VarsFiles   []string // inputs.vars: variable files for eval and plan, absolute
}

// configError is a problem in a config file, at its exact position.
type configError struct {
	path      string
	line, col int
	msg       string
}

func (e *configError) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.path, e.line, e.col, e.msg)
}

// loadConfig reads and validates one config file. A mistake in it is an
// error: a CI run must not silently check with half a config.
func loadConfig(path string) (*projectConfig, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	content, err := os.ReadFile(abs)
	if err != nil {
		return nil, err
	}
	return parseConfig(abs, content)
}

// parseConfig reads the config tree with the position-exact parser so every
// mistake is reported at its place.
func parseConfig(abs string, content []byte) (*projectConfig, error) {
	f := schema.Parse(abs, content)
	fail := func(r source.Range, format string, args ...any) error {
		line, col := f.Mapper.LineCol(r.Start, outputEncoding)
		return &configError{path: abs, line: line, col: col, msg: fmt.Sprintf(format, args...)}
	}
	for _, d := range f.Diagnostics {
		if d.Severity == source.Error {
			return nil, fail(d.Range, "%s", d.Message)
		}
	}
	cfg := &projectConfig{Path: abs, Dir: filepath.Dir(abs), Severity: map[string]source.Severity{}}
	if f.Root == nil {
		return cfg, nil // an empty file is an empty config
	}
	if isNull(f.Root) {
		return cfg, nil
	}
	root, ok := f.Root.(*schema.Mapping)
	if !ok {
		return nil, fail(f.Root.Range(), "the config must be a mapping")
	}
	stringList := func(n schema.Node, what string) ([]string, error) {
		if isNull(n) {
			return nil, nil
		}
		seq, ok := n.(*schema.Sequence)
		if !ok {
			return nil, fail(n.Range(), "%s must be a list of strings", what)
		}
		var out []string
		for _, it := range seq.Items {
			s, ok := it.(*schema.Scalar)
			if !ok || s.Value == "" {
				return nil, fail(it.Range(), "%s must be a list of non-empty strings", what)
			}
			out = append(out, s.Value)
		}
		return out, nil
	}
	abspaths := func(ps []string) []string {
		for i, p := range ps {
			if !filepath.IsAbs(p) {
				ps[i] = filepath.Join(cfg.Dir, filepath.FromSlash(p))
			}
		}
		return ps
	}
	for _, e := range root.Entries {
		var err error
		switch e.Key.Value {
		case "providers":
			cfg.Providers, err = stringList(e.Value, "providers")
			cfg.Providers = abspaths(cfg.Providers)
		case "ignore":
			cfg.Ignore, err = stringList(e.Value, "ignore")
			for _, g := range cfg.Ignore {
				if !validGlob(g) {
					return nil, fail(e.Value.Range(), "ignore: bad glob %q", g)
				}
			}
		case "strictTypes":
			s, ok := e.Value.(*schema.Scalar)
			if !ok || (s.Value != "true" && s.Value != "false") {
				return nil, fail(e.Value.Range(), "strictTypes must be true or false")
			}
			cfg.StrictTypes = s.Value == "true"
		case "severity":
			err = parseSeverities(e.Value, cfg.Severity, fail)
		case "inputs":
			m, ok := e.Value.(*schema.Mapping)
			if !ok {
				return nil, fail(e.Value.Range(), "inputs must be a mapping")
			}
			for _, ie := range m.Entries {
				if ie.Key.Value != "vars" {
					return nil, fail(ie.Key.Range(), "unknown field %q in inputs (known: vars)", ie.Key.Value)
				}
				cfg.VarsFiles, err = stringList(ie.Value, "inputs.vars")
				cfg.VarsFiles = abspaths(cfg.VarsFiles)
			}
		default:
			return nil, fail(e.Key.Range(), "unknown field %q (known: providers, severity, ignore, strictTypes, inputs)", e.Key.Value)
		}
		if err != nil {
			return nil, err
		}
	}
	return cfg, nil
}

func parseSeverities(n schema.Node, into map[string]source.Severity, fail func(source.Range, string, ...any) error) error {
	if isNull(n) {
		return nil
	}
	m, ok := n.(*schema.Mapping)
	if !ok {
		return fail(n.Range(), "severity must be a mapping from diagnostic code to error, warning, information, hint or off")
	}
	for _, e := range m.Entries {
		code := e.Key.Value
		if _, known := source.LookupCode(code); !known {
			msg := fmt.Sprintf("severity: unknown diagnostic code %q", code)
			if s := source.Closest(code, codeIDs()); len(s) > 0 {
				msg += fmt.Sprintf("; did you mean %q?", s[0])
			}
			return fail(e.Key.Range(), "%s", msg)
		}
		s, _ := e.Value.(*schema.Scalar)
		if s == nil {
			return fail(e.Value.Range(), "severity of %s must be error, warning, information, hint or off", code)
		}
		if s.Value == "off" || s.Value == "false" { // YAML 1.1 habits write off unquoted
			into[code] = severityOff
			continue
		}
		sev, ok := source.ParseSeverity(s.Value)
		if !ok {
			return fail(s.Range(), "severity of %s must be error, warning, information, hint or off, not %q", code, s.Value)
		}
		into[code] = sev
	}
	return nil
}

func isNull(n schema.Node) bool {
	s, ok := n.(*schema.Scalar)
	return n == nil || ok && s.Tag == schema.NullTag
}

func codeIDs() []string {
	var ids []string
	for _, c := range source.Codes() {
		ids = append(ids, c.ID)
	}
	return ids
}

// configFinder discovers the nearest .blueprint-ls.yaml above a file,
// caching per directory so a monorepo walks each directory once.
type configFinder struct {
	mu    sync.Mutex
	byDir map[string]*projectConfig
	empty *projectConfig
}

func newConfigFinder() *configFinder {
	return &configFinder{byDir: map[string]*projectConfig{}, empty: &projectConfig{Severity: map[string]source.Severity{}}}
}

// find returns the config governing file: the nearest config file in its
// directory or any parent, or the empty config when there is none.
func (cf *configFinder) find(file string) (*projectConfig, error) {
	abs, err := filepath.Abs(file)
	if err != nil {
		return nil, err
	}
	return cf.inDir(filepath.Dir(abs))
}

func (cf *configFinder) inDir(dir string) (*projectConfig, error) {
	cf.mu.Lock()
	c, ok := cf.byDir[dir]
	cf.mu.Unlock()
	if ok {
		return c, nil
	}
	p := filepath.Join(dir, configName)
	if _, err := os.Stat(p); err == nil {
		c, err = loadConfig(p)
		if err != nil {
			return nil, err
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	} else if parent := filepath.Dir(dir); parent != dir {
		if c, err = cf.inDir(parent); err != nil {
			return nil, err
		}
	} else {
		c = cf.empty
	}
	cf.mu.Lock()
	cf.byDir[dir] = c
	cf.mu.Unlock()
	return c, nil
}

// providerKey identifies a list of provider directories (in load order:
// later ones override earlier ones), so files sharing one list share a
// registry and a child loader.
func providerKey(dirs []string) string { return strings.Join(dirs, "\x00") }
