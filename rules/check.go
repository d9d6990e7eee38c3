package rules

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/blueprint-ls/blueprint-ls/eval"
	"github.com/blueprint-ls/blueprint-ls/funcs"
)

// subject is one resource instance under one rule.
type subject struct {
	rule     *Rule
	res      *eval.Resource
	params   map[string]string
	findings []finding
	one1     [1]field // what get returns for a pattern without [*]
	// tops are the spec's top-level fields read so far for res (reset
	// with it): a resource's rules read the same few fields many times
	// (the four settings of one mapping, a status several rules test),
	// and each read scans the spec's keys.
	tops []topField
	// keys has keyBit of every key of the resource's spec as written,
	// read on its first field (keysRead) when the evaluation is lazy
	// (written): the fields a rule asks for are mostly not written,
	// which a key whose bit is not set tells without going through the
	// spec's entries again.
	keys     uint64
	keysRead bool
	written  bool
	msgs     []string // the findings' messages (messages)
}

// topField is a top-level field of the subject's spec, as specField
// read it, by its key's id (compiled.top).
type topField struct {
	id    int
	v     funcs.Value
	isMap bool
}

// setResource makes r the subject's resource.
func (s *subject) setResource(r *eval.Resource) {
	s.res, s.tops, s.keysRead, s.findings = r, s.tops[:0], false, s.findings[:0]
}

// unwritten reports whether the spec is known to have neither of the
// pattern's spellings of its first step (keyBits), from its keys as
// written; false when it can not tell.
func (s *subject) unwritten(p *compiled) bool {
	if !s.keysRead {
		s.keysRead, s.keys = true, 0
		m := s.res.WrittenSpec()
		s.written = m != nil
		if m != nil {
			for _, en := range m.Entries {
				if en.Key != nil {
					s.keys |= keyBit(en.Key.Value)
				}
			}
		}
	}
	return s.written && s.keys&p.keyBits == 0
}

// keyBit is a key's bit in a set of keys (subject.keys): one of 64,
// from its length and its first and last bytes (spec keys differ in
// those, and a key that shares another's bit is merely looked up).
func keyBit(k string) uint64 {
	if k == "" {
		return 1
	}
	h := uint(len(k))*131 + uint(k[0])*31 + uint(k[len(k)-1])
	return 1 << (h & 63)
}

// specField is specField of the subject's resource for the pattern's
// first step, read once per resource.
func (s *subject) specField(p *compiled) (funcs.Value, bool) {
	for i := range s.tops {
		if t := &s.tops[i]; t.id == p.top {
			return t.v, t.isMap
		}
	}
	v, isMap := funcs.None, true // what FieldOr gives for a key not written
	if !s.unwritten(p) {
		v, isMap = specField(s.res, p.steps[0], p.upper)
	}
	s.tops = append(s.tops, topField{id: p.top, v: v, isMap: isMap})
	return v, isMap
}

// finding is what a rule reports: the path that decides it (an absent
// field's path stops at its deepest written ancestor) and the message.
type finding struct {
	rule    *Rule // whose finding it is
	path    []seg
	missing bool
	detail  string
	tail    string // follows detail in the message (one string built, not two)
	fixBool *bool  // a boolean literal that fixes it
	fixText string // or a string that does (the one value a needIn allows)
}

// get returns the fields of the resource's spec at pattern p ("a.b[*].c"),
// valid until the next call (the rules range over it at once).
func (s *subject) get(p string) []field { return s.getc(pattern(p)) }

// getc is get of a compiled pattern (a check builder compiles its
// pattern once).
func (s *subject) getc(pat *compiled) []field {
	if pat.segs != nil {
		s.one1[0] = lookupOne(s, pat)
		return s.one1[:]
	}
	return lookupSpec(s, pat)
}

// specField reads the spec's top-level field key as getFold would from
// the spec's mapping (upper: key with its first letter in upper case,
// "" when that is key itself), without evaluating the rest of a lazily
// evaluated spec; isMap is false when the spec is not a mapping.
func specField(r *eval.Resource, key, upper string) (v funcs.Value, isMap bool) {
	return r.FieldOr(key, upper)
}

// lookupSpec is lookup from the resource's spec.
func lookupSpec(s *subject, p *compiled) []field {
	pat, r := p.steps, s.res
	if len(pat) == 0 || pat[0] == star {
		return lookup(r.FullSpec(), pat, nil)
	}
	e, isMap := s.specField(p)
	switch {
	case !isMap:
		return lookup(r.FullSpec(), pat, nil)
	case e.IsNone():
		// Most fields a rule asks for are not written: the answer is
		// the subject's scratch, as for a pattern without [*].
		s.one1[0] = field{want: pat, state: absent, pat: p}
		return s.one1[:]
	}
	return lookup(e, pat[1:], []seg{{key: pat[0], idx: -1}})
}

