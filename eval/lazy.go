package eval

import (
	"github.com/blueprint-ls/blueprint-ls/funcs"
	"github.com/blueprint-ls/blueprint-ls/schema"
)

// lazyInstance is what a lazy evaluation (Options.Lazy) has left of a
// resource instance: each top-level field of its spec, and each of its
// metadata, is evaluated when something first reads it (a reference, a
// rule) and kept. Fields are so evaluated in another order than an eager
// evaluation's, which gives the same values as long as no definition
// reads itself through others (lazy evaluation is turned off when the
// analysis reports a cycle); a field read through itself is unknown, as
// a cycle is.
type lazyInstance struct {
	e    *evaluator
	sc   *scope
	name string // the instance's name, for a cycle's unknown
	// spec is the spec's mapping; nil when the spec is not one, which
	// is then evaluated at once (Spec).
	spec     *schema.Mapping
	md       *schema.ResourceMetadata
	specFull bool // Spec holds every field
	metaFull bool // Metadata holds every field
	// vals are the fields evaluated or being evaluated, few of them:
	// the entries of spec by index, metadata field i (metadataFields) as
	// -1-i.
	vals []lazyValue
}

// lazyValue is one field of a lazy evaluation.
type lazyValue struct {
	at    int
	state uint8 // valueBusy, valueDone
	v     funcs.Value
}

const (
	valueBusy = 1
	valueDone = 2
)

// metadataFields are the fields of a resource's metadata, in the order
// its mapping lists them.
var metadataFields = [...]string{"displayName", "labels", "annotations", "custom"}

func metadataField(md *schema.ResourceMetadata, i int) *schema.Field {
	if md == nil {
		return nil
	}
	return [...]*schema.Field{md.DisplayName, md.Labels, md.Annotations, md.Custom}[i]
}

