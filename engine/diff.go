package engine

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/eval"
	"github.com/blueprint-ls/blueprint-ls/funcs"
	"github.com/blueprint-ls/blueprint-ls/providers/registry"
)

// Build plans a materialised blueprint against the prior state (nil:
// nothing deployed), with the registry's create-only properties deciding
// replacements (nil: the built-in providers).
func Build(bp *eval.Blueprint, state *eval.State, reg *registry.Registry) *Plan {
	if reg == nil {
		reg = analysis.BuiltinRegistry()
	}
	p := &Plan{Path: bp.Path, Diagnostics: bp.Diagnostics}
	var prior map[string]*eval.ResourceState
	if state != nil {
		prior = state.Resources
	}
	seen := map[string]bool{}
	unknownEach := map[string]bool{}
	policy := map[string]string{}
	for _, r := range bp.Resources {
		seen[r.Name] = true
		policy[r.Template] = r.RemovalPolicy
		if r.EachUnknown {
			unknownEach[r.Template] = true
		}
		old := prior[r.Name]
		rc := &ResourceChange{Name: r.Name, Type: r.Type, Spec: r.Spec, RemovalPolicy: r.RemovalPolicy}
		switch r.Condition {
		case eval.Excluded:
			if old == nil {
				continue // neither deployed nor wanted
			}
			rc.Type, rc.Spec = old.Type, old.Spec
			rc.Action, rc.Reason = removal(r.RemovalPolicy, "its condition is false")
			p.Resources = append(p.Resources, rc)
			continue
		case eval.ConditionUnknown:
			rc.Conditional = true
		}
		if r.EachUnknown {
			rc.Reason = "the instances are only known after deploy (each)"
		}
		diffResource(rc, old, r, reg)
		p.Resources = append(p.Resources, rc)
	}
	for _, name := range state.ResourceNames() {
		if seen[name] {
			continue
		}
		tmpl, _, _ := strings.Cut(name, "[")
		if unknownEach[tmpl] {
			continue // may still be one of the instances
		}
		old := prior[name]
		pol := old.RemovalPolicy
		if pol == "" {
			pol = policy[tmpl]
		}
		if pol == "" {
			pol = "delete"
		}
		rc := &ResourceChange{Name: name, Type: old.Type, Spec: old.Spec, RemovalPolicy: pol}
		rc.Action, rc.Reason = removal(pol, "it is no longer in the blueprint")
		p.Resources = append(p.Resources, rc)
	}
	for _, c := range bp.Children {
		cp := &ChildPlan{Name: c.Name, Path: c.Path}
		if c.Blueprint != nil {
			cp.Plan = Build(c.Blueprint, state.Child(c.Name), reg)
		}
		p.Children = append(p.Children, cp)
	}
	p.Exports = diffExports(bp, state)
	order(p, bp, reg)
	return p
}

func removal(policy, why string) (Action, string) {
	if policy == "retain" {
		return Retain, why + "; removalPolicy is retain, so it is detached from the blueprint and kept"
	}
	return Delete, why
}

// diffResource decides the action of a resource instance that exists in
// the blueprint.
func diffResource(rc *ResourceChange, old *eval.ResourceState, r *eval.Resource, reg *registry.Registry) {
	if old == nil {
		rc.Action = Create
		return
	}
	if old.Type != r.Type {
		rc.Action = Replace
		rc.Reason = fmt.Sprintf("the type changes from %s to %s", old.Type, r.Type)
		for _, c := range diffValues(nil, old.Spec, r.Spec, nil) {
			rc.Changes = append(rc.Changes, c.FieldChange)
		}
		return
	}
	rt, _ := reg.ResourceType(r.Type)
	var forcing []string
	changes := diffValues(nil, old.Spec, r.Spec, nil)
	for _, c := range changes {
		if rt != nil && rt.Marks(c.segs).Has(registry.CreateOnly) {
			c.ForcesReplacement = true
			forcing = append(forcing, c.Path)
		}
		rc.Changes = append(rc.Changes, c.FieldChange)
	}
	switch {
	case len(forcing) > 0:
		rc.Action = Replace
		rc.Reason = fmt.Sprintf("%s can only be set on creation (create-only in %s)", strings.Join(forcing, ", "), r.Type)
		if len(forcing) > 1 {
			rc.Reason = strings.Replace(rc.Reason, " can only", " can each only", 1)
		}
	case len(rc.Changes) > 0:
		rc.Action = Update
	default:
		rc.Action = NoOp
	}
}

