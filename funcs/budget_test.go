package funcs

import (
	"strings"
	"testing"
)

// TestValueBudget: results that would pass the value budget fail before
// they are built: nested replace() of a few hundred bytes asked for
// gigabytes and killed the process.
func TestValueBudget(t *testing.T) {
	big := strings.Repeat("a", 1<<20)
	c := newTestCtx(nil)
	call := func(name string, args ...Value) error {
		_, err := c.Call(name, args, nil)
		return err
	}
	items := make([]Value, 100)
	for i := range items {
		items[i] = String(big)
	}
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"replace", call("replace", String(big), String(""), String(strings.Repeat("b", 100))), "replace: the result would be larger than the text budget (at most 64 MiB of text or 1048576 items per value)"},
		{"join", call("join", Array(items), String(",")), "join: the result would be larger than the text budget (at most 64 MiB of text or 1048576 items per value)"},
		{"jsondecode", call("jsondecode", String("["+strings.Repeat("0,", 1<<20)+"0]")), "jsondecode: argument 1: the result would be larger than the item budget (at most 64 MiB of text or 1048576 items per value)"},
		{"fromjson", call("fromjson", String(`{"a": [`+strings.Repeat("0,", 1<<20)+"0]}"), String("/a")), "fromjson: the result would be larger than the item budget (at most 64 MiB of text or 1048576 items per value)"},
		{"split", call("split", String(strings.Repeat("a,", 1<<20)), String(",")), "split: the result would be larger than the item budget (at most 64 MiB of text or 1048576 items per value)"},
	}
	for _, tt := range tests {
		if tt.err == nil || tt.err.Error() != tt.want {
			t.Errorf("%s: got %v\nwant %s", tt.name, tt.err, tt.want)
		}
	}
	// Every string a call returns is charged to the evaluation.
	c = newTestCtx(nil)
	var err error
	for i := 0; err == nil && i < 1000; i++ {
		_, err = c.Call("to_upper", []Value{String(strings.Repeat("a", 1<<20))}, nil)
	}
	if want := "to_upper: the evaluation has built more than 256 MiB of text"; err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}
