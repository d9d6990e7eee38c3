package subst

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

type parseCase struct {
	in    string
	want  string   // templateTree with ranges
	diags []string // diagString, in report order
}

func runParseCases(t *testing.T, cases []parseCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			tpl := ParseTemplate(c.in, nil)
			if diff := cmp.Diff(c.want, templateTree(tpl, true)); diff != "" {
				t.Errorf("tree (-want +got):\n%s", diff)
			}
			got := []string{}
			for _, d := range tpl.Diagnostics() {
				got = append(got, diagString(d))
			}
			if diff := cmp.Diff(c.diags, got); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
			checkInvariants(t, tpl, 0, len(c.in))
		})
	}
}

// TestProductions covers every production of the grammar once, with
// exact ranges.
func TestProductions(t *testing.T) {
	runParseCases(t, []parseCase{
		{"${variables.env}", "Sub@0-16{Ref@2-15(variables \"env\"@12-15)}", []string{}},
		{"${variables[\"env.name\"]}", "Sub@0-24{Ref@2-23(variables \"env.name\" quoted@12-22)}", []string{}},
		{"${values.config}", "Sub@0-16{Ref@2-15(values \"config\"@9-15)}", []string{}},
		{"${values[\"a.b\"].list[0].name}", "Sub@0-29{Ref@2-28(values \"a.b\" quoted@9-14 .list@15-20 [0]@20-23 .name@23-28)}", []string{}},
		{"${datasources.network.subnets[]}", "Sub@0-32{Ref@2-31(datasources \"network\"@14-21 .subnets@21-29 []@29-31)}", []string{}},
		{"${datasources[\"net\"].vpc}", "Sub@0-25{Ref@2-24(datasources \"net\" quoted@14-19 .vpc@20-24)}", []string{}},
		{"${resources.cache.state.nodes[].endpoint}", "Sub@0-41{Ref@2-40(resources \"cache\"@12-17 .state@17-23 .nodes@23-29 []@29-31 .endpoint@31-40)}", []string{}},
		{"${resources[\"my-cache\"].spec.size}", "Sub@0-34{Ref@2-33(resources \"my-cache\" quoted@12-22 .spec@23-28 .size@28-33)}", []string{}},
		{"${cache.spec.clusterSize}", "Sub@0-25{Ref@2-24(resources bare \"cache\"@2-7 .spec@7-12 .clusterSize@12-24)}", []string{}},
		{"${cache}", "Sub@0-8{Ref@2-7(resources bare \"cache\"@2-7)}", []string{}},
		{"${children.core.topic.arn}", "Sub@0-26{Ref@2-25(children \"core\"@11-15 .topic@15-21 .arn@21-25)}", []string{}},
		{"${children[\"core\"][\"topic.info\"]}", "Sub@0-33{Ref@2-32(children \"core\" quoted@11-17 [\"topic.info\"]@18-32)}", []string{}},
		{"${elem}", "Sub@0-7{Ref@2-6(elem)}", []string{}},
		{"${elem.bucketName}", "Sub@0-18{Ref@2-17(elem .bucketName@6-17)}", []string{}},
		{"${elem[\"config\"].attrs[0]}", "Sub@0-26{Ref@2-25(elem [\"config\"]@6-16 .attrs@16-22 [0]@22-25)}", []string{}},
		{"${elem[]}", "Sub@0-9{Ref@2-8(elem []@6-8)}", []string{}},
		{"${i}", "Sub@0-4{Ref@2-3(i)}", []string{}},
		{"${\"hello\"}", "Sub@0-10{Str@2-9(\"hello\")}", []string{}},
		{"${\"say \\\"hi\\\" \\\\ \n\"}", "Sub@0-20{Str@2-19(\"say \\\"hi\\\" \\\\ \\n\")}", []string{}},
		{"${\"a\nb\"}", "Sub@0-8{Str@2-7(\"a\\nb\")}", []string{}},
		{"${\"\"}", "Sub@0-5{Str@2-4(\"\")}", []string{}},
		{"${42}", "Sub@0-5{Int@2-4(42)}", []string{}},
		{"${-7}", "Sub@0-5{Int@2-4(-7)}", []string{}},
		{"${3.25}", "Sub@0-7{Float@2-6(3.25)}", []string{}},
		{"${-0.5}", "Sub@0-7{Float@2-6(-0.5)}", []string{}},
		{"${true}", "Sub@0-7{Bool@2-6(true)}", []string{}},
		{"${false}", "Sub@0-8{Bool@2-7(false)}", []string{}},
		{"${none}", "Sub@0-7{None@2-6}", []string{}},
		{"${[1, 2]}", "Sub@0-9{Array@2-8(Int@3-4(1) Int@6-7(2))}", []string{"subst-array-literal 2-8: array literals are not part of the substitution grammar and not portable: use list(..)"}},
		{"${[]}", "Sub@0-5{Array@2-4()}", []string{"subst-array-literal 2-4: array literals are not part of the substitution grammar and not portable: use list(..)"}},
		{"${uuid()}", "Sub@0-9{Call@2-8(uuid@2-6)}", []string{}},
		{"${trim(values.x)}", "Sub@0-17{Call@2-16(trim@2-6 Ref@7-15(values \"x\"@14-15))}", []string{}},
		{"${substr(values.x, 0, 3)}", "Sub@0-25{Call@2-24(substr@2-8 Ref@9-17(values \"x\"@16-17) Int@19-20(0) Int@22-23(3))}", []string{}},
		{"${object(id = \"x\", size=\"large\")}", "Sub@0-33{Call@2-32(object@2-8 id@9-11=Str@14-17(\"x\") size@19-23=Str@24-31(\"large\"))}", []string{}},
		{"${f(x)[0]}", "Sub@0-10{Call@2-9(f@2-3 Ref@4-5(resources bare \"x\"@4-5) [0]@6-9)}", []string{}},
		{"${f(x).info[\"host\"]}", "Sub@0-20{Call@2-19(f@2-3 Ref@4-5(resources bare \"x\"@4-5) .info@6-11 [\"host\"]@11-19)}", []string{}},
		{"${f(x)[]}", "Sub@0-9{Call@2-8(f@2-3 Ref@4-5(resources bare \"x\"@4-5) []@6-8)}", []string{}},
		{"${f(g(h(1)))}", "Sub@0-13{Call@2-12(f@2-3 Call@4-11(g@4-5 Call@6-10(h@6-7 Int@8-9(1))))}", []string{}},
		{"${  variables.env  }", "Sub@0-20{Ref@4-17(variables \"env\"@14-17)}", []string{}},
		{"${\n  if(\n    eq(variables.env, \"prod\"),\n    \"a\",\n    \"b\"\n  )\n}", "Sub@0-62{Call@5-60(if@5-7 Call@13-38(eq@13-15 Ref@16-29(variables \"env\"@26-29) Str@31-37(\"prod\")) Str@44-47(\"a\") Str@53-56(\"b\"))}", []string{}},
		{"a${variables.x}b${values.y}c", "Lit@0-1(\"a\") Sub@1-15{Ref@3-14(variables \"x\"@13-14)} Lit@15-16(\"b\") Sub@16-27{Ref@18-26(values \"y\"@25-26)} Lit@27-28(\"c\")", []string{}},
		{"$${variables.x}", "Lit@0-1(\"$\") Sub@1-15{Ref@3-14(variables \"x\"@13-14)}", []string{}},
		{"${x}}", "Sub@0-4{Ref@2-3(resources bare \"x\"@2-3)} Lit@4-5(\"}\")", []string{}},
		{"${ trim ( values . x [ 0 ] ) }", "Sub@0-30{Call@3-28(trim@3-7 Ref@10-26(values \"x\"@19-20 [0]@21-26))}", []string{}},
		{"${my-resource_1.spec}", "Sub@0-21{Ref@2-20(resources bare \"my-resource_1\"@2-15 .spec@15-20)}", []string{}},
		{"plain text", "Lit@0-10(\"plain text\")", []string{}},
	})
}

