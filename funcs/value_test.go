package funcs

import (
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"testing"
)

func TestValueJSONRoundTrip(t *testing.T) {
	for _, in := range []string{
		`null`, `"s"`, `1`, `-3`, `2.5`, `true`, `[]`, `{}`,
		`{"z":1,"a":{"m":[1,"x",null,false]}}`,
		`"\u0000\n\"é😀"`,
	} {
		var v Value
		if err := json.Unmarshal([]byte(in), &v); err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		out, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if string(out) != compact(t, in) && !(in == `"\u0000\n\"é😀"` && string(out) == `"\u0000\n\"é😀"`) {
			t.Errorf("round trip %s -> %s", in, out)
		}
	}
	if v, _ := ParseJSON([]byte(`{"a":1,"b":2,"a":3}`)); jsonOf(t, v) != `{"a":3,"b":2}` {
		t.Errorf("duplicate keys: %s", jsonOf(t, v))
	}
	if _, err := Unknown("x").MarshalJSON(); !errors.Is(err, ErrUnknown) {
		t.Errorf("marshal unknown: %v", err)
	}
	if _, err := Float(math.NaN()).MarshalJSON(); err == nil {
		t.Error("marshal NaN succeeded")
	}
	if b, _ := BinaryString("a\xffb").MarshalJSON(); string(b) != `"a\ufffdb"` {
		t.Errorf("binary json = %s", b)
	}
}

func TestFromGoToGo(t *testing.T) {
	v := MustFromGo(map[string]any{"b": []int{1, 2}, "a": []string{"x"}, "c": nil, "d": uint8(7), "e": float32(0.5), "f": []byte("hi")})
	if got := jsonOf(t, v); got != `{"a":["x"],"b":[1,2],"c":null,"d":7,"e":0.5,"f":"hi"}` {
		t.Errorf("FromGo = %s", got)
	}
	back := ToGo(v)
	want := map[string]any{"a": []any{"x"}, "b": []any{int64(1), int64(2)}, "c": nil, "d": int64(7), "e": 0.5, "f": []byte("hi")}
	if !reflect.DeepEqual(back, want) {
		t.Errorf("ToGo = %#v", back)
	}
	if _, err := FromGo(struct{}{}); err == nil {
		t.Error("FromGo(struct) succeeded")
	}
	if _, err := FromGo(uint64(math.MaxUint64)); err == nil {
		t.Error("FromGo(huge uint) succeeded")
	}
	if g := ToGo(Unknown("why")); g != (UnknownGo{Reason: "why"}) {
		t.Errorf("ToGo(unknown) = %#v", g)
	}
}

func TestInterpolate(t *testing.T) {
	for _, tc := range []struct {
		v    Value
		want string
		err  bool
	}{
		{None, "", false},
		{String("x"), "x", false},
		{Int(-42), "-42", false},
		{Float(2), "2", false},
		{Float(0.1), "0.1", false},
		{Float(1e300), "1e+300", false},
		{Bool(true), "true", false},
		{Binary([]byte("pem")), "pem", false},
		{ArrayOf(Int(1)), "", true},
		{MapValue(NewMap(0)), "", true},
		{Unknown(""), "", true},
	} {
		got, err := Interpolate(tc.v)
		if got != tc.want || (err != nil) != tc.err {
			t.Errorf("Interpolate(%v) = %q, %v", tc.v.Kind(), got, err)
		}
	}
}

func TestTypeOf(t *testing.T) {
	for _, tc := range []struct {
		v    Value
		want string
	}{
		{None, "none"},
		{String(""), "string"},
		{Int(1), "integer"},
		{Float(1), "float"},
		{Bool(false), "boolean"},
		{Binary(nil), "binary"},
		{Unknown(""), "unknown"},
		{ArrayOf(), "array[any]"},
		{ArrayOf(Int(1), Int(2)), "array[integer]"},
		{ArrayOf(Int(1), Float(2)), "array[float]"},
		{ArrayOf(Int(1), String("x")), "array[any]"},
		{MustFromGo(map[string]any{"b": "x", "a": 1}), "object{a: integer, b: string}"},
		{must(Core().FuncValue("to_upper")), "func(string) -> string"},
	} {
		if got := TypeOf(tc.v).String(); got != tc.want {
			t.Errorf("TypeOf = %s, want %s", got, tc.want)
		}
	}
}

func TestMapOrderAndIndex(t *testing.T) {
	m := NewMap(0)
	for i := 0; i < 20; i++ {
		m.Set(string(rune('t'-i)), Int(int64(i)))
	}
	m.Set("t", Int(99))
	if m.Len() != 20 || m.Keys()[0] != "t" {
		t.Fatalf("keys = %v", m.Keys())
	}
	if v, ok := m.Get("t"); !ok || jsonOf(t, v) != "99" {
		t.Errorf("Get(t) = %v", v)
	}
	if v, ok := m.Get("a"); !ok || jsonOf(t, v) != "19" {
		t.Errorf("Get(a) = %v", v)
	}
	if _, ok := m.Get("zz"); ok {
		t.Error("Get(zz) found")
	}
	u := NewMap(1)
	u.Set("x", Unknown(""))
	if !MapValue(u).HasUnknown() || ArrayOf(Int(1)).HasUnknown() {
		t.Error("HasUnknown flags wrong")
	}
}