// lookupOne is lookup for a pattern without [*]: one field, whose path
// is a prefix of the pattern's segments (shared, capped so that an
// append copies).
func lookupOne(s *subject, p *compiled) field {
	pat, r := p.steps, s.res
	if len(pat) == 0 {
		return lookupOneFrom(r.FullSpec(), p, 0)
	}
	e, isMap := s.specField(p)
	switch {
	case !isMap:
		return lookupOneFrom(r.FullSpec(), p, 0)
	case e.IsNone():
		return field{want: pat, state: absent, pat: p}
	}
	return lookupOneFrom(e, p, 1)
}

// lookupOneFrom is lookupOne from v, the value at the pattern's first
// depth steps.
func lookupOneFrom(v funcs.Value, p *compiled, depth int) field {
	pat := p.steps
	f := field{state: present}
	for ; depth < len(pat); depth++ {
		if v.IsUnknown() {
			f = field{v: v, state: unknown}
			break
		}
		m, ok := v.Map()
		if !ok {
			if v.IsNone() {
				f = field{want: pat[depth:], state: absent}
			} else {
				f = field{v: v, state: unknown} // not a mapping: the analysis reports it
			}
			break
		}
		e, ok := getFold(m, pat[depth])
		if !ok || e.IsNone() {
			f = field{want: pat[depth:], state: absent}
			break
		}
		v = e
	}
	if depth == len(pat) {
		switch {
		case v.IsUnknown():
			f = field{v: v, state: unknown}
		case v.IsNone():
			f = field{state: absent}
		default:
			f = field{v: v, state: present}
		}
	}
	if depth > 0 {
		f.path = p.segs[:depth:depth]
	}
	if f.state == absent {
		f.pat = p
	}
	return f
}

// compiled is a split pattern; segs, for a pattern without [*], are its
// steps as a path; upper is its first step with the first letter in
// upper case (a CloudFormation spelling, as getFold finds it), "" when
// that is the step itself.
type compiled struct {
	steps []string
	segs  []seg
	upper string
	// uppers are the steps' spellings that getFold also finds, for a
	// pattern without [*] (uppers[0] is upper).
	uppers []string
	// missing[d], for a pattern without [*], is fullPath of its absent
	// field whose written ancestors end after d steps; for a pattern
	// with [*], missing[0] only (its first step not written).
	missing []string
	// top is the id of the first step (topIDs): what the subject's
	// memo of top-level fields is keyed by.
	top int
	// keyBits are the keyBit of the first step and of upper.
	keyBits uint64
}

// topIDs numbers the patterns' first steps, under topMu.
var (
	topMu  sync.Mutex
	topIDs = map[string]int{}
)

// topID returns the id of a pattern's first step k.
func topID(k string) int {
	topMu.Lock()
	defer topMu.Unlock()
	id, ok := topIDs[k]
	if !ok {
		id = len(topIDs)
		topIDs[k] = id
	}
	return id
}

// patterns caches split paths: rules ask for the same few hundred
// patterns on every resource.
var patterns sync.Map // string → *compiled

func pattern(p string) *compiled {
	if v, ok := patterns.Load(p); ok {
		return v.(*compiled)
	}
	c := &compiled{steps: splitPath(p)}
	c.upper = upperFirst(c.steps[0])
	c.top = topID(c.steps[0])
	c.keyBits = keyBit(c.steps[0])
	if c.upper != "" {
		c.keyBits |= keyBit(c.upper)
	}
	if slices.Contains(c.steps, star) {
		c.missing = []string{fullPath(field{want: c.steps})}
	} else {
		c.segs = make([]seg, len(c.steps))
		for i, k := range c.steps {
			c.segs[i] = seg{key: k, idx: -1}
		}
		c.uppers = make([]string, len(c.steps))
		for i, k := range c.steps {
			c.uppers[i] = upperFirst(k)
		}
		c.missing = make([]string, len(c.steps)+1)
		for d := range c.missing {
			c.missing[d] = fullPath(field{path: c.segs[:d], want: c.steps[d:]})
		}
	}
	v, _ := patterns.LoadOrStore(p, c)
	return v.(*compiled)
}

