package eval

import (
	"github.com/blueprint-ls/blueprint-ls/funcs"
	"github.com/blueprint-ls/blueprint-ls/subst"
)

// Reuse says which of a deployed resource instance's state fields stay as
// they are through a deployment, and so may be read from the prior state
// by the references to them (${resources.x.state.arn}).
type Reuse int

const (
	// ReuseNone: the instance is created or replaced (or its existence is
	// only known after deployment); every state field is unknown.
	ReuseNone Reuse = iota
	// ReuseIdentity: the instance is updated in place. Only the state
	// fields that make up its type's primaryIdentifier (top-level
	// properties of the provider's resource schema: queueUrl of
	// aws/sqs/queue, id of aws/secretsmanager/secret) keep their deployed
	// values; every other field may be recomputed by the provider and is
	// unknown, readOnly ones such as arn included.
	ReuseIdentity
	// ReuseAll: the instance does not change (the plan's no-op); every
	// state field of the prior state stays.
	ReuseAll
)

// ReuseFunc decides the Reuse of a resource instance that is in the prior
// state (old) from its evaluated spec. The plan engine passes one that
// applies its own diff, so that evaluation and the plan agree on which
// instances change. It is called once per instance, after the instance's
// spec is evaluated and before anything that references it is.
type ReuseFunc func(r *Resource, old *ResourceState) Reuse

// unchangedReuse is the ReuseFunc used without Options.Reuse: an instance
// of the same type whose spec is fully known and equal to the deployed one
// keeps its state; anything else is treated as replaced.
func unchangedReuse(r *Resource, old *ResourceState) Reuse {
	if r.Type == old.Type && !r.Spec.HasUnknown() && funcs.Equal(r.Spec, old.Spec) {
		return ReuseAll
	}
	return ReuseNone
}

// priorState records what the references to r's state may read from the
// prior state. It runs once r's spec is evaluated: the memoised, lazy
// evaluation reaches a resource before anything that references it, so a
// producer's reuse is settled before its dependents are evaluated.
func (e *evaluator) priorState(r *Resource) {
	if e.in.State == nil || r.Condition != Included || r.EachUnknown {
		return
	}
	old := e.in.State.Resources[r.Name]
	if old == nil {
		return
	}
	decide := e.opts.Reuse
	if decide == nil {
		decide = unchangedReuse
	}
	r.reuse = decide(r, old)
	if r.reuse == ReuseNone {
		return
	}
	r.prior = old
	if r.reuse == ReuseIdentity {
		if rt, ok := e.opts.Registry.ResourceType(r.Type); ok && rt != nil {
			for _, p := range rt.PrimaryIdentifier {
				if len(p) == 1 {
					if r.identity == nil {
						r.identity = map[string]bool{}
					}
					r.identity[p[0]] = true
				}
			}
		}
	}
}

// stateValue is the whole state of an instance, as `resources.x.state`
// reads it: the deployed state when the instance is unchanged, unknown
// otherwise.
func stateValue(r *Resource) funcs.Value {
	if r.reuse == ReuseAll && r.prior != nil {
		if _, ok := r.prior.State.Map(); ok {
			return r.prior.State
		}
	}
	return funcs.Unknown("resources." + r.Name + ".state")
}

// stateRef reads `state.field...` of instance r when the reference's
// accessors start so (path[0] is "state"): the deployed value when
// Reuse allows it and the prior state has the field, unknown otherwise.
// It reports false when path does not read one state field.
func stateRef(r *Resource, path []subst.Accessor, ref *subst.Ref) (funcs.Value, []subst.Accessor, bool) {
	if r == nil || r.prior == nil || len(path) < 2 {
		return funcs.Value{}, nil, false
	}
	if n, ok := accessorName(path[0]); !ok || n != "state" {
		return funcs.Value{}, nil, false
	}
	field, ok := accessorName(path[1])
	if !ok {
		return funcs.Value{}, nil, false
	}
	unknown := funcs.Unknown(subst.Print(ref))
	if r.reuse != ReuseAll && !r.identity[field] {
		return unknown, nil, true
	}
	m, ok := r.prior.State.Map()
	if !ok {
		return unknown, nil, true
	}
	v, ok := m.Get(field)
	if !ok {
		return unknown, nil, true // the state file may be partial: not a guess
	}
	return v, path[2:], true
}
