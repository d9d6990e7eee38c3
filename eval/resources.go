package eval

import (
	"encoding/json"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/funcs"
	"github.com/blueprint-ls/blueprint-ls/providers/registry"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/subst"
)

// resourceMemo is one resource definition, expanded into its instances
// once.
type resourceMemo struct {
	busy, done bool
	each       bool
	instances  []*Resource
	one        [1]*Resource // instances without each
}

// resource evaluates a resource definition: each expands it, the
// condition decides each instance's presence.
func (e *evaluator) resource(name string) *resourceMemo {
	return e.resourceDef(name, nil)
}

// resourceDef is resource for the definition def of name, nil to look
// it up (run, going through the definitions, has each at hand).
func (e *evaluator) resourceDef(name string, def *schema.Resource) *resourceMemo {
	m := e.resources[name]
	if m == nil {
		m = &resourceMemo{}
		e.resources[name] = m
	}
	if m.done || m.busy {
		return m
	}
	if def == nil {
		def = e.bp.Resources.Get(name)
	}
	if def == nil {
		return m
	}
	if known := e.opts.Known; known != nil && !e.listed[name] {
		if rs, ok := known(name); ok {
			m.instances, m.each, m.done = rs, def.Each != nil, true
			return m
		}
	}
	m.busy = true
	e.depth++
	defer func() { m.busy, m.done = false, true; e.depth-- }()
	if def.Each == nil {
		m.one[0] = e.instance(def, name, -1, nil)
		m.instances = m.one[:]
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
	var r *Resource
	var l *lazyInstance
	if e.lazy {
		both := &struct { // one allocation
			r Resource
			l lazyInstance
		}{}
		r, l = &both.r, &both.l
	} else {
		r = &Resource{}
	}
	*r = Resource{
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
	if l != nil {
		*l = lazyInstance{e: e, sc: sc, name: name, md: def.Metadata}
		r.lazy = l
		if m, ok := def.Spec.Node().(*schema.Mapping); ok {
			l.spec = m
		} else {
			r.Spec = e.specNode(def, sc)
		}
	} else {
		r.Spec = e.specNode(def, sc)
		r.Metadata = e.metadata(def, sc)
	}
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
			e.report(CodeRuntime.New(c.Scalar.ValueRange(), "a condition must be a boolean, got %s %s", article(v.Kind().String()), v.Kind()))
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
func (e *evaluator) resourceRef(name string, path []subst.Accessor, ref *subst.Ref) (funcs.Value, []subst.Accessor, *Resource, []subst.Accessor) {
	m := e.resource(name)
	if m.busy && !m.done {
		return funcs.Unknown("resources." + name + " (cycle)"), nil, nil, nil
	}
	if !m.each {
		if len(m.instances) == 0 {
			return funcs.None, path, nil, nil
		}
		v, rest := instanceRef(m.instances[0], path, ref)
		return v, rest, m.instances[0], path
	}
	if len(m.instances) == 1 && m.instances[0].EachUnknown {
		return funcs.Unknown("resources." + name), path, nil, nil
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
				return funcs.Unknown("resources." + name + " (failed)"), nil, nil, nil
			}
			v, rest := instanceRef(m.instances[idx], path[1:], ref)
			return v, rest, m.instances[idx], path[1:]
		}
	}
	es := make([]funcs.Value, len(m.instances))
	for i, r := range m.instances {
		es[i] = instanceValue(r)
	}
	return funcs.Array(es), path, nil, nil
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
			if l := r.lazy; l != nil && l.spec != nil && len(path) > 1 {
				// What path would read from the spec's mapping.
				if key, ok := accessorName(path[1]); ok {
					return l.field(key), path[2:]
				}
			}
			return specValue(r), path[1:]
		case "metadata":
			if l := r.lazy; l != nil {
				if len(path) > 1 {
					if key, ok := accessorName(path[1]); ok {
						return l.metadataKey(key), path[2:]
					}
				}
				return l.fullMetadata(r), path[1:]
			}
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
	m.Set("spec", specValue(r))
	m.Set("metadata", metadataValue(r))
	m.Set("state", stateValue(r))
	return funcs.MapValue(m)
}

// metadataValue is r's whole metadata, evaluated by now if the
// evaluation is lazy.
func metadataValue(r *Resource) funcs.Value {
	if l := r.lazy; l != nil {
		return l.fullMetadata(r)
	}
	return r.Metadata
}

// specNode evaluates a resource's spec at once.
func (e *evaluator) specNode(def *schema.Resource, sc *scope) funcs.Value {
	v := e.node(def.Spec.Node(), sc)
	if v.IsNone() {
		return funcs.MapValue(funcs.NewMap(0))
	}
	return v
}

// metadata evaluates a resource's metadata at once.
func (e *evaluator) metadata(def *schema.Resource, sc *scope) funcs.Value {
	meta := funcs.NewMap(len(metadataFields))
	for i, k := range metadataFields {
		if f := metadataField(def.Metadata, i); f != nil {
			if v := e.node(f.Node(), sc); !v.IsNone() {
				meta.Set(k, v)
			}
		}
	}
	return funcs.MapValue(meta)
}

// specValue is r's whole spec, evaluated by now if the evaluation is
// lazy.
func specValue(r *Resource) funcs.Value {
	if l := r.lazy; l != nil {
		return l.fullSpec(r)
	}
	return r.Spec
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

// CodeMissingField is a reference to a spec field the blueprint leaves
// out, which its provider neither defaults nor computes.
var CodeMissingField = source.NewCode("eval-missing-field", source.Error,
	"A reference reads a spec field the blueprint leaves out, and the resource type neither gives it a default nor computes it when it is omitted (computedWhenOmitted): the deploy engine fails on the reference when it stages the change.",
	"name: ${resources.queue.spec.queueName}  # queueName is not set on queue")

// omittedSpecField answers a reference into the spec of inst that names
// a field of its type the blueprint leaves out: known after deploy when
// the provider computes the field when it is omitted
// (registry.ComputedWhenOmitted), its default when the schema gives one,
// otherwise a CodeMissingField error at the field's accessor, as the
// deploy engine's change staging fails there. ok is false for every
// other reference (a field that is set, an index, an unknown spec, a type
// the registry does not know), which path follows as usual.
func (e *evaluator) omittedSpecField(inst *Resource, path []subst.Accessor, ref *subst.Ref) (v funcs.Value, ok bool) {
	if inst == nil || len(path) < 2 {
		return funcs.None, false
	}
	if n, _ := accessorName(path[0]); n != "spec" {
		return funcs.None, false
	}
	rt, found := e.opts.Registry.ResourceType(inst.Type)
	if !found || rt == nil || rt.Err != nil {
		return funcs.None, false
	}
	v = inst.Spec
	names := make([]string, 0, len(path)-1)
	for i, a := range path[1:] {
		switch a := a.(type) {
		case *subst.FieldAccessor, *subst.QuotedAccessor:
			name, _ := accessorName(a)
			names = append(names, name)
			var next funcs.Value
			var set bool
			if l := inst.lazy; i == 0 && l != nil && l.spec != nil {
				next = l.field(name)
				set = !next.IsNone()
			} else {
				m, isMap := v.Map()
				if !isMap {
					return funcs.None, false
				}
				next, set = m.Get(name)
			}
			if set && !next.IsNone() {
				v = next
				continue
			}
			f, known := rt.LookupSpec(names)
			switch {
			case !known:
				return funcs.None, false
			case f.Marks.Has(registry.ComputedWhenOmitted):
				return funcs.Unknown(subst.Print(ref)), true
			case f.Schema != nil && f.Schema.Default != nil:
				if data, err := json.Marshal(f.Schema.Default); err == nil {
					if d, err := funcs.ParseJSON(data); err == nil {
						return e.path(d, path[len(names)+1:], ref), true
					}
				}
				return funcs.None, false
			}
			e.report(CodeMissingField.New(a.Range(), "%s is not set in the blueprint, and %s neither gives it a default nor computes it when it is omitted: the deploy engine fails on this reference",
				"resources."+inst.Name+".spec."+strings.Join(names, "."), inst.Type))
			return funcs.Unknown(subst.Print(ref) + " (failed)"), true
		default:
			return funcs.None, false
		}
	}
	return funcs.None, false
}
