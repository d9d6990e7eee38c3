package eval

import (
	"bytes"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/funcs"
)

// The markers every output uses for values it must not or cannot show.
const (
	// UnknownText stands for a value only known after deployment.
	UnknownText = "(known after deploy)"
	// SensitiveText stands for a secret or a value derived from one.
	SensitiveText = "(sensitive)"
)

// JSON renders v as JSON for machine-readable output. Values that cannot be
// shown are objects with a single marker key, so a consumer can tell them
// from ordinary strings: {"$sensitive": true} for a secret or anything
// derived from one (checked first, so nothing of a secret leaks), and
// {"$unknown": "what"} for a value only known after deployment. Functions
// render as {"$function": "name"}. Mappings keep their order.
func JSON(v funcs.Value) []byte {
	var b bytes.Buffer
	appendValueJSON(&b, v, true)
	return b.Bytes()
}

// JSONUnmasked is JSON without masking secrets, for tests and for callers
// that have asked to see them.
func JSONUnmasked(v funcs.Value) []byte {
	var b bytes.Buffer
	appendValueJSON(&b, v, false)
	return b.Bytes()
}

func appendValueJSON(b *bytes.Buffer, v funcs.Value, mask bool) {
	if mask && IsSensitiveLeaf(v) {
		b.WriteString(`{"$sensitive":true}`)
		return
	}
	switch v.Kind() {
	case funcs.KindUnknown:
		b.WriteString(`{"$unknown":`)
		writeString(b, Describe(v))
		b.WriteByte('}')
	case funcs.KindFunc:
		f, _ := v.Func()
		b.WriteString(`{"$function":`)
		writeString(b, f.Name)
		b.WriteByte('}')
	case funcs.KindArray:
		es, _ := v.Elems()
		b.WriteByte('[')
		for i, e := range es {
			if i > 0 {
				b.WriteByte(',')
			}
			appendValueJSON(b, e, mask)
		}
		b.WriteByte(']')
	case funcs.KindMap:
		m, _ := v.Map()
		b.WriteByte('{')
		for i := range m.Len() {
			k, e := m.At(i)
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(b, k)
			b.WriteByte(':')
			appendValueJSON(b, e, mask)
		}
		b.WriteByte('}')
	default:
		data, err := v.WithSensitive(false).MarshalJSON()
		if err != nil {
			// NaN or infinity: not JSON numbers; show their text.
			s, _ := funcs.Interpolate(v)
			writeString(b, s)
			return
		}
		b.Write(data)
	}
}

// Describe says what an unknown value stands for, as the "$unknown"
// marker of JSON gives it: its reason (resources.fn.state.arn) or, for a
// string only partly known before deployment, the string with each
// unknown part written ${reason} ("dlq=${resources.q.state.arn}/y"). It is
// a description for people, not a template: literal text is not escaped.
func Describe(v funcs.Value) string {
	ps, ok := v.Parts()
	if !ok {
		return v.UnknownReason()
	}
	var b strings.Builder
	for _, p := range ps {
		if s, ok := p.Str(); ok {
			b.WriteString(s)
		} else {
			b.WriteString("${" + p.UnknownReason() + "}")
		}
	}
	return b.String()
}

// IsSensitiveLeaf reports whether v must be masked as a whole: a sensitive
// scalar, or a sensitive container whose own flag is set (a secret value
// holding an object). A container that is sensitive only because one of
// its members is stays visible, with that member masked.
func IsSensitiveLeaf(v funcs.Value) bool {
	if !v.Sensitive() {
		return false
	}
	switch v.Kind() {
	case funcs.KindArray:
		es, _ := v.Elems()
		for _, e := range es {
			if e.Sensitive() {
				return false
			}
		}
		return true
	case funcs.KindMap:
		m, _ := v.Map()
		for _, e := range m.Values() {
			if e.Sensitive() {
				return false
			}
		}
		return true
	}
	return true
}

func writeString(b interface{ Write([]byte) (int, error) }, s string) {
	data, _ := funcs.String(s).MarshalJSON()
	b.Write(data)
}

// Text renders v on one line for people: strings quoted as in JSON,
// unknown values as "(known after deploy)", secrets as "(sensitive)".
func Text(v funcs.Value) string {
	var b strings.Builder
	appendText(&b, v)
	return b.String()
}

func appendText(b *strings.Builder, v funcs.Value) {
	if IsSensitiveLeaf(v) {
		b.WriteString(SensitiveText)
		return
	}
	switch v.Kind() {
	case funcs.KindUnknown:
		if ps, ok := v.Parts(); ok {
			writeString(b, partsText(ps))
			return
		}
		b.WriteString(UnknownText)
	case funcs.KindNone:
		b.WriteString("none")
	case funcs.KindFunc:
		f, _ := v.Func()
		b.WriteString("<function " + f.Name + ">")
	case funcs.KindArray:
		es, _ := v.Elems()
		b.WriteByte('[')
		for i, e := range es {
			if i > 0 {
				b.WriteString(", ")
			}
			appendText(b, e)
		}
		b.WriteByte(']')
	case funcs.KindMap:
		m, _ := v.Map()
		b.WriteByte('{')
		for i := range m.Len() {
			k, e := m.At(i)
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(k)
			b.WriteString(": ")
			appendText(b, e)
		}
		b.WriteByte('}')
	default:
		b.Write(JSONUnmasked(v))
	}
}

// Plain renders v as the plain text `blueprint-ls eval --format text`
// prints: a string without quotes, any other value as Text does.
func Plain(v funcs.Value) string {
	if s, ok := v.Str(); ok && !v.Sensitive() {
		return s
	}
	if ps, ok := v.Parts(); ok && !v.Sensitive() {
		return partsText(ps)
	}
	return Text(v)
}

// partsText is the text of a string only partly known before deployment:
// its literal text with "(known after deploy)" for each unknown part, as
// in "arn:(known after deploy)/y".
func partsText(ps []funcs.Value) string {
	var b strings.Builder
	for _, p := range ps {
		if s, ok := p.Str(); ok {
			b.WriteString(s)
		} else {
			b.WriteString(UnknownText)
		}
	}
	return b.String()
}
