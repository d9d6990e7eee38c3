package landscaper

import (
	"strings"
	"testing"
)

func TestTemplates(t *testing.T) {
	files := map[string]string{
		"deploy.yaml":     "deployItems:\n- name: a\n  config: {{ .imports.ns }}\n",
		"bad.yaml":        "deployItems:\n- name: a\n  config: {{ .imports.ns\n",
		"spiff.yaml":      "deployItems:\n- name: a\n  config: (( imports.nss ))\n",
		"spiff-bad.yaml":  "deployItems: [\n",
		"bindings.yaml":   "bindings:\n  extra: (( imports.ns ))\n",
		"gobindings.yaml": "bindings:\n  x: {{ .imports.ns }}\n",
		"sub/x.yaml":      "x: 1\n",
	}
	const imp = "imports:\n- name: ns\n  schema: {type: string}\n- name: cluster\n  targetType: landscaper.gardener.cloud/kubernetes-cluster\n"
	goExec := func(tmpl string) string {
		return imp + "deployExecutions:\n- name: d\n  type: GoTemplate\n  template: |\n" + indent(tmpl, "    ")
	}
	tests := []struct {
		name, doc string
		want      []want
	}{
		{"clean GoTemplate", goExec("deployItems:\n- name: a\n  target: {{ .imports.cluster | toYaml | nindent 4 }}\n  ns: {{ $.imports.ns | quote }}\n{{- range $k, $v := .imports }}{{ $k }}{{ end }}\n"), nil},
		{"clean file", imp + "deployExecutions:\n- name: d\n  type: GoTemplate\n  file: /deploy.yaml\n", nil},
		{"syntax error: the line", goExec("a: 1\nb: {{ .imports.ns }\n"), []want{{"landscaper-template-syntax", "}"}}},
		{"syntax error: the token", goExec("a: {{ end }}\n"), []want{{"landscaper-template-syntax", "a: {{ end }}"}}},
		{"unknown function with did-you-mean", goExec("a: {{ toYml .imports.ns }}\nb: {{ .imports.ns | upper | qoute }}\n"), []want{{"landscaper-template-function", "toYml"}, {"landscaper-template-function", "qoute"}}},
		{"env is removed", goExec("a: {{ env \"HOME\" }}\n"), []want{{"landscaper-template-function", "env"}}},
		{"landscaper functions are known", goExec("a: {{ ociRefRepo .imports.ns }}{{ getResource .cd \"name\" \"x\" }}{{ include \"deploy.yaml\" . }}\n"), nil},
		{"undeclared import", goExec("a: {{ .imports.nss }}\nb: {{ $.imports.clustr.config }}\nc: {{ if .imports.ns }}{{ .imports.other }}{{ end }}\n"), []want{{"landscaper-template-import", "nss"}, {"landscaper-template-import", "clustr"}, {"landscaper-template-import", "other"}}},
		{"in a define", goExec("{{ define \"x\" }}{{ .imports.nope }}{{ end }}\n"), []want{{"landscaper-template-import", "nope"}}},
		{"fields of a data import", "localTypes:\n  addr: {type: object, properties: {host: {type: string}}, additionalProperties: false}\nimports:\n- name: db\n  schema:\n    type: object\n    properties:\n      host: {type: string}\n      addr: {$ref: 'local://addr'}\n- name: free\n  schema: {type: object, properties: {a: {}}, additionalProperties: true}\n- name: loose\n  schema: {type: object}\ndeployExecutions:\n- name: d\n  type: GoTemplate\n  template: |\n    a: {{ .imports.db.host }}{{ .imports.db.hots }}{{ .imports.db.addr.host }}{{ $.imports.db.addr.hots }}\n    b: {{ .imports.free.b }}{{ .imports.loose.x.y }}\n", []want{{"landscaper-template-field", "hots"}, {"landscaper-template-field", "hots"}}},
		{"files a template reads", goExec("a: {{ include \"deploy.yaml\" . }}{{ readFile \"/spiff.yaml\" }}{{ readDir \"sub\" }}\nb: {{ include \"nope.tpl\" . }}{{ readFile \"../../etc/passwd\" }}{{ readDir \"deploy.yaml\" }}{{ include (printf \"%s\" \"x\") . }}\n"), []want{{"landscaper-file-missing", `"nope.tpl"`}, {"landscaper-file-outside", `"../../etc/passwd"`}, {"landscaper-file-missing", `"deploy.yaml"`}}},
		{"error in a file: on the reference", imp + "deployExecutions:\n- name: d\n  type: GoTemplate\n  file: /bad.yaml\n", []want{{"landscaper-template-syntax", "/bad.yaml"}}},
		{"GoTemplate as a mapping", imp + "deployExecutions:\n- name: d\n  type: GoTemplate\n  template:\n    deployItems: []\n", []want{{"landscaper-template-syntax", "template"}}},
		{"clean Spiff", imp + "deployExecutions:\n- name: d\n  type: Spiff\n  template:\n    deployItems:\n    - name: a\n      config: (( imports.ns ))\n      list: (( sum[imports.ns|[]|s,k,v|-> s [{\"imports.x\" = k}]] ))\n      lit: ((! imports.nope ))\n", nil},
		{"Spiff undeclared import", imp + "deployExecutions:\n- name: d\n  type: Spiff\n  template:\n    deployItems:\n    - config: (( imports.nss || \"x\" ))\n", []want{{"landscaper-template-import", "nss"}}},
		{"Spiff never closed", imp + "deployExecutions:\n- name: d\n  type: Spiff\n  template:\n    a: (( imports.ns )\n    b: \"(( len(imports.ns) \"\n", []want{{"landscaper-template-syntax", "(("}, {"landscaper-template-syntax", "(("}}},
		{"Spiff text template", imp + "deployExecutions:\n- name: d\n  type: Spiff\n  template: |\n    deployItems:\n    - config: (( imports.nss ))\n", []want{{"landscaper-template-import", "nss"}}},
		{"Spiff file", imp + "deployExecutions:\n- name: d\n  type: Spiff\n  file: /spiff.yaml\n", []want{{"landscaper-template-import", "/spiff.yaml"}}},
		{"Spiff file not YAML", imp + "deployExecutions:\n- name: d\n  type: Spiff\n  file: /spiff-bad.yaml\n", []want{{"landscaper-template-syntax", "/spiff-bad.yaml"}}},
		{"Spiff import execution binds", imp + "importExecutions:\n- name: i\n  type: Spiff\n  file: /bindings.yaml\ndeployExecutions:\n- name: d\n  type: GoTemplate\n  template: |\n    a: {{ .imports.extra }}{{ .imports.nope }}\n", []want{{"landscaper-template-import", "nope"}}},
		{"Spiff export of an undeclared name", "exports:\n- name: url\n  schema: {type: string}\nexportExecutions:\n- name: e\n  type: Spiff\n  template:\n    exports:\n      url: (( \"a\" ))\n      ulr: (( \"b\" ))\n", []want{{"landscaper-export-undeclared", "ulr"}}},
		{"Spiff export text template", "exports:\n- name: url\n  schema: {type: string}\nexportExecutions:\n- name: e\n  type: Spiff\n  template: |\n    exports:\n      nope: 1\n", []want{{"landscaper-export-undeclared", "nope"}}},
		{"GoTemplate import execution: unknowable", imp + "importExecutions:\n- name: i\n  type: GoTemplate\n  file: /gobindings.yaml\ndeployExecutions:\n- name: d\n  type: GoTemplate\n  template: |\n    a: {{ .imports.anything }}\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, res := checkIn(t, files, tt.doc)
			if !equal(got, tt.want) {
				t.Errorf("got %v\nwant %v\n%s", got, tt.want, messages(res.Diagnostics))
			}
		})
	}
}

// A problem in an execution file names its line and column there.
func TestTemplateFileMessage(t *testing.T) {
	_, res := checkIn(t, map[string]string{"d.yaml": "x: 1\ny: {{ .imports.nope }}\n"}, "deployExecutions:\n- name: d\n  type: GoTemplate\n  file: d.yaml\n")
	if len(res.Diagnostics) != 1 || !strings.HasPrefix(res.Diagnostics[0].Message, "d.yaml:2:16: import \"nope\"") {
		t.Errorf("got %s", messages(res.Diagnostics))
	}
}

func indent(s, by string) string {
	lines := strings.SplitAfter(s, "\n")
	var b strings.Builder
	for _, l := range lines {
		if l != "" && l != "\n" {
			b.WriteString(by)
		}
		b.WriteString(l)
	}
	return b.String()
}
