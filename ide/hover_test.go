package ide

import (
	"strings"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/source"
)

func TestHover(t *testing.T) {
	src := basicSource(t)
	res := analyze(t, "basic.yaml", src)
	tests := []struct {
		name     string
		at       string // text at the cursor
		n, delta int
		want     []string
		not      []string
		rng      string // text the hover range covers
	}{
		{"variable definition", "environment:", 0, 2, []string{"**variable** `environment`: `string`", "The environment to deploy to.", "Default: `dev`", "Allowed values: `dev`, `production`"}, nil, "environment"},
		{"secret default masked", "dbPassword:", 0, 1, []string{"Default: (sensitive)", "(secret)"}, []string{"hunter2"}, "dbPassword"},
		{"reference name", "variables.environment}", 0, 12, []string{"**variable** `environment`"}, nil, "environment"},
		{"namespace keyword", "variables.environment}", 0, 3, []string{"**variables**"}, nil, "variables"},
		{"function", "trim(", 0, 1, []string{"trim(", "-> string"}, nil, "trim"},
		{"split function", "split(", 0, 2, []string{"split("}, nil, "split"},
		{"spec path field", "table.spec.tableName}", 0, 12, []string{"`table.spec.tableName`: `string`"}, nil, "tableName"},
		{"resource by bare name", "table.spec.tableName}", 0, 2, []string{"**resource** `table` — `aws/dynamodb/table`"}, nil, "table"},
		{"resource type value", "aws/lambda/function", 0, 4, []string{"**aws/lambda/function** (`AWS::Lambda::Function`)", "The `AWS::Lambda::Function` resource creates a Lambda function.", "[Read more](https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-resource-lambda-function.html)"}, nil, "aws/lambda/function"},
		{"data source type", "aws/vpc", 0, 2, []string{"aws/vpc", "data source type"}, nil, "aws/vpc"},
		{"custom variable type", "aws/region", 0, 2, []string{"custom variable type", "eu-west-1"}, nil, "aws/region"},
		{"blueprint key", "datasources:", 0, 2, []string{"**datasources** (blueprint field)"}, nil, "datasources"},
		{"variable field key", "allowedValues", 0, 2, []string{"**allowedValues** (variable field)"}, nil, "allowedValues"},
		{"spec key from registry", "billingMode:", 0, 2, []string{"**billingMode**: `string`"}, nil, "billingMode"},
		{"spec key documented", "billingMode:", 0, 2, []string{"Specify how you are charged for read and write throughput and how you manage capacity.", "[Read more](https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-resource-dynamodb-table.html)"}, nil, "billingMode"},
		{"create-only spec key", "tableName: ${", 0, 2, []string{"create-only"}, nil, "tableName"},
		{"link selector", "app: orders", 1, 6, []string{"Selects 1 resource(s)", "`table`"}, nil, "orders"},
		{"dependsOn name", "[table]", 0, 2, []string{"**resource** `table`"}, nil, "table"},
		{"export field reference", "resources.table.spec.tableName\n", 0, 12, []string{"**resource** `table`"}, nil, "table"},
		{"data source field key", "subnets:", 0, 2, []string{"**data source field** `subnets`: `array[any]`", "Exported by data source `network`"}, nil, "subnets"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			off := offsetOf(t, src, tc.at, tc.n, tc.delta)
			h := Hover(res, off, Options{})
			if h == nil {
				t.Fatalf("no hover at %d", off)
			}
			for _, w := range tc.want {
				if !strings.Contains(h.Markdown, w) {
					t.Errorf("hover lacks %q:\n%s", w, h.Markdown)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(h.Markdown, n) {
					t.Errorf("hover shows %q:\n%s", n, h.Markdown)
				}
			}
			if got := text(res, h.Range); got != tc.rng {
				t.Errorf("range covers %q, want %q", got, tc.rng)
			}
		})
	}
}

func TestHoverChild(t *testing.T) {
	res := analyzeFile(t, "parent.yaml")
	src := string(res.File.Content())
	tests := []struct {
		at    string
		delta int
		want  []string
	}{
		{"children.core.queueUrl}", 16, []string{"**export** `queueUrl`: `string`", "The queue's URL."}},
		{"core:", 1, []string{"**child blueprint** `core`", "Exports:\n- `queueUrl`: `string`"}},
		{"stage:", 1, []string{"**variable** `stage`", "The stage to deploy."}},
	}
	for _, tc := range tests {
		t.Run(tc.at, func(t *testing.T) {
			h := Hover(res, offsetOf(t, src, tc.at, 0, tc.delta), Options{})
			if h == nil {
				t.Fatal("no hover")
			}
			for _, w := range tc.want {
				if !strings.Contains(h.Markdown, w) {
					t.Errorf("hover lacks %q:\n%s", w, h.Markdown)
				}
			}
		})
	}
}

func TestSignatureHelp(t *testing.T) {
	base := basicSource(t)
	tests := []struct {
		name, new string
		label     string
		active    int
	}{
		{"first", "zipFile: ${join(<>", "join(", 0},
		{"nested incomplete", `zipFile: ${join(split(variables.environment, ","), <>`, "join(", 1},
		{"inner call", `zipFile: ${join(split(variables.environment, <>`, "split(", 1},
		{"closed", `zipFile: ${substr(variables.environment, 1<>, 2)}`, "substr(", 1},
	}
	good := analyze(t, "basic.yaml", base)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			text, off := cursor(t, withCursor(t, base, "zipFile: ${trim(variables.environment)}", tc.new))
			for _, res := range []bool{true, false} {
				r := good
				txt := source.NewText([]byte(text))
				if res {
					r = analyze(t, "basic.yaml", text)
					txt = r.File.Text
				}
				sh := SignatureHelp(r, txt, off, Options{})
				if sh == nil {
					t.Fatalf("no signature (current=%v)", res)
				}
				if !strings.HasPrefix(sh.Label, tc.label) || sh.ActiveParameter != tc.active {
					t.Errorf("got %q active %d, want %q active %d", sh.Label, sh.ActiveParameter, tc.label, tc.active)
				}
				if p := sh.Params[sh.ActiveParameter]; sh.Label[p.Start:p.End] != p.Label {
					t.Errorf("param span %d-%d does not cover %q", p.Start, p.End, p.Label)
				}
			}
		})
	}
}
