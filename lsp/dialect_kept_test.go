package lsp

import "testing"

// TestSameStructure: an edit keeps the previous version's dialect only
// when the bytes it spans tokenize alike; each case that does not is
// one that can move a string, comment or bracket boundary.
func TestSameStructure(t *testing.T) {
	for _, c := range []struct {
		before byte
		a, b   string
		same   bool
	}{
		{'{', `  "x": "ab"`, `  "x": "abc"`, true},
		{'{', `"type": "aws/sqs/queue",  `, `"type": "aws/sqs/queue", `, true}, // padding given back
		{'{', `"a": 1`, `"a": 12`, true},
		{'{', `"a": "b"`, `"a": "b""`, false},   // a quote more
		{'{', `"a": [1]`, `"a": 1]`, false},     // a bracket less
		{'{', `"a": "x\n"`, `"a": "x\"`, false}, // the escape now takes the quote
		{'{', `"a": 1 / 2`, `"a": 1 // 2`, false},
		{'{', `/ x /`, `//x /`, false},      // a comment starts
		{'{', `/* a */`, `/* a * /`, false}, // the comment no longer ends
		{'{', `"p": "a/b"`, `"p": "a/bc"`, true},
		{'{', `"p": "a/b"`, `"p": "a/cb"`, false}, // what follows the slash changed
		{'/', `x`, `/`, false},                    // the byte before could pair
		{'\\', `"`, `x"`, false},
		{'{', ``, ``, true},
	} {
		if got := sameStructure(c.before, []byte(c.a), []byte(c.b)); got != c.same {
			t.Errorf("sameStructure(%q, %q, %q) = %v, want %v", c.before, c.a, c.b, got, c.same)
		}
	}
}
