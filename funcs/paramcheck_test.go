package funcs

import (
	"fmt"
	"strings"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/types"
)

// TestEveryTypedParamChecked holds the evaluator to what the checker
// says: for every pure function and every parameter with a concrete
// type, an argument of a kind the type rules out is an error naming that
// argument, whatever the other arguments are (and/or short-circuiting, a
// none or unknown elsewhere in the call) and for _g functions already
// when the function value is made. It also pins the converse: an
// argument of a fitting kind is never rejected for its kind.
func TestEveryTypedParamChecked(t *testing.T) {
	candidates := []Value{String("aa"), Int(2), Float(1.5), Bool(true), Bool(false),
		MustFromGo([]any{"x"}), MustFromGo(map[string]any{"k": "v"})}
	checked := 0
	for _, f := range Core().All() {
		if !f.Pure() || f.Has(HigherOrder) {
			continue
		}
		sig := f.Signature
		n := max(sig.MinArgs(), min(len(sig.Params), 2))
		if sig.MaxArgs() >= 0 && n > sig.MaxArgs() {
			n = sig.MaxArgs()
		}
		for i := 0; i < n; i++ {
			p, _ := sig.ParamAt(i)
			for _, fill := range []Value{Bool(true), Bool(false), None, Unknown("test")} {
				for _, w := range candidates {
					if kindFits(p.Type, w) {
						if f.Name == "contains" {
							continue // the needle's type depends on the haystack's kind
						}
						args := baseline(sig, n, fill)
						args[i] = w
						_, err := newTestCtx(nil).Invoke(f, args, nil)
						if err != nil && strings.Contains(err.Error(), fmt.Sprintf("argument %d: expected", i+1)) {
							t.Errorf("%s%v: argument %d is %s, which fits %s, but: %v", f.Name, args, i+1, describe(w), p.Type, err)
						}
						continue
					}
					args := baseline(sig, n, fill)
					args[i] = w
					c := newTestCtx(nil)
					_, err := c.Invoke(f, args, nil)
					checked++
					if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("argument %d:", i+1)) {
						t.Errorf("%s%v: argument %d is %s, which %s rules out; got error %v", f.Name, args, i+1, describe(w), p.Type, err)
					}
				}
			}
		}
	}
	if checked < 500 {
		t.Errorf("only %d calls checked", checked)
	}
}

// baseline returns n arguments that fit sig: for each parameter the
// first fitting value, preferring fill (a boolean, none or unknown).
func baseline(sig *types.Func, n int, fill Value) []Value {
	pool := []Value{fill, String("aa"), Int(2), Float(1.5), Bool(true), MustFromGo([]any{"x"}), MustFromGo(map[string]any{"k": "v"})}
	out := make([]Value, n)
	for i := range out {
		p, _ := sig.ParamAt(i)
		for _, v := range pool {
			if kindFits(p.Type, v) {
				out[i] = v
				break
			}
		}
	}
	return out
}
