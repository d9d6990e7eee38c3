package analysis

import (
	"bytes"
	"context"
	"fmt"
	"math/rand"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/schema"
)

// wideBase has a cycle (a and b), a selector that selects a resource the
// provider cannot link with (fn selects role), one that selects nothing
// (lost), a dependsOn, and values used only by user.
const wideBase = `version: 2025-11-02
values:
  pad:
    type: string
    value: "x"
  a:
    type: string
    value: ${values.b}
  b:
    type: string
    value: ${values.a}
  c:
    type: string
    value: "c"
  spare:
    type: string
    value: "s"
  user:
    type: string
    value: ${values.spare}-${values.pad}-${values.c}
resources:
  fn:
    type: aws/lambda/function
    linkSelector:
      byLabel:
        app: orders
    spec:
      role: arn:aws:iam::123456789012:role/orders
      code:
        zipFile: x
  lost:
    type: aws/lambda/function
    linkSelector:
      byLabel:
        app: nothing
    spec:
      role: arn:aws:iam::123456789012:role/orders
      code:
        zipFile: x
  queue:
    type: aws/sqs/queue
    metadata:
      labels:
        app: orders
    spec:
      queueName: q
  role:
    type: aws/iam/role
    metadata:
      labels:
        app: orders
    spec:
      assumeRolePolicyDocument: {}
  first:
    type: aws/sqs/queue
    dependsOn: [second]
    spec:
      queueName: one
  second:
    type: aws/sqs/queue
    spec:
      queueName: two
exports:
  out:
    type: string
    field: values.user
`

// TestIncrementalWideChecks pins, for edits that do and do not change
// what the document-wide checks see, whether the link selections and the
// cycles were taken from the previous version, and what they report; each
// incremental result is also compared with a full analysis
// (incrementalAfter).
func TestIncrementalWideChecks(t *testing.T) {
	cycles := []string{`8:14-8:22 cycle "values.b"`, `11:14-11:22 cycle "values.a"`}
	fnRole, lostNone := `25:7-25:14 link-unsupported "byLabel"`, `34:7-34:14 link-no-match "byLabel"`
	for _, c := range []struct {
		name, from, to string
		relinked       int    // carried-over selections resolved again
		cycles         bool   // carried over
		selects        string // what fn and lost select
		diags          []string
	}{
		{"an insert above the carried units", `value: "x"`, `value: "xyz"`, 0, true, "fn: queue role; lost:",
			append(cycles, fnRole, lostNone)},
		{"a label change alters the selections", "      labels:\n        app: orders\n    spec:\n      assumeRolePolicyDocument",
			"      labels:\n        app: nothing\n    spec:\n      assumeRolePolicyDocument", 2, true, "fn: queue; lost: role",
			append(cycles, `34:7-34:14 link-unsupported "byLabel"`)},
		{"a selected resource changes type", "type: aws/iam/role", "type: aws/sqs/queue", 1, true, "fn: queue role; lost:",
			append(cycles, lostNone, `53:7-53:31 resource-unknown-field "assumeRolePolicyDocument"`)},
		{"a selector changes, the labels do not", "app: nothing", "app: orders", 0, true, "fn: queue role; lost: queue role",
			append(cycles, fnRole, `34:7-34:14 link-unsupported "byLabel"`)},
		{"an edit closes a cycle", "queueName: two", "queueName: ${resources.first.spec.queueName}", 0, false, "fn: queue role; lost:",
			append(cycles, fnRole, lostNone, `56:17-56:23 cycle "second"`, `62:20-62:50 cycle "resources.first.spec.queueName"`)},
		{"an edit opens a cycle", "value: ${values.a}", `value: "b"`, 0, false, "fn: queue role; lost:",
			[]string{`6:3-6:4 unused-value "a"`, fnRole, lostNone}},
		{"an edit inside a cycle keeps its edges", "value: ${values.a}", "value: ${values.a}x", 0, false, "fn: queue role; lost:",
			append(cycles, fnRole, lostNone)},
		{"a use removed makes a value unused", "-${values.c}", "", 0, true, "fn: queue role; lost:",
			append(cycles, `12:3-12:4 unused-value "c"`, fnRole, lostNone)},
		{"a use added closes no cycle", `value: "c"`, "value: ${values.pad}", 0, true, "fn: queue role; lost:",
			append(cycles, fnRole, lostNone)},
		{"a use added closes a cycle", `value: "c"`, "value: ${values.user}", 0, false, "fn: queue role; lost:",
			append(cycles, `14:14-14:25 cycle "values.user"`, `20:44-20:52 cycle "values.c"`, fnRole, lostNone)},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := incrementalAfter(t, wideBase, replaceFirst(wideBase, c.from, c.to))
			if !got.wide.linksCarried || got.wide.relinked != c.relinked || got.wide.cyclesCarried != c.cycles {
				t.Errorf("links carried over %v (%d resolved again), cycles %v; want true (%d), %v",
					got.wide.linksCarried, got.wide.relinked, got.wide.cyclesCarried, c.relinked, c.cycles)
			}
			if s := selections(got); s != c.selects {
				t.Errorf("selections %q, want %q", s, c.selects)
			}
			if g, w := describeAll(got), strings.Join(c.diags, "\n"); g != w {
				t.Errorf("diagnostics\n%s\nwant\n%s", g, w)
			}
		})
	}
}

