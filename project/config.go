package project

import (
	"fmt"
	"path/filepath"

	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/internal/safefs"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// FileName is the project config file, discovered upward from each file
// (docs/cli.md, "Project config").
const FileName = dialect.ConfigFileName

// Off in a config's severity table drops a code altogether.
const Off source.Severity = 0

// CodeInvalid marks a mistake in a config file: an unknown field or
// diagnostic code, a value of the wrong kind.
var CodeInvalid = source.NewCode("config-invalid", source.Error,
	"A .blueprint-ls.yaml has an unknown field or diagnostic code, or a value of the wrong kind; `check` refuses to run with it.",
	"severity:\n  unused-varible: off\n")

// Config is a parsed .blueprint-ls.yaml. Paths in the file are relative
// to the directory holding it and are stored absolute. A nil *Config is
// the empty config.
type Config struct {
	Path        string                     // the file read; "" for the empty config
	Dir         string                     // its directory, the base of relative paths and ignore globs
	Providers   []string                   // provider directories, absolute
	Severity    map[string]source.Severity // per-code overrides; Off drops the code
	Ignore      []string                   // globs, matched against paths relative to Dir
	StrictTypes bool
	VarsFiles   []string // inputs.vars: variable files for eval and plan, absolute
	Roots       []string // roots: directories besides Dir that includes, providers and file() may read, absolute
	Limits      safefs.Limits
	Rules       *RulesConfig // the rules: section; nil when absent
	// Plugins turns on the Bluelink provider plugins for check (the
	// plugins: key): a repository that relies on them says so here, and
	// CI runs them without a flag.
	Plugins bool

	mapper *source.Mapper
}

// Empty returns a config that changes nothing.
func Empty() *Config { return &Config{Severity: map[string]source.Severity{}} }

// Mapper returns the mapper of the config file's text, for the positions
// of its diagnostics; nil for the empty config.
func (c *Config) Mapper() *source.Mapper {
	if c == nil {
		return nil
	}
	return c.mapper
}

// Load reads and parses one config file. The error is for I/O only;
// mistakes in the file are diagnostics.
func Load(path string) (*Config, []source.Diagnostic, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, nil, err
	}
	content, err := safefs.ReadFile(abs, safefs.DefaultDocumentLimit)
	if err != nil {
		return nil, nil, err
	}
	cfg, diags := Parse(abs, content)
	return cfg, diags, nil
}

// Parse reads a config with the position-exact parser so that every
// mistake is a diagnostic at its place. It keeps going after a mistake:
// the config holds every valid entry, the diagnostics list every invalid
// one in document order. A file that does not parse yields its syntax
// errors and an empty config. path should be absolute: relative paths in
// the file are resolved against its directory.
func Parse(path string, content []byte) (*Config, []source.Diagnostic) {
	f := syntax.Parse(path, content)
	cfg := Empty()
	cfg.Path, cfg.Dir, cfg.mapper = path, filepath.Dir(path), f.Mapper
	var diags []source.Diagnostic
	for _, d := range f.Diagnostics {
		if d.Severity == source.Error {
			diags = append(diags, d)
		}
	}
	if len(diags) > 0 || isNull(f.Root) {
		return cfg, diags // an empty file is an empty config
	}
	p := &configParser{cfg: cfg}
	p.root(f.Root)
	p.confineProviders(f.Root)
	return cfg, p.diags
}

// configParser fills a Config from the tree, collecting mistakes.
type configParser struct {
	cfg   *Config
	diags []source.Diagnostic
}

func (p *configParser) fail(r source.Range, format string, args ...any) {
	p.diags = append(p.diags, CodeInvalid.New(r, "%s", fmt.Sprintf(format, args...)))
}

