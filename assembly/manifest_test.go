package assembly

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// problems renders problems as "line:col code path" for comparison.
func problems(m *source.Mapper, ps []Problem) []string {
	var out []string
	for _, p := range ps {
		l, c := m.LineCol(p.Range.Start, source.UTF32)
		out = append(out, fmt.Sprintf("%d:%d %s %s", l, c, p.Code, p.Path))
	}
	return out
}

// manifest wraps droplet entries (lines of JSON, without the closing
// brace of "droplets") in a manifest: the first droplet line is line 4.
func manifest(droplets ...string) string {
	return "{\n\"schema\": \"cloud-assembly/1.0\",\n" + `"droplets": {` + "\n" + strings.Join(droplets, ",\n") + "\n}\n}\n"
}

// droplet is a one-line droplet with the given properties JSON and extra
// fields.
func droplet(id, props string, extra ...string) string {
	s := fmt.Sprintf(`%q: {"type": "npm://pkg/Droplet", "environment": "aws://123456789012/eu-west-1"`, id)
	for _, e := range extra {
		s += ", " + e
	}
	if props != "" {
		s += `, "properties": ` + props
	}
	return s + "}"
}

func TestCheckManifest(t *testing.T) {
	tests := []struct {
		name, manifest string
		want           []string
	}{
		{"valid", manifest(droplet("A", `{"x": "${B.out}"}`), droplet("B", "")), nil},
		{"not an object", "[]", []string{"1:1 assembly-field-type $"}},
		{"syntax error", "{\"schema\": }", []string{"1:1 assembly-missing-field $", "1:12 json-syntax "}},
		{"missing schema and droplets", "{}", []string{"1:1 assembly-missing-field $", "1:1 assembly-missing-field $"}},
		{"wrong schema", `{"schema": "cloud-assembly/2.0", "droplets": {}}`, []string{"1:12 assembly-schema-version $.schema"}},
		{"droplets not an object", `{"schema": "cloud-assembly/1.0", "droplets": []}`, []string{"1:46 assembly-field-type $.droplets"}},
		{"unknown top-level field", `{"schema": "cloud-assembly/1.0", "droplets": {}, "extra": 1}`, []string{"1:50 assembly-unknown-field $.extra"}},
		{"missing type", manifest(`"A": {"environment": "aws://123456789012/eu-west-1"}`), []string{"4:1 assembly-missing-field $.droplets.A"}},
		{"type not a string", manifest(`"A": {"type": 1, "environment": "aws://123456789012/eu-west-1"}`), []string{"4:15 assembly-field-type $.droplets.A.type"}},
		{"empty logical id", manifest(droplet("", "")), []string{"4:1 assembly-logical-id-empty $.droplets[\"\"]"}},
		{"long logical id", manifest(droplet(strings.Repeat("a", 257), "")), []string{"4:1 assembly-logical-id-length $.droplets." + strings.Repeat("a", 257)}},
		{"bad character", manifest(droplet("my stack", "")), []string{"4:4 assembly-logical-id-char $.droplets[\"my stack\"]"}},
		{"dot", manifest(droplet("web.api", "")), []string{"4:5 assembly-logical-id-dot $.droplets[\"web.api\"]"}},
		{"bad type specifier", manifest(`"A": {"type": "StackDroplet", "environment": "aws://123456789012/eu-west-1"}`), []string{"4:15 assembly-type-specifier $.droplets.A.type"}},
		{"bad npm specifier", manifest(`"A": {"type": "npm://@scope", "environment": "aws://123456789012/eu-west-1"}`), []string{"4:15 assembly-type-specifier $.droplets.A.type"}},
		{"bad aws environment", manifest(`"A": {"type": "npm://p/C", "environment": "aws://eu-west-1"}`), []string{"4:43 assembly-environment $.droplets.A.environment"}},
		{"environment not URI-like", manifest(`"A": {"type": "npm://p/C", "environment": "prod"}`), []string{"4:43 assembly-environment $.droplets.A.environment"}},
		{"dependsOn unknown", manifest(droplet("A", "", `"dependsOn": ["B"]`)), []string{"4:97 assembly-depends-unknown $.droplets.A.dependsOn[0]"}},
		{"dependsOn duplicate", manifest(droplet("A", "", `"dependsOn": ["B", "B"]`), droplet("B", "")), []string{"4:102 assembly-depends-duplicate $.droplets.A.dependsOn[1]"}},
		{"dependsOn not strings", manifest(droplet("A", "", `"dependsOn": [1]`)), []string{"4:97 assembly-field-type $.droplets.A.dependsOn[0]"}},
		{"unknown droplet reference", manifest(droplet("A", `{"x": "${Nope.out}"}`)), []string{"4:104 assembly-ref-unknown-droplet $.droplets.A.properties.x"}},
		{"reference in nested array", manifest(droplet("A", `{"x": [{"y": "a ${B.out}"}]}`), droplet("B", "")), nil},
		{"malformed reference", manifest(droplet("A", `{"x": "${A}"}`)), []string{"4:104 assembly-ref-malformed $.droplets.A.properties.x"}},
		{"unterminated reference", manifest(droplet("A", `{"x": "ab${A.x"}`)), []string{"4:106 assembly-ref-malformed $.droplets.A.properties.x"}},
		{"invalid escape", manifest(droplet("A", `{"x": "C:\\temp"}`)), []string{"4:106 assembly-escape $.droplets.A.properties.x"}},
		{"trailing backslash", manifest(droplet("A", `{"x": "a\\"}`)), []string{"4:105 assembly-escape $.droplets.A.properties.x"}},
		{"valid escapes", manifest(droplet("A", `{"x": "C:\\\\temp \\${not.a.ref}"}`)), nil},
		{"cycle through dependsOn", manifest(droplet("A", "", `"dependsOn": ["B"]`), droplet("B", "", `"dependsOn": ["A"]`)),
			[]string{"4:97 assembly-cycle $.droplets.A.dependsOn[0]"}},
		{"cycle through a reference", manifest(droplet("A", "", `"dependsOn": ["B"]`), droplet("B", `{"x": "${A.out}"}`)),
			[]string{"4:97 assembly-cycle $.droplets.A.dependsOn[0]"}},
		{"self reference", manifest(droplet("A", `{"x": "${A.out}"}`)), []string{"4:104 assembly-cycle $.droplets.A.properties.x"}},
		{"duplicate droplet", manifest(droplet("A", ""), droplet("A", "")), []string{"4:1 assembly-duplicate-key $.droplets.A"}},
		{"unknown droplet field", manifest(droplet("A", "", `"depends": []`)), []string{"4:83 assembly-unknown-field $.droplets.A.depends"}},
		{"metadata warning and error", manifest(droplet("A", "", `"metadata": {"w": {"kind": "warning", "value": "careful"}, "e": {"kind": "error", "value": "broken"}}`)),
			[]string{"4:130 assembly-metadata-warning $.droplets.A.metadata.w.value", "4:174 assembly-metadata-error $.droplets.A.metadata.e.value"}},
		{"metadata missing kind", manifest(droplet("A", "", `"metadata": {"w": {"value": 1}}`)), []string{"4:96 assembly-missing-field $.droplets.A.metadata.w"}},
		{"metadata warning not a string", manifest(droplet("A", "", `"metadata": {"w": {"kind": "warning", "value": 1}}`)), []string{"4:130 assembly-metadata-value $.droplets.A.metadata.w.value"}},
		{"missing entry", `{"schema": "cloud-assembly/1.0", "droplets": {}, "missing": {"vpc": {"provider": "vpc-provider", "props": {}}}}`,
			[]string{"1:62 assembly-missing-context $.missing.vpc"}},
		{"missing entry without props", `{"schema": "cloud-assembly/1.0", "droplets": {}, "missing": {"vpc": {"provider": "p"}}}`,
			[]string{"1:62 assembly-missing-context $.missing.vpc", "1:62 assembly-missing-field $.missing.vpc"}},
		{"known attribute", manifest(`"S": {"type": "npm://@aws-cdk/aws-cloudformation/StackDroplet", "environment": "aws://123456789012/eu-west-1"}`,
			droplet("A", `{"x": "${S.output.bucket}", "y": "${S.stackArn}"}`)), nil},
		{"unknown attribute", manifest(`"S": {"type": "npm://@aws-cdk/aws-cloudformation/StackDroplet", "environment": "aws://123456789012/eu-west-1"}`,
			droplet("A", `{"x": "${S.outputs.bucket}"}`)), []string{"5:104 assembly-ref-unknown-attribute $.droplets.A.properties.x"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, ps := CheckManifest([]byte(tt.manifest))
			mapper := source.NewMapper([]byte(tt.manifest))
			if m != nil {
				mapper = m.Mapper
			}
			if diff := cmp.Diff(tt.want, problems(mapper, ps)); diff != "" {
				t.Errorf("problems (-want +got):\n%s\nmanifest:\n%s", diff, tt.manifest)
				for _, p := range ps {
					t.Log(p.Message)
				}
			}
		})
	}
}

