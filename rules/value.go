package rules

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/blueprint-ls/blueprint-ls/funcs"
)

// state is what is known of a field: written with a known value, not
// written, or only known after deployment.
type state uint8

const (
	present state = iota
	absent
	unknown
)

// tri is three-valued truth: a predicate over a value that is unknown
// until deploy is neither true nor false.
type tri uint8

const (
	no tri = iota
	yes
	maybe
)

func triOf(b bool) tri {
	if b {
		return yes
	}
	return no
}

// seg is one step of a path: a key, or an index (key "" and idx >= 0).
type seg struct {
	key string
	idx int
}

// star is the pattern step that stands for every element of a list.
const star = "[*]"

// field is one value found at a path, with the concrete path it was found
// at (for the finding's position) and what is known of it. An absent or
// unknown field's path stops where the knowledge stops: at the deepest
// written ancestor, or at the unknown value.
type field struct {
	v     funcs.Value
	path  []seg
	want  []string // the pattern's remaining keys, for an absent field's message
	state state
	// pat, on an absent field of a pattern without [*], is the pattern,
	// whose texts fullPath reads.
	pat *compiled
}

// splitPath reads "a.b[*].c" into its steps.
func splitPath(p string) []string {
	var out []string
	for _, part := range strings.Split(p, ".") {
		if k, ok := strings.CutSuffix(part, star); ok {
			if k != "" {
				out = append(out, k)
			}
			out = append(out, star)
			continue
		}
		out = append(out, part)
	}
	return out
}

// lookup finds every field at pattern under v, expanding [*] over list
// elements. A missing key, or an empty list under [*], yields one absent
// field; an unknown value on the way yields one unknown field.
func lookup(v funcs.Value, pattern []string, at []seg) []field {
	if v.IsUnknown() {
		return []field{{v: v, path: at, state: unknown}}
	}
	if len(pattern) == 0 {
		if v.IsNone() {
			return []field{{path: at, state: absent}}
		}
		return []field{{v: v, path: at, state: present}}
	}
	step := pattern[0]
	if step == star {
		es, ok := v.Elems()
		if !ok || len(es) == 0 {
			if v.IsNone() || ok {
				return []field{{path: at, want: pattern, state: absent}}
			}
			return []field{{v: v, path: at, state: unknown}} // not a list: the analysis reports it
		}
		var out []field
		for i, e := range es {
			out = append(out, lookup(e, pattern[1:], appendSeg(at, seg{idx: i}))...)
		}
		return out
	}
	m, ok := v.Map()
	if !ok {
		if v.IsNone() {
			return []field{{path: at, want: pattern, state: absent}}
		}
		return []field{{v: v, path: at, state: unknown}} // not a mapping: the analysis reports it
	}
	e, ok := getFold(m, step)
	if !ok || e.IsNone() {
		return []field{{path: at, want: pattern, state: absent}}
	}
	return lookup(e, pattern[1:], appendSeg(at, seg{key: step, idx: -1}))
}

// getFold reads key, or a key differing only in the case of its first
// letter (a CloudFormation spelling).
func getFold(m *funcs.Map, key string) (funcs.Value, bool) {
	if v, ok := m.Get(key); ok {
		return v, true
	}
	if key == "" {
		return funcs.None, false
	}
	c := key[0]
	switch {
	case c >= utf8.RuneSelf:
		return m.Get(strings.ToUpper(key[:1]) + key[1:])
	case c < 'a' || c > 'z':
		return funcs.None, false // its upper case is itself
	}
	// The key with its first letter in upper case, found without making
	// it: a rule asks for fields most specs leave out.
	c -= 'a' - 'A'
	for i, k := range m.Keys() {
		if len(k) == len(key) && k[0] == c && k[1:] == key[1:] {
			return m.Values()[i], true
		}
	}
	return funcs.None, false
}

func appendSeg(at []seg, s seg) []seg {
	out := make([]seg, len(at), len(at)+1)
	copy(out, at)
	return append(out, s)
}

// pathText renders a concrete path: a.b[0].c.
func pathText(p []seg) string {
	var b strings.Builder
	for _, s := range p {
		if s.key == "" && s.idx >= 0 {
			b.WriteString("[" + strconv.Itoa(s.idx) + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(s.key)
	}
	return b.String()
}

// boolOf reads a boolean (or its CloudFormation string form).
func boolOf(v funcs.Value) (bool, bool) {
	if b, ok := v.Bool(); ok {
		return b, true
	}
	if s, ok := v.Str(); ok {
		switch strings.ToLower(s) {
		case "true":
			return true, true
		case "false":
			return false, true
		}
	}
	return false, false
}

// numOf reads a number (or its string form).
func numOf(v funcs.Value) (float64, bool) {
	if n, ok := v.Int(); ok {
		return float64(n), true
	}
	if f, ok := v.Float(); ok {
		return f, true
	}
	if s, ok := v.Str(); ok {
		if f, err := strconv.ParseFloat(strings.TrimSpace(s), 64); err == nil && !math.IsNaN(f) {
			return f, true
		}
	}
	return 0, false
}

// strOf reads a string, or a scalar's text.
func strOf(v funcs.Value) (string, bool) {
	if s, ok := v.Str(); ok {
		return s, true
	}
	if n, ok := v.Int(); ok {
		return strconv.FormatInt(n, 10), true
	}
	if b, ok := v.Bool(); ok {
		return strconv.FormatBool(b), true
	}
	return "", false
}

// strings returns the strings of a string or a list of strings (IAM's
// Action and Resource take either); known is false when any is unknown.
func stringsOf(v funcs.Value) (out []string, known bool) {
	if v.IsUnknown() {
		return nil, false
	}
	if s, ok := strOf(v); ok {
		return []string{s}, true
	}
	es, ok := v.Elems()
	if !ok {
		return nil, !v.HasUnknown()
	}
	known = true
	for _, e := range es {
		if s, ok := strOf(e); ok {
			out = append(out, s)
		} else if e.IsUnknown() || e.HasUnknown() {
			known = false
		}
	}
	return out, known
}

// describe renders a known scalar for a message.
func describe(v funcs.Value) string {
	if v.Sensitive() {
		return "a secret value"
	}
	switch v.Kind() {
	case funcs.KindString:
		s, _ := v.Str()
		return strconv.Quote(s)
	case funcs.KindArray:
		return "a list"
	case funcs.KindMap:
		return "a mapping"
	}
	s, _ := strOf(v)
	if f, ok := v.Float(); ok && v.Kind() == funcs.KindFloat {
		s = strconv.FormatFloat(f, 'g', -1, 64)
	}
	return s
}
