package analysis

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/internal/gen"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/subst"
)

// The unit key of issue 21, checked before any cache relies on it: a
// definition's results may be reused by the next version of a document
// when its text and the types of the names it references are unchanged.
// TestUnitKeyDecidesReuse edits blueprints at random and, after every
// step, checks that each definition whose key is unchanged got the same
// expression types (by ExprID) and the same diagnostics of its own,
// relative to its start, as in the version before.

// unitState is what the test knows of one unit in one version.
type unitState struct {
	key   string   // text and dependencies
	types []string // the expression types of its sites, by ExprID
	diags []string // its own diagnostics, relative to its start
}

func unitStates(res *Result, withDeps bool) map[UnitID]*unitState {
	out := map[UnitID]*unitState{}
	text := res.File.Content()
	var ranges []source.Range
	for _, s := range res.Symbols() {
		if s.Kind == DataSourceFieldSymbol {
			continue // part of its data source
		}
		id := UnitID{Kind: s.Kind, Name: s.Name}
		out[id] = &unitState{key: string(text[s.Range.Start:s.Range.End])}
		ranges = append(ranges, s.Range)
	}
	deps := map[UnitID][]string{}
	for _, ref := range res.References() {
		if ref.Site == nil || ref.Site.Owner == nil {
			continue
		}
		id := ref.Site.Unit()
		if t := ref.Target; t != nil {
			dep := fmt.Sprintf("%s %s: %s %s secret=%v", t.Kind, t.Name, t.Type, t.Detail(), t.Secret)
			if t.Kind == ResourceSymbol {
				// A resource's type for its dependents is the object its
				// each, spec and metadata make; its text stands for it.
				dep += " " + string(text[t.Range.Start:t.Range.End])
			}
			deps[id] = append(deps[id], dep)
		} else {
			deps[id] = append(deps[id], fmt.Sprintf("unresolved %s in %v", ref.Expr.Name, res.names(namespaceKind(ref.Expr.Namespace))))
		}
	}
	for id, d := range deps {
		if u := out[id]; u != nil && withDeps {
			sort.Strings(d)
			u.key += "\x00" + strings.Join(d, "\x00")
		}
	}
	for _, s := range res.Sites() {
		u := out[s.Unit()]
		if u == nil {
			continue
		}
		i := 0
		subst.WalkTemplate(s.Template, func(e subst.Expr) bool {
			u.types = append(u.types, fmt.Sprintf("%d/%d %s: %v", s.Ordinal, i, subst.Print(e), s.TypeOf(e)))
			i++
			return true
		})
	}
	for _, d := range res.Diagnostics {
		if documentWide[d.Code] {
			continue
		}
		for _, s := range res.Symbols() {
			if s.Kind == DataSourceFieldSymbol || !s.Range.ContainsRange(d.Range) {
				continue
			}
			u := out[UnitID{Kind: s.Kind, Name: s.Name}]
			rel := func(r source.Range) string {
				if !s.Range.ContainsRange(r) {
					return "outside"
				}
				return fmt.Sprintf("%d-%d", r.Start-s.Range.Start, r.End-s.Range.Start)
			}
			// Some messages name a position ("started at 84:52"): relative
			// to the unit's first line it is the same in both versions.
			first := res.File.Mapper.Line(s.Range.Start)
			msg := position.ReplaceAllStringFunc(d.Message, func(p string) string {
				var line, col int
				fmt.Sscanf(p, "%d:%d", &line, &col)
				return fmt.Sprintf("+%d:%d", line-first, col)
			})
			line := fmt.Sprintf("%s %s %v %q", rel(d.Range), d.Code, d.Severity, msg)
			for _, sg := range d.Suggestions {
				for _, e := range sg.Edits {
					line += fmt.Sprintf(" [%s: %s %q]", sg.Title, rel(e.Range), e.NewText)
				}
			}
			for _, r := range d.Related {
				line += " related " + rel(r.Range)
			}
			u.diags = append(u.diags, line)
			break
		}
	}
	return out
}

