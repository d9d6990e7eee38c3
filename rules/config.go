package rules

import (
	"sort"
	"strconv"

	"github.com/blueprint-ls/blueprint-ls/project"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// Config is which rules run and with which parameters. A nil *Config
// runs every rule with its defaults.
type Config struct {
	sets    map[Set]bool // nil: every set
	enable  map[string]bool
	disable map[string]bool
	par     map[string]map[string]string
}

// Configure reads a project config's rules: section (nil: every rule
// with its defaults). Unknown rule ids, sets and parameters, and
// parameter values of the wrong kind, are config-invalid diagnostics at
// their places in the config; the rest still applies.
func Configure(rc *project.RulesConfig) (*Config, []source.Diagnostic) {
	if rc == nil {
		return nil, nil
	}
	c := &Config{enable: map[string]bool{}, disable: map[string]bool{}, par: map[string]map[string]string{}}
	var diags []source.Diagnostic
	bad := func(r source.Range, format string, args ...any) {
		diags = append(diags, project.CodeInvalid.New(r, format, args...))
	}
	if rc.Sets != nil {
		c.sets = map[Set]bool{}
		for _, w := range rc.Sets {
			switch w.Text {
			case "all":
				for _, s := range Sets {
					c.sets[s] = true
				}
			case "none":
			default:
				c.sets[Set(w.Text)] = true
			}
		}
	}
	names := func(ws []project.Word, into map[string]bool, what string) {
		for _, w := range ws {
			rs := resolve(w.Text)
			if len(rs) == 0 {
				bad(w.Range, "rules.%s: unknown rule %q", what, w.Text)
				continue
			}
			for _, r := range rs {
				into[r.ID] = true
			}
		}
	}
	names(rc.Enable, c.enable, "enable")
	names(rc.Disable, c.disable, "disable")
	ids := make([]string, 0, len(rc.Params))
	for id := range rc.Params {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return rc.ParamKeys[ids[i]].Start < rc.ParamKeys[ids[j]].Start })
	for _, id := range ids {
		ps := rc.Params[id]
		r, ok := Lookup(id)
		if !ok {
			bad(rc.ParamKeys[id], "rules.params: unknown rule %q", id)
			continue
		}
		for _, p := range ps {
			var def *Param
			for i := range r.Params {
				if r.Params[i].Name == p.Name {
					def = &r.Params[i]
				}
			}
			if def == nil {
				known := "it has none"
				if len(r.Params) > 0 {
					known = "known: "
					for i, x := range r.Params {
						if i > 0 {
							known += ", "
						}
						known += x.Name
					}
				}
				bad(p.NameRange, "rules.params.%s: unknown parameter %q (%s)", id, p.Name, known)
				continue
			}
			if _, err := strconv.ParseFloat(def.Default, 64); err == nil {
				if _, err := strconv.ParseFloat(p.Value, 64); err != nil {
					bad(p.ValueRange, "rules.params.%s.%s must be a number", id, p.Name)
					continue
				}
			}
			if c.par[id] == nil {
				c.par[id] = map[string]string{}
			}
			c.par[id][p.Name] = p.Value
		}
	}
	return c, diags
}

// Enabled reports whether rule r runs: disabled by id loses, enabled by
// id wins over the sets.
func (c *Config) Enabled(r *Rule) bool {
	if c == nil {
		return true
	}
	if c.disable[r.ID] {
		return false
	}
	if c.enable[r.ID] || c.sets == nil {
		return true
	}
	return c.sets[r.Set]
}

func (c *Config) params(id string) map[string]string {
	if c == nil {
		return nil
	}
	return c.par[id]
}
