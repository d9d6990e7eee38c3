package rules

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Entry is a rule as `blueprint-ls rules --format json` lists it.
type Entry struct {
	ID          string   `json:"id"`
	Title       string   `json:"title"`
	Set         Set      `json:"set"`
	Severity    string   `json:"severity"`
	Types       []string `json:"resourceTypes"`
	Equivalents []string `json:"equivalents"`
	Params      []Param  `json:"parameters,omitempty"`
	QuickFix    bool     `json:"quickFix"`
	Rationale   string   `json:"rationale"`
	Fix         string   `json:"fix"`
	Doc         string   `json:"documentation"`
}

// Entries lists every rule, sorted by id.
func Entries() []Entry {
	var out []Entry
	for _, r := range All() {
		e := Entry{ID: r.ID, Title: r.Title, Set: r.Set, Severity: r.Severity.String(), Types: r.Types,
			Equivalents: r.Equivalents, Params: r.Params, QuickFix: r.hasQuickFx, Rationale: r.Rationale, Fix: r.Fix, Doc: r.Doc()}
		if e.Types == nil {
			e.Types = []string{}
		}
		if e.Equivalents == nil {
			e.Equivalents = []string{}
		}
		out = append(out, e)
	}
	return out
}

// JSON renders Entries.
func JSON() []byte {
	b, _ := json.MarshalIndent(Entries(), "", "  ")
	return append(b, '\n')
}

// Markdown renders the rules reference, docs/rules.md.
func Markdown() string {
	var b strings.Builder
	b.WriteString("# Rules\n\n")
	b.WriteString("<!-- Generated from the rule table (package rules) by TestRulesDocFresh; do not edit.\n")
	b.WriteString("     Regenerate: go test ./rules -run TestRulesDocFresh -update -->\n\n")
	b.WriteString("The best-practice and security rules `check`, the language server and the plan\n")
	b.WriteString("preview run over what a blueprint deploys: every resource as `plan` evaluates it\n")
	b.WriteString("(each `each` instance, conditions applied, substitutions resolved from defaults and\n")
	b.WriteString("inputs). A value only known after deployment is never reported. Configure them in\n")
	b.WriteString("`.blueprint-ls.yaml` ([cli.md](cli.md#rules)); write your own in Rego\n")
	b.WriteString("([policies.md](policies.md)). `blueprint-ls rules --format json` lists them.\n\n")
	all := All()
	withEq := 0
	for _, r := range all {
		if len(r.Equivalents) > 0 {
			withEq++
		}
	}
	fmt.Fprintf(&b, "%d rules; %d name an equivalent AWS Config managed rule or Guard rules registry rule.\n", len(all), withEq)
	b.WriteString("Where the equivalent is a Guard rules registry rule, the registry's own test templates,\n" +
		"converted to blueprints, are run against the rule: its FAIL cases are reported, its PASS and\n" +
		"SKIP cases are not (`rules/guard_registry_test.go`; a case a blueprint cannot express, such as a\n" +
		"cfn-nag suppression or a value Guard reads through `Fn::GetAtt`, is skipped with its reason).\n\n")
	b.WriteString("| rule | set | severity | resource types | equivalents |\n|---|---|---|---|---|\n")
	for _, r := range all {
		fmt.Fprintf(&b, "| [`%s`](#%s) | %s | %s | %s | %s |\n", r.ID, r.ID, r.Set, r.Severity, code(r.Types, "(blueprint)"), code(r.Equivalents, ""))
	}
	for _, r := range all {
		fmt.Fprintf(&b, "\n## %s\n\n**%s.** Set: %s. Default severity: %s.", r.ID, r.Title, r.Set, r.Severity)
		if len(r.Types) > 0 {
			fmt.Fprintf(&b, " Resource types: %s.", code(r.Types, ""))
		}
		if len(r.Equivalents) > 0 {
			fmt.Fprintf(&b, " Equivalent: %s.", code(r.Equivalents, ""))
		}
		if r.hasQuickFx {
			b.WriteString(" Has a quick fix.")
		}
		fmt.Fprintf(&b, "\n\n%s\n\nFix: %s\n", r.Rationale, r.Fix)
		for _, p := range r.Params {
			fmt.Fprintf(&b, "\nParameter `%s` (default `%s`): %s.\n", p.Name, p.Default, p.Doc)
		}
		writeExample(&b, r, "Reported", r.Bad[0])
		writeExample(&b, r, "Not reported", r.Good[0])
	}
	return b.String()
}

func writeExample(b *strings.Builder, r *Rule, what, spec string) {
	fmt.Fprintf(b, "\n%s:\n\n```yaml\n", what)
	if len(r.Types) == 0 {
		b.WriteString(strings.TrimRight(spec, "\n") + "\n```\n")
		return
	}
	fmt.Fprintf(b, "type: %s\nspec:\n", r.Types[0])
	for _, l := range strings.Split(strings.TrimRight(spec, "\n"), "\n") {
		if l == "{}" {
			l = "{}  # nothing set"
		}
		b.WriteString("  " + l + "\n")
	}
	b.WriteString("```\n")
}

func code(ss []string, none string) string {
	if len(ss) == 0 {
		return none
	}
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = "`" + s + "`"
	}
	return strings.Join(q, ", ")
}