var position = regexp.MustCompile(`\b\d+:\d+\b`)

func namespaceKind(ns interface{ String() string }) SymbolKind {
	for k := VariableSymbol; k <= ExportSymbol; k++ {
		if k.Namespace() == ns.String() {
			return k
		}
	}
	return 0
}

// snippets are what the random edits type.
var snippets = []string{"x", "9", " ", "a1", "${values.", "}", "${variables.env}", "resources.", ".spec", "-", "\"", "${len(", ")}", "true"}

// randomEdit changes a few bytes inside a random definition: an insert, a
// deletion, or a word replaced by a name of the blueprint (so references
// move to other targets and names collide).
func randomEdit(rng *rand.Rand, res *Result) []byte {
	text := res.File.Content()
	var defs []*Symbol
	for _, s := range res.Symbols() {
		if s.Kind != DataSourceFieldSymbol {
			defs = append(defs, s)
		}
	}
	if len(defs) == 0 {
		return nil
	}
	r := defs[rng.Intn(len(defs))].Range
	at := r.Start + rng.Intn(r.Len()+1)
	switch rng.Intn(3) {
	case 0:
		s := snippets[rng.Intn(len(snippets))]
		return concat(text[:at], []byte(s), text[at:])
	case 1:
		end := min(at+1+rng.Intn(4), len(text))
		return concat(text[:at], text[end:])
	}
	start, end := at, at
	for start > 0 && isWordByte(text[start-1]) {
		start--
	}
	for end < len(text) && isWordByte(text[end]) {
		end++
	}
	name := defs[rng.Intn(len(defs))].Name
	return concat(text[:start], []byte(name), text[end:])
}

func isWordByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