// Reuse returns the eval.ReuseFunc that matches this package's diff, so
// that references to a deployed resource's state read what the plan
// leaves in place: a no-op keeps every state field, an update in place
// its primary identifier, a replacement none (see eval.Reuse). A nil
// registry means the built-in providers.
func Reuse(reg *registry.Registry) eval.ReuseFunc {
	if reg == nil {
		reg = analysis.BuiltinRegistry()
	}
	return func(r *eval.Resource, old *eval.ResourceState) eval.Reuse {
		rc := &ResourceChange{}
		diffResource(rc, old, r, reg)
		switch rc.Action {
		case NoOp:
			return eval.ReuseAll
		case Update:
			return eval.ReuseIdentity
		}
		return eval.ReuseNone
	}
}

// change is a FieldChange with its path segments (items as "*") for
// the registry's create-only look-up.
type change struct {
	*FieldChange
	segs []string
}

// diffValues compares two spec values field by field. Mappings are
// compared key by key, arrays of equal length item by item; anything
// else that differs is one change. An unknown planned value is always a
// change (it is only known after deployment).
func diffValues(path []pathSeg, before, after funcs.Value, out []*change) []*change {
	if !after.HasUnknown() && funcs.Equal(before, after) {
		return out
	}
	if eval.IsSensitiveLeaf(after) || eval.IsSensitiveLeaf(before) {
		// A field that is secret now (or was) is one change with both
		// sides masked: the deployed value is as secret as the new one,
		// and comparing inside it would show its members.
		if !before.IsNone() {
			before = before.WithSensitive(true)
		}
		if !after.IsNone() {
			after = after.WithSensitive(true)
		}
		return appendChange(path, before, after, out)
	}
	bm, bok := before.Map()
	am, aok := after.Map()
	if bok && aok && !after.IsUnknown() {
		for i := range am.Len() {
			k, av := am.At(i)
			bv, _ := bm.Get(k)
			out = diffValues(append(path, pathSeg{key: k}), bv, av, out)
		}
		for i := range bm.Len() {
			k, bv := bm.At(i)
			if _, ok := am.Get(k); !ok {
				out = diffValues(append(path, pathSeg{key: k}), bv, funcs.None, out)
			}
		}
		return out
	}
	be, bok := before.Elems()
	ae, aok := after.Elems()
	if bok && aok && len(be) == len(ae) && !after.IsUnknown() {
		for i := range ae {
			out = diffValues(append(path, pathSeg{index: i, item: true}), be[i], ae[i], out)
		}
		return out
	}
	return appendChange(path, before, after, out)
}

// appendChange adds the change of the field at path.
func appendChange(path []pathSeg, before, after funcs.Value, out []*change) []*change {
	fc := &FieldChange{Path: formatPath(path), Before: before, After: after, Added: before.IsNone(), Removed: after.IsNone()}
	segs := make([]string, len(path))
	for i, s := range path {
		if s.item {
			segs[i] = "*"
		} else {
			segs[i] = s.key
		}
	}
	return append(out, &change{FieldChange: fc, segs: segs})
}

type pathSeg struct {
	key   string
	index int
	item  bool
}

func formatPath(path []pathSeg) string {
	var b strings.Builder
	for i, s := range path {
		switch {
		case s.item:
			b.WriteString("[" + strconv.Itoa(s.index) + "]")
		case isIdent(s.key):
			if i > 0 {
				b.WriteByte('.')
			}
			b.WriteString(s.key)
		default:
			b.WriteString("[" + strconv.Quote(s.key) + "]")
		}
	}
	return b.String()
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		ok := c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && (c >= '0' && c <= '9' || c == '-')
		if !ok {
			return false
		}
	}
	return true
}

// diffExports compares the exports with the state's.
func diffExports(bp *eval.Blueprint, state *eval.State) []*ExportChange {
	var prior map[string]funcs.Value
	if state != nil {
		prior = state.Exports
	}
	var out []*ExportChange
	for _, x := range bp.Exports {
		ec := &ExportChange{Name: x.Name, After: x.Value}
		before, ok := prior[x.Name]
		switch {
		case !ok:
			ec.Action = Create
		case !x.Value.HasUnknown() && funcs.Equal(before, x.Value):
			ec.Action, ec.Before = NoOp, before
		default:
			ec.Action, ec.Before = Update, before
		}
		out = append(out, ec)
	}
	var gone []string
	for name := range prior {
		if bp.Export(name) == nil {
			gone = append(gone, name)
		}
	}
	sort.Strings(gone)
	for _, name := range gone {
		out = append(out, &ExportChange{Name: name, Action: Delete, Before: prior[name]})
	}
	return out
}
