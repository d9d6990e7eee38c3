package funcs

import (
	"math"
	"strconv"
)

// Kind is the runtime kind of a Value.
type Kind uint8

// The kinds of runtime values. The zero Value is none.
const (
	KindNone Kind = iota
	KindString
	KindInteger
	KindFloat
	KindBoolean
	KindBinary
	KindArray
	KindMap
	KindFunc
	KindUnknown
)

var kindNames = [...]string{"none", "string", "integer", "float", "boolean", "binary", "array", "mapping", "function", "unknown"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// value flags; containers fold their elements' flags in at construction so
// that asking "is anything in here sensitive or unknown" is O(1).
const (
	flagSensitive  uint8 = 1 << iota // this value or something it was derived from is a secret
	flagHasUnknown                   // this value is unknown or contains an unknown
)

// Value is a runtime value of the substitution language. It is a small
// immutable tagged struct: scalars need no allocation, arrays, mappings and
// functions share their (never mutated) contents. The zero Value is none.
type Value struct {
	kind  Kind
	flags uint8
	num   uint64 // integer bits, float bits or boolean
	str   string // string, binary bytes, or an unknown value's description
	ref   any    // *arrayData, *Map or *Function
}

type arrayData struct{ elems []Value }

// None is the none value: the explicit absence of a value.
var None = Value{}

// String returns a string value.
func String(s string) Value { return Value{kind: KindString, str: s} }

// Int returns an integer value.
func Int(n int64) Value { return Value{kind: KindInteger, num: uint64(n)} }

// Float returns a float value.
func Float(f float64) Value { return Value{kind: KindFloat, num: math.Float64bits(f)} }

// Bool returns a boolean value.
func Bool(b bool) Value {
	v := Value{kind: KindBoolean}
	if b {
		v.num = 1
	}
	return v
}

// Binary returns a binary value holding a copy of b.
func Binary(b []byte) Value { return Value{kind: KindBinary, str: string(b)} }

// Unknown returns a value only known after deployment. Why describes it for
// people ("resources.db.state.endpoint"); it may be empty.
func Unknown(why string) Value { return Value{kind: KindUnknown, flags: flagHasUnknown, str: why} }

// Array returns an array holding elems. The slice is owned by the value
// from now on: callers must not modify it afterwards.
func Array(elems []Value) Value {
	v := Value{kind: KindArray, ref: &arrayData{elems: elems}}
	for i := range elems {
		v.flags |= elems[i].flags
	}
	return v
}

// MapValue returns a mapping value.
func MapValue(m *Map) Value {
	if m == nil {
		m = &Map{}
	}
	return Value{kind: KindMap, flags: m.flags, ref: m}
}

// FuncValue returns a function value.
func FuncValue(f *Function) Value {
	v := Value{kind: KindFunc, ref: f}
	if f.Sensitive {
		v.flags |= flagSensitive
	}
	return v
}

// Kind returns the value's kind.
func (v Value) Kind() Kind { return v.kind }

// IsNone reports whether v is none.
func (v Value) IsNone() bool { return v.kind == KindNone }

// IsUnknown reports whether v itself is unknown.
func (v Value) IsUnknown() bool { return v.kind == KindUnknown }

// HasUnknown reports whether v is unknown or contains an unknown value.
func (v Value) HasUnknown() bool { return v.flags&flagHasUnknown != 0 }

// Sensitive reports whether v is, contains or was derived from a secret.
func (v Value) Sensitive() bool { return v.flags&flagSensitive != 0 }

// WithSensitive returns v marked (or unmarked) as sensitive. Marking a
// container marks only the container: everything read out of it through a
// function becomes sensitive because its argument was.
func (v Value) WithSensitive(s bool) Value {
	if s {
		v.flags |= flagSensitive
	} else {
		v.flags &^= flagSensitive
	}
	return v
}

// Str returns the string of a string value.
func (v Value) Str() (string, bool) { return v.str, v.kind == KindString }

// Int returns the integer of an integer value.
func (v Value) Int() (int64, bool) { return int64(v.num), v.kind == KindInteger }

// Float returns the number of an integer or float value as a float.
func (v Value) Float() (float64, bool) {
	switch v.kind {
	case KindFloat:
		return math.Float64frombits(v.num), true
	case KindInteger:
		return float64(int64(v.num)), true
	}
	return 0, false
}

// Bool returns the boolean of a boolean value.
func (v Value) Bool() (bool, bool) { return v.num != 0, v.kind == KindBoolean }

// Bytes returns a copy of the bytes of a binary value.
func (v Value) Bytes() ([]byte, bool) {
	if v.kind != KindBinary {
		return nil, false
	}
	return []byte(v.str), true
}

// Elems returns the elements of an array value; callers must not modify
// the slice.
func (v Value) Elems() ([]Value, bool) {
	if v.kind != KindArray {
		return nil, false
	}
	return v.ref.(*arrayData).elems, true
}

// Len returns the number of elements of an array or entries of a mapping.
func (v Value) Len() int {
	switch v.kind {
	case KindArray:
		return len(v.ref.(*arrayData).elems)
	case KindMap:
		return v.ref.(*Map).Len()
	}
	return 0
}

// Map returns the mapping of a mapping value.
func (v Value) Map() (*Map, bool) {
	if v.kind != KindMap {
		return nil, false
	}
	return v.ref.(*Map), true
}

// Func returns the function of a function value.
func (v Value) Func() (*Function, bool) {
	if v.kind != KindFunc {
		return nil, false
	}
	return v.ref.(*Function), true
}

// UnknownReason returns what an unknown value stands for.
func (v Value) UnknownReason() string {
	if v.kind == KindUnknown {
		return v.str
	}
	return ""
}

// isEmpty reports the values first() skips: none, "" and [].
func (v Value) isEmpty() bool {
	switch v.kind {
	case KindNone:
		return true
	case KindString:
		return v.str == ""
	case KindArray:
		return v.Len() == 0
	}
	return false
}

// Map is a mapping from string keys to values that keeps insertion order
// (the order of a JSON document, of named arguments, of a YAML mapping).
// A Map is immutable once wrapped in a Value.
type Map struct {
	keys  []string
	vals  []Value
	index map[string]int // built for larger maps only
	flags uint8
}

const mapIndexThreshold = 8

// NewMap returns an empty mapping with room for n entries. A small
// mapping (most of a blueprint's) is one allocation: its entries live
// beside it.
func NewMap(n int) *Map {
	switch {
	case n <= 0:
		return &Map{}
	case n <= 2:
		return withRoom(n, func(k *[2]string) []string { return k[:] }, func(v *[2]Value) []Value { return v[:] })
	case n <= 4:
		return withRoom(n, func(k *[4]string) []string { return k[:] }, func(v *[4]Value) []Value { return v[:] })
	case n <= mapIndexThreshold:
		return withRoom(n, func(k *[mapIndexThreshold]string) []string { return k[:] }, func(v *[mapIndexThreshold]Value) []Value { return v[:] })
	}
	return &Map{keys: make([]string, 0, n), vals: make([]Value, 0, n)}
}

// withRoom is a mapping for n entries allocated with the room for them:
// arrays K and V, which keys and vals slice.
func withRoom[K, V any](n int, keys func(*K) []string, vals func(*V) []Value) *Map {
	w := new(struct {
		m Map
		k K
		v V
	})
	w.m.keys, w.m.vals = keys(&w.k)[:0:n], vals(&w.v)[:0:n]
	return &w.m
}

// Set adds or replaces key. A replaced key keeps its first position. Set
// is for building a mapping before it is wrapped in a Value.
func (m *Map) Set(key string, v Value) {
	if i, ok := m.find(key); ok {
		m.vals[i] = v
		m.flags = 0
		for _, x := range m.vals {
			m.flags |= x.flags
		}
		return
	}
	m.keys = append(m.keys, key)
	m.vals = append(m.vals, v)
	m.flags |= v.flags
	if m.index != nil {
		m.index[key] = len(m.keys) - 1
	} else if len(m.keys) > mapIndexThreshold {
		m.index = make(map[string]int, len(m.keys)*2)
		for i, k := range m.keys {
			m.index[k] = i
		}
	}
}

func (m *Map) find(key string) (int, bool) {
	if m == nil {
		return 0, false
	}
	if m.index != nil {
		i, ok := m.index[key]
		return i, ok
	}
	for i, k := range m.keys {
		if k == key {
			return i, true
		}
	}
	return 0, false
}

// Get returns the value for key.
func (m *Map) Get(key string) (Value, bool) {
	if i, ok := m.find(key); ok {
		return m.vals[i], true
	}
	return None, false
}

// Len returns the number of entries.
func (m *Map) Len() int {
	if m == nil {
		return 0
	}
	return len(m.keys)
}

// Keys returns the keys in order; callers must not modify the slice.
func (m *Map) Keys() []string {
	if m == nil {
		return nil
	}
	return m.keys
}

// Values returns the values in key order; callers must not modify the slice.
func (m *Map) Values() []Value {
	if m == nil {
		return nil
	}
	return m.vals
}

// At returns the i-th entry.
func (m *Map) At(i int) (string, Value) { return m.keys[i], m.vals[i] }
