package bplang_test

import (
	"strings"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/bplang"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// TestCommaBetweenFields: inside '[..]' and '(..)' the official parser
// reads line breaks as white space, so an object's fields there need
// commas (it refuses each case below marked with a diagnostic, checked
// against the official parser of newstack-cloud/bluelink
// libs/blueprint/lang); at the top of a value a line break separates
// them. The diagnostic sits on the field that needs the comma before it,
// the fix inserts it after the value before, and the tree keeps both
// fields.
func TestCommaBetweenFields(t *testing.T) {
	head := "version \"2025-11-02\"\n\nvalue v: array {\n    value = "
	for _, c := range []struct {
		name, value string
		want        string // "range fixed-text", "" for no diagnostic
	}{
		{"object in an array", "[{\n        a = 1\n        b = 2\n    }]", "6:9-6:10 [{\n        a = 1,\n        b = 2\n    }]"},
		{"object in a call", "jsonencode({\n        a = 1 # one\n        b = 2\n    })", "6:9-6:10 jsonencode({\n        a = 1, # one\n        b = 2\n    })"},
		{"object in parentheses", "({\n        a = \"x\"\n\n        \"b c\" = 2\n    })", "7:9-7:14 ({\n        a = \"x\",\n\n        \"b c\" = 2\n    })"},
		{"object in an object in an array", "[{\n        a = 1,\n        b = {\n            c = 1\n            d = 2\n        }\n    }]", "8:13-8:14 [{\n        a = 1,\n        b = {\n            c = 1,\n            d = 2\n        }\n    }]"},
		{"commas in an array", "[{\n        a = 1,\n        b = 2\n    }]", ""},
		{"comma on the next line", "[{\n        a = 1\n        , b = 2\n    }]", ""},
		{"last field before the brace", "[{\n        a = 1\n    }]", ""},
		{"object at the top of a value", "{\n        a = 1\n        b = [1, 2]\n        c = {\n            d = 1\n            e = 2\n        }\n    }", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := head + c.value + "\n}\n"
			f := bplang.Parse("x.bp", []byte(src))
			if c.want == "" {
				if len(f.Diagnostics) > 0 {
					t.Fatalf("diagnostics %v", f.Diagnostics)
				}
				return
			}
			if len(f.Diagnostics) != 1 {
				t.Fatalf("diagnostics %v, want one", f.Diagnostics)
			}
			d := f.Diagnostics[0]
			rng, fixed, _ := strings.Cut(c.want, " ")
			if got := at(f, d.Range); got != rng || d.Code != "bp-syntax" || !strings.Contains(d.Message, "expected ','") {
				t.Errorf("diagnostic %s %s %q, want %s", got, d.Code, d.Message, rng)
			}
			if len(d.Suggestions) != 1 || len(d.Suggestions[0].Edits) != 1 {
				t.Fatalf("suggestions %v, want one edit", d.Suggestions)
			}
			e := d.Suggestions[0].Edits[0]
			out := src[:e.Range.Start] + e.NewText + src[e.Range.End:]
			if out != head+fixed+"\n}\n" {
				t.Errorf("fixed text\n%s\nwant\n%s", out, head+fixed+"\n}\n")
			}
			if g := bplang.Parse("x.bp", []byte(out)); len(g.Diagnostics) > 0 {
				t.Errorf("the fixed text does not parse clean: %v", g.Diagnostics)
			}
			root, _ := f.Tree()
			v := root.(*syntax.Mapping).Get("values").(*syntax.Mapping).Get("v").(*syntax.Mapping).Get("value")
			if v == nil {
				t.Fatal("the value is not in the tree")
			}
		})
	}
}
