package subst

import (
	"fmt"
	"testing"
)

// TestSingleQuotedNames checks that a name in quotes may be in single
// quotes (the grammar's "name in quotes" does not fix the quote
// character; the reference implementation accepts both), under the same
// name rules, while a string literal must be double-quoted.
func TestSingleQuotedNames(t *testing.T) {
	single := "subst-single-quoted-string %s: string literals are written in double quotes; single quotes are only for names in [..] accessors"
	runParseCases(t, []parseCase{
		{`${resources.fn.metadata.annotations['annotationKey.v1']}`, `Sub@0-56{Ref@2-55(resources "fn"@12-14 .metadata@14-23 .annotations@23-35 ['annotationKey.v1']@35-55)}`, []string{}},
		{`${datasources['coreInfra.v1']["topic.v2"]}`, `Sub@0-42{Ref@2-41(datasources "coreInfra.v1" single-quoted@14-28 ["topic.v2"]@29-41)}`, []string{}},
		{`${values['a'].b}`, `Sub@0-16{Ref@2-15(values "a" single-quoted@9-12 .b@13-15)}`, []string{}},
		{`${elem['k v']}`, `Sub@0-14{Ref@2-13(elem ['k v']@6-13)}`, []string{`subst-invalid-quoted-name 9-10: " " cannot appear in a quoted field name: use only letters, digits, '_', '-' and '.'`}},
		{`${values['']}`, `Sub@0-13{Ref@2-12(values "" single-quoted@9-11)}`, []string{"subst-invalid-accessor 9-11: empty value name"}},
		{`${x['']}`, `Sub@0-8{Ref@2-7(resources bare "x"@2-3 ['']@3-7)}`, []string{"subst-invalid-accessor 4-6: empty field name in ['']"}},
		{`${values['a]}`, `Sub@0-13{Ref@2-13(values "a]}" single-quoted@9-13)}`, []string{"subst-unterminated-string 9-13: unterminated string: expected ''' to close the string started at offset 9", "subst-unclosed-bracket 13-13: expected ']' to close the '[' at offset 8, found end of input"}},
		{`${trim('abc')}`, `Sub@0-14{Call@2-13(trim@2-6 Str@7-12("abc"))}`, []string{fmt.Sprintf(single, "7-12")}},
		{`${'it\'s'}`, `Sub@0-10{Str@2-9("it's")}`, []string{fmt.Sprintf(single, "2-9")}},
		{`${"it's"}`, `Sub@0-9{Str@2-8("it's")}`, []string{}},
	})
}

// TestSingleQuotedStringFix checks the fix that rewrites a single-quoted
// string literal in double quotes.
func TestSingleQuotedStringFix(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`${trim('abc')}`, `${trim("abc")}`},
		{`${join(list('a"b'), ',')}`, `${join(list("a\"b"), ",")}`},
	} {
		tpl := ParseTemplate(c.in, nil)
		got := c.in
		for i := len(tpl.Diagnostics()) - 1; i >= 0; i-- {
			d := tpl.Diagnostics()[i]
			if d.Code != CodeSingleQuotedString.ID || len(d.Suggestions) != 1 {
				t.Fatalf("%s: unexpected %v", c.in, d)
			}
			e := d.Suggestions[0].Edits[0]
			got = got[:e.Range.Start] + e.NewText + got[e.Range.End:]
		}
		if got != c.want {
			t.Errorf("fixed %s = %s, want %s", c.in, got, c.want)
		}
		if ds := ParseTemplate(got, nil).Diagnostics(); len(ds) != 0 {
			t.Errorf("fixed %s still has %v", got, ds)
		}
	}
}
