package project

import (
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/blueprint-ls/blueprint-ls/source"
)

func TestApply(t *testing.T) {
	content := "a: 1\nb: 2 # blueprint-ls:ignore spec-unknown-field\nc: 3\nd: 4\n"
	diags := func() []source.Diagnostic {
		return []source.Diagnostic{
			at(t, content, "a", "spec-scalar-not-string"),
			at(t, content, "b", "spec-unknown-field"),
			at(t, content, "c", "unused-variable"),
			at(t, content, "d", "cycle"),
		}
	}
	dir := filepath.Join(string(filepath.Separator), "p")
	file := filepath.Join(dir, "x.blueprint.yaml")
	tests := []struct {
		name string
		cfg  *Config
		file string
		want []string
	}{
		{"nil config: only the suppressions", nil, file, []string{"1 spec-scalar-not-string warning", "3 unused-variable hint", "4 cycle error"}},
		{"strict types", &Config{Dir: dir, StrictTypes: true}, file, []string{"1 spec-scalar-not-string error", "3 unused-variable hint", "4 cycle error"}},
		{"severity after strict types", &Config{Dir: dir, StrictTypes: true, Severity: map[string]source.Severity{
			"spec-scalar-not-string": source.Information, "unused-variable": Off, "cycle": source.Warning}},
			file, []string{"1 spec-scalar-not-string information", "4 cycle warning"}},
		{"severity can turn off suppress-unused", &Config{Dir: dir, Severity: map[string]source.Severity{"suppress-unused": Off}},
			file, []string{"1 spec-scalar-not-string warning", "3 unused-variable hint", "4 cycle error"}},
		{"ignored file", &Config{Dir: dir, Ignore: []string{"*.blueprint.yaml"}}, file, nil},
		{"ignore globs outside the config's directory do not apply", &Config{Dir: dir, Ignore: []string{"**"}},
			filepath.Join(string(filepath.Separator), "q", "x.blueprint.yaml"), []string{"1 spec-scalar-not-string warning", "3 unused-variable hint", "4 cycle error"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := diags()
			got := tt.cfg.Apply(tt.file, []byte(content), in)
			if diff := cmp.Diff(tt.want, summary(content, got)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(diags(), in); diff != "" {
				t.Errorf("input modified (-want +got):\n%s", diff)
			}
		})
	}
}

// TestChanges: when Changes says no, Apply gives the diagnostics as they
// are (check then skips it).
func TestChanges(t *testing.T) {
	dir := filepath.Join(string(filepath.Separator), "p")
	file := filepath.Join(dir, "x.blueprint.yaml")
	plain := "a: 1\nb: 2\n"
	directive := "a: 1\nb: 2 # blueprint-ls:ignore cycle\n"
	ds := []source.Diagnostic{at(t, plain, "a", "spec-scalar-not-string"), at(t, plain, "b", "cycle")}
	for _, c := range []struct {
		name    string
		cfg     *Config
		content string
		want    bool
	}{
		{"nil config", nil, plain, false},
		{"empty config", &Config{Dir: dir}, plain, false},
		{"a directive", nil, directive, true},
		{"strict types", &Config{Dir: dir, StrictTypes: true}, plain, true},
		{"a severity", &Config{Dir: dir, Severity: map[string]source.Severity{"cycle": source.Warning}}, plain, true},
		{"ignored", &Config{Dir: dir, Ignore: []string{"*.blueprint.yaml"}}, plain, true},
	} {
		got := c.cfg.Changes(file, []byte(c.content))
		if got != c.want {
			t.Errorf("%s: Changes = %v, want %v", c.name, got, c.want)
		}
		if !got {
			if diff := cmp.Diff(ds, c.cfg.Apply(file, []byte(c.content), ds)); diff != "" {
				t.Errorf("%s: Apply changes the diagnostics (-before +after):\n%s", c.name, diff)
			}
		}
	}
}