// upperFirst is k with its first letter in upper case, as getFold finds
// it; "" when that is k itself.
func upperFirst(k string) string {
	if k == "" {
		return ""
	}
	switch ch := k[0]; {
	case ch >= utf8.RuneSelf:
		return strings.ToUpper(k[:1]) + k[1:]
	case ch >= 'a' && ch <= 'z':
		return string(ch-('a'-'A')) + k[1:]
	}
	return ""
}

// one returns the single field at p (a path without [*]).
func (s *subject) one(p string) field { return s.onec(pattern(p)) }

// onec is one of a compiled pattern.
func (s *subject) onec(pat *compiled) field {
	if pat.segs != nil {
		return lookupOne(s, pat)
	}
	return lookupSpec(s, pat)[0]
}

// param returns a parameter's value: the project's, or the default.
func (s *subject) param(name string) string {
	if v, ok := s.params[name]; ok {
		return v
	}
	return s.rule.param(name)
}

func (s *subject) paramNum(name string) float64 {
	f, _ := strconv.ParseFloat(s.param(name), 64)
	return f
}

func (s *subject) paramList(name string) []string {
	p := s.param(name)
	if v, ok := paramLists.Load(p); ok {
		return v.([]string)
	}
	v, _ := paramLists.LoadOrStore(p, strings.FieldsFunc(p, func(r rune) bool { return r == ',' || r == ' ' }))
	return v.([]string)
}

// paramLists caches list parameters split, by their text: a rule reads
// its list on every resource of its type.
var paramLists sync.Map // string → []string

// fail reports f with a detail.
func (s *subject) fail(f field, format string, args ...any) {
	s.findings = append(s.findings, finding{path: f.path, missing: f.state == absent, detail: fmt.Sprintf(format, args...)})
}

// failMissing reports a field that is not written: the pattern's full
// path names it.
func (s *subject) failMissing(f field, what string) {
	s.findings = append(s.findings, finding{path: f.path, missing: f.state == absent, detail: what, tail: " is not set"})
}

// fullPath names the field a pattern's absent field stands for.
func fullPath(f field) string {
	if f.pat != nil {
		return f.pat.missing[len(f.path)]
	}
	var b strings.Builder
	b.Grow(64)
	b.WriteString("spec.")
	b.WriteString(pathText(f.path))
	n := b.Len()
	for _, w := range f.want {
		if w == star {
			b.WriteString("[*]")
			continue
		}
		if b.Len() > n || n > len("spec.") {
			b.WriteByte('.')
		}
		b.WriteString(w)
		n = -1
	}
	return b.String()
}

// The check builders: most rules are one of these over a path.

// needTrue: the boolean at p must be true; not set is a finding unless
// orAbsent says not setting it is fine.
func needTrue(p string) func(*subject) { return needBool(p, true, false) }

// needFalse: the boolean at p must not be true (unset is fine).
func needFalse(p string) func(*subject) { return needBool(p, false, true) }

func needBool(p string, want, absentOK bool) func(*subject) {
	pat := pattern(p)
	return func(s *subject) {
		for _, f := range s.getc(pat) {
			switch f.state {
			case unknown:
			case absent:
				if !absentOK {
					s.failMissing(f, fullPath(f))
				}
			default:
				b, ok := boolOf(f.v)
				if ok && b != want {
					w := want
					s.findings = append(s.findings, finding{path: f.path, detail: fmt.Sprintf("spec.%s is %t", pathText(f.path), b), fixBool: &w})
				}
			}
		}
	}
}

// needSet: p must be written with a non-empty value.
func needSet(p string) func(*subject) {
	pat := pattern(p)
	return func(s *subject) {
		for _, f := range s.getc(pat) {
			switch f.state {
			case absent:
				s.failMissing(f, fullPath(f))
			case present:
				if empty(f.v) {
					s.fail(f, "spec.%s is empty", pathText(f.path))
				}
			}
		}
	}
}

// needString: p must be written with a non-empty string (Guard's
// "exists" and "is_string": a number or a list there is reported).
func needString(p string) func(*subject) {
	pat := pattern(p)
	return func(s *subject) {
		for _, f := range s.getc(pat) {
			switch f.state {
			case absent:
				s.failMissing(f, fullPath(f))
			case present:
				if v, ok := f.v.Str(); !ok {
					s.fail(f, "spec.%s is %s, not a string", pathText(f.path), describe(f.v))
				} else if v == "" {
					s.fail(f, "spec.%s is empty", pathText(f.path))
				}
			}
		}
	}
}

