package dialect

import (
	"strings"
	"testing"
)

func TestDetect(t *testing.T) {
	tests := []struct {
		name, path, lang, content string
		want                      Kind
		decided                   bool
	}{
		{"config by name", "/p/.blueprint-ls.yaml", "yaml", "jobs: {}\n", Config, true},
		{"manifest", "file:///out/manifest.json", "", `{"version": "1", "schema": "cloud-assembly/2025-11-02", "droplets": {}}`, Manifest, true},
		{"manifest by language", "untitled:1", "json", `{"schema": "cloud-assembly/x"}`, Manifest, true},
		{"manifest still typing", "file:///m.json", "", `{"schema": "cloud-as`, Bluelink, false},
		{"json blueprint", "file:///infra.json", "", `{"version": "2023-04-20", "resources": {}}`, Bluelink, true},
		{"json schema not assembly", "file:///x.json", "", `{"schema": "other", "resources": {}}`, Bluelink, true},
		{"json foreign", "file:///package.json", "", `{"name": "x", "scripts": {"a": "b"}}`, Unknown, true},
		{"provider schema", "file:///prov/widget.json", "", `{"typeName": "Acme::Shop::Widget", "properties": {"Name": {"type": "string"}}}`, ProviderSchema, true},
		{"provider schema by content, any name", "untitled:1", "json", "{\n  \"$schema\": \"x\",\n  \"properties\": {},\n  \"typeName\": \"A::B::C\"\n}", ProviderSchema, true},
		{"provider schema being typed", "file:///prov/w.json", "", `{"typeName": "Acme::Shop::Widget", "properties": {"Na`, Bluelink, false},
		{"typeName without properties", "file:///x.json", "", `{"typeName": "Acme::Shop::Widget"}`, Unknown, true},
		{"blueprint with a properties-like key stays one", "file:///x.json", "", `{"version": "2023-04-20", "typeName": "x", "properties": {}, "resources": {}}`, Bluelink, true},
		{"provider schema shape in yaml", "file:///w.yaml", "yaml", "typeName: A::B::C\nproperties: {}\n", Unknown, true},
		{"json broken before evidence", "file:///x.json", "", `{"name": "x", "scr`, Bluelink, false},
		{"manifest shape in yaml stays yaml", "file:///m.yaml", "yaml", "schema: cloud-assembly/x\n", Unknown, true},
		{"blueprint named infra.yaml", "file:///infra.yaml", "yaml", "version: 2023-04-20\nresources:\n  q:\n    type: aws/sqs/queue\n", Bluelink, true},
		{"section only", "file:///a.yaml", "yaml", "# c\nresources: {}\n", Bluelink, true},
		{"transform only", "file:///a.yaml", "yaml", "transform: celerity-2026-02-28\n", Bluelink, true},
		{"version being typed", "file:///a.yaml", "yaml", "version:\n", Bluelink, true},
		{"quoted version", "file:///a.yaml", "yaml", "\"version\": '2025-11-02' # spec\n", Bluelink, true},
		{"empty", "file:///a.yaml", "yaml", "", Bluelink, true},
		{"comments only", "file:///a.yaml", "yaml", "# nothing yet\n", Bluelink, true},
		{"scalar top level", "file:///a.yaml", "yaml", "just text\n", Bluelink, true},
		{"sequence top level", "file:///a.yaml", "yaml", "- a\n- b\n", Bluelink, true},
		{"blueprint name wins", "file:///x/app.blueprint.yaml", "yaml", "jobs:\n  a: 1\n", Bluelink, true},
		{"blueprint.yml", "/x/blueprint.yml", "", "name: ci\n", Bluelink, true},
		{"github workflow", "file:///.github/workflows/ci.yaml", "yaml", "name: CI\non:\n  push:\n    branches: [main]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n", Unknown, true},
		{"kubernetes", "file:///k8s/deploy.yaml", "yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 2\n", Unknown, true},
		{"kubernetes two documents", "file:///k8s/all.yaml", "yaml", "---\napiVersion: v1\nkind: Service\n---\napiVersion: v1\nkind: ConfigMap\n", Unknown, true},
		{"compose", "file:///compose.yaml", "yaml", "version: \"3.8\"\nservices:\n  web:\n    image: nginx\n", Unknown, true},
		{"crlf and bom", "file:///a.yaml", "yaml", "\xEF\xBB\xBFversion: 2023-04-20\r\nresources:\r\n", Bluelink, true},
		{"landscaper blueprint named blueprint.yaml", "/l/blueprint.yaml", "", "apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: Blueprint\nimports:\n- name: a\nexports:\n- name: b\n", Landscaper, true},
		{"landscaper exports before kind", "/l/blueprint.yaml", "", "apiVersion: landscaper.gardener.cloud/v1alpha1\nexports: []\nkind: Blueprint\n", Landscaper, true},
		{"landscaper quoted, other name", "file:///l/x.yaml", "yaml", "\"apiVersion\": 'landscaper.gardener.cloud/v1alpha1' # c\nkind: InstallationTemplate\nname: a\n", Landscaper, true},
		{"landscaper json", "file:///l/blueprint.json", "", `{"apiVersion": "landscaper.gardener.cloud/v1alpha1", "kind": "Blueprint", "imports": []}`, Landscaper, true},
		{"landscaper kind being typed", "/l/blueprint.yaml", "", "apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: Blue\n", Landscaper, false},
		{"landscaper no kind yet", "/l/blueprint.yaml", "", "apiVersion: landscaper.gardener.cloud/v1alpha1\n", Landscaper, false},
		// The apiVersion says Landscaper: a misspelled kind is a mistake in
		// a Landscaper document (reported by its check), not a Bluelink
		// blueprint with no version.
		{"landscaper kind misspelled", "/l/blueprint.yaml", "", "apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: Blueprnt\nimports: []\n", Landscaper, true},
		{"landscaper kind in lower case", "/l/blueprint.yaml", "", "apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: blueprint\n", Landscaper, true},
		{"landscaper template kind misspelled", "/l/x.yaml", "", "apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: InstalationTemplate\nname: a\n", Landscaper, true},
		{"landscaper target is no blueprint", "/l/t.yaml", "", "apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: Target\nspec: {}\n", Unknown, true},
		{"landscaper installation is no blueprint", "/l/inst.yaml", "", "apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: Installation\nspec: {}\n", Unknown, true},
		{"landscaper kind under other group", "/l/blueprint.yaml", "", "apiVersion: example.com/v1\nkind: Blueprint\n", Bluelink, true},
		{"bluelink with a landscaper-ish key", "/b/blueprint.yaml", "", "version: 2025-11-02\nkind: Blueprint\nresources: {}\n", Bluelink, true},
		{"nested section keys do not count", "file:///a.yaml", "yaml", "jobs:\n  resources: 1\n", Unknown, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, decided := Detect(tt.path, tt.lang, []byte(tt.content))
			if got != tt.want || decided != tt.decided {
				t.Errorf("Detect(%q) = %v, %v; want %v, %v", tt.content, got, decided, tt.want, tt.decided)
			}
		})
	}
}

