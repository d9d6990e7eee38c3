package analysis

import (
	"strings"
	"testing"
)

// TestMessages pins the wording that matters to users for the rules where
// the message carries the fix: did-you-mean, the cycle spelled out, the
// index a template needs.
func TestMessages(t *testing.T) {
	head := "version: 2023-04-20\n"
	queue := func(name string) string {
		return "resources:\n  queue:\n    type: aws/sqs/queue\n    spec:\n      queueName: " + name + "\n"
	}
	tests := []struct {
		name, src, code, rng, msg string
	}{
		{"variable did-you-mean", head + "variables:\n  env:\n    type: string\n" + queue("${variables.evn}"),
			"ref-unknown-variable", "9:30-9:33", `unknown variable "evn"; did you mean "env"?`},
		{"variable nested", head + "variables:\n  cfg:\n    type: string\n" + queue("${variables.cfg.host}"),
			"ref-variable-nested", "9:33-9:38", `fromjson(variables.cfg, "/host")`},
		{"function did-you-mean", head + queue(`${to_uper("a")}`),
			"func-unknown", "6:20-6:27", `did you mean "to_upper"?`},
		{"value cycle spelled out", head + "values:\n  a:\n    type: string\n    value: ${values.b}\n  b:\n    type: string\n    value: ${values.a}\n" + queue("${values.a}"),
			"cycle", "5:14-5:22", "reference cycle a -> b -> a"},
		{"cycle across kinds spelled out", head + "values:\n  arn:\n    type: string\n    value: ${resources.queue.state.arn}\n" + queue("q-${values.arn}"),
			"cycle", "5:14-5:39", "reference cycle values.arn -> resources.queue -> values.arn"},
		{"template needs index", head + "resources:\n  qs:\n    type: aws/sqs/queue\n    each: ${list(\"a\")}\n    spec:\n      queueName: ${elem}\n  t:\n    type: aws/sns/topic\n    spec:\n      topicName: ${resources.qs.spec.queueName}\n",
			"ref-resource-index", "11:32-11:37", "resources.qs[0].spec.queueName"},
		{"arity", head + queue(`${substr("a")}`),
			"func-arity", "6:20-6:31", "substr takes 2 to 3 arguments but is given 1"},
		{"data source dependency through value", head + "values:\n  v:\n    type: string\n    value: ${resources.queue.state.arn}\ndatasources:\n  d:\n    type: aws/vpc\n    filter:\n      field: vpcId\n      operator: \"=\"\n      search: ${values.v}\n    exports:\n      vpcId:\n        type: string\n" + queue("${datasources.d.vpcId}"),
			"ref-datasource-dependency", "12:17-12:25", `value "v", which depends on resource "queue"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := analyzeCase(t, "testdata/cases", "m.blueprint.yaml", []byte(tt.src), nil)
			for _, d := range r.Diagnostics {
				got := describeDiag(r, d)
				if d.Code == tt.code && strings.HasPrefix(got, tt.rng+" ") {
					if !strings.Contains(d.Message, tt.msg) {
						t.Errorf("message %q does not contain %q", d.Message, tt.msg)
					}
					return
				}
			}
			for _, d := range r.Diagnostics {
				t.Logf("%s %s", describeDiag(r, d), d.Message)
			}
			t.Errorf("no %s at %s", tt.code, tt.rng)
		})
	}
}
