package eval

import (
	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/funcs"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/subst"
)

// resourceMemo is one resource definition, expanded into its instances
// once.
type resourceMemo struct {
	busy, done bool
	each       bool
	instances  []*Resource
}

// resource evaluates a resource definition: each expands it, the
// condition decides each instance's presence.
func (e *evaluator) resource(name string) *resourceMemo {
	m := e.resources[name]
	if m == nil {
		m = &resourceMemo{}
		e.resources[name] = m
	}
	if m.done || m.busy {
		return m
	}
	def := e.bp.Resources.Get(name)
	if def == nil {
		return m
	}
	if known := e.opts.Known; known != nil && (e.opts.Resources == nil || !e.opts.Resources(name)) {
		if rs, ok := known(name); ok {
			m.instances, m.each, m.done = rs, def.Each != nil, true
			return m
		}
	}
	m.busy = true
	e.depth++
	defer func() { m.busy, m.done = false, true; e.depth-- }()
	if def.Each == nil {
		m.instances = []*Resource{e.instance(def, name, -1, nil)}
		return m
	}
	m.each = true
	list := e.node(def.Each.Node(), nil)
	switch {
	case list.HasUnknown() && list.Kind() != funcs.KindArray:
		r := e.instance(def, name+"[*]", -1, eachScope(list, -1))
		r.EachUnknown = true
		m.instances = []*Resource{r}
	case list.IsNone():
	case list.Kind() == funcs.KindArray:
		for i := range list.Len() {
			m.instances = append(m.instances, e.instance(def, name+"["+itoa(i)+"]", i, eachScope(list, i)))
		}
	default:
		e.report(CodeRuntime.New(def.Each.ValueRange(), "each of resource %q must be an array, got %s %s", name, article(list.Kind().String()), list.Kind()))
	}
	return m
}

// instance evaluates one resource instance.
func (e *evaluator) instance(def *schema.Resource, name string, index int, sc *scope) *Resource {
	r := &Resource{
		Name:          name,
		Template:      def.Name,
		Index:         index,
		Type:          def.Type.Text(),
		RemovalPolicy: def.RemovalPolicy.Text(),
		Symbol:        e.res.Lookup(analysis.ResourceSymbol, def.Name),
	}
	if r.RemovalPolicy == "" {
		r.RemovalPolicy = "delete"
	}
	for _, d := range def.DependsOnRefs {
		r.DependsOn = append(r.DependsOn, d.Value)
	}
	if def.Condition != nil {
		switch e.condition(def.Condition, sc) {
		case condFalse:
			r.Condition = Excluded
		case condUnknown:
			r.Condition = ConditionUnknown
		}
	}
	r.Spec = e.node(def.Spec.Node(), sc)
	if r.Spec.IsNone() {
		r.Spec = funcs.MapValue(funcs.NewMap(0))
	}
	meta := funcs.NewMap(4)
	if md := def.Metadata; md != nil {
		for _, f := range []struct {
			name  string
			field *schema.Field
		}{{"displayName", md.DisplayName}, {"labels", md.Labels}, {"annotations", md.Annotations}, {"custom", md.Custom}} {
			if f.field != nil {
				if v := e.node(f.field.Node(), sc); !v.IsNone() {
					meta.Set(f.name, v)
				}
			}
		}
	}
	r.Metadata = funcs.MapValue(meta)
	e.priorState(r)
	return r
}

type tri int

const (
	condTrue tri = iota
	condFalse
	condUnknown
)