// selections describes the link selections of fn and lost.
func selections(r *Result) string {
	var parts []string
	for _, from := range []string{"fn", "lost"} {
		part := from + ":"
		for _, l := range r.Links() {
			if l.From != r.Lookup(ResourceSymbol, from) {
				continue
			}
			for _, s := range l.Selected {
				if s != r.Lookup(ResourceSymbol, s.Name) {
					part += " (a previous version's " + s.Name + ")"
					continue
				}
				part += " " + s.Name
			}
		}
		parts = append(parts, part)
	}
	return strings.Join(parts, "; ")
}

// wideDoc is a blueprint of n resources whose labels, selectors,
// dependsOn lists and references wideEdit rewrites.
func wideDoc(n int) string {
	var b strings.Builder
	b.WriteString("version: 2025-11-02\nvalues:\n")
	for i := 0; i < 3; i++ {
		fmt.Fprintf(&b, "  v%d:\n    type: string\n    value: ${values.v%d}\n", i, (i+1)%4)
	}
	b.WriteString("  v3:\n    type: string\n    value: \"end\"\nresources:\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "  r%d:\n    type: aws/sqs/queue\n", i)
		if i%3 == 0 {
			fmt.Fprintf(&b, "    linkSelector:\n      byLabel:\n        group: g%d\n", i%2)
		}
		if i%4 == 1 {
			fmt.Fprintf(&b, "    dependsOn: [r%d]\n", (i+2)%n)
		}
		fmt.Fprintf(&b, "    metadata:\n      labels:\n        app: orders\n        group: g%d\n", i%3)
		fmt.Fprintf(&b, "    spec:\n      queueName: ${values.v%d}-%d\n", i%4, i)
	}
	return b.String()
}

// wideSlots are the places wideEdit rewrites (the first group) and what it
// writes there.
var wideSlots = []struct {
	re    *regexp.Regexp
	words []string
}{
	{regexp.MustCompile(`group: (g\d)`), []string{"g0", "g1", "g2", "g3", "g9"}},
	{regexp.MustCompile(`app: (\w+)`), []string{"orders", "billing"}},
	{regexp.MustCompile(`dependsOn: \[(r\d+)\]`), []string{"r0", "r1", "r2", "r3", "r4", "r7"}},
	{regexp.MustCompile(`\$\{values\.(v\d)\}`), []string{"v0", "v1", "v2", "v3"}},
	{regexp.MustCompile(`type: (aws/[a-z/]+)`), []string{"aws/sqs/queue", "aws/lambda/function"}},
	{regexp.MustCompile(`queueName: (\$\{values\.v\d\})`), []string{"${resources.r1.spec.queueName}", "${resources.r5.spec.queueName}", "q"}},
	{regexp.MustCompile(`\n()    spec:`), []string{"    # padding\n", ""}},
}

