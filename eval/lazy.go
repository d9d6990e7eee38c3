package eval

import (
	"github.com/blueprint-ls/blueprint-ls/funcs"
	"github.com/blueprint-ls/blueprint-ls/schema"
)

// lazySpec is the spec of a resource instance of a lazy evaluation
// (Options.Lazy): each top-level field is evaluated when something first
// reads it (a reference, a rule) and kept. Its fields are evaluated in
// another order than an eager evaluation's, which gives the same values
// as long as no definition reads itself through others (lazy evaluation
// is turned off when the analysis reports a cycle); a field read through
// itself is unknown, as a cycle is.
type lazySpec struct {
	e     *evaluator
	m     *schema.Mapping
	sc    *scope
	name  string // the instance's name, for a cycle's unknown
	vals  []funcs.Value
	state []uint8 // per entry of m: 0 not evaluated, entryBusy, entryDone
	full  bool    // Resource.Spec holds every field
}

const (
	entryBusy = 1
	entryDone = 2
)

// Field returns the spec's top-level field key (none when it is not
// written or is none), evaluating it on first read when the evaluation
// is lazy; isMap is false when the spec is not a mapping (read Spec
// then). Safe for concurrent use once Eval has returned.
func (r *Resource) Field(key string) (v funcs.Value, isMap bool) {
	l := r.lazy
	if l == nil {
		m, ok := r.Spec.Map()
		if !ok {
			return funcs.None, false
		}
		v, _ = m.Get(key)
		return v, true
	}
	if !l.written(key) {
		return funcs.None, true // most fields a rule asks for are not written
	}
	l.e.mu.Lock()
	defer l.e.mu.Unlock()
	return l.field(key), true
}

// FullSpec returns the whole spec (Spec), evaluating the fields a lazy
// evaluation has left. Safe for concurrent use once Eval has returned.
func (r *Resource) FullSpec() funcs.Value {
	l := r.lazy
	if l == nil {
		return r.Spec
	}
	l.e.mu.Lock()
	defer l.e.mu.Unlock()
	return l.fullSpec(r)
}

// written reports whether the spec's mapping has an entry key.
func (l *lazySpec) written(key string) bool {
	for _, en := range l.m.Entries {
		if en.Key != nil && en.Key.Value == key {
			return true
		}
	}
	return false
}

// field is what the eager spec's mapping holds at key: the last entry
// key that is not none (funcs.Map.Set keeps the last).
func (l *lazySpec) field(key string) funcs.Value {
	v := funcs.None
	for i, en := range l.m.Entries {
		if en.Key == nil || en.Key.Value != key {
			continue
		}
		if ev := l.entry(i); !ev.IsNone() {
			v = ev
		}
	}
	return v
}

// entry evaluates the value of entry i once.
func (l *lazySpec) entry(i int) funcs.Value {
	switch l.state[i] {
	case entryDone:
		return l.vals[i]
	case entryBusy:
		return funcs.Unknown("resources." + l.name + " (cycle)")
	}
	l.state[i] = entryBusy
	l.e.depth++
	v := l.e.node(l.m.Entries[i].Value, l.sc)
	l.e.depth--
	l.vals[i], l.state[i] = v, entryDone
	return v
}

// fullSpec builds the spec as the eager evaluation does (node), from the
// fields evaluated so far and the rest.
func (l *lazySpec) fullSpec(r *Resource) funcs.Value {
	if l.full {
		return r.Spec
	}
	m := funcs.NewMap(len(l.m.Entries))
	for i, en := range l.m.Entries {
		if en.Key == nil {
			continue
		}
		if v := l.entry(i); !v.IsNone() {
			m.Set(en.Key.Value, v)
		}
	}
	r.Spec, l.full = funcs.MapValue(m), true
	return r.Spec
}

// lazyOK reports whether this evaluation may leave specs to be evaluated
// when read: asked for, a whole evaluation without prior state (whose
// reuse decision compares whole specs), and no reference cycle, whose
// unknowns depend on the order of evaluation.
func (e *evaluator) lazyOK() bool {
	if !e.opts.Lazy || e.in.State != nil || e.opts.Resources != nil || e.opts.Known != nil {
		return false
	}
	for _, d := range e.res.Diagnostics {
		if d.Code == "cycle" || d.Code == "include-cycle" {
			return false
		}
	}
	return true
}

// HasSecrets reports whether any value of the evaluation may be
// sensitive: only secret variables and values (and what a child
// blueprint exports) make one so.
func (b *Blueprint) HasSecrets() bool {
	bp := b.Result.Blueprint
	if bp == nil {
		return false
	}
	if bp.Include.Len() > 0 {
		return true
	}
	for _, v := range bp.Variables.Items() {
		if v.Secret.Bool() {
			return true
		}
	}
	for _, v := range bp.Values.Items() {
		if v.Secret.Bool() {
			return true
		}
	}
	return false
}