// needUnset: p must not be written (or be empty).
func needUnset(p string) func(*subject) {
	pat := pattern(p)
	return func(s *subject) {
		for _, f := range s.getc(pat) {
			if f.state == present && !empty(f.v) {
				s.fail(f, "spec.%s is set", pathText(f.path))
			}
		}
	}
}

func empty(v funcs.Value) bool {
	switch v.Kind() {
	case funcs.KindNone:
		return true
	case funcs.KindString:
		s, _ := v.Str()
		return s == ""
	case funcs.KindArray, funcs.KindMap:
		return v.Len() == 0
	}
	return false
}

// needIn: the string at p must be one of allowed (case-insensitive);
// absentOK says whether leaving it out is fine (the provider default is
// then one of allowed).
func needIn(p string, absentOK bool, allowed ...string) func(*subject) {
	pat := pattern(p)
	return func(s *subject) {
		for _, f := range s.getc(pat) {
			switch f.state {
			case absent:
				if !absentOK {
					s.failMissing(f, fullPath(f))
				}
			case present:
				v, ok := strOf(f.v)
				if ok && !containsFold(allowed, v) {
					s.fail(f, "spec.%s is %s, want %s", pathText(f.path), describe(f.v), orList(allowed))
					s.findings[len(s.findings)-1].fixText = allowed[0]
				}
			}
		}
	}
}

// needNotIn: the string at p must not be one of bad.
func needNotIn(p string, bad ...string) func(*subject) {
	pat := pattern(p)
	return func(s *subject) {
		for _, f := range s.getc(pat) {
			if f.state != present {
				continue
			}
			if v, ok := strOf(f.v); ok && containsFold(bad, v) {
				s.fail(f, "spec.%s is %s", pathText(f.path), describe(f.v))
			}
		}
	}
}

// needMin: the number at p must be at least the parameter's value;
// absentOK as for needIn.
func needMin(p, param string, absentOK bool) func(*subject) {
	return needBound(p, param, absentOK, true)
}

// needMax: the number at p must be at most the parameter's value.
func needMax(p, param string, absentOK bool) func(*subject) {
	return needBound(p, param, absentOK, false)
}

// needBound is needMin (atLeast) or needMax.
func needBound(p, param string, absentOK, atLeast bool) func(*subject) {
	word := "at most"
	if atLeast {
		word = "at least"
	}
	pat := pattern(p)
	return func(s *subject) {
		bound := s.paramNum(param)
		for _, f := range s.getc(pat) {
			switch f.state {
			case absent:
				if !absentOK {
					s.failMissing(f, fullPath(f))
				}
			case present:
				if n, ok := numOf(f.v); ok && (atLeast && n < bound || !atLeast && n > bound) {
					s.fail(f, "spec.%s is %s, want %s %s", pathText(f.path), describe(f.v), word, s.param(param))
				}
			}
		}
	}
}

// all runs every check.
func all(cs ...func(*subject)) func(*subject) {
	return func(s *subject) {
		for _, c := range cs {
			c(s)
		}
	}
}

// when runs c only when the string at p is known to be one of vals
// (case-insensitive); unset counts as def.
func when(p string, def string, vals []string, c func(*subject)) func(*subject) {
	pat := pattern(p)
	return func(s *subject) {
		f := s.onec(pat)
		var v string
		switch f.state {
		case unknown:
			return
		case absent:
			v = def
		default:
			var ok bool
			if v, ok = strOf(f.v); !ok {
				return
			}
		}
		if containsFold(vals, v) {
			c(s)
		}
	}
}

// unlessTrue runs c unless the boolean at p is true; unknown skips it.
func unlessTrue(p string, c func(*subject)) func(*subject) {
	pat := pattern(p)
	return func(s *subject) {
		f := s.onec(pat)
		switch f.state {
		case unknown:
			return
		case present:
			if b, ok := boolOf(f.v); !ok || b {
				return
			}
		}
		c(s)
	}
}

// ifSet runs c only when p is written with a known value.
func ifSet(p string, c func(*subject)) func(*subject) {
	pat := pattern(p)
	return func(s *subject) {
		// A mapping written as one is known without evaluating it.
		if pat.segs != nil && s.res.WrittenMapping(pat.steps, pat.uppers) || s.onec(pat).state == present {
			c(s)
		}
	}
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

func orList(vs []string) string {
	q := make([]string, len(vs))
	for i, v := range vs {
		q[i] = strconv.Quote(v)
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}