// condition evaluates a condition to true, false or unknown.
func (e *evaluator) condition(c schema.Condition, sc *scope) tri {
	switch c := c.(type) {
	case *schema.ConditionExpr:
		v := e.node(c.Scalar, sc)
		if v.HasUnknown() {
			return condUnknown
		}
		b, ok := v.Bool()
		if !ok {
			e.report(CodeRuntime.New(c.Scalar.ValueRange, "a condition must be a boolean, got %s %s", article(v.Kind().String()), v.Kind()))
			return condUnknown
		}
		if b {
			return condTrue
		}
		return condFalse
	case *schema.ConditionOp:
		switch c.Op {
		case "not":
			if len(c.Operands) == 0 {
				return condUnknown
			}
			switch e.condition(c.Operands[0], sc) {
			case condTrue:
				return condFalse
			case condFalse:
				return condTrue
			}
			return condUnknown
		case "and", "or":
			short, other := condFalse, condTrue
			if c.Op == "or" {
				short, other = condTrue, condFalse
			}
			// Every operand is evaluated, so a mistake in one after the
			// deciding one is still reported.
			res := other
			for _, o := range c.Operands {
				switch e.condition(o, sc) {
				case short:
					res = short
				case condUnknown:
					if res != short {
						res = condUnknown
					}
				}
			}
			return res
		}
	}
	return condUnknown
}

// resourceRef returns the value ref, a reference to resource name, starts
// from and the accessors left to follow. An instance is a mapping of
// spec, metadata and state; state is only known after deployment unless
// the instance keeps its deployed state (see Reuse). An `each` resource
// takes an index first; without one it is the array of its instances
// (decision 17).
func (e *evaluator) resourceRef(name string, path []subst.Accessor, ref *subst.Ref) (funcs.Value, []subst.Accessor) {
	m := e.resource(name)
	if m.busy && !m.done {
		return funcs.Unknown("resources." + name + " (cycle)"), nil
	}
	if !m.each {
		if len(m.instances) == 0 {
			return funcs.None, path
		}
		return instanceRef(m.instances[0], path, ref)
	}
	if len(m.instances) == 1 && m.instances[0].EachUnknown {
		return funcs.Unknown("resources." + name), path
	}
	if len(path) > 0 {
		idx, ok := -1, false
		switch a := path[0].(type) {
		case *subst.IndexAccessor:
			idx, ok = a.Index, true
		case *subst.FirstAccessor:
			idx, ok = 0, true
		}
		if ok {
			if idx < 0 || idx >= len(m.instances) {
				e.report(CodeRuntime.New(path[0].Range(), "index %d is out of range: resource %q has %d instance%s", idx, name, len(m.instances), plural(len(m.instances))))
				return funcs.Unknown("resources." + name + " (failed)"), nil
			}
			return instanceRef(m.instances[idx], path[1:], ref)
		}
	}
	es := make([]funcs.Value, len(m.instances))
	for i, r := range m.instances {
		es[i] = instanceValue(r)
	}
	return funcs.Array(es), path
}

// instanceRef is where a reference reading path from instance r starts:
// a field of its deployed state (stateRef), its spec or its metadata
// (what reading them from instanceValue gives, without building it),
// or the whole instance.
func instanceRef(r *Resource, path []subst.Accessor, ref *subst.Ref) (funcs.Value, []subst.Accessor) {
	if v, rest, ok := stateRef(r, path, ref); ok {
		return v, rest
	}
	if r.Condition != Excluded && len(path) > 0 {
		switch name, _ := accessorName(path[0]); name {
		case "spec":
			return r.Spec, path[1:]
		case "metadata":
			return r.Metadata, path[1:]
		}
	}
	return instanceValue(r), path
}

// instanceValue is what references to a resource instance read.
func instanceValue(r *Resource) funcs.Value {
	if r.Condition == Excluded {
		return funcs.None
	}
	m := funcs.NewMap(3)
	m.Set("spec", r.Spec)
	m.Set("metadata", r.Metadata)
	m.Set("state", stateValue(r))
	return funcs.MapValue(m)
}

// eachScope binds elem and i for instance i of an each over list (-1: the
// list is unknown). Over a secret list both are sensitive, so that every
// value, hint and hover derived from them is masked.
func eachScope(list funcs.Value, i int) *scope {
	sc := &scope{elem: funcs.Unknown("elem"), i: funcs.Unknown("i")}
	if es, ok := list.Elems(); ok && i >= 0 && i < len(es) {
		sc.elem, sc.i = es[i], funcs.Int(int64(i))
	}
	if list.Sensitive() && (IsSensitiveLeaf(list) || list.IsUnknown()) {
		sc.elem, sc.i = sc.elem.WithSensitive(true), sc.i.WithSensitive(true)
	}
	return sc
}
