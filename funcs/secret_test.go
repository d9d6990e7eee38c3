package funcs

import (
	"fmt"
	"strings"
	"testing"
)

// secret is a sensitive string argument.
func secret(s string) Value { return String(s).WithSensitive(true) }

// TestSensitiveArgumentsMasked: a function that fails on a secret
// argument never quotes it, whichever way its message is built (%q of the
// Go string, a wrapped library error, one character of it).
func TestSensitiveArgumentsMasked(t *testing.T) {
	const pw = "HUNTER2SECRETPW"
	env := &TestEnv{}
	tests := []struct {
		fn   string
		args []any
		want string
	}{
		// A message about a sensitive argument says what kind of mistake
		// and nothing that depends on the value: not where a decoder
		// stopped, not the character it met, not the document's shape.
		{"cidrsubnet", []any{secret(pw), 4, 1}, "cidrsubnet: argument 1: (sensitive) is not a CIDR block such as 10.0.0.0/16" + hiddenNote},
		{"datetime", []any{secret(pw)}, "datetime: argument 1: unknown format (sensitive): use one of unix, rfc3339, tag, tagcompact" + hiddenNote},
		{"jsondecode", []any{secret(pw)}, "jsondecode: argument 1: (sensitive) is not valid JSON" + hiddenNote},
		{"jsondecode", []any{secret(`{"user": "admin", "pw": HUNTER2}`)}, "jsondecode: argument 1: (sensitive) is not valid JSON" + hiddenNote},
		{"fromjson", []any{secret(pw), "/a"}, "fromjson: argument 1: (sensitive) is not valid JSON" + hiddenNote},
		{"fromjson", []any{secret(`{"a": [1, 2]}`), "/a/5"}, "fromjson: argument 2: the pointer names nothing in the JSON document" + hiddenNote},
		{"fromjson", []any{secret(`{"HUNTER": 1}`), "/b"}, "fromjson: argument 2: the pointer names nothing in the JSON document" + hiddenNote},
		{"fromjson", []any{`{"a": 1}`, secret("/" + pw)}, "fromjson: argument 2: no key (sensitive) at the root of the JSON document"},
		{"file", []any{secret(pw)}, "file: argument 1: (sensitive) was refused" + hiddenNote},
		{"http_resource", []any{secret(pw)}, "http_resource: argument 1: (sensitive) was refused" + hiddenNote},
		{"base64decode", []any{secret(pw + "!")}, "base64decode: argument 1: (sensitive) is not valid Base64" + hiddenNote},
		{"base64decode", []any{secret("SFVOVEVS!!!=")}, "base64decode: argument 1: (sensitive) is not valid Base64" + hiddenNote},
		{"utf8", []any{mustCall(t, newTestCtx(&TestEnv{}), "base64decode", String("SFVOVEVS/w==")).WithSensitive(true)}, "utf8: argument 1: the data is not valid UTF-8" + hiddenNote},
		// A secret inside an array argument.
		{"join", []any{ArrayOf(String("a"), secret(pw)), 3}, "join: argument 2: expected a string, got an integer"},
		// Nothing sensitive: the message is as before.
		{"cidrsubnet", []any{"10.0.0.0", 4, 1}, `cidrsubnet: argument 1: "10.0.0.0" is not a CIDR block such as 10.0.0.0/16: netip.ParsePrefix("10.0.0.0"): no '/'`},
	}
	for _, tt := range tests {
		t.Run(tt.fn, func(t *testing.T) {
			c := newTestCtx(env)
			args, names := toArgs(t, c, tt.args)
			_, err := c.Call(tt.fn, args, names)
			if err == nil {
				t.Fatal("no error")
			}
			if got := err.Error(); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
			if strings.Contains(err.Error(), "HUNTER") {
				t.Errorf("the secret leaks: %s", err)
			}
			for _, shape := range []string{"byte", "offset", "character", "items", "/a"} {
				if strings.Contains(err.Error(), shape) && !strings.Contains(tt.want, shape) {
					t.Errorf("the message describes the secret (%s): %s", shape, err)
				}
			}
		})
	}
}

// TestSensitiveValueFormats: formatting a sensitive value with any verb
// prints (sensitive), so a new message can not forget the taint.
func TestSensitiveValueFormats(t *testing.T) {
	for _, verb := range []string{"%v", "%s", "%q", "%+v", "%#v", "%x"} {
		if got := fmt.Sprintf(verb, secret("hunter2")); got != SensitiveText {
			t.Errorf("%s: %q", verb, got)
		}
	}
	if got := fmt.Sprintf("%v", String("x")); !strings.Contains(got, "x") {
		t.Errorf("an ordinary value formats as itself: %q", got)
	}
}

// TestMaskError masks errors raised outside a call.
func TestMaskError(t *testing.T) {
	err := fmt.Errorf(`%q is wrong`, "hunter2")
	if got := MaskError(err, secret("hunter2")).Error(); got != "(sensitive) is wrong" {
		t.Errorf("got %q", got)
	}
	if got := MaskError(err, String("hunter2")); got != err {
		t.Errorf("nothing sensitive: %v", got)
	}
}
