package funcs

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// SensitiveText is what a sensitive value prints as, wherever it is
// formatted.
const SensitiveText = "(sensitive)"

// Format implements fmt.Formatter so that a message cannot forget the
// taint: a sensitive value formats as (sensitive) whatever the verb; any
// other formats as the struct it is.
func (v Value) Format(f fmt.State, verb rune) {
	if v.Sensitive() {
		fmt.Fprint(f, SensitiveText)
		return
	}
	type plain Value // no methods: the default formatting
	fmt.Fprintf(f, fmt.FormatString(f, verb), plain(v))
}

// maxSecrets bounds how many texts one masked error collects.
const maxSecrets = 1000

// secretTexts returns the texts a sensitive value could show in a
// message: its strings, binaries, numbers and keys, longest first.
func secretTexts(vals []Value) []string {
	var out []string
	var walk func(v Value, tainted bool)
	walk = func(v Value, tainted bool) {
		if len(out) >= maxSecrets || !v.Sensitive() && !tainted {
			return
		}
		// A container is sensitive when one member is; it is secret as a
		// whole when it was marked itself (no member is).
		tainted = tainted || secretLeaf(v)
		switch v.kind {
		case KindString, KindBinary:
			if tainted && v.str != "" {
				out = append(out, v.str)
			}
		case KindInteger, KindFloat:
			if tainted {
				s, _ := Interpolate(v)
				out = append(out, s)
			}
		case KindUnknown:
			ps, _ := v.Parts()
			for _, p := range ps {
				walk(p, tainted)
			}
		case KindArray:
			for _, e := range v.ref.(*arrayData).elems {
				walk(e, tainted)
			}
		case KindMap:
			m := v.ref.(*Map)
			for i := range m.Len() {
				k, e := m.At(i)
				if tainted {
					out = append(out, k)
				}
				walk(e, tainted)
			}
		}
	}
	for _, v := range vals {
		walk(v, false)
	}
	slices.SortFunc(out, func(a, b string) int { return len(b) - len(a) })
	return slices.Compact(out)
}

// secretLeaf reports whether v is secret as a whole: sensitive, and not
// only because a member is.
func secretLeaf(v Value) bool {
	if !v.Sensitive() {
		return false
	}
	switch v.kind {
	case KindArray:
		return !slices.ContainsFunc(v.ref.(*arrayData).elems, Value.Sensitive)
	case KindMap:
		return !slices.ContainsFunc(v.ref.(*Map).Values(), Value.Sensitive)
	}
	return true
}

// quoted matches what messages quote: "..." (Go and JSON escapes), '...'
// and `...`.
var quoted = regexp.MustCompile(`"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|` + "`[^`]*`")

// mask replaces, in msg, every quoted text and every occurrence of one of
// secrets with (sensitive).
func mask(msg string, secrets []string) string {
	msg = quoted.ReplaceAllLiteralString(msg, SensitiveText)
	for _, s := range secrets {
		if s != SensitiveText {
			msg = strings.ReplaceAll(msg, s, SensitiveText)
		}
	}
	return msg
}

// taint marks err as raised by a call with sensitive arguments: its
// message is masked from now on (RuntimeError.Error). Errors that are not
// RuntimeErrors are wrapped in one.
func taint(err error, name string, vals []Value) error {
	secrets := secretTexts(vals)
	var re *RuntimeError
	if !errors.As(err, &re) {
		return &RuntimeError{Func: name, Err: err, secrets: secrets, sensitive: true}
	}
	re.sensitive = true
	re.secrets = append(re.secrets, secrets...)
	// A message about a sensitive argument would describe the secret
	// even masked (where a decoder stopped, the character it met, how
	// many items a document has): it says only what kind of mistake.
	about := re.Arg
	if re.about > 0 {
		about = re.about
	}
	if about > 0 && about <= len(vals) && vals[about-1].Sensitive() {
		re.hidden = true
	}
	return err
}

// MaskError returns err with its message masked when any of vals is
// sensitive: for errors raised outside a function call (interpolating a
// value into a string) that may describe the value.
func MaskError(err error, vals ...Value) error {
	if err == nil || !slices.ContainsFunc(vals, Value.Sensitive) {
		return err
	}
	return errors.New(mask(err.Error(), secretTexts(vals)))
}
