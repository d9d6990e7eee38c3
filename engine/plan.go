package engine

import (
	"context"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/eval"
	"github.com/blueprint-ls/blueprint-ls/funcs"
	"github.com/blueprint-ls/blueprint-ls/internal/safefs"
	"github.com/blueprint-ls/blueprint-ls/providers/registry"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// Action is what deploying the blueprint does to one resource.
type Action string

// The actions, in the order a plan's summary lists them.
const (
	Create  Action = "create"
	Update  Action = "update"  // changed in place
	Replace Action = "replace" // a create-only property or the type changed
	Delete  Action = "delete"  // deployed, no longer in the blueprint
	Retain  Action = "retain"  // as delete, but removalPolicy retain: detached, kept
	NoOp    Action = "no-op"
)

// Plan is what deploying a blueprint would do, compared with the prior
// state. It is plain data: render it with Text, Markdown or JSON.
type Plan struct {
	Path string
	// Resources are the resource changes: the blueprint's resource
	// instances in source order, then deletions in name order.
	Resources []*ResourceChange
	// Stages group the resources to create, update or replace into
	// deployment stages: everything a resource depends on is in an
	// earlier stage, and resources in one stage can be deployed in
	// parallel. Child blueprints appear as "children.name".
	Stages [][]string
	// Links are the links between the blueprint's resources (by template
	// name), made by linkSelectors or by references placed in fields
	// that activate links.
	Links []*PlannedLink
	// Children are the plans of the child blueprints, in include order.
	Children []*ChildPlan
	Exports  []*ExportChange
	// Diagnostics are the problems found evaluating this blueprint with
	// the inputs (runtime errors, input problems); analysis diagnostics
	// are returned by PlanFile.
	Diagnostics []source.Diagnostic
}

// PlannedLink is one link: From and To in the direction of its link
// type (Type, "from::to"), made Via a "linkSelector" or a "reference".
type PlannedLink struct {
	From, To, Type, Via string
}

// ResourceChange is the planned change of one resource instance.
type ResourceChange struct {
	Name   string // instance name: x, or x[i] for an each resource
	Type   string
	Action Action
	// Reason says why, for replace (the property that forces it), for
	// delete and retain (not in the blueprint, or its condition is
	// false) and for resources whose existence is only known after
	// deployment.
	Reason string
	// Conditional is set when the resource's condition is only known
	// after deployment: the action applies if it turns out true.
	Conditional bool
	// Stage is the 1-based deployment stage; 0 for no-ops, deletions and
	// retentions (deletions happen after every stage).
	Stage     int
	DependsOn []string
	// Spec is the planned spec (for creates, updates, replacements and
	// no-ops) or the deployed one (for deletions).
	Spec    funcs.Value
	Changes []*FieldChange
	// RemovalPolicy is "retain" or "delete".
	RemovalPolicy string
	// From and FromType name the abstract resource of the blueprint a
	// transformer made this one from, and its type; empty for the
	// blueprint's own resources.
	From, FromType string
}

// FieldChange is one spec field whose value changes.
type FieldChange struct {
	// Path is the field's path in the spec: code.s3Key, tags[0].value.
	Path          string
	Before, After funcs.Value
	// Added and Removed say the field is new or goes away (Before or
	// After is then none).
	Added, Removed bool
	// ForcesReplacement is set when the registry marks the property
	// create-only.
	ForcesReplacement bool
}

// ChildPlan is the plan of a child blueprint.
type ChildPlan struct {
	Name string
	Path string
	// Plan is nil when the child could not be loaded.
	Plan *Plan
}

// ExportChange is the planned change of one export.
type ExportChange struct {
	Name          string
	Action        Action // create, update, delete or no-op
	Before, After funcs.Value
}

// Summary counts the actions of a plan and its children.
type Summary struct {
	Create, Update, Replace, Delete, Retain, NoOp int
}

// Options tune planning. The zero value uses the built-in providers, the
// core functions, children loaded from disk and an environment rooted at
// the blueprint's folder.
type Options struct {
	Registry *registry.Registry
	Funcs    *funcs.Table
	// Loader loads child blueprints; the language server passes one that
	// reads open buffers. Nil reads from disk.
	Loader *analysis.Loader
	// Env is the environment of file(), cwd() and the like (see
	// eval.Options.Env).
	Env funcs.Env
	// Roots confine include paths to the project (nil: not confined).
	Roots *safefs.Roots
	// Transformer runs the blueprint's transforms (nil: none): the plan
	// is then the transformed blueprint's, each resource a transformer
	// made naming the abstract resource it came from.
	Transformer analysis.Transformer
}

// PlanFile is the single entry point of the `plan` command and the
// editor's plan preview: it parses and analyses content (the file at
// path), evaluates it with the inputs and plans it against
// inputs.State. It returns every diagnostic (analysis, input problems,
// runtime errors) sorted; the plan is nil only when the document has
// syntax errors. Callers decide what to do with error diagnostics: the CLI
// refuses to print a plan with errors, the editor may show both. A Go
// error is cancellation.
func PlanFile(ctx context.Context, path string, content []byte, inputs eval.Inputs, opts Options) (*Plan, []source.Diagnostic, error) {
	f := schema.Parse(path, content)
	loader := opts.Loader
	if loader == nil {
		loader = analysis.NewLoader(nil, analysis.Options{Registry: opts.Registry, Funcs: opts.Funcs})
	}
	res := analysis.Analyze(ctx, f, analysis.Options{Path: path, Registry: opts.Registry, Funcs: opts.Funcs, Loader: loader, Roots: opts.Roots})
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	diags := append([]source.Diagnostic(nil), res.Diagnostics...)
	if f.HasSyntaxErrors() || res.Blueprint == nil {
		return nil, diags, nil
	}
	t := analysis.AnalyzeTransformed(ctx, res, analysis.Options{Registry: opts.Registry, Funcs: opts.Funcs, Loader: loader, Roots: opts.Roots}, opts.Transformer)
	if t != nil {
		diags = append(diags, t.Diagnostics...)
		if t.Result != nil {
			res = t.Result
		}
	}
	bp, err := eval.Eval(ctx, res, inputs, eval.Options{Registry: opts.Registry, Funcs: opts.Funcs, Env: opts.Env, Reuse: Reuse(opts.Registry)})
	if err != nil {
		return nil, nil, err
	}
	p := Build(bp, inputs.State, opts.Registry)
	if t != nil && t.Result != nil {
		diags = append(diags, t.Map(bp.Diagnostics)...)
		for _, r := range p.Resources {
			base, _, _ := strings.Cut(r.Name, "[")
			r.From, r.FromType = t.Abstract(base)
		}
	} else {
		diags = append(diags, bp.Diagnostics...)
	}
	source.SortDiagnostics(diags)
	return p, diags, nil
}

// Summary counts the actions of p and its children.
func (p *Plan) Summary() Summary {
	var s Summary
	p.count(&s)
	return s
}

func (p *Plan) count(s *Summary) {
	for _, r := range p.Resources {
		switch r.Action {
		case Create:
			s.Create++
		case Update:
			s.Update++
		case Replace:
			s.Replace++
		case Delete:
			s.Delete++
		case Retain:
			s.Retain++
		case NoOp:
			s.NoOp++
		}
	}
	for _, c := range p.Children {
		if c.Plan != nil {
			c.Plan.count(s)
		}
	}
}

// HasChanges reports whether applying the plan would change anything
// (resources or exports, here or in a child).
func (p *Plan) HasChanges() bool {
	s := p.Summary()
	if s.Create+s.Update+s.Replace+s.Delete+s.Retain > 0 {
		return true
	}
	var exp func(p *Plan) bool
	exp = func(p *Plan) bool {
		for _, e := range p.Exports {
			if e.Action != NoOp {
				return true
			}
		}
		for _, c := range p.Children {
			if c.Plan != nil && exp(c.Plan) {
				return true
			}
		}
		return false
	}
	return exp(p)
}
