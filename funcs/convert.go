package funcs

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/blueprint-ls/blueprint-ls/types"
)

// ErrUnknown is returned when a value that is only known after deployment
// is interpolated or marshalled.
var ErrUnknown = errors.New("value is not known until after deployment")

// describe names a value's kind for messages ("a string", "an integer").
func describe(v Value) string {
	switch v.kind {
	case KindInteger, KindArray, KindUnknown:
		return "an " + v.kind.String()
	case KindNone:
		return "none"
	}
	return "a " + v.kind.String()
}

// MarshalJSON writes v as JSON: none is null, binary is its UTF-8 text,
// mappings keep their key order. Unknown values and functions cannot be
// marshalled.
func (v Value) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	if err := appendJSON(&b, v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// UnmarshalJSON reads JSON into v (integers stay integers, key order is
// kept).
func (v *Value) UnmarshalJSON(data []byte) error {
	x, err := ParseJSON(data)
	if err != nil {
		return err
	}
	*v = x
	return nil
}

func appendJSON(b *bytes.Buffer, v Value) error {
	switch v.kind {
	case KindNone:
		b.WriteString("null")
	case KindString, KindBinary:
		writeJSONString(b, v.str)
	case KindInteger:
		b.WriteString(strconv.FormatInt(int64(v.num), 10))
	case KindFloat:
		f := math.Float64frombits(v.num)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return fmt.Errorf("marshal: %v is not a JSON number", f)
		}
		b.WriteString(formatFloat(f))
	case KindBoolean:
		if v.num != 0 {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case KindArray:
		es, _ := v.Elems()
		b.WriteByte('[')
		for i, e := range es {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := appendJSON(b, e); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case KindMap:
		m, _ := v.Map()
		b.WriteByte('{')
		for i, k := range m.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSONString(b, k)
			b.WriteByte(':')
			if err := appendJSON(b, m.vals[i]); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	case KindUnknown:
		return ErrUnknown
	case KindFunc:
		return errors.New("marshal: a function cannot be marshalled")
	}
	return nil
}

func writeJSONString(b *bytes.Buffer, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b.WriteString(s[start:i])
			switch c {
			case '"', '\\':
				b.WriteByte('\\')
				b.WriteByte(c)
			case '\n':
				b.WriteString(`\n`)
			case '\r':
				b.WriteString(`\r`)
			case '\t':
				b.WriteString(`\t`)
			default:
				b.WriteString(`\u00`)
				b.WriteByte(hex[c>>4])
				b.WriteByte(hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteString(s[start:i])
			b.WriteString(`\ufffd`)
			i++
			start = i
			continue
		}
		i += size
	}
	b.WriteString(s[start:])
	b.WriteByte('"')
}

// formatFloat writes a float the way JSON and interpolation show it: the
// shortest form that reads back the same, without an exponent for
// everyday magnitudes.
func formatFloat(f float64) string {
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// Interpolate returns the text v contributes to a string interpolation:
// none is "", scalars their usual text, binary data its UTF-8 text.
// Arrays, mappings and functions cannot be interpolated (decisions 10);
// unknown values return ErrUnknown.
func Interpolate(v Value) (string, error) {
	switch v.kind {
	case KindNone:
		return "", nil
	case KindString, KindBinary:
		return v.str, nil
	case KindInteger:
		return strconv.FormatInt(int64(v.num), 10), nil
	case KindFloat:
		return formatFloat(math.Float64frombits(v.num)), nil
	case KindBoolean:
		return strconv.FormatBool(v.num != 0), nil
	case KindUnknown:
		return "", ErrUnknown
	}
	return "", fmt.Errorf("%s cannot be interpolated into a string", describe(v))
}

// TypeOf returns the static type of a runtime value. Arrays join their
// element types (array[any] when empty or mixed); mappings are closed
// objects with one field per key.
func TypeOf(v Value) types.Type {
	switch v.kind {
	case KindNone:
		return types.None
	case KindString:
		return types.String
	case KindInteger:
		return types.Integer
	case KindFloat:
		return types.Float
	case KindBoolean:
		return types.Boolean
	case KindBinary:
		return types.Binary
	case KindUnknown:
		return types.Unknown
	case KindArray:
		es, _ := v.Elems()
		if len(es) == 0 {
			return &types.Array{Elem: types.Any}
		}
		ts := make([]types.Type, 0, len(es))
		var last types.Type
		for _, e := range es {
			t := TypeOf(e)
			if last != nil && types.Equal(last, t) {
				continue
			}
			last = t
			ts = append(ts, t)
		}
		elem := types.Join(ts...)
		if elem == types.Unknown {
			elem = types.Any
		}
		return &types.Array{Elem: elem}
	case KindMap:
		m, _ := v.Map()
		fs := make([]types.Field, m.Len())
		for i, k := range m.keys {
			fs[i] = types.Field{Name: k, Type: TypeOf(m.vals[i])}
		}
		return types.NewObject(false, fs...)
	case KindFunc:
		f, _ := v.Func()
		return f.Type
	}
	return types.Any
}

// Equal reports deep equality: numbers compare by value (1 equals 1.0),
// mappings by their entries whatever the order, binary and strings by
// their bytes. Unknown values are equal to nothing.
func Equal(a, b Value) bool {
	switch {
	case a.kind == KindUnknown || b.kind == KindUnknown:
		return false
	case (a.kind == KindInteger || a.kind == KindFloat) && (b.kind == KindInteger || b.kind == KindFloat):
		if a.kind == KindInteger && b.kind == KindInteger {
			return a.num == b.num
		}
		x, _ := a.Float()
		y, _ := b.Float()
		return x == y
	case a.kind != b.kind:
		return false
	}
	switch a.kind {
	case KindNone:
		return true
	case KindString, KindBinary:
		return a.str == b.str
	case KindBoolean:
		return a.num == b.num
	case KindArray:
		x, _ := a.Elems()
		y, _ := b.Elems()
		if len(x) != len(y) {
			return false
		}
		for i := range x {
			if !Equal(x[i], y[i]) {
				return false
			}
		}
		return true
	case KindMap:
		x, _ := a.Map()
		y, _ := b.Map()
		if x.Len() != y.Len() {
			return false
		}
		for i, k := range x.keys {
			w, ok := y.Get(k)
			if !ok || !Equal(x.vals[i], w) {
				return false
			}
		}
		return true
	case KindFunc:
		return a.ref == b.ref
	}
	return false
}
