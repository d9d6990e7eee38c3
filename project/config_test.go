package project

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// describe prints diagnostics as "line:col code: message" (columns in
// code points), so tests show where each mistake is.
func describe(m *source.Mapper, ds []source.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		l, c := m.LineCol(d.Range.Start, source.UTF32)
		out = append(out, fmt.Sprintf("%d:%d %s: %s", l, c, d.Code, d.Message))
	}
	return out
}

func TestParseMistakes(t *testing.T) {
	tests := []struct {
		config string
		want   []string
	}{
		{"severity:\n  spec-unknwon-field: off\n", []string{`2:3 config-invalid: severity: unknown diagnostic code "spec-unknwon-field"; did you mean "spec-unknown-field"?`}},
		{"severity:\n  cycle: loud\n", []string{`2:10 config-invalid: severity of cycle must be error, warning, information, hint or off, not "loud"`}},
		{"ignores: []\n", []string{`1:1 config-invalid: unknown field "ignores" (known: providers, severity, ignore, strictTypes, inputs, roots, limits, rules, plugins)`}},
		{"providers: ./p\n", []string{"1:12 config-invalid: providers must be a list of strings"}},
		{"strictTypes: yes\n", []string{"1:14 config-invalid: strictTypes must be true or false"}},
		{"ignore: ['[']\n", []string{`1:9 config-invalid: ignore: bad glob "["`}},
		{"- a\n", []string{"1:1 config-invalid: the config must be a mapping"}},
		{"rules: [security]\n", []string{"1:8 config-invalid: rules must be a mapping (known: sets, enable, disable, params, policies)"}},
		{"rules:\n  sets: [secure]\n  level: 3\n", []string{
			`2:10 config-invalid: rules.sets: unknown rule set "secure" (known: security, reliability, cost, all, none)`,
			`3:3 config-invalid: unknown field "level" in rules (known: sets, enable, disable, params, policies)`,
		}},
		{"rules:\n  params:\n    log-group-retention: 30\n  policies: {}\n", []string{
			"3:26 config-invalid: rules.params.log-group-retention must be a mapping of parameter names to values",
			"4:13 config-invalid: rules.policies must be a folder path",
		}},
		{"inputs:\n  vars: [dev.json]\n  state: x\n", []string{`3:3 config-invalid: unknown field "state" in inputs (known: vars)`}},
		{"providers: [a, '', {}]\n", []string{
			"1:16 config-invalid: providers must be a list of non-empty strings",
			"1:20 config-invalid: providers must be a list of non-empty strings",
		}},
		// Every mistake is reported, not just the first: an editor shows them all.
		{"colour: blue\nseverity:\n  cycle: loud\n  unused-variable: off\nstrictTypes: 1\n", []string{
			`1:1 config-invalid: unknown field "colour" (known: providers, severity, ignore, strictTypes, inputs, roots, limits, rules, plugins)`,
			`3:10 config-invalid: severity of cycle must be error, warning, information, hint or off, not "loud"`,
			"5:14 config-invalid: strictTypes must be true or false",
		}},
		{"providers: [../shared/providers, ok]\n", []string{
			"1:13 config-invalid: providers: ../shared/providers is outside the project root /p (list extra directories under roots)",
		}},
		{"providers: [/]\n", []string{"1:13 config-invalid: providers: / is outside the project root /p (list extra directories under roots)"}},
		{"providers: [/]\nroots: [/]\n", nil},
		{"limits: {documentSize: 1MiB, schemaSize: 100000}\n", nil},
		{"limits: {documentSize: -1, schemaSize: 2TB, fileSize: 1}\n", []string{
			"1:24 config-invalid: limits.documentSize must be a positive size such as 16MiB or 1048576",
			"1:40 config-invalid: limits.schemaSize must be a positive size such as 16MiB or 1048576",
			`1:45 config-invalid: unknown field "fileSize" in limits (known: documentSize, schemaSize)`,
		}},
		{"", nil},
		{"# nothing\n", nil},
		{"severity: {unused-variable: off, cycle: warning}\nstrictTypes: true\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.config, func(t *testing.T) {
			cfg, diags := Parse("/p/"+FileName, []byte(tt.config))
			if cfg == nil {
				t.Fatal("nil config")
			}
			if diff := cmp.Diff(tt.want, describe(cfg.Mapper(), diags)); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseSyntaxError(t *testing.T) {
	cfg, diags := Parse("/p/"+FileName, []byte("severity: [\n"))
	if len(diags) == 0 || diags[0].Severity != source.Error {
		t.Fatalf("diagnostics %v, want a syntax error", diags)
	}
	if len(cfg.Severity) != 0 || cfg.StrictTypes {
		t.Errorf("a config that does not parse must be empty: %+v", cfg)
	}
}

// TestParseKeepsValidEntries: an editor applies what is valid while the
// user fixes the rest.
func TestParseKeepsValidEntries(t *testing.T) {
	cfg, diags := Parse("/p/"+FileName, []byte("severity:\n  nope: off\n  unused-variable: off\n  cycle: warning\nignore: ['[', gen/**]\nstrictTypes: true\n"))
	if len(diags) != 2 {
		t.Errorf("want 2 mistakes, got %v", diags)
	}
	want := map[string]source.Severity{"unused-variable": Off, "cycle": source.Warning}
	if diff := cmp.Diff(want, cfg.Severity); diff != "" {
		t.Errorf("severity (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"gen/**"}, cfg.Ignore); diff != "" || !cfg.StrictTypes {
		t.Errorf("ignore %v strict %v", cfg.Ignore, cfg.StrictTypes)
	}
}

func TestLoadPaths(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, FileName)
	abs := filepath.Join(string(filepath.Separator), "abs", "prov")
	if err := os.WriteFile(p, []byte("inputs:\n  vars:\n    - env/dev.json\nproviders: [providers/acme, "+abs+"]\nroots: ["+filepath.Dir(abs)+"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, diags, err := Load(p)
	if err != nil || len(diags) > 0 {
		t.Fatal(err, diags)
	}
	if diff := cmp.Diff([]string{filepath.Join(dir, "env", "dev.json")}, cfg.VarsFiles); diff != "" {
		t.Errorf("vars files (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{filepath.Join(dir, "providers", "acme"), abs}, cfg.Providers); diff != "" {
		t.Errorf("providers (-want +got):\n%s", diff)
	}
	if cfg.Path != p || cfg.Dir != dir {
		t.Errorf("path %q dir %q", cfg.Path, cfg.Dir)
	}
	if _, _, err := Load(filepath.Join(dir, "missing.yaml")); err == nil {
		t.Error("a missing file must be an error")
	}
}

// TestParseRules: the rules: section as written, for package rules to
// check against its table.
func TestParseRules(t *testing.T) {
	cfg, diags := Parse("/p/.blueprint-ls.yaml", []byte("rules:\n  sets: security\n  enable: [a-b]\n  disable: [c-d, e-f]\n  params:\n    g-h: {minDays: 30, ports: [22, 3389]}\n  policies: pol\n"))
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	rc := cfg.Rules
	words := func(ws []Word) (out []string) {
		for _, w := range ws {
			out = append(out, w.Text)
		}
		return out
	}
	got := fmt.Sprintln(words(rc.Sets), words(rc.Enable), words(rc.Disable), rc.Params["g-h"][0].Name, rc.Params["g-h"][0].Value, rc.Params["g-h"][1].Value, rc.Policies)
	if want := "[security] [a-b] [c-d e-f] minDays 30 22,3389 /p/pol\n"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}
