package project

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// Finder discovers and loads the config governing each file, once per
// directory and once per config file, so a monorepo walks each directory
// once and files under one config share one *Config. It is safe for
// concurrent use.
type Finder struct {
	mu     sync.Mutex
	byDir  map[string]string  // directory → governing config file ("" none)
	byPath map[string]*loaded // config file → what it says
	empty  *Config
}

// loaded is one config file's outcome.
type loaded struct {
	cfg   *Config
	diags []source.Diagnostic
	err   error
}

// NewFinder returns an empty Finder.
func NewFinder() *Finder {
	return &Finder{byDir: map[string]string{}, byPath: map[string]*loaded{}, empty: Empty()}
}

// Lookup returns the config governing file (the empty config when there
// is none), the mistakes in that config file, and an error when a
// directory or the config could not be read.
func (f *Finder) Lookup(file string) (*Config, []source.Diagnostic, error) {
	abs, err := filepath.Abs(file)
	if err != nil {
		return nil, nil, err
	}
	p, err := f.inDir(filepath.Dir(abs))
	if err != nil {
		return nil, nil, err
	}
	if p == "" {
		return f.empty, nil, nil
	}
	return f.load(p)
}

// Invalidate forgets everything found so far: a config file was created,
// changed or deleted, which can change the governing config of any
// directory below it.
func (f *Finder) Invalidate() {
	f.mu.Lock()
	defer f.mu.Unlock()
	clear(f.byDir)
	clear(f.byPath)
}

// inDir returns the config file governing dir, remembering the answer for
// dir and every directory walked on the way up.
func (f *Finder) inDir(dir string) (string, error) {
	f.mu.Lock()
	p, ok := f.byDir[dir]
	f.mu.Unlock()
	if ok {
		return p, nil
	}
	cand := filepath.Join(dir, FileName)
	if _, err := os.Stat(cand); err == nil {
		p = cand
	} else if !errors.Is(err, fs.ErrNotExist) {
		return "", err
	} else if parent := filepath.Dir(dir); parent != dir {
		if p, err = f.inDir(parent); err != nil {
			return "", err
		}
	}
	f.mu.Lock()
	f.byDir[dir] = p
	f.mu.Unlock()
	return p, nil
}

func (f *Finder) load(path string) (*Config, []source.Diagnostic, error) {
	f.mu.Lock()
	l, ok := f.byPath[path]
	f.mu.Unlock()
	if !ok {
		l = &loaded{}
		l.cfg, l.diags, l.err = Load(path)
		f.mu.Lock()
		if prev, raced := f.byPath[path]; raced {
			l = prev // one *Config per file, whoever loaded it first
		} else {
			f.byPath[path] = l
		}
		f.mu.Unlock()
	}
	return l.cfg, l.diags, l.err
}

// Find returns the config file governing the files of dir: the nearest
// FileName in dir or any parent directory.
func Find(dir string) (path string, ok bool) {
	for {
		p := filepath.Join(dir, FileName)
		if info, err := os.Stat(p); err == nil && !info.IsDir() {
			return p, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}
