package deployconfig

import (
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/funcs"
	"github.com/blueprint-ls/blueprint-ls/internal/safefs"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// Diagnostic codes of a deploy configuration file, reported on the file.
var (
	CodeInvalid = source.NewCode("deploy-config-invalid", source.Error,
		"The deploy configuration file is malformed (JSONC syntax, a section that is not an object, a Celerity deployTarget without a known name); nothing of it is used.",
		`{"deployTarget": {"name": }}`)
	CodeValue = source.NewCode("deploy-config-value", source.Warning,
		"A deploy configuration value is not a scalar (string, number, boolean); the deploy engine only takes scalars, so it is ignored.",
		`{"blueprintVariables": {"tags": ["a"]}}`)
)

// maxFileSize bounds a deploy configuration read.
const maxFileSize = 1 << 20

// Value is one configured scalar and where the file sets it.
type Value struct {
	Value funcs.Value
	Range source.Range
}

// Values are configured values by name.
type Values map[string]Value

// Names returns the names, sorted.
func (v Values) Names() []string { return slices.Sorted(maps.Keys(v)) }

// Config is a deploy configuration in the canonical format, whatever
// format its file has.
type Config struct {
	// Path is the file it was read from.
	Path string
	// Celerity is set for Celerity's authoring format (app.deploy.*).
	Celerity bool
	// Providers and Transformers hold each plugin's configuration by
	// namespace (aws, celerity).
	Providers    map[string]Values
	Transformers map[string]Values
	// ContextVariables are the deployment's context (deployTarget,
	// appEnv, celerity.appName, ...).
	ContextVariables Values
	// BlueprintVariables are values for the blueprint's variables.
	BlueprintVariables Values
	// Diagnostics are the file's mistakes, in Mapper's offsets.
	Diagnostics []source.Diagnostic
	Mapper      *source.Mapper
}

// Usable reports whether the configuration has no error: a malformed
// file is reported, and none of it is used.
func (c *Config) Usable() bool {
	if c == nil {
		return false
	}
	for _, d := range c.Diagnostics {
		if d.Severity == source.Error {
			return false
		}
	}
	return true
}

// Load reads the file at path (inside roots) and converts it. The error
// is the read's only.
func Load(path string, roots *safefs.Roots) (*Config, error) {
	data, err := roots.ReadFile(path, maxFileSize)
	if err != nil {
		return nil, err
	}
	return Parse(path, data), nil
}

// Parse converts the content of a deploy configuration file named path
// (the name says which format).
func Parse(path string, data []byte) *Config {
	f := syntax.ParseJSON(data, true)
	c := &Config{Path: path, Mapper: f.Mapper, Celerity: strings.HasPrefix(filepath.Base(path), "app.deploy.")}
	if f.HasSyntaxErrors() {
		d := f.SyntaxErrors()[0]
		c.Diagnostics = []source.Diagnostic{CodeInvalid.New(d.Range, "the deploy configuration does not parse: %s", d.Message)}
		return c
	}
	top, ok := f.Root.(*syntax.Mapping)
	if !ok {
		c.Diagnostics = []source.Diagnostic{CodeInvalid.New(nodeRange(f.Root), "a deploy configuration is a JSON object")}
		return c
	}
	p := &parser{c: c}
	if c.Celerity {
		p.celerity(top)
	} else {
		p.canonical(top)
	}
	if !c.Usable() {
		// Keep the first error only: one mistake, one diagnostic.
		for _, d := range c.Diagnostics {
			if d.Severity == source.Error {
				c.Diagnostics = []source.Diagnostic{d}
				break
			}
		}
		c.Providers, c.Transformers, c.ContextVariables, c.BlueprintVariables = nil, nil, nil, nil
	}
	return c
}

type parser struct{ c *Config }

func (p *parser) errorf(r source.Range, format string, args ...any) {
	p.c.Diagnostics = append(p.c.Diagnostics, CodeInvalid.New(r, format, args...))
}

// canonical reads the deploy engine's own format. Members it does not
// know (dependencies, ...) are the engine's business and are skipped.
func (p *parser) canonical(top *syntax.Mapping) {
	for _, e := range top.Entries {
		switch e.Key.Value {
		case "providers":
			p.c.Providers = p.nested(e)
		case "transformers":
			p.c.Transformers = p.nested(e)
		case "contextVariables":
			p.c.ContextVariables = p.values(e)
		case "blueprintVariables":
			p.c.BlueprintVariables = p.values(e)
		}
	}
}

// object returns e's value as a mapping, reporting anything else.
func (p *parser) object(e *syntax.Entry) *syntax.Mapping {
	m, ok := e.Value.(*syntax.Mapping)
	if !ok {
		if s, null := e.Value.(*syntax.Scalar); null && s.Tag == syntax.NullTag {
			return &syntax.Mapping{}
		}
		p.errorf(nodeRange(e.Value), "%q must be an object", e.Key.Value)
	}
	return m
}

func (p *parser) nested(e *syntax.Entry) map[string]Values {
	m := p.object(e)
	if m == nil {
		return nil
	}
	out := map[string]Values{}
	for _, inner := range m.Entries {
		out[inner.Key.Value] = p.values(inner)
	}
	return out
}

func (p *parser) values(e *syntax.Entry) Values {
	m := p.object(e)
	if m == nil {
		return nil
	}
	out := Values{}
	for _, inner := range m.Entries {
		if v, ok := p.scalar(inner); ok {
			out[inner.Key.Value] = v
		}
	}
	return out
}

// scalar converts a scalar value; anything else is a warning and
// dropped.
func (p *parser) scalar(e *syntax.Entry) (Value, bool) {
	s, ok := e.Value.(*syntax.Scalar)
	if !ok || s.Tag == syntax.NullTag {
		p.c.Diagnostics = append(p.c.Diagnostics, CodeValue.New(nodeRange(e.Value), "%q is not a string, number or boolean; it is ignored", e.Key.Value))
		return Value{}, false
	}
	v := Value{Value: funcs.String(s.Value), Range: s.Rng}
	switch s.Tag {
	case syntax.BoolTag:
		v.Value = funcs.Bool(s.Value == "true")
	case syntax.IntTag:
		if n, err := strconv.ParseInt(s.Value, 10, 64); err == nil {
			v.Value = funcs.Int(n)
		} else if f, err := strconv.ParseFloat(s.Value, 64); err == nil {
			v.Value = funcs.Float(f)
		}
	case syntax.FloatTag:
		if f, err := strconv.ParseFloat(s.Value, 64); err == nil {
			v.Value = funcs.Float(f)
			if f == float64(int64(f)) && !strings.ContainsAny(s.Value, ".eE") {
				v.Value = funcs.Int(int64(f))
			}
		}
	}
	return v, true
}

func nodeRange(n syntax.Node) source.Range {
	if n == nil {
		return source.Range{}
	}
	return n.Range()
}

// Plain returns the values as Go scalars (string, int64, float64, bool),
// for a plugin; other values are left out.
func (v Values) Plain() map[string]any {
	if len(v) == 0 {
		return nil
	}
	out := make(map[string]any, len(v))
	for name, x := range v {
		if s, ok := x.Value.Str(); ok {
			out[name] = s
		} else if i, ok := x.Value.Int(); ok {
			out[name] = i
		} else if f, ok := x.Value.Float(); ok {
			out[name] = f
		} else if b, ok := x.Value.Bool(); ok {
			out[name] = b
		}
	}
	return out
}

// TransformerParams are the configuration of each transformer (by
// namespace) and the context variables, as Go scalars: what a transform
// runs with (pluginhost.Params). Nothing when c is not usable.
func (c *Config) TransformerParams() (transformers map[string]map[string]any, context map[string]any) {
	if !c.Usable() {
		return nil, nil
	}
	for ns, vs := range c.Transformers {
		if transformers == nil {
			transformers = map[string]map[string]any{}
		}
		transformers[ns] = vs.Plain()
	}
	return transformers, c.ContextVariables.Plain()
}