func TestIsBlueprintName(t *testing.T) {
	for name, want := range map[string]bool{
		"blueprint.yaml": true, "app.blueprint.jsonc": true, "/a/b/x.blueprint.yml": true,
		`C:\a\blueprint.json`: true, "file:///a/blueprint.yaml?x=1": true,
		"infra.yaml": false, "blueprint.txt": false, "myblueprint.yaml": false,
		"project.bp": true, "/a/infra.BP": true, "file:///a/app.blueprint": true, "app.bp.txt": false,
	} {
		if got := IsBlueprintName(name); got != want {
			t.Errorf("IsBlueprintName(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestLanguageDocuments: a blueprint-language name is a Bluelink
// blueprint whatever its text (the YAML scan would find no evidence in
// `resource a: aws/s3/bucket {`).
func TestLanguageDocuments(t *testing.T) {
	for _, name := range []string{"file:///w/project.bp", "/w/infra.blueprint"} {
		if k, decided := Detect(name, "", []byte("resource a: aws/s3/bucket {\n")); k != Bluelink || !decided {
			t.Errorf("Detect(%q) = %v, %v", name, k, decided)
		}
	}
}

func TestSectionTable(t *testing.T) {
	for _, s := range BluelinkDialect.Sections {
		if SectionOf(s.Key()) != s {
			t.Errorf("SectionOf(%q) = %v, want %v", s.Key(), SectionOf(s.Key()), s)
		}
	}
	if Include.Namespace() != "children" || Exports.Namespace() != "" {
		t.Errorf("namespaces: include %q, exports %q", Include.Namespace(), Exports.Namespace())
	}
	if SectionOf("metadata") != NoSection || NoSection.Key() != "" || Section(99).Key() != "" {
		t.Error("non-sections must map to NoSection and empty keys")
	}
	for k := Unknown; k <= Config; k++ {
		if Of(k).Kind != k {
			t.Errorf("Of(%v).Kind = %v", k, Of(k).Kind)
		}
	}
}

// TestDetectManifest covers the manifest rule's scan of the JSON top
// level (moved here with the scanner from lsp).
func TestDetectManifest(t *testing.T) {
	big := `{"version": "2023-04-20", "resources": {` + strings.Repeat(`"r": {"type": "a/b", "spec": {"s": "}]\"{["}}, `, 50) + `"z": 1}, "schema": "cloud-assembly/1.0"}`
	const (
		yes = iota
		no
		undecided
	)
	tests := []struct {
		name, content string
		want          int
	}{
		{"first member", `{"schema": "cloud-assembly/1.0", "droplets": {}}`, yes},
		{"last member, after nested values", big, yes},
		{"other version", "{\n\t\"schema\" :\r\n \"cloud-assembly/2.0\"}", yes},
		{"escaped key and value", `{"sch\u0065ma": "cloud-assembly\/1.0"}`, yes},
		{"other schema", `{"schema": "https://json-schema.org/draft/2020-12/schema"}`, no},
		{"schema not a string", `{"schema": {"id": "cloud-assembly/1.0"}}`, no},
		{"schema only nested", `{"droplets": {"A": {"schema": "cloud-assembly/1.0"}}}`, no},
		{"blueprint", `{"version": "2023-04-20", "resources": {}}`, no},
		{"array", `[{"schema": "cloud-assembly/1.0"}]`, no},
		{"empty object", `{}`, no},
		{"empty", "", undecided},
		{"key being typed", "{\n  \"dro\n  \"schema\": \"cloud-assembly/1.0\"}", undecided},
		{"value being typed", `{"droplets": {"A": `, undecided},
		{"cut short", `{"schema": "cloud-ass`, undecided},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k, decided := Detect("file:///x/manifest.json", "", []byte(tt.content))
			got := no
			switch {
			case !decided:
				got = undecided
			case k == Manifest:
				got = yes
			}
			if got != tt.want {
				t.Errorf("Detect(%q) = %v, %v; want verdict %d", tt.content, k, decided, tt.want)
			}
		})
	}
	// Only JSON documents can be manifests.
	for _, c := range []struct{ uri, lang string }{{"file:///x/app.blueprint.yaml", "yaml"}, {"file:///x/a.json.yaml", ""}} {
		if k, _ := Detect(c.uri, c.lang, []byte(`{"schema": "cloud-assembly/1.0"}`)); k == Manifest {
			t.Errorf("Detect(%q, %q) = Manifest; only JSON documents are manifests", c.uri, c.lang)
		}
	}
	for _, c := range []struct{ uri, lang string }{{"file:///x/MANIFEST.JSON", "plaintext"}, {"file:///x/a.jsonc", ""}, {"untitled:Untitled-1", "json"}, {"vscode-vfs://h/x/manifest.json?ref=main", ""}} {
		if k, _ := Detect(c.uri, c.lang, []byte(`{"schema": "cloud-assembly/1.0"}`)); k != Manifest {
			t.Errorf("Detect(%q, %q) = %v, want Manifest", c.uri, c.lang, k)
		}
	}
}
