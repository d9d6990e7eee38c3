package funcs

import (
	"strings"
	"unicode/utf8"
)

// The size budget of one value (docs/security.md): a few hundred bytes of
// nested replace() or doubling values could otherwise ask for gigabytes
// and kill the process, which no recover catches. Functions whose result
// can outgrow their arguments check before they allocate; Invoke checks
// every result, so an oversized value never reaches the next call.
const (
	MaxStringSize = 64 << 20 // bytes of one string or binary value, as file() reads
	MaxArrayLen   = 1 << 20  // items of one array
	// MaxEvalBytes bounds the text one evaluation (a plan, an eval, the
	// editor's hints for a document) builds in all: values that double
	// each other stay within it however many there are.
	MaxEvalBytes = 256 << 20
)

// Charge counts n bytes of text built by the evaluation c belongs to, and
// fails once the evaluation has built more than MaxEvalBytes.
func (c *Ctx) Charge(n int) error {
	if c.spent += int64(n); c.spent > MaxEvalBytes {
		return errorf("the evaluation has built more than %d MiB of text", MaxEvalBytes>>20)
	}
	return nil
}

// errTooBig reports a result past the budget.
func errTooBig(what string) *RuntimeError {
	return errorf("the result would be larger than %s (at most %d MiB of text or %d items per value)", what, MaxStringSize>>20, MaxArrayLen)
}

// CheckSize returns an error when v alone is past the value budget.
func CheckSize(v Value) error {
	switch v.kind {
	case KindString, KindBinary:
		if len(v.str) > MaxStringSize {
			return errTooBig("the text budget")
		}
	case KindArray:
		if len(v.ref.(*arrayData).elems) > MaxArrayLen {
			return errTooBig("the item budget")
		}
	}
	return nil
}

// occurrences counts the non-overlapping occurrences of sep in s as
// strings.Replace and strings.Split see them: an empty sep matches before
// every character and at the end.
func occurrences(s, sep string) int {
	if sep == "" {
		return utf8.RuneCountInString(s) + 1
	}
	return strings.Count(s, sep)
}

// replacedSize is the length of strings.ReplaceAll(s, old, repl), without
// building it.
func replacedSize(s, old, repl string) int64 {
	return int64(len(s)) + int64(occurrences(s, old))*(int64(len(repl))-int64(len(old)))
}