// Field returns the spec's top-level field key (none when it is not
// written or is none), evaluating it on first read when the evaluation
// is lazy; isMap is false when the spec is not a mapping (read Spec
// then). Safe for concurrent use once Eval has returned.
func (r *Resource) Field(key string) (v funcs.Value, isMap bool) {
	l := r.lazy
	if l == nil || l.spec == nil {
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

// FieldOr is Field(key), or Field(alt) when that is none and alt is
// not "" (a second spelling of the key, as the rules read CloudFormation
// names), with one pass over a lazily evaluated spec's keys instead of
// two: the rules ask every resource for fields most specs leave out.
// Safe for concurrent use once Eval has returned.
func (r *Resource) FieldOr(key, alt string) (v funcs.Value, isMap bool) {
	l := r.lazy
	if l == nil || l.spec == nil {
		v, isMap = r.Field(key)
		if isMap && v.IsNone() && alt != "" {
			v, _ = r.Field(alt)
		}
		return v, isMap
	}
	hasKey, hasAlt := false, false
	for _, en := range l.spec.Entries {
		if en.Key == nil {
			continue
		}
		switch k := en.Key.Value; {
		case k == key:
			hasKey = true
		case alt != "" && k == alt:
			hasAlt = true
		}
	}
	if !hasKey && !hasAlt {
		return funcs.None, true
	}
	l.e.mu.Lock()
	defer l.e.mu.Unlock()
	v = funcs.None
	if hasKey {
		v = l.field(key)
	}
	if v.IsNone() && hasAlt {
		v = l.field(alt)
	}
	return v, true
}

// WrittenSpec returns the spec's mapping as written when the evaluation
// is lazy and reads the spec's fields from it: Field and FieldOr of a
// key none of its entries has are none. Nil otherwise.
func (r *Resource) WrittenSpec() *schema.Mapping {
	if l := r.lazy; l != nil {
		return l.spec
	}
	return nil
}

// FullSpec returns the whole spec (Spec), evaluating the fields a lazy
// evaluation has left. Safe for concurrent use once Eval has returned.
func (r *Resource) FullSpec() funcs.Value {
	l := r.lazy
	if l == nil || l.spec == nil {
		return r.Spec
	}
	l.e.mu.Lock()
	defer l.e.mu.Unlock()
	return l.fullSpec(r)
}

// MetadataField returns the metadata's field key (displayName, labels,
// annotations or custom; none when it is not written), evaluating it on
// first read when the evaluation is lazy. Safe for concurrent use once
// Eval has returned.
func (r *Resource) MetadataField(key string) funcs.Value {
	l := r.lazy
	if l == nil {
		m, _ := r.Metadata.Map()
		v, _ := m.Get(key)
		return v
	}
	if !l.metadataWritten(key) {
		// Without the lock, which the rules' goroutines would take for
		// every resource (most write no custom metadata).
		return funcs.None
	}
	l.e.mu.Lock()
	defer l.e.mu.Unlock()
	return l.metadataKey(key)
}

// metadataWritten reports whether the metadata has field key written
// (the definition, which evaluation never changes, tells).
func (l *lazyInstance) metadataWritten(key string) bool {
	for i, k := range metadataFields {
		if k == key {
			return metadataField(l.md, i) != nil
		}
	}
	return false
}

// FullMetadata returns the whole metadata (Metadata), evaluating the
// fields a lazy evaluation has left. Safe for concurrent use once Eval
// has returned.
func (r *Resource) FullMetadata() funcs.Value {
	l := r.lazy
	if l == nil {
		return r.Metadata
	}
	l.e.mu.Lock()
	defer l.e.mu.Unlock()
	return l.fullMetadata(r)
}

// WrittenMapping reports whether the spec, read along keys (each key,
// or upper[i] when no entry has it and upper[i] is not ""), reaches a
// mapping written as one: reading the evaluated spec there gives a
// known mapping, which a lazy evaluation so need not evaluate to tell.
// False when it can not tell without evaluating (a value written as a
// substitution, or no lazy evaluation). Safe for concurrent use.
func (r *Resource) WrittenMapping(keys, upper []string) bool {
	l := r.lazy
	if l == nil || l.spec == nil {
		return false
	}
	m := l.spec
	for i, k := range keys {
		n := lastEntry(m, k)
		if n == nil && upper[i] != "" {
			n = lastEntry(m, upper[i])
		}
		next, ok := n.(*schema.Mapping)
		if !ok {
			return false
		}
		m = next
	}
	return true
}

// lastEntry is the value of m's last entry key (the one an evaluated
// mapping holds, unless it is none), nil when m has none.
func lastEntry(m *schema.Mapping, key string) schema.Node {
	var n schema.Node
	for _, en := range m.Entries {
		if en.Key != nil && en.Key.Value == key {
			n = en.Value
		}
	}
	return n
}

// written reports whether the spec's mapping has an entry key.
func (l *lazyInstance) written(key string) bool {
	for _, en := range l.spec.Entries {
		if en.Key != nil && en.Key.Value == key {
			return true
		}
	}
	return false
}

// field is what the eager spec's mapping holds at key: the last entry
// key that is not none (funcs.Map.Set keeps the last).
func (l *lazyInstance) field(key string) funcs.Value {
	v := funcs.None
	for i, en := range l.spec.Entries {
		if en.Key == nil || en.Key.Value != key {
			continue
		}
		if ev := l.value(i, en.Value); !ev.IsNone() {
			v = ev
		}
	}
	return v
}

// value evaluates n, the node of field at, once.
func (l *lazyInstance) value(at int, n schema.Node) funcs.Value {
	for _, lv := range l.vals {
		if lv.at != at {
			continue
		}
		if lv.state == valueDone {
			return lv.v
		}
		return funcs.Unknown("resources." + l.name + " (cycle)")
	}
	l.vals = append(l.vals, lazyValue{at: at, state: valueBusy})
	l.e.depth++
	v := l.e.node(n, l.sc)
	l.e.depth--
	for i := range l.vals { // the evaluation may have added others
		if l.vals[i].at == at {
			l.vals[i].v, l.vals[i].state = v, valueDone
		}
	}
	return v
}

// fullSpec builds the spec as the eager evaluation does (node), from the
// fields evaluated so far and the rest.
func (l *lazyInstance) fullSpec(r *Resource) funcs.Value {
	if l.specFull || l.spec == nil {
		return r.Spec
	}
	m := funcs.NewMap(len(l.spec.Entries))
	for i, en := range l.spec.Entries {
		if en.Key == nil {
			continue
		}
		if v := l.value(i, en.Value); !v.IsNone() {
			m.Set(en.Key.Value, v)
		}
	}
	r.Spec, l.specFull = funcs.MapValue(m), true
	return r.Spec
}

// metadataKey is what the eager metadata's mapping holds at key.
func (l *lazyInstance) metadataKey(key string) funcs.Value {
	for i, k := range metadataFields {
		if k == key && metadataField(l.md, i) != nil {
			return l.metaField(i)
		}
	}
	return funcs.None
}

// metaField evaluates metadata field i (metadataFields), which is
// written.
func (l *lazyInstance) metaField(i int) funcs.Value {
	return l.value(-1-i, metadataField(l.md, i).Node())
}

// fullMetadata builds the metadata as instance does.
func (l *lazyInstance) fullMetadata(r *Resource) funcs.Value {
	if l.metaFull {
		return r.Metadata
	}
	m := funcs.NewMap(len(metadataFields))
	for i, k := range metadataFields {
		if metadataField(l.md, i) == nil {
			continue
		}
		if v := l.metaField(i); !v.IsNone() {
			m.Set(k, v)
		}
	}
	r.Metadata, l.metaFull = funcs.MapValue(m), true
	return r.Metadata
}

// lazyOK reports whether this evaluation may leave specs to be evaluated
// when read: asked for, a whole evaluation without prior state (whose
// reuse decision compares whole specs), and no reference cycle, whose
// unknowns depend on the order of evaluation.
func (e *evaluator) lazyOK() bool {
	if !e.opts.Lazy || e.in.State != nil || e.opts.Partial || e.opts.Known != nil {
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