// wideEdit rewrites one random slot of text with a random word.
func wideEdit(rng *rand.Rand, text string) string {
	slot := wideSlots[rng.Intn(len(wideSlots))]
	at := slot.re.FindAllStringSubmatchIndex(text, -1)
	if len(at) == 0 {
		return text
	}
	m := at[rng.Intn(len(at))]
	return text[:m[2]] + slot.words[rng.Intn(len(slot.words))] + text[m[3]:]
}

// TestIncrementalWideRandom replays random edits of labels, selectors,
// dependsOn lists, references and types, and compares each incremental
// result with a full analysis; both ways of the document-wide checks
// (carried over and recomputed) must have been taken.
func TestIncrementalWideRandom(t *testing.T) {
	const name = "wide.blueprint.yaml"
	steps := 300
	if testing.Short() {
		steps = 80
	}
	codes := map[string]int{}
	for seed := int64(1); seed <= 3; seed++ {
		rng := rand.New(rand.NewSource(seed))
		text := wideDoc(12)
		prev := Analyze(context.Background(), schema.Parse(name, []byte(text)), Options{})
		var links, cycles [2]int // some resolved again / recomputed, all carried over
		for step := 0; step < steps; step++ {
			text = wideEdit(rng, text)
			f := schema.Splice(prev.File, []byte(text))
			if f == nil {
				f = schema.Parse(name, []byte(text))
			}
			got := AnalyzeIncremental(context.Background(), prev, f, Options{})
			want := Analyze(context.Background(), schema.Parse(name, []byte(text)), Options{})
			if diff := sameAnalysis(got, want); diff != "" {
				t.Fatalf("seed %d step %d: %s", seed, step, diff)
			}
			if s, w := graphOf(got), graphOf(want); s != w {
				t.Fatalf("seed %d step %d: edges and names\n%s\nwant\n%s", seed, step, s, w)
			}
			if s, w := allSelections(got), allSelections(want); s != w {
				t.Fatalf("seed %d step %d: selections\n%s\nwant\n%s", seed, step, s, w)
			}
			for _, d := range got.Diagnostics {
				codes[d.Code]++
			}
			if got.wide != nil && got.carried > 0 {
				links[b2i(got.wide.linksCarried && got.wide.relinked == 0)]++
				cycles[b2i(got.wide.cyclesCarried)]++
			}
			prev = got
		}
		t.Logf("seed %d: links resolved again/carried %v, cycles recomputed/carried %v", seed, links, cycles)
		if links[0] == 0 || links[1] == 0 || cycles[0] == 0 || cycles[1] == 0 {
			t.Errorf("seed %d: links resolved again/carried %v, cycles recomputed/carried %v: a way was never taken", seed, links, cycles)
		}
	}
	t.Logf("diagnostics seen: %v", codes)
	for _, code := range []string{codeCycle.ID, codeLinkNoMatch.ID, codeLinkUnsupported.ID, codeUnusedValue.ID} {
		if codes[code] == 0 {
			t.Errorf("no %s diagnostic in the replays", code)
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// allSelections describes every link selection, checking that each names
// this version's symbols.
func allSelections(r *Result) string {
	var b strings.Builder
	for _, l := range r.Links() {
		fmt.Fprintf(&b, "%s %v:", l.From.Name, l.From == r.Lookup(ResourceSymbol, l.From.Name))
		for _, s := range l.Selected {
			fmt.Fprintf(&b, " %s %v", s.Name, s == r.Lookup(ResourceSymbol, s.Name))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// graphOf describes the edges (as a set: a value's edges come in the
// order its type was inferred in) and the resources named as text,
// checking that each names this version's symbols.
func graphOf(r *Result) string {
	var lines []string
	same := func(s *Symbol) bool { return s != nil && s == r.Lookup(s.Kind, s.Name) }
	for _, e := range r.Edges() {
		lines = append(lines, fmt.Sprintf("%s->%s %v %v %v %v", e.From.Name, e.To.Name, e.Kind, e.Range, same(e.From), same(e.To)))
	}
	slices.Sort(lines)
	for _, n := range r.NameRefs() {
		lines = append(lines, fmt.Sprintf("%s %v %v %v", n.Target.Name, n.Kind, n.Range, same(n.Target)))
	}
	return strings.Join(lines, "\n")
}

// netAndQueue ends the blueprints of TestIncrementalHygiene and
// TestIncrementalCycleThroughDataSource: a data source that reads
// values.arn, and a queue.
const netAndQueue = `datasources:
  net:
    type: aws/vpc
    filter:
      field: tags
      operator: has key
      search: ${values.arn}
    exports:
      vpc:
        type: string
        aliasFor: vpcId
resources:
  queue:
    type: aws/sqs/queue
    spec:
      queueName: q
`

// TestIncrementalHygiene pins unused names, secrets flowing out and the
// order data sources resolve in across edits that carry the units
// holding them over and edits that check them again.
func TestIncrementalHygiene(t *testing.T) {
	const base = `version: 2025-11-02
variables:
  token:
    type: string
    secret: true
values:
  pad:
    type: string
    value: "x"
  leak:
    type: string
    value: ${variables.token}
  arn:
    type: string
    value: ${resources.queue.spec.queueName}
` + netAndQueue
	for _, c := range []struct {
		name, from, to string
		carries        int
		diags          []string
	}{
		{"an edit above the units", `value: "x"`, `value: "xyz"`, 5, []string{
			`7:3-7:6 unused-value "pad"`, `10:3-10:7 unused-value "leak"`, `12:14-12:29 secret-leak "variables.token"`,
			`17:3-17:6 unused-datasource "net"`, `22:17-22:27 ref-datasource-dependency "values.arn"`}},
		{"a secret no longer flows out", "value: ${variables.token}", `value: "plain"`, 5, []string{
			`3:3-3:8 unused-variable "token"`, `7:3-7:6 unused-value "pad"`, `10:3-10:7 unused-value "leak"`,
			`17:3-17:6 unused-datasource "net"`, `22:17-22:27 ref-datasource-dependency "values.arn"`}},
		{"a data source stops reading a resource", "search: ${values.arn}", "search: vpc", 5, []string{
			`7:3-7:6 unused-value "pad"`, `10:3-10:7 unused-value "leak"`, `12:14-12:29 secret-leak "variables.token"`,
			`13:3-13:6 unused-value "arn"`, `17:3-17:6 unused-datasource "net"`}},
		{"a use added to a carried unit", `value: "x"`, "value: ${values.leak}", 5, []string{
			`7:3-7:6 unused-value "pad"`, `12:14-12:29 secret-leak "variables.token"`,
			`17:3-17:6 unused-datasource "net"`, `22:17-22:27 ref-datasource-dependency "values.arn"`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := incrementalAfter(t, base, replaceFirst(base, c.from, c.to))
			if got.carried != c.carries {
				t.Errorf("%d units carried over, want %d", got.carried, c.carries)
			}
			if g, w := describeAll(got), strings.Join(c.diags, "\n"); g != w {
				t.Errorf("diagnostics\n%s\nwant\n%s", g, w)
			}
		})
	}
}

// BenchmarkLabelEditIncremental is BenchmarkEditIncremental with the edit
// in a resource's labels (a group label's last digit, so that two
// selectors select otherwise): the label index is patched and the
// selectors reading the changed labels are resolved again. The edited
// resource is the last one, which only an export reads (each generated
// resource reads the one before it, and a label edit passes on to what
// reads the resource).
func BenchmarkLabelEditIncremental(b *testing.B) {
	for _, n := range []int{1000, 5000, 20000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			versions, _ := editVersions(b, n)
			text := versions[0]
			label := []byte("        group: g")
			at := bytes.LastIndex(text, label) + len(label)
			for text[at+1] >= '0' && text[at+1] <= '9' {
				at++
			}
			versions[1] = bytes.Clone(text)
			versions[1][at] = '0' + (text[at]-'0'+1)%10
			benchEdits(b, versions, func(res *Result) {
				if res.wide == nil || !res.wide.linksCarried || res.wide.relinked == 0 {
					b.Fatal("the links were not patched")
				}
			})
		})
	}
}

// TestIncrementalCycleThroughDataSource: a data source's reference to a
// value takes part in cycles only while the value reaches no resource, so
// an edit that only removes a value's reference to a resource can close a
// cycle through a data source; the cycles are computed again.
func TestIncrementalCycleThroughDataSource(t *testing.T) {
	const base = `version: 2025-11-02
values:
  arn:
    type: string
    value: ${values.w}-${resources.queue.spec.queueName}
  w:
    type: string
    value: ${datasources.net.vpc}
` + netAndQueue
	got := incrementalAfter(t, base, replaceFirst(base, "-${resources.queue.spec.queueName}", ""))
	if got.wide.cyclesCarried {
		t.Error("the cycles were carried over")
	}
	want := []string{`5:14-5:22 cycle "values.w"`, `8:14-8:33 cycle "datasources.net.vpc"`, `15:17-15:27 cycle "values.arn"`}
	if g, w := describeAll(got), strings.Join(want, "\n"); g != w {
		t.Errorf("diagnostics\n%s\nwant\n%s", g, w)
	}
}

// describeAll describes r's diagnostics one a line (describeDiag).
func describeAll(r *Result) string {
	var lines []string
	for _, d := range r.Diagnostics {
		lines = append(lines, describeDiag(r, d))
	}
	return strings.Join(lines, "\n")
}

// TestLongCycleShortened: a cycle through more definitions than
// shortestPath visits is named by its first step and its size, for each
// of its references, instead of spelled out (which takes time and text
// quadratic in its length); a short one is spelled out.
func TestLongCycleShortened(t *testing.T) {
	ring := func(n int) string {
		var b strings.Builder
		b.WriteString("version: 2025-11-02\nvalues:\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "  v%d:\n    type: string\n    value: ${values.v%d}\n", i, (i+1)%n)
		}
		return b.String() + "resources:\n  q:\n    type: aws/sqs/queue\n    spec:\n      queueName: q\n" +
			"  r:\n    type: aws/sqs/queue\n    spec:\n      queueName: r\n"
	}
	for _, c := range []struct {
		n     int
		first string // the message of v0's reference
	}{
		{3, "reference cycle v0 -> v1 -> v2 -> v0"},
		{500, "reference cycle v0 -> v1 -> ... -> v0 (500 definitions depend on each other)"},
	} {
		text := ring(c.n)
		res := Analyze(context.Background(), schema.Parse("ring.blueprint.yaml", []byte(text)), Options{})
		if len(res.Diagnostics) != c.n {
			t.Fatalf("%d: %d diagnostics, want one per reference", c.n, len(res.Diagnostics))
		}
		d := res.Diagnostics[0]
		if d.Message != c.first || describeDiag(res, d) != `5:14-5:23 cycle "values.v1"` {
			t.Errorf("%d: %s %q, want %q", c.n, describeDiag(res, d), d.Message, c.first)
		}
		if len(d.Related) != 1 || d.Related[0].Message != `value "v1" is defined here` {
			t.Errorf("%d: related %v", c.n, d.Related)
		}
		// An edit elsewhere keeps the cycles (the values are checked
		// again, being in one, but their text is the same).
		got := incrementalAfter(t, text, replaceFirst(text, "queueName: q", "queueName: qq"))
		if !got.wide.cyclesCarried {
			t.Errorf("%d: the cycles were computed again", c.n)
		}
	}
}

// TestIncrementalValueCycleTypes: the type inferred for a value in a cycle
// depends on where inference entered the cycle (v1 is first met through
// v0 in the first version, on its own in the second), so a unit in a
// cycle is checked again rather than carried over with its old type.
func TestIncrementalValueCycleTypes(t *testing.T) {
	const base = `version: 2025-11-02
values:
  v0:
    type: string
    value: ${values.v1}
  v1:
    type: string
    value: ${values.v1}
resources:
  q:
    type: aws/sqs/queue
    spec:
      queueName: q
`
	got := incrementalAfter(t, base, replaceFirst(base, "value: ${values.v1}", "value: ${values.v0}"))
	if got.carried != 1 {
		t.Errorf("%d units carried over, want 1 (q)", got.carried)
	}
}
