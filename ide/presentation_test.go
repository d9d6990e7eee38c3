package ide

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/source"
)

func TestDocumentSymbols(t *testing.T) {
	res := analyze(t, "basic.yaml", basicSource(t))
	syms := DocumentSymbols(res)
	var got []string
	for _, s := range syms {
		line := s.Name + ":"
		for _, c := range s.Children {
			line += " " + c.Name
			if c.Detail != "" {
				line += "(" + c.Detail + ")"
			}
			for _, g := range c.Children {
				line += " ." + g.Name
			}
		}
		got = append(got, line)
	}
	want := []string{
		"variables: environment(string) region(string) dbPassword(string) port(integer)",
		"values: prefix(string) tags(array[any])",
		"datasources: network(aws/vpc) .vpc .subnets",
		"resources: table(aws/dynamodb/table) handler(aws/lambda/function) .→ table",
		"exports: tableName(string)",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("symbols (-want +got):\n%s", d)
	}
	for _, s := range syms {
		for _, c := range s.Children {
			if !s.Range.ContainsRange(c.Range) || !c.Range.ContainsRange(c.SelectionRange) {
				t.Errorf("%s: ranges not nested", c.Name)
			}
		}
	}
}

func TestWorkspaceSymbols(t *testing.T) {
	a := analyze(t, "basic.yaml", basicSource(t))
	b := analyze(t, "doc.json", jsonDoc)
	got := WorkspaceSymbols([]*analysis.Result{a, b}, "tbl")
	if len(got) == 0 || got[0].Name != "table" {
		t.Fatalf("tbl: %+v", got)
	}
	got = WorkspaceSymbols([]*analysis.Result{a, b}, "env")
	if len(got) < 2 || got[0].Name != "env" || filepath.Base(got[0].Location.URI) != "doc.json" || got[1].Name != "environment" {
		t.Errorf("env: %v %v", got[0].Name, got[1].Name)
	}
	if n := len(WorkspaceSymbols([]*analysis.Result{a}, "zzz")); n != 0 {
		t.Errorf("zzz matched %d", n)
	}
}

func TestSemanticTokens(t *testing.T) {
	src := "version: 2023-04-20\nvariables:\n  env:\n    type: string\nvalues:\n  v:\n    type: string\n    value: ${join(list(variables.env, \"x\"), 1)}\n"
	res := analyze(t, "t.yaml", src)
	toks := SemanticTokens(res, nil)
	var got []string
	for i, tk := range toks {
		if i > 0 && tk.Range.Start < toks[i-1].Range.End {
			t.Errorf("overlap at %v", tk.Range)
		}
		s := text(res, tk.Range) + "/" + TokenTypes[tk.Type]
		if tk.Modifiers&ModDeclaration != 0 {
			s += "+decl"
		}
		got = append(got, s)
	}
	want := []string{
		"version/property", "variables/property", "env/parameter+decl", "type/property", "string/type",
		"values/property", "v/variable+decl", "type/property", "string/type", "value/property",
		"${/operator", "join/function", "(/operator", "list/function", "(/operator", "variables/keyword", "./operator", "env/parameter",
		",/operator", `"x"/string`, ")/operator", ",/operator", "1/number", ")/operator", "}/operator",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("tokens (-want +got):\n%s", d)
	}
	// A range request returns the tokens of those lines only.
	r := source.R(strings.Index(src, "value:"), len(src))
	if part := SemanticTokens(res, &r); len(part) == 0 || part[0].Range.Start < r.Start {
		t.Errorf("range tokens start at %v", part)
	}
}

func TestFoldingAndSelection(t *testing.T) {
	src := basicSource(t)
	res := analyze(t, "basic.yaml", src)
	folds := Folds(res.File, res.File.Mapper)
	found := false
	for _, f := range folds {
		if strings.HasPrefix(string(src[res.File.Mapper.LineStart(f.StartLine):]), "resources:") {
			found = true
		}
	}
	if !found || len(folds) < 10 {
		t.Errorf("%d folds, resources section folded: %v", len(folds), found)
	}
	off := offsetOf(t, src, "variables.environment)}", 0, 12)
	chains := SelectionRanges(res, []int{off})
	var got []string
	for _, r := range chains[0][:5] {
		got = append(got, text(res, r))
	}
	want := []string{"environment", "variables.environment", "trim(variables.environment)", "${trim(variables.environment)}", "zipFile: ${trim(variables.environment)}"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("selection (-want +got):\n%s", d)
	}
	for i := 1; i < len(chains[0]); i++ {
		if !chains[0][i].ContainsRange(chains[0][i-1]) {
			t.Errorf("range %d does not contain %d", i, i-1)
		}
	}
}

func TestInlayHints(t *testing.T) {
	src := "version: 2023-04-20\nvariables:\n  env:\n    type: string\n    default: dev\n  pw:\n    type: string\n    secret: true\n    default: hunter2\n" +
		"values:\n  a:\n    type: string\n    value: orders-${variables.env}\n  b:\n    type: string\n    value: ${values.a}-x\n  c:\n    type: string\n    secret: true\n    value: ${variables.pw}\n  d:\n    type: string\n    value: ${to_upper(variables.env)}\n"
	res := analyze(t, "t.yaml", src)
	hints := InlayHints(res, source.R(0, len(src)), nil)
	var got []string
	for _, h := range hints {
		got = append(got, h.Label)
	}
	want := []string{" = orders-dev", " = orders-dev-x", " = (sensitive)"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("hints (-want +got):\n%s", d)
	}
	custom := InlayHints(res, source.R(0, len(src)), func(s *analysis.Site) (string, bool) { return "X", true })
	if len(custom) != 4 {
		t.Errorf("custom evaluator: %d hints", len(custom))
	}
	long := strings.Repeat("é", 30) + "\n" + strings.Repeat("x", 3000)
	shaped := InlayHints(res, source.R(0, len(src)), func(s *analysis.Site) (string, bool) { return long, true })
	wantLabel := " = " + strings.Repeat("é", 30) + `\n` + strings.Repeat("x", 7) + "…"
	if shaped[0].Label != wantLabel {
		t.Errorf("long label = %q, want %q", shaped[0].Label, wantLabel)
	}
	// The tooltip keeps the first 2,000 runes: 30 é, the line break, 1,969 x.
	if want := codeBlock(long[:len("é")*30+1+1969] + "…"); shaped[0].Tooltip != want {
		t.Errorf("long tooltip has %d bytes, want %d", len(shaped[0].Tooltip), len(want))
	}
}

func TestDocumentLinksAndLenses(t *testing.T) {
	parent := analyzeFile(t, "parent.yaml")
	links := DocumentLinks(parent)
	var got []string
	for _, l := range links {
		got = append(got, text(parent, l.Range)+" -> "+filepath.Base(l.Target))
	}
	want := []string{"./child.yaml -> child.yaml", "./handler.py -> handler.py"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("links (-want +got):\n%s", d)
	}
	res := analyze(t, "basic.yaml", basicSource(t))
	lenses := CodeLenses(res)
	titles := map[string]string{}
	for _, l := range lenses {
		titles[text(res, l.Range)] = l.Title
	}
	if lenses[0].Command != CommandPlan || titles["environment"] != "3 references" || titles["table"] != "3 references" || titles["region"] != "0 references" || titles["prefix"] != "2 references" {
		t.Errorf("lenses: %v", titles)
	}
}
