package project

import (
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// RulesConfig is the config's rules: section, read as written: package
// rules checks the rule ids and parameters against its table
// (rules.Configure) and reports mistakes at these ranges.
type RulesConfig struct {
	// Sets are the rule sets enabled (security, reliability, cost, all,
	// none); nil means every rule.
	Sets      []Word
	Enable    []Word // rule ids enabled whatever their set
	Disable   []Word // rule ids disabled
	Params    map[string][]RuleParam
	ParamKeys map[string]source.Range // the rule id keys of params
	// Policies is the folder of Rego policies (absolute), "" for none.
	Policies      string
	PoliciesRange source.Range
}

// Word is a config string with its place.
type Word struct {
	Text  string
	Range source.Range
}

// RuleParam is one parameter setting of a rule.
type RuleParam struct {
	Name       string
	Value      string
	NameRange  source.Range
	ValueRange source.Range
}

// rules reads the rules: section.
func (p *configParser) rules(n syntax.Node) {
	if isNull(n) {
		return
	}
	m, ok := n.(*syntax.Mapping)
	if !ok {
		p.fail(n.Range(), "rules must be a mapping (known: sets, enable, disable, params, policies)")
		return
	}
	rc := &RulesConfig{}
	words := func(e *syntax.Entry, what string) []Word {
		var out []Word
		if s, ok := e.Value.(*syntax.Scalar); ok && s.Value != "" && s.Tag != syntax.NullTag {
			return []Word{{s.Value, s.Rng}} // one name needs no list
		}
		if isNull(e.Value) {
			return nil
		}
		seq, ok := e.Value.(*syntax.Sequence)
		if !ok {
			p.fail(e.Value.Range(), "rules.%s must be a list of strings", what)
			return nil
		}
		for _, it := range seq.Items {
			s, ok := it.(*syntax.Scalar)
			if !ok || s.Value == "" {
				p.fail(it.Range(), "rules.%s must be a list of non-empty strings", what)
				continue
			}
			out = append(out, Word{s.Value, s.Rng})
		}
		return out
	}
	for _, e := range m.Entries {
		switch e.Key.Value {
		case "sets":
			rc.Sets = words(e, "sets")
			if rc.Sets == nil {
				rc.Sets = []Word{}
			}
			for _, w := range rc.Sets {
				switch w.Text {
				case "security", "reliability", "cost", "all", "none":
				default:
					p.fail(w.Range, "rules.sets: unknown rule set %q (known: security, reliability, cost, all, none)", w.Text)
				}
			}
		case "enable":
			rc.Enable = words(e, "enable")
		case "disable":
			rc.Disable = words(e, "disable")
		case "params":
			pm, ok := e.Value.(*syntax.Mapping)
			if !ok {
				if !isNull(e.Value) {
					p.fail(e.Value.Range(), "rules.params must be a mapping from rule id to a mapping of parameters")
				}
				continue
			}
			rc.Params = map[string][]RuleParam{}
			rc.ParamKeys = map[string]source.Range{}
			for _, re := range pm.Entries {
				vals, ok := re.Value.(*syntax.Mapping)
				if !ok {
					p.fail(re.Value.Range(), "rules.params.%s must be a mapping of parameter names to values", re.Key.Value)
					continue
				}
				rc.ParamKeys[re.Key.Value] = re.Key.Rng
				for _, ve := range vals.Entries {
					rp := RuleParam{Name: ve.Key.Value, NameRange: ve.Key.Rng, ValueRange: ve.Value.Range()}
					switch v := ve.Value.(type) {
					case *syntax.Scalar:
						rp.Value = v.Value
					case *syntax.Sequence:
						var parts []string
						for _, it := range v.Items {
							if s, ok := it.(*syntax.Scalar); ok {
								parts = append(parts, s.Value)
							}
						}
						rp.Value = joinComma(parts)
					default:
						p.fail(ve.Value.Range(), "rules.params.%s.%s must be a scalar or a list of scalars", re.Key.Value, ve.Key.Value)
						continue
					}
					rc.Params[re.Key.Value] = append(rc.Params[re.Key.Value], rp)
				}
			}
		case "policies":
			s, ok := e.Value.(*syntax.Scalar)
			if !ok || s.Value == "" {
				p.fail(e.Value.Range(), "rules.policies must be a folder path")
				continue
			}
			rc.Policies = p.abspaths([]string{s.Value})[0]
			rc.PoliciesRange = s.Rng
		default:
			p.fail(e.Key.Range(), "unknown field %q in rules (known: sets, enable, disable, params, policies)", e.Key.Value)
		}
	}
	p.cfg.Rules = rc
}

func joinComma(parts []string) string {
	out := ""
	for i, s := range parts {
		if i > 0 {
			out += ","
		}
		out += s
	}
	return out
}
