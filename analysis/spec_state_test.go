package analysis

import (
	"testing"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// TestSpecFieldThatIsState: a spec reference to a name the resource's
// spec lacks but its state has (arn: an attribute of the deployed
// resource) says to read it through .state, with a fix that replaces
// spec by state; it used to list the spec's fields only. A name neither
// has keeps the plain message.
func TestSpecFieldThatIsState(t *testing.T) {
	head := "version: 2025-11-02\nresources:\n  role:\n    type: aws/iam/role\n    spec:\n      assumeRolePolicyDocument: {}\n"
	tests := []struct {
		name, src, covered, msg, spec string
	}{
		{"substitution", head + "values:\n  v:\n    type: string\n    value: ${resources.role.spec.arn}\n",
			"arn", `resources.role.spec has no field "arn"; arn is an attribute of the deployed resource: read it as resources.role.state.arn`, "spec"},
		{"export field", head + "exports:\n  a:\n    type: string\n    field: resources.role.spec.arn\n",
			"arn", `resources.role.spec has no field "arn"; arn is an attribute of the deployed resource: read it as resources.role.state.arn`, "spec"},
		{"bare name", head + "values:\n  v:\n    type: string\n    value: ${role.spec.roleId}\n",
			"roleId", `resources.role.spec has no field "roleId"; roleId is an attribute of the deployed resource: read it as resources.role.state.roleId`, "spec"},
		{"neither", head + "values:\n  v:\n    type: string\n    value: ${resources.role.spec.nope}\n",
			"nope", `resources.role.spec has no field "nope"; fields: assumeRolePolicyDocument, description, managedPolicyArns, maxSessionDuration, path, permissionsBoundary, policies, roleName, tags`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := analyzeCase(t, "testdata/cases", "m.blueprint.yaml", []byte(tt.src), nil)
			var found []source.Diagnostic
			for _, d := range r.Diagnostics {
				if d.Code == "ref-unknown-field" {
					found = append(found, d)
				}
			}
			if len(found) != 1 {
				t.Fatalf("ref-unknown-field diagnostics %v, want one", r.Diagnostics)
			}
			d := found[0]
			if got := tt.src[d.Range.Start:d.Range.End]; got != tt.covered || d.Message != tt.msg {
				t.Errorf("got %q %q\nwant %q %q", got, d.Message, tt.covered, tt.msg)
			}
			if tt.spec == "" {
				if len(d.Suggestions) != 0 {
					t.Errorf("suggestions %+v, want none", d.Suggestions)
				}
				return
			}
			if len(d.Suggestions) != 1 || len(d.Suggestions[0].Edits) != 1 || d.Suggestions[0].Title != "Read it through state" {
				t.Fatalf("suggestions %+v, want one titled %q", d.Suggestions, "Read it through state")
			}
			e := d.Suggestions[0].Edits[0]
			if tt.src[e.Range.Start:e.Range.End] != tt.spec || e.NewText != "state" {
				t.Errorf("fix replaces %q with %q, want spec with state", tt.src[e.Range.Start:e.Range.End], e.NewText)
			}
		})
	}
}
