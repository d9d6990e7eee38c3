package funcs

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestUnknownString(t *testing.T) {
	arn := Unknown("resources.x.state.arn")
	id := Unknown("resources.y.state.id")
	inner := UnknownString("inner", []Value{String("a"), id, String("b")})
	tests := []struct {
		name  string
		parts []Value
		want  []string // literal text, or "?reason" for an unknown part
		known string   // set when the result is a plain string
	}{
		{"shape", []Value{String("arn:"), arn, String("/y")}, []string{"arn:", "?resources.x.state.arn", "/y"}, ""},
		{"adjacent literals merge", []Value{String("a"), String("b"), arn, String(""), String("c")}, []string{"ab", "?resources.x.state.arn", "c"}, ""},
		{"nested strings splice", []Value{String("<"), inner, arn}, []string{"<a", "?resources.y.state.id", "b", "?resources.x.state.arn"}, ""},
		{"unknown first", []Value{arn}, []string{"?resources.x.state.arn"}, ""},
		{"nothing unknown", []Value{String("a"), String("b")}, nil, "ab"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := UnknownString("why", tt.parts)
			if tt.known != "" {
				if s, ok := v.Str(); !ok || s != tt.known {
					t.Fatalf("got %v, want the string %q", v, tt.known)
				}
				if _, ok := v.Parts(); ok {
					t.Error("a known string has parts")
				}
				return
			}
			if !v.IsUnknown() || !v.HasUnknown() || v.UnknownReason() != "why" {
				t.Fatalf("not an unknown described by why: kind %s, reason %q", v.Kind(), v.UnknownReason())
			}
			ps, ok := v.Parts()
			if !ok {
				t.Fatal("no parts")
			}
			var got []string
			for _, p := range ps {
				if p.IsUnknown() {
					got = append(got, "?"+p.UnknownReason())
				} else {
					s, _ := p.Str()
					got = append(got, s)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("parts (-want +got):\n%s", diff)
			}
		})
	}
	if _, ok := Unknown("plain").Parts(); ok {
		t.Error("a plain unknown has parts")
	}
	if _, ok := String("s").Parts(); ok {
		t.Error("a string has parts")
	}
}

func TestUnknownStringSensitive(t *testing.T) {
	v := UnknownString("why", []Value{String("pw=").WithSensitive(true), Unknown("x")})
	if !v.Sensitive() {
		t.Error("a sensitive part does not make the string sensitive")
	}
	if k := UnknownString("why", []Value{String("a").WithSensitive(true)}); !k.Sensitive() {
		t.Error("a known result loses the sensitive flag")
	}
	// Functions treat it as any unknown: the result is unknown, without
	// the shape (to_upper changes the literal text too).
	c := NewCtx(t.Context(), Core(), &TestEnv{})
	got, err := c.Call("to_upper", []Value{v}, nil)
	if err != nil || !got.IsUnknown() || !got.Sensitive() {
		t.Errorf("to_upper of an unknown string = %v, %v", got, err)
	}
	if _, ok := got.Parts(); ok {
		t.Error("to_upper kept the shape of its argument")
	}
}