// TestErrors covers every diagnostic the parser reports, with exact
// ranges and wording, and the partial trees recovery leaves.
func TestErrors(t *testing.T) {
	runParseCases(t, []parseCase{
		{"${variables.env", "Sub@0-15{Ref@2-15(variables \"env\"@12-15)}", []string{"subst-unterminated 0-2: unterminated substitution: expected '}' to close the '${' at offset 0"}},
		{"${", "Sub@0-2{Bad@2-2}", []string{"subst-unterminated 0-2: unterminated substitution: expected '}' to close the '${' at offset 0"}},
		{"${}", "Sub@0-3{Bad@2-2}", []string{"subst-empty 0-3: empty substitution: expected an expression between '${' and '}'"}},
		{"${ }", "Sub@0-4{Bad@2-3}", []string{"subst-empty 0-4: empty substitution: expected an expression between '${' and '}'"}},
		{"${\"abc}", "Sub@0-7{Str@2-7(\"abc}\")}", []string{"subst-unterminated-string 2-7: unterminated string: expected '\"' to close the string started at offset 2"}},
		{"${trim(\"abc)}", "Sub@0-13{Call@2-13(trim@2-6 unclosed Str@7-13(\"abc)}\"))}", []string{"subst-unterminated-string 7-13: unterminated string: expected '\"' to close the string started at offset 7"}},
		{"${trim(values.x}", "Sub@0-16{Call@2-15(trim@2-6 unclosed Ref@7-15(values \"x\"@14-15))}", []string{"subst-unclosed-call 15-16: expected ')' to close the call to trim started at offset 2, found '}'"}},
		{"${trim(values.x", "Sub@0-15{Call@2-15(trim@2-6 unclosed Ref@7-15(values \"x\"@14-15))}", []string{"subst-unclosed-call 15-15: expected ')' to close the call to trim started at offset 2, found end of input", "subst-unterminated 0-2: unterminated substitution: expected '}' to close the '${' at offset 0"}},
		{"${trim(", "Sub@0-7{Call@2-7(trim@2-6 unclosed)}", []string{"subst-unclosed-call 7-7: expected ')' to close the call to trim started at offset 2, found end of input", "subst-unterminated 0-2: unterminated substitution: expected '}' to close the '${' at offset 0"}},
		{"${f(g(1)}", "Sub@0-9{Call@2-8(f@2-3 unclosed Call@4-8(g@4-5 Int@6-7(1)))}", []string{"subst-unclosed-call 8-9: expected ')' to close the call to f started at offset 2, found '}'"}},
		{"${values.list[0}", "Sub@0-16{Ref@2-15(values \"list\"@9-13 [0]@13-15)}", []string{"subst-unclosed-bracket 15-16: expected ']' to close the '[' at offset 13, found '}'"}},
		{"${values[\"a\"}", "Sub@0-13{Ref@2-12(values \"a\" quoted@9-12)}", []string{"subst-unclosed-bracket 12-13: expected ']' to close the '[' at offset 8, found '}'"}},
		{"${[1, 2}", "Sub@0-8{Array@2-7(Int@3-4(1) Int@6-7(2))}", []string{"subst-unclosed-bracket 7-8: expected ']' to close the array started at offset 2, found '}'", "subst-array-literal 2-7: array literals are not part of the substitution grammar and not portable: use list(..)"}},
		{"${trim(a b)}", "Sub@0-12{Call@2-11(trim@2-6 Ref@7-8(resources bare \"a\"@7-8))}", []string{"subst-unexpected-token 9-10: expected ',' or ')' after the argument of the call to trim, found name \"b\""}},
		{"${a b}", "Sub@0-6{Ref@2-3(resources bare \"a\"@2-3)}", []string{"subst-unexpected-token 4-5: expected '}' to close the substitution started at offset 0, found name \"b\""}},
		{"${*.annotations[\"x\"]}", "Sub@0-21{Bad@2-3}", []string{"subst-invalid-char 2-3: unexpected character \"*\": expected an expression"}},
		{"${list(1, 2,)}", "Sub@0-14{Call@2-13(list@2-6 Int@7-8(1) Int@10-11(2))}", []string{"subst-trailing-comma 11-12: unexpected ',' after the last argument of the call to list"}},
		{"${[1,]}", "Sub@0-7{Array@2-6(Int@3-4(1))}", []string{"subst-trailing-comma 4-5: unexpected ',' after the last item of the array", "subst-array-literal 2-6: array literals are not part of the substitution grammar and not portable: use list(..)"}},
		{"${f(,)}", "Sub@0-7{Call@2-6(f@2-3 Bad@4-4)}", []string{"subst-unexpected-token 4-5: expected an expression, found ','"}},
		{"${variables}", "Sub@0-12{Ref@2-11(variables \"\"@11-11)}", []string{"subst-missing-name 2-11: expected '.' or '[' after 'variables' to name a variable ('variables.name' or 'variables[\"name\"]'), found '}'"}},
		{"${variables.}", "Sub@0-13{Ref@2-12(variables \"\"@12-12)}", []string{"subst-missing-name 12-13: expected the name of a variable after 'variables.', found '}'"}},
		{"${values[0]}", "Sub@0-12{Ref@2-11(values \"\"@8-8 [0]@8-11)}", []string{"subst-missing-name 9-10: expected a quoted value name after 'values[', found number 0: values takes a name, not an index"}},
		{"${variables.[variableName]}", "Sub@0-27{Ref@2-26(variables \"\"@12-12 [bad]@12-26)}", []string{"subst-missing-name 12-13: expected the name of a variable after 'variables.', found '['", "subst-invalid-accessor 13-25: expected a quoted name, an index or ']' after '[', found name \"variableName\""}},
		{"${resources.x.spec.}", "Sub@0-20{Ref@2-19(resources \"x\"@12-13 .spec@13-18 .@18-19)}", []string{"subst-invalid-accessor 19-20: expected a field name after '.', found '}'"}},
		{"${x.0}", "Sub@0-6{Ref@2-5(resources bare \"x\"@2-3 .@3-5)}", []string{"subst-invalid-accessor 3-5: expected a field name after '.', found number 0: use [0] to index an array"}},
		{"${x[-1]}", "Sub@0-8{Ref@2-7(resources bare \"x\"@2-3 [0]@3-7)}", []string{"subst-invalid-accessor 4-6: index -1 is negative: indexes count from 0"}},
		{"${x[z]}", "Sub@0-7{Ref@2-6(resources bare \"x\"@2-3 [bad]@3-6)}", []string{"subst-invalid-accessor 4-5: expected a quoted name, an index or ']' after '[', found name \"z\""}},
		{"${x[1.5]}", "Sub@0-9{Ref@2-8(resources bare \"x\"@2-3 [bad]@3-8)}", []string{"subst-invalid-accessor 4-7: expected a quoted name, an index or ']' after '[', found number 1.5"}},
		{"${x[\"\"]}", "Sub@0-8{Ref@2-7(resources bare \"x\"@2-3 [\"\"]@3-7)}", []string{"subst-invalid-accessor 4-6: empty field name in [\"\"]"}},
		{"${values[\"\"]}", "Sub@0-13{Ref@2-12(values \"\" quoted@9-11)}", []string{"subst-invalid-accessor 9-11: empty value name"}},
		{"${99999999999999999999}", "Sub@0-23{Int@2-22(9223372036854775807)}", []string{"subst-invalid-number 2-22: integer 99999999999999999999 is out of range (64-bit)"}},
		{"${x[99999999999999999999]}", "Sub@0-26{Ref@2-25(resources bare \"x\"@2-3 [0]@3-25)}", []string{"subst-invalid-number 4-24: index 99999999999999999999 is out of range"}},
		{"${trim(${variables.env})}", "Sub@0-25{Call@2-24(trim@2-6 Ref@9-22(variables \"env\"@19-22))}", []string{"subst-nested 7-23: substitutions do not nest: inside ${..} write the expression without '${' and '}'"}},
		{"${f(a=)}", "Sub@0-8{Call@2-7(f@2-3 a@4-5=Bad@6-6)}", []string{"subst-unexpected-token 6-7: expected an expression, found ')'"}},
		{"${.x}", "Sub@0-5{Bad@2-3}", []string{"subst-unexpected-token 2-3: expected an expression, found '.'"}},
		{"${=}", "Sub@0-4{Bad@2-3}", []string{"subst-unexpected-token 2-3: expected an expression, found '='"}},
		{"${a)}", "Sub@0-5{Ref@2-3(resources bare \"a\"@2-3)}", []string{"subst-unexpected-token 3-4: expected '}' to close the substitution started at offset 0, found ')'"}},
		{"${resources.x.spec.0.name} and ${trim(}", "Sub@0-26{Ref@2-25(resources \"x\"@12-13 .spec@13-18 .@18-20 .name@20-25)} Lit@26-31(\" and \") Sub@31-39{Call@33-38(trim@33-37 unclosed)}", []string{"subst-invalid-accessor 18-20: expected a field name after '.', found number 0: use [0] to index an array", "subst-unclosed-call 38-39: expected ')' to close the call to trim started at offset 33, found '}'"}},
	})
}

