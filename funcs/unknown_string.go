package funcs

import "strings"

// partsData is what an unknown string made by UnknownString holds.
type partsData struct{ parts []Value }

// UnknownString returns a string whose shape is known before deployment
// but whose content is not: an interpolation such as
// "arn:${resources.x.state.arn}/y" where some substitutions are only known
// after deployment. Parts alternate literal text (string values) and the
// unknown values the substitutions stand for, in order; nested unknown
// strings are spliced in and adjacent literals merged. The result is an
// unknown value like any other (Kind is KindUnknown, every function
// treats it so) described by why, and Parts returns its shape. When no
// part is unknown it is simply the concatenated string. Any sensitive part
// makes the whole value sensitive.
func UnknownString(why string, parts []Value) Value {
	var out []Value
	var flags uint8
	var lit strings.Builder
	pending := false // lit holds text not yet in out
	flush := func() {
		if pending {
			out = append(out, String(lit.String()))
			lit.Reset()
			pending = false
		}
	}
	var add func(p Value)
	add = func(p Value) {
		flags |= p.flags & flagSensitive
		if p.kind == KindUnknown {
			if pd, ok := p.ref.(*partsData); ok {
				for _, q := range pd.parts {
					add(q)
				}
				return
			}
			flush()
			out = append(out, p)
			return
		}
		s, _ := p.Str()
		if s != "" {
			lit.WriteString(s)
			pending = true
		}
	}
	for _, p := range parts {
		add(p)
	}
	unknown := false
	for _, p := range out {
		unknown = unknown || p.kind == KindUnknown
	}
	if !unknown {
		return Value{kind: KindString, flags: flags, str: lit.String()}
	}
	flush()
	return Value{kind: KindUnknown, flags: flagHasUnknown | flags, str: why, ref: &partsData{parts: out}}
}

// Parts returns the shape of an unknown string made by UnknownString:
// literal text as string values and unknown values, in order, with no
// empty literal and no two literals side by side. Callers must not modify
// the slice.
func (v Value) Parts() ([]Value, bool) {
	if v.kind != KindUnknown {
		return nil, false
	}
	pd, ok := v.ref.(*partsData)
	if !ok {
		return nil, false
	}
	return pd.parts, true
}