func concat(parts ...[]byte) []byte {
	var out []byte
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// unitKeyDocs are the blueprints the random edits start from: generated
// ones and real ones of each format.
func unitKeyDocs(t *testing.T) map[string][]byte {
	docs := map[string][]byte{
		"gen.blueprint.yaml": gen.Blueprint(24, "yaml"),
		"gen.blueprint.json": gen.Blueprint(12, "json"),
		"gen.bp":             gen.Blueprint(16, "bp"),
	}
	for _, p := range []string{
		"../testdata/examples/valid/orders-api.blueprint.yaml",
		"../testdata/examples/valid/orders-api.blueprint.json",
		"../testdata/examples/valid/functions.blueprint.yaml",
		"../testdata/celerity-docs/celerity-handler-config-01.blueprint.yaml",
		"../testdata/celerity-docs/celerity-workflow-09.blueprint.yaml",
		"../testdata/bluelink-provider-aws/resources-iam_role_complete.blueprint.yaml",
	} {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		docs[filepath.Base(p)] = data
	}
	return docs
}

// replay applies steps random edits to data and compares, after each edit
// that parses, every unit whose key is unchanged with its previous
// version. It returns the number of such comparisons and the first
// difference ("" when none). withDeps false keys units by text alone.
func replay(name string, data []byte, seed int64, steps int, withDeps bool) (reused, applied int, diff string) {
	rng := rand.New(rand.NewSource(seed))
	prev := Analyze(context.Background(), schema.Parse(name, data), Options{})
	before := unitStates(prev, withDeps)
	for step := 0; step < steps; step++ {
		next := randomEdit(rng, prev)
		if next == nil {
			break
		}
		f := schema.Parse(name, next)
		if f.HasSyntaxErrors() {
			continue // analysis stops at the syntax error: no units
		}
		applied++
		cur := Analyze(context.Background(), f, Options{})
		after := unitStates(cur, withDeps)
		n, diff := compareUnits(before, after)
		reused += n
		if diff != "" {
			return reused, applied, fmt.Sprintf("step %d: %s", step, diff)
		}
		prev, before = cur, after
	}
	return reused, applied, ""
}

// compareUnits compares every unit of after whose key is the one it had
// in before, and returns how many it compared and the first difference.
func compareUnits(before, after map[UnitID]*unitState) (compared int, diff string) {
	for id, u := range after {
		old := before[id]
		if old == nil || old.key != u.key {
			continue
		}
		compared++
		if o, n := strings.Join(old.types, "\n"), strings.Join(u.types, "\n"); o != n {
			return compared, fmt.Sprintf("%v kept its key but its expression types changed:\n%s\n---\n%s", id, o, n)
		}
		if o, n := strings.Join(old.diags, "\n"), strings.Join(u.diags, "\n"); o != n {
			return compared, fmt.Sprintf("%v kept its key but its diagnostics changed:\n%s\n---\n%s", id, o, n)
		}
	}
	return compared, ""
}

func TestUnitKeyDecidesReuse(t *testing.T) {
	steps, seeds := 150, int64(3)
	if testing.Short() {
		steps = 40
	}
	// UNITKEY_STEPS and UNITKEY_SEEDS run it longer.
	if n := os.Getenv("UNITKEY_STEPS"); n != "" {
		fmt.Sscan(n, &steps)
	}
	if n := os.Getenv("UNITKEY_SEEDS"); n != "" {
		fmt.Sscan(n, &seeds)
	}
	for name, data := range unitKeyDocs(t) {
		for seed := int64(1); seed <= seeds; seed++ {
			t.Run(fmt.Sprintf("%s/%d", name, seed), func(t *testing.T) {
				reused, applied, diff := replay(name, data, seed, steps, true)
				if diff != "" {
					t.Fatal(diff)
				}
				t.Logf("%d edits parsed, %d unit comparisons", applied, reused)
				// A document of one or two units compares about one per
				// edit, and an edit that leaves a unit without a key
				// compares none: at least nine in ten edits must compare.
				if reused*10 < applied*9 {
					t.Errorf("%d unit comparisons over %d edits: the test checked too little", reused, applied)
				}
			})
		}
	}
}

// TestUnitKeyNeedsDependencies shows that the comparison can fail: keyed by
// its text alone, a unit is taken as unchanged when a name it references
// changed its type, and the replay catches the difference.
func TestUnitKeyNeedsDependencies(t *testing.T) {
	docs := unitKeyDocs(t)
	for _, name := range []string{"gen.blueprint.yaml", "gen.blueprint.json", "orders-api.blueprint.yaml", "functions.blueprint.yaml"} {
		if _, _, diff := replay(name, docs[name], 1, 150, false); diff == "" {
			t.Errorf("%s: keyed by text alone, no unit's results changed", name)
		}
	}
}

// FuzzUnitKey edits a generated blueprint at a fuzzed offset (a fuzzed
// number of bytes deleted, fuzzed text inserted) and checks the unit key
// as TestUnitKeyDecidesReuse does.
func FuzzUnitKey(f *testing.F) {
	base := gen.Blueprint(8, "yaml")
	f.Add(uint16(1200), uint8(0), "x")
	f.Add(uint16(300), uint8(2), "${values.prefix}")
	f.Add(uint16(700), uint8(5), "")
	f.Add(uint16(2000), uint8(1), "\n  extra: 1\n")
	before := unitStates(Analyze(context.Background(), schema.Parse("f.blueprint.yaml", base), Options{}), true)
	f.Fuzz(func(t *testing.T, at uint16, del uint8, insert string) {
		if len(insert) > 64 {
			return
		}
		pos := int(at) % (len(base) + 1)
		end := min(pos+int(del%16), len(base))
		next := concat(base[:pos], []byte(insert), base[end:])
		file := schema.Parse("f.blueprint.yaml", next)
		if file.HasSyntaxErrors() {
			return
		}
		after := unitStates(Analyze(context.Background(), file, Options{}), true)
		if _, diff := compareUnits(before, after); diff != "" {
			t.Fatal(diff)
		}
	})
}
