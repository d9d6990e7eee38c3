package rules

import (
	"fmt"
	"sort"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// Set groups rules by what they protect; a project config enables rules
// by set.
type Set string

// The rule sets.
const (
	Security    Set = "security"
	Reliability Set = "reliability"
	Cost        Set = "cost"
)

// Sets lists the rule sets in the order the documentation shows them.
var Sets = []Set{Security, Reliability, Cost}

// DocBase is where the rules reference lives; a rule's page is DocBase
// followed by its id (an anchor of docs/rules.md).
const DocBase = "https://github.com/blueprint-ls/blueprint-ls/blob/main/docs/rules.md#"

// Param is a setting of a rule a project config may change.
type Param struct {
	Name    string
	Default string
	Doc     string
}

// Rule is one row of the rule table.
type Rule struct {
	ID    string
	Title string // a requirement, as a sentence without a full stop
	// Types are the resource types the rule reads; empty for a
	// blueprint-level rule.
	Types       []string
	Severity    source.Severity
	Set         Set
	Rationale   string
	Fix         string
	Equivalents []string // AWS Config managed rule / Guard rules registry identifiers
	Params      []Param
	// Bad and Good are specs of Types[0] (YAML) that the rule reports
	// and does not report; for a blueprint-level rule, whole blueprints.
	// The documentation shows them and the table test runs them.
	Bad, Good []string

	// Code is the rule's registered diagnostic code (ID, Severity).
	Code *source.Code

	check      func(*subject)
	blueprint  func(*bpSubject)
	hasQuickFx bool
	// rank is the rule's place in the table sorted by id: findings at
	// one place are ordered by rule id, which comparing ranks does
	// without comparing the ids' text.
	rank int
}

// Doc is the URL of the rule's documentation.
func (r *Rule) Doc() string { return DocBase + r.ID }

// QuickFix reports whether the rule's findings may carry a fix.
func (r *Rule) QuickFix() bool { return r.hasQuickFx }

var (
	table  []*Rule
	byID   = map[string]*Rule{}
	byType = map[string][]*Rule{}
	byEqv  = map[string][]*Rule{}
)

// define adds a rule to the table and registers its diagnostic code.
// Called from package-level var initialisers of the service files, so
// the table is complete before any init function runs.
func define(r *Rule) *Rule {
	if _, dup := byID[r.ID]; dup {
		panic("rules: rule defined twice: " + r.ID)
	}
	if r.Set == "" || r.Severity == 0 || r.Title == "" || r.Rationale == "" || r.Fix == "" {
		panic("rules: incomplete rule " + r.ID)
	}
	summary := r.Title + "."
	c := source.NewCode(r.ID, r.Severity, summary, "")
	c.Doc = r.Doc()
	r.Code = c
	table = append(table, r)
	byID[r.ID] = r
	for _, t := range r.Types {
		byType[t] = append(byType[t], r)
	}
	for _, e := range r.Equivalents {
		byEqv[e] = append(byEqv[e], r)
	}
	return r
}

// The ranks, once every rule is defined (the package's variables are
// initialised before its init functions run).
func init() {
	for i, r := range All() {
		r.rank = i
	}
}

// All returns every rule sorted by id.
func All() []*Rule {
	out := append([]*Rule(nil), table...)
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Lookup returns the rule with id.
func Lookup(id string) (*Rule, bool) {
	r, ok := byID[id]
	return r, ok
}

// resolve returns the rules a name stands for: a rule id, or an
// equivalent's identifier (a Guard suppression names those).
func resolve(name string) []*Rule {
	if r, ok := byID[name]; ok {
		return []*Rule{r}
	}
	return byEqv[strings.ToUpper(name)]
}

// param returns the rule's parameter p's default.
func (r *Rule) param(p string) string {
	for _, x := range r.Params {
		if x.Name == p {
			return x.Default
		}
	}
	panic(fmt.Sprintf("rules: %s has no parameter %s", r.ID, p))
}
