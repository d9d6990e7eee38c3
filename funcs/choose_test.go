package funcs

import "testing"

// TestIfChoose checks if's lazy form against its implementation: the
// argument Choose picks is the result Impl gives, and a condition it
// cannot decide on (unknown, not a boolean) evaluates everything.
func TestIfChoose(t *testing.T) {
	f, ok := Core().Lookup("if")
	if !ok || f.Choose == nil {
		t.Fatal("if has no Choose")
	}
	c := newTestCtx(nil)
	args := func(cond Value) []Value { return []Value{cond, String("then"), String("else")} }
	for _, tc := range []struct {
		cond Value
		want int
	}{
		{Bool(true), 1},
		{Bool(false), 2},
		{None, 2},
		{Unknown("x"), -1},
		{Int(1), -1},
		{String("true"), -1},
	} {
		got := f.Choose(tc.cond)
		if got != tc.want {
			t.Errorf("Choose(%v) = %d, want %d", tc.cond, got, tc.want)
			continue
		}
		if got < 0 {
			continue
		}
		res, err := c.Call("if", args(tc.cond), nil)
		if err != nil || !Equal(res, args(tc.cond)[got]) {
			t.Errorf("if(%v, ..) = %v, %v; Choose picked argument %d", tc.cond, res, err, got)
		}
	}
}
