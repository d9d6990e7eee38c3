package ide

import (
	"strings"
	"testing"
)

// TestCodeActionConformanceFixes applies the fixes that ride along with
// the conformance rules (issue 18) and checks the result is clean.
func TestCodeActionConformanceFixes(t *testing.T) {
	queue := "resources:\n  queue:\n    type: aws/sqs/queue\n    spec:\n      queueName: "
	tests := []struct {
		name, src, code, title, want string
	}{
		{"named argument dropped",
			"version: 2023-04-20\nvariables:\n  name:\n    type: string\n" + queue + "${trim(input = variables.name)}\n",
			"func-named-arg", `Remove the name "input"`, "queueName: ${trim(variables.name)}\n"},
		{"data source field added",
			"version: 2023-04-20\ndatasources:\n  network:\n    type: aws/vpc\n    filter:\n      field: vpcId\n      operator: \"=\"\n      search: v\n    exports:\n      vpcId:\n        type: string\n" + queue + "${datasources.network}\n",
			"ref-datasource-field", `Read "vpcId"`, "queueName: ${datasources.network.vpcId}\n"},
		{"data source field with a dot added in quotes",
			"version: 2023-04-20\ndatasources:\n  network:\n    type: acme/things\n    filter:\n      field: id\n      operator: \"=\"\n      search: v\n    exports:\n      topic.v2:\n        type: string\n" + queue + "${datasources.network}\n",
			"ref-datasource-field", `Read "topic.v2"`, `queueName: ${datasources.network["topic.v2"]}` + "\n"},
		{"metadata field added",
			"version: 2023-04-20\nresources:\n  fn:\n    type: aws/sqs/queue\n    metadata:\n      displayName: Fn\n    spec:\n      queueName: q\n  queue:\n    type: aws/sqs/queue\n    spec:\n      queueName: ${resources.fn.metadata}\n",
			"ref-resource-metadata", "Read .displayName", "queueName: ${resources.fn.metadata.displayName}\n"},
		{"not list unwrapped",
			"version: 2023-04-20\nvariables:\n  off:\n    type: boolean\nresources:\n  queue:\n    type: aws/sqs/queue\n    condition:\n      not:\n        - ${variables.off}\n    spec:\n      queueName: q\n",
			"spec-field-type", "Unwrap the single condition", "      not:\n        ${variables.off}\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := fixes(t, analyze(t, "a.yaml", tc.src), tc.code, tc.title)
			if !strings.Contains(got, tc.want) {
				t.Errorf("got:\n%s\nwant it to contain:\n%s", got, tc.want)
			}
			for _, d := range analyze(t, "a.yaml", got).Diagnostics {
				if d.Code == tc.code {
					t.Errorf("after the fix: %s %s\n%s", d.Code, d.Message, got)
				}
			}
			noErrors(t, "a.yaml", got)
		})
	}
}
