package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/eval"
	"github.com/blueprint-ls/blueprint-ls/funcs"
)

// fuzzSecret is the secret of FuzzSecretNeverPrinted. No literal the
// generator writes holds any five characters of it, so the only way for
// them to reach an output is from the secret itself.
const fuzzSecret = "HUNTER2SECRETPW"

// fuzzAtoms are the leaves of generated expressions.
var fuzzAtoms = []string{
	"variables.pw", "variables.pw", "variables.pw", "elem", "i",
	`"a,b"`, `"10.0.0.0/16"`, `"{\"k\": [1, 2]}"`, `"/k/0"`, `"x"`, `""`,
	"1", "4", "-1", "2.5", "true", "false",
	`["a", "b"]`, `{"k": "v"}`, "values.plain", "values.derived",
}

// genExpr builds a nested expression from data: calls of the core
// functions (any arity, so that many fail) over the atoms. It reads one
// byte per choice and stops at depth or when data runs out.
func genExpr(data []byte, pos *int, depth int, names []string) string {
	next := func() int {
		if *pos >= len(data) {
			return 0
		}
		b := int(data[*pos])
		*pos++
		return b
	}
	c := next()
	if depth == 0 || c%4 == 0 {
		return fuzzAtoms[next()%len(fuzzAtoms)]
	}
	name := names[next()%len(names)]
	n := next() % 4
	args := make([]string, n)
	for i := range args {
		args[i] = genExpr(data, pos, depth-1, names)
	}
	e := name + "(" + strings.Join(args, ", ") + ")"
	if c%7 == 1 {
		e += "[0]"
	}
	return e
}

// FuzzSecretNeverPrinted evaluates random nested expressions over a
// secret variable, in a value, a resource spec and an each, and plans
// them: no five characters of the secret appear in the plan (text,
// Markdown, JSON) or in any diagnostic.
func FuzzSecretNeverPrinted(f *testing.F) {
	for _, seed := range [][]byte{
		{1, 5, 2, 0, 0},
		{3, 17, 1, 0, 2, 1, 9, 2, 0, 0},
		{5, 40, 3, 0, 0, 0, 1, 0, 6, 1, 33, 2, 0, 0, 0, 5},
		[]byte("cidrsubnet jsondecode fromjson datetime split join"),
	} {
		f.Add(seed)
	}
	names := funcs.Core().Names()
	f.Fuzz(func(t *testing.T, data []byte) {
		pos := 0
		e1 := genExpr(data, &pos, 4, names)
		e2 := genExpr(data, &pos, 3, names)
		e3 := genExpr(data, &pos, 3, names)
		bp := `version: 2023-04-20
variables:
  pw:
    type: string
    secret: true
    default: ` + fuzzSecret + `
values:
  plain:
    type: string
    value: ok
  derived:
    type: string
    value: ${` + e1 + `}
resources:
  q:
    type: aws/sqs/queue
    each: ${split(variables.pw, "R")}
    spec:
      queueName: ${` + e2 + `}
      tags:
        - key: k
          value: ${` + e3 + `}
exports:
  out:
    type: string
    field: values.derived
`
		p, diags, err := PlanFile(context.Background(), "/fuzz/x.blueprint.yaml", []byte(bp), eval.Inputs{}, Options{Env: &funcs.TestEnv{}})
		if err != nil {
			return
		}
		var outs []string
		for _, d := range diags {
			outs = append(outs, d.Message)
			for _, r := range d.Related {
				outs = append(outs, r.Message)
			}
		}
		if p != nil {
			outs = append(outs, Text(p), Markdown(p), string(JSON(p)))
		}
		for _, out := range outs {
			for i := 0; i+5 <= len(fuzzSecret); i++ {
				if w := fuzzSecret[i : i+5]; strings.Contains(out, w) {
					t.Fatalf("%q of the secret is printed:\n%s\nexpressions:\n%s\n%s\n%s", w, out, e1, e2, e3)
				}
			}
		}
	})
}