func TestCycleMessage(t *testing.T) {
	src := manifest(droplet("A", "", `"dependsOn": ["B"]`), droplet("B", `{"x": "${C.out}"}`), droplet("C", "", `"dependsOn": ["A"]`))
	_, ps := CheckManifest([]byte(src))
	if len(ps) != 1 || ps[0].Message != "dependency cycle: A → B → C → A" || len(ps[0].Related) != 2 {
		t.Fatalf("got %+v", ps)
	}
}

// The spec's complete example manifest, its trailing commas removed,
// verifies structurally, and its droplets deploy in the order their
// references imply.
func TestSpecExample(t *testing.T) {
	b, err := os.ReadFile("testdata/spec-example-manifest.json")
	if err != nil {
		t.Fatal(err)
	}
	m, ps := CheckManifest(b)
	if len(ps) != 0 {
		t.Fatalf("problems: %v", problems(m.Mapper, ps))
	}
	stages, err := m.Order()
	if err != nil {
		t.Fatal(err)
	}
	var got [][]string
	for _, s := range stages {
		var ids []string
		for _, d := range s {
			ids = append(ids, d.ID)
		}
		got = append(got, ids)
	}
	want := [][]string{{"PipelineStack"}, {"DockerImage", "StaticFiles"}, {"ServiceStack-beta", "ServiceStack-prod"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
}