func (p *configParser) root(n syntax.Node) {
	root, ok := n.(*syntax.Mapping)
	if !ok {
		p.fail(n.Range(), "the config must be a mapping")
		return
	}
	cfg := p.cfg
	for _, e := range root.Entries {
		switch e.Key.Value {
		case "providers":
			cfg.Providers = p.abspaths(p.stringList(e.Value, "providers"))
		case "ignore":
			for _, g := range p.stringList(e.Value, "ignore") {
				if !ValidGlob(g) {
					p.fail(e.Value.Range(), "ignore: bad glob %q", g)
					continue
				}
				cfg.Ignore = append(cfg.Ignore, g)
			}
		case "strictTypes":
			s, ok := e.Value.(*syntax.Scalar)
			if !ok || (s.Value != "true" && s.Value != "false") {
				p.fail(e.Value.Range(), "strictTypes must be true or false")
				continue
			}
			cfg.StrictTypes = s.Value == "true"
		case "plugins":
			s, ok := e.Value.(*syntax.Scalar)
			if !ok || (s.Value != "true" && s.Value != "false") {
				p.fail(e.Value.Range(), "plugins must be true or false")
				continue
			}
			cfg.Plugins = s.Value == "true"
		case "severity":
			p.severities(e.Value)
		case "inputs":
			m, ok := e.Value.(*syntax.Mapping)
			if !ok {
				p.fail(e.Value.Range(), "inputs must be a mapping")
				continue
			}
			for _, ie := range m.Entries {
				if ie.Key.Value != "vars" {
					p.fail(ie.Key.Range(), "unknown field %q in inputs (known: vars)", ie.Key.Value)
					continue
				}
				cfg.VarsFiles = p.abspaths(p.stringList(ie.Value, "inputs.vars"))
			}
		case "roots":
			cfg.Roots = p.abspaths(p.stringList(e.Value, "roots"))
		case "limits":
			p.limits(e.Value)
		case "rules":
			p.rules(e.Value)
		default:
			p.fail(e.Key.Range(), "unknown field %q (known: providers, severity, ignore, strictTypes, inputs, roots, limits, rules, plugins)", e.Key.Value)
		}
	}
}

// stringList reads a list of non-empty strings; a null is an empty list.
func (p *configParser) stringList(n syntax.Node, what string) []string {
	if isNull(n) {
		return nil
	}
	seq, ok := n.(*syntax.Sequence)
	if !ok {
		p.fail(n.Range(), "%s must be a list of strings", what)
		return nil
	}
	var out []string
	for _, it := range seq.Items {
		s, ok := it.(*syntax.Scalar)
		if !ok || s.Value == "" {
			p.fail(it.Range(), "%s must be a list of non-empty strings", what)
			continue
		}
		out = append(out, s.Value)
	}
	return out
}

func (p *configParser) abspaths(ps []string) []string {
	for i, path := range ps {
		if !filepath.IsAbs(path) {
			ps[i] = filepath.Join(p.cfg.Dir, filepath.FromSlash(path))
		}
	}
	return ps
}

func (p *configParser) severities(n syntax.Node) {
	if isNull(n) {
		return
	}
	m, ok := n.(*syntax.Mapping)
	if !ok {
		p.fail(n.Range(), "severity must be a mapping from diagnostic code to error, warning, information, hint or off")
		return
	}
	for _, e := range m.Entries {
		code := e.Key.Value
		if _, known := source.LookupCode(code); !known {
			msg := fmt.Sprintf("severity: unknown diagnostic code %q", code)
			if s := source.Closest(code, codeIDs()); len(s) > 0 {
				msg += fmt.Sprintf("; did you mean %q?", s[0])
			}
			p.fail(e.Key.Range(), "%s", msg)
			continue
		}
		s, _ := e.Value.(*syntax.Scalar)
		if s == nil {
			p.fail(e.Value.Range(), "severity of %s must be error, warning, information, hint or off", code)
			continue
		}
		if s.Value == "off" || s.Value == "false" { // YAML 1.1 habits write off unquoted
			p.cfg.Severity[code] = Off
			continue
		}
		sev, ok := source.ParseSeverity(s.Value)
		if !ok {
			p.fail(s.Range(), "severity of %s must be error, warning, information, hint or off, not %q", code, s.Value)
			continue
		}
		p.cfg.Severity[code] = sev
	}
}

func isNull(n syntax.Node) bool {
	s, ok := n.(*syntax.Scalar)
	return n == nil || ok && s.Tag == syntax.NullTag
}

func codeIDs() []string {
	var ids []string
	for _, c := range source.Codes() {
		ids = append(ids, c.ID)
	}
	return ids
}
