package eval

import (
	"context"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/funcs"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/subst"
)

// CodeUnknownFunction is a call to a function the table does not have, in
// a template evaluated on its own (in a blueprint, analysis reports it).
var CodeUnknownFunction = source.NewCode("eval-unknown-function", source.Error,
	"A template calls a function that does not exist.", "${to_uper(\"a\")}")

// Scope evaluates templates against one blueprint and its inputs: the
// blueprint's definitions are evaluated lazily, as templates reference
// them, and memoised. `blueprint-ls eval` and the editor's inlay hints use
// it. A Scope is not safe for concurrent use.
type Scope struct {
	e *evaluator
}

// NewScope returns a scope over res (nil: no blueprint, only variables
// from the inputs, as strings). The diagnostics are the input problems.
func NewScope(ctx context.Context, res *analysis.Result, in Inputs, opts Options) (*Scope, []source.Diagnostic) {
	if res == nil || res.Blueprint == nil {
		r := &analysis.Result{Blueprint: &schema.Blueprint{}}
		if res != nil {
			r.Path = res.Path
		}
		e := newEvaluator(ctx, r, in, opts)
		e.vars = map[string]funcs.Value{}
		for k, v := range in.Vars {
			e.vars[k] = v.Value
		}
		return &Scope{e: e}, nil
	}
	e := newEvaluator(ctx, res, in, opts)
	var ds []source.Diagnostic
	e.vars, ds = resolveVariables(e.bp, in.Vars, e.opts.Registry)
	return &Scope{e: e}, ds
}

// Template evaluates a parsed template. The diagnostics are the
// template's own syntax errors, unknown functions and runtime errors, with
// ranges in the template's offsets; problems inside the blueprint's
// definitions it reads are kept apart (BlueprintDiagnostics).
func (s *Scope) Template(t *subst.Template) (funcs.Value, []source.Diagnostic) {
	diags := append([]source.Diagnostic(nil), t.Diagnostics()...)
	for _, d := range t.Diagnostics() {
		if d.Severity == source.Error {
			return funcs.Unknown("a substitution with errors"), diags
		}
	}
	bad := false
	subst.WalkTemplate(t, func(x subst.Expr) bool {
		if c, ok := x.(*subst.Call); ok {
			if _, known := s.e.opts.Funcs.Lookup(c.Name); !known {
				bad = true
				msg := "unknown function " + c.Name
				if sug := s.e.opts.Funcs.Suggest(c.Name); len(sug) > 0 {
					msg += "; did you mean " + sug[0] + "?"
				}
				d := CodeUnknownFunction.New(c.NameRange, "%s", msg)
				diags = append(diags, d)
			}
		}
		return true
	})
	if bad {
		return funcs.Unknown("a substitution with errors"), diags
	}
	s.e.adhoc = &diags
	v := s.e.template(t, nil)
	s.e.adhoc = nil
	return v, diags
}

// BlueprintDiagnostics returns the problems found so far in the
// blueprint's own definitions while evaluating templates against them
// (runtime errors of the values they read), sorted.
func (s *Scope) BlueprintDiagnostics() []source.Diagnostic {
	ds := append([]source.Diagnostic(nil), s.e.diags...)
	source.SortDiagnostics(ds)
	return ds
}

// Site evaluates a site of the scope's blueprint in its context (a value,
// a spec field); inside a resource with each, elem and i are those of its
// first instance.
func (s *Scope) Site(site *analysis.Site) (funcs.Value, []source.Diagnostic) {
	var sc *scope
	if site.Owner != nil && site.Owner.Kind == analysis.ResourceSymbol {
		m := s.e.resource(site.Owner.Name)
		if m.each && len(m.instances) > 0 {
			r := m.instances[0]
			list := s.e.node(s.e.bp.Resources.Get(site.Owner.Name).Each.Node(), nil)
			if r.EachUnknown {
				sc = eachScope(list, -1)
			} else if list.Len() > 0 {
				sc = eachScope(list, 0)
			}
		}
	}
	start := len(s.e.diags)
	v := s.e.template(site.Template, sc)
	return v, append([]source.Diagnostic(nil), s.e.diags[start:]...)
}