// TestQuotedNames checks names in quotes against the spec's grammar
// (letters, digits, '_', '-', '.'), reporting the first offending
// character, and plain names against the name grammar.
func TestQuotedNames(t *testing.T) {
	runParseCases(t, []parseCase{
		{"${values[\"x.y\"]}", "Sub@0-16{Ref@2-15(values \"x.y\" quoted@9-14)}", []string{}},
		{"${values[\"a_B-9.c\"]}", "Sub@0-20{Ref@2-19(values \"a_B-9.c\" quoted@9-18)}", []string{}},
		{"${values[\"9lives\"]}", "Sub@0-19{Ref@2-18(values \"9lives\" quoted@9-17)}", []string{}},
		{"${values[\"db host\"]}", "Sub@0-20{Ref@2-19(values \"db host\" quoted@9-18)}", []string{"subst-invalid-quoted-name 12-13: \" \" cannot appear in a quoted value name: use only letters, digits, '_', '-' and '.'"}},
		{"${variables[\"a/b:c\"]}", "Sub@0-21{Ref@2-20(variables \"a/b:c\" quoted@12-19)}", []string{"subst-invalid-quoted-name 14-15: \"/\" cannot appear in a quoted variable name: use only letters, digits, '_', '-' and '.'"}},
		{"${resources[\"caché\"]}", "Sub@0-22{Ref@2-21(resources \"caché\" quoted@12-20)}", []string{"subst-invalid-quoted-name 17-19: \"é\" cannot appear in a quoted resource name: use only letters, digits, '_', '-' and '.'"}},
		{"${values[\"a\\\"b\"]}", "Sub@0-17{Ref@2-16(values \"a\\\"b\" quoted@9-15)}", []string{"subst-invalid-quoted-name 11-12: \"\\\\\" cannot appear in a quoted value name: use only letters, digits, '_', '-' and '.'"}},
		{"${x.spec[\"a b\"]}", "Sub@0-16{Ref@2-15(resources bare \"x\"@2-3 .spec@3-8 [\"a b\"]@8-15)}", []string{"subst-invalid-quoted-name 11-12: \" \" cannot appear in a quoted field name: use only letters, digits, '_', '-' and '.'"}},
		{"${elem[\"k$\"]}", "Sub@0-13{Ref@2-12(elem [\"k$\"]@6-12)}", []string{"subst-invalid-quoted-name 9-10: \"$\" cannot appear in a quoted field name: use only letters, digits, '_', '-' and '.'"}},
		{"${values.9x}", "Sub@0-12{Ref@2-11(values \"9x\"@9-11)}", []string{"subst-invalid-name 9-10: \"9\" cannot start a name: a value name is a letter or '_', then letters, digits, '_' or '-' (\"9x\")"}},
		{"${variables.a$b}", "Sub@0-16{Ref@2-15(variables \"a$b\"@12-15)}", []string{"subst-invalid-name 13-14: \"$\" cannot appear in a name: a variable name is a letter or '_', then letters, digits, '_' or '-' (\"a$b\")"}},
		{"${resources.é.spec}", "Sub@0-20{Ref@2-19(resources \"é\"@12-14 .spec@14-19)}", []string{"subst-invalid-name 12-14: \"é\" cannot start a name: a resource name is a letter or '_', then letters, digits, '_' or '-' (\"é\")"}},
		{"${values.a-b_c9}", "Sub@0-16{Ref@2-15(values \"a-b_c9\"@9-15)}", []string{}},
	})
}
