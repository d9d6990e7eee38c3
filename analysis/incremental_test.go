package analysis

import (
	"bytes"
	"context"
	"fmt"
	"math/rand"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/blueprint-ls/blueprint-ls/providers/registry"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// TestIncrementalCarriesUnitsOver replays random edits inside
// definitions (randomEdit), analysing each version incrementally from
// the one before, and checks that most units are carried over and that
// the diagnostics, symbol types and expression types are a full
// analysis's. (ide's TestIncrementalEqualsFull compares what the editor
// sees: diagnostics, document symbols and semantic tokens.)
func TestIncrementalCarriesUnitsOver(t *testing.T) {
	for name, data := range unitKeyDocs(t) {
		t.Run(name, func(t *testing.T) {
			edits, carried, units := 0, 0, 0
			replayChained(t, name, data, rand.New(rand.NewSource(3)), 60, randomEdit, func(got *Result, parsed bool) {
				if parsed {
					edits++
					carried += got.carried
					units += unitCount(got.Symbols())
				}
			})
			t.Logf("%d edits: %d of %d units carried over", edits, carried, units)
			if carried*3 < units {
				t.Errorf("only %d of %d units carried over", carried, units)
			}
		})
	}
}

// replayChained makes steps edits of data (edit: nil skips a step),
// each analysed incrementally from the last version that parsed and
// compared with a full analysis (stepBothWays); each sees every
// incremental result and whether its text parsed.
func replayChained(t testing.TB, name string, data []byte, rng *rand.Rand, steps int, edit func(*rand.Rand, *Result) []byte, each func(got *Result, parsed bool)) {
	t.Helper()
	file := schema.Parse(name, data)
	inc := Analyze(context.Background(), file, Options{})
	for step := 0; step < steps; step++ {
		next := edit(rng, inc)
		if next == nil {
			continue
		}
		nf, got, diff := stepBothWays(name, file, inc, next)
		if diff != "" {
			t.Fatalf("step %d: %s", step, diff)
		}
		parsed := !nf.HasSyntaxErrors()
		each(got, parsed)
		if parsed {
			file, inc = nf, got
		}
	}
}

// stepBothWays splices next into file (or parses it) and analyses it
// incrementally from inc; diff says how that differs from a full
// analysis of next ("" when it does not).
func stepBothWays(name string, file *schema.File, inc *Result, next []byte) (*schema.File, *Result, string) {
	nf := schema.Splice(file, next)
	if nf == nil {
		nf = schema.Parse(name, next)
	}
	got := AnalyzeIncremental(context.Background(), inc, nf, Options{})
	want := Analyze(context.Background(), schema.Parse(name, next), Options{})
	diff := sameAnalysis(got, want)
	if diff == "" {
		if g, w := listsOf(got), listsOf(want); g != w {
			diff = "lists differ\n" + firstDiff(g, w)
		}
	}
	if diff == "" {
		diff = usesAgree(got)
	}
	return nf, got, diff
}

// usesAgree compares what res's users index finds naming each symbol
// (ReferencesTo, NameRefsTo, UseCounts) with a scan of its joined lists:
// a stale or partial index (a unit missing from a symbol's users) reads
// as a difference.
func usesAgree(res *Result) string {
	counts := res.UseCounts()
	for i, s := range res.Symbols() {
		var refs, names []string
		for _, r := range res.References() {
			if r.Target == s || r.Field == s {
				refs = append(refs, fmt.Sprint(r.Expr.Rng, r.FieldRange))
			}
		}
		for _, n := range res.NameRefs() {
			if n.Target == s {
				names = append(names, fmt.Sprint(n.Range))
			}
		}
		var gotRefs, gotNames []string
		for _, r := range res.ReferencesTo(s) {
			gotRefs = append(gotRefs, fmt.Sprint(r.Expr.Rng, r.FieldRange))
		}
		for _, n := range res.NameRefsTo(s) {
			gotNames = append(gotNames, fmt.Sprint(n.Range))
		}
		if !reflect.DeepEqual(gotRefs, refs) || !reflect.DeepEqual(gotNames, names) || counts[i] != len(refs)+len(names) {
			return fmt.Sprintf("uses of %v %s: refs %v names %v count %d, want %v %v %d", s.Kind, s.Name, gotRefs, gotNames, counts[i], refs, names, len(refs)+len(names))
		}
	}
	return ""
}

// sameAnalysis compares what the editor's features read of two results.
func sameAnalysis(got, want *Result) string {
	if !reflect.DeepEqual(got.Diagnostics, want.Diagnostics) {
		return fmt.Sprintf("diagnostics\n%v\nwant\n%v", got.Diagnostics, want.Diagnostics)
	}
	if len(got.Symbols()) != len(want.Symbols()) {
		return "symbol counts differ"
	}
	for i, s := range got.Symbols() {
		w := want.Symbols()[i]
		if s.Name != w.Name || s.Range != w.Range || fmt.Sprint(s.Type) != fmt.Sprint(w.Type) {
			return fmt.Sprintf("symbol %s: %v %v, want %s %v %v", s.Name, s.Range, s.Type, w.Name, w.Range, w.Type)
		}
	}
	if len(got.Sites()) != len(want.Sites()) || len(got.References()) != len(want.References()) || len(got.Calls()) != len(want.Calls()) ||
		len(got.Edges()) != len(want.Edges()) || len(got.NameRefs()) != len(want.NameRefs()) {
		return fmt.Sprintf("record counts differ: sites %d/%d refs %d/%d calls %d/%d edges %d/%d names %d/%d",
			len(got.Sites()), len(want.Sites()), len(got.References()), len(want.References()), len(got.Calls()), len(want.Calls()),
			len(got.Edges()), len(want.Edges()), len(got.NameRefs()), len(want.NameRefs()))
	}
	for i, s := range got.Sites() {
		w := want.Sites()[i]
		if fmt.Sprint(s.Type, s.ExprTypes) != fmt.Sprint(w.Type, w.ExprTypes) || s.Scalar.Rng != w.Scalar.Rng {
			return fmt.Sprintf("site %d (%v): %v %v, want %v %v", i, s.Unit(), s.Type, s.ExprTypes, w.Type, w.ExprTypes)
		}
	}
	refs := func(r *Result) string {
		var b bytes.Buffer
		for _, ref := range r.References() {
			fmt.Fprintf(&b, "%v %v %v %v %v|", ref.Expr.Rng, ref.Target != nil && ref.Target == r.Lookup(ref.Target.Kind, ref.Target.Name), ref.FieldName, ref.FieldRange, ref.Type)
		}
		return b.String()
	}
	if refs(got) != refs(want) {
		return "references differ"
	}
	return ""
}

// BenchmarkEditIncremental is an edit inside one resource in the middle
// of a generated blueprint of n resources, from the text to the
// diagnostics: the spliced parse (schema.Splice) and the incremental
// analysis from the previous version's result. The edit replaces one
// digit (the text keeps its length); BenchmarkInsertIncremental inserts
// and deletes one (what typing does: everything after the edit moves).
// Compare BenchmarkAnalyzeEdit*, the whole parse and analysis.
func BenchmarkEditIncremental(b *testing.B) { benchIncremental(b, replaceEdit) }

// BenchmarkInsertIncremental is BenchmarkEditIncremental with a digit
// inserted and deleted in turn, so that every node after the edit moves.
func BenchmarkInsertIncremental(b *testing.B) { benchIncremental(b, insertEdit) }

// BenchmarkTypeIncremental is BenchmarkInsertIncremental as the language
// server sees it: the server keeps padding at the end of the edited
// resource's key line (lsp/slack.go) and the inserted digit takes one of
// its spaces, so nothing after the resource moves.
func BenchmarkTypeIncremental(b *testing.B) { benchIncremental(b, paddedEdit) }

// BenchmarkTypeIncrementalSpread is BenchmarkTypeIncremental with the
// digit typed into the resource's description instead of its spec: an
// edit outside a spec its type fixes spreads to the definitions that
// reference the resource (found through the users index), which are
// checked again too.
func BenchmarkTypeIncrementalSpread(b *testing.B) { benchIncremental(b, paddedSpreadEdit) }

// BenchmarkValueIncremental breaks and mends a reference in the value
// every resource references (values.prefix: variables.env becomes the
// unknown variables.envX, padded as the server pads it): the value's
// declared type fixes what its dependents read (valueOnlyEdit), so they
// are not checked again.
func BenchmarkValueIncremental(b *testing.B) { benchIncremental(b, paddedValueEdit) }

type editKind int

const (
	replaceEdit      editKind = iota // a digit replaced: the text keeps its length
	insertEdit                       // a digit inserted: the text after it moves
	paddedEdit                       // a digit inserted, a space of padding taken
	paddedSpreadEdit                 // paddedEdit in the resource's description
	paddedValueEdit                  // paddedEdit breaking a reference in values.prefix
)

func benchIncremental(b *testing.B, kind editKind) {
	for _, n := range []int{100, 1000, 5000, 20000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			versions, want := editVersions(b, n)
			if kind != replaceEdit {
				// "45" and "475": the same diagnostics, one byte apart.
				field, from, typed, keyLine := "visibilityTimeout: 4", len(versions[0])/2, byte('7'), "\n  r"
				switch kind {
				case paddedSpreadEdit:
					field = "description: 'Resource "
				case paddedValueEdit:
					field, from, typed, keyLine = "join(list(variables.env", 0, 'X', "\n  prefix:"
				}
				at := bytes.Index(versions[0][from:], []byte(field)) + from + len(field)
				versions[1] = slices.Insert(bytes.Clone(versions[0]), at, typed)
				if kind != insertEdit {
					// The definition's key line: "  rN:" then 64 spaces, or 63
					// once the digit is typed.
					key := bytes.LastIndex(versions[0][:at], []byte(keyLine)) + 1
					eol := key + bytes.IndexByte(versions[0][key:], '\n')
					pad := bytes.Repeat([]byte{' '}, 64)
					versions[0] = slices.Insert(versions[0], eol, pad...)
					versions[1] = slices.Insert(versions[1], eol, pad[1:]...)
				}
			}
			benchEdits(b, versions, func(res *Result) {
				if kind == paddedValueEdit {
					want = -1 // one more in one of the two versions
				}
				if want >= 0 && len(res.Diagnostics) != want || res.carried == 0 {
					b.Fatalf("%d diagnostics (want %d), %d units carried over", len(res.Diagnostics), want, res.carried)
				}
			})
		})
	}
}

// benchEdits goes from versions[0] to versions[1] and back, each version
// spliced and analysed incrementally from the one before, checks each
// result and reports the p50 and p95 of an edit. The splice is told
// where the edit is (schema.SpliceAt), as the language server tells it.
func benchEdits(b *testing.B, versions [][]byte, check func(*Result)) {
	file := schema.Parse("bench.blueprint.yaml", versions[0])
	res := Analyze(context.Background(), file, Options{})
	into := [2]schema.Change{syntax.ChangeBetween(versions[1], versions[0]), syntax.ChangeBetween(versions[0], versions[1])}
	i := 1
	var took, analysing []time.Duration
	for b.Loop() {
		start := time.Now()
		f := schema.SpliceAt(file, source.NewText(versions[i%2]), into[i%2])
		if f == nil {
			b.Fatal("the edit was not spliced")
		}
		spliced := time.Now()
		res = AnalyzeIncremental(context.Background(), res, f, Options{})
		check(res)
		took = append(took, time.Since(start))
		analysing = append(analysing, time.Since(spliced))
		file = f
		i++
	}
	// p50/p95: the whole edit; analysis-p50/p95: AnalyzeIncremental alone
	// (issue 21's figure: the analysis work, not the parse).
	for _, m := range []struct {
		name string
		ds   []time.Duration
	}{{"", took}, {"analysis-", analysing}} {
		slices.Sort(m.ds)
		b.ReportMetric(float64(m.ds[len(m.ds)/2].Microseconds())/1000, m.name+"p50-ms")
		b.ReportMetric(float64(m.ds[len(m.ds)*95/100].Microseconds())/1000, m.name+"p95-ms")
	}
}

// TestIncrementalCases pins edits whose effect travels between
// definitions: each pair of versions is analysed incrementally from the
// first and compared with a full analysis of the second, and the number
// of definitions carried over is pinned. (Labels hold no substitutions,
// so q does not depend on v.)
func TestIncrementalCases(t *testing.T) {
	const base = `version: 2025-11-02
values:
  v:
    type: string
    value: "a"
resources:
  q:
    type: aws/sqs/queue
    metadata:
      labels:
        app: ${values.v}
    spec:
      queueName: one
      visibilityTimeout: 45
  t:
    type: aws/sqs/queue
    spec:
      queueName: ${resources.q.metadata.labels.app}
      delaySeconds: ${resources.q.spec.visibilityTimeout}
exports:
  e:
    type: string
    field: resources.t.spec.queueName
`
	checkCarries(t, base, []carryCase{
		{"spec of a known type only", "visibilityTimeout: 45", "visibilityTimeout: 46", 3},
		{"spec breaks its type", "visibilityTimeout: 45", "visibilityTimeout: x45", 3},
		{"a value a label reads changes type", `type: string
    value: "a"`, `type: integer
    value: 3`, 3},
		{"the value and the spec in one edit", `value: "a"
resources:
  q:
    type: aws/sqs/queue
    metadata:
      labels:
        app: ${values.v}
    spec:
      queueName: one`, `value: "b"
resources:
  q:
    type: aws/sqs/queue
    metadata:
      labels:
        app: ${values.v}x
    spec:
      queueName: two`, 1}, // e: t is checked again, but its sites' types are the same (cutoff.go)
		{"a label the dependent reads goes", "app: ${values.v}", "ap: ${values.v}", 1},
		{"the resource's type changes", "type: aws/sqs/queue\n    metadata", "type: aws/sqs/queues\n    metadata", 2}, // v and e, as above
	})
}

// carryCase is an edit of a base text (from replaced by to) and how
// many definitions it carries over.
type carryCase struct {
	name, from, to string
	carries        int
}

// checkCarries analyses each edit of base incrementally, checks it
// against a full analysis and the number of definitions carried over.
func checkCarries(t *testing.T, base string, cases []carryCase) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := incrementalAfter(t, base, replaceFirst(base, c.from, c.to))
			if got.carried != c.carries {
				t.Errorf("%d definitions carried over, want %d", got.carried, c.carries)
			}
		})
	}
}

// incrementalAfter analyses next incrementally from base's analysis,
// checks the result against a full analysis of next and returns it.
func incrementalAfter(t *testing.T, base, next string) *Result {
	t.Helper()
	const name = "c.blueprint.yaml"
	prev := Analyze(context.Background(), schema.Parse(name, []byte(base)), Options{})
	f := schema.Splice(prev.File, []byte(next))
	if f == nil {
		f = schema.Parse(name, []byte(next))
	}
	got := AnalyzeIncremental(context.Background(), prev, f, Options{})
	if diff := sameAnalysis(got, Analyze(context.Background(), schema.Parse(name, []byte(next)), Options{})); diff != "" {
		t.Fatal(diff)
	}
	return got
}

func replaceFirst(s, from, to string) string {
	i := bytes.Index([]byte(s), []byte(from))
	if i < 0 {
		panic("no " + from)
	}
	return s[:i] + to + s[i+len(from):]
}

// TestIncrementalSpreadsThroughSpecEdits: a resource edited inside its
// spec does not pass the edit on, but when what it reads changed in the
// same edit (an annotation's value), its dependents are checked again.
func TestIncrementalSpreadsThroughSpecEdits(t *testing.T) {
	const base = `version: 2025-11-02
values:
  v:
    type: string
    value: "a"
resources:
  q:
    type: aws/sqs/queue
    metadata:
      annotations:
        note: ${values.v}
    spec:
      queueName: one
  t:
    type: aws/sqs/queue
    spec:
      queueName: ${resources.q.metadata.annotations.note}
`
	next := replaceFirst(replaceFirst(base, "queueName: one", "queueName: two"), `type: string
    value: "a"`, `type: integer
    value: 3`)
	if got := incrementalAfter(t, base, next); got.carried != 0 {
		t.Errorf("%d definitions carried over; t reads what changed", got.carried)
	}
}

// unitCount counts the units among syms (data source fields are not).
func unitCount(syms []*Symbol) int {
	n := 0
	for _, s := range syms {
		if s.Kind != DataSourceFieldSymbol {
			n++
		}
	}
	return n
}

// TestIncrementalCutoff: an edit spreads to the definitions that read
// the edited one; when what one of them offers did not change, its own
// dependents are carried over (cutoff.go), and when it did, they are
// checked again.
func TestIncrementalCutoff(t *testing.T) {
	// r1's type is unknown, so its spec's type is the spec as written:
	// queueName is what v yields.
	const base = `version: 2025-11-02
values:
  v:
    type: string
    value: "a"
resources:
  r1:
    type: example/thing
    spec:
      queueName: ${values.v}
  r2:
    type: aws/sqs/queue
    spec:
      queueName: ${resources.r1.spec.queueName}
exports:
  e:
    type: string
    field: resources.r2.spec.queueName
`
	checkCarries(t, base, []carryCase{
		// v's declared type fixes what r1 reads of it (valueOnlyEdit):
		// v backdates, and r1, r2 and e are carried over.
		{"a value's text", `value: "a"`, `value: "b"`, 3},
		// A text that may name a definition spreads (it could make a
		// cycle): r1 is checked again and still offers a string, so r2
		// and e are not.
		{"a value's text naming a namespace", `value: "a"`, `value: "values"`, 2},
		// r1 now offers an integer: r2 is checked again (a type
		// mismatch), and e, which reads r2.
		{"a value's type", `type: string
    value: "a"`, `type: integer
    value: 3`, 0},
	})
}

// TestIncrementalDescriptionEdits: a resource edited only inside its
// description offers its dependents what it offered before, so they are
// carried over, even when its spec's type is the spec as written
// (example/thing is no registry type); a description that names a
// definition (here one making a reference cycle) spreads, and an edit
// of the description and the spec together spreads as a spec edit does.
// Every version equals a full analysis (incrementalAfter).
func TestIncrementalDescriptionEdits(t *testing.T) {
	const base = `version: 2025-11-02
values:
  v:
    type: string
    value: "a"
resources:
  r1:
    type: example/thing
    description: The first one.
    spec:
      queueName: ${values.v}
  r2:
    type: aws/sqs/queue
    spec:
      queueName: ${resources.r1.spec.queueName}
exports:
  e:
    type: string
    field: resources.r2.spec.queueName
`
	checkCarries(t, base, []carryCase{
		{"plain text", "The first one.", "The first one, renamed.", 3},
		{"a substitution naming a variable", "The first one.", "The ${variables.x} one.", 3},
		{"a reference making a cycle", "The first one.", "${resources.r2.spec.queueName}", 1},
		{"the description and the spec", "The first one.\n    spec:\n      queueName: ${values.v}", "The first.\n    spec:\n      queueName: ${values.v}-b", 2},
	})
}

// TestIncrementalBlockScalarEnd: a check of a block scalar's template can
// report at the end of its input, after the scalar's last line break:
// the line below the unit. Carrying the unit over keeps that
// diagnostic (it was dropped, found by lsp's TestLSPEditsEqualFresh).
func TestIncrementalBlockScalarEnd(t *testing.T) {
	const base = `version: 2025-11-02
resources:
  a:
    type: aws/s3/bucket
    spec:
      bucketName: one
  c:
    type: aws/sqs/queue
    spec:
      queueName: |
        last ${len(
exports:
  out:
    type: string
    field: resources.a.spec.bucketName
`
	keepsDiagnostic(t, base, "subst-unclosed-call",
		[2]string{"bucketName: one", "bucketName: two"}, [2]string{"bucketName: one", "bucketName: o"}, [2]string{"field: resources", "field:  resources"})
}

// keepsDiagnostic checks that after each edit (the first occurrence of
// edit[0] in base replaced with edit[1]) the incremental analysis, equal
// to a full one, still reports a diagnostic of code while carrying
// units over.
func keepsDiagnostic(t *testing.T, base, code string, edits ...[2]string) {
	t.Helper()
	for _, edit := range edits {
		got := incrementalAfter(t, base, replaceFirst(base, edit[0], edit[1]))
		found := false
		for _, d := range got.Diagnostics {
			found = found || d.Code == code
		}
		if !found || got.carried == 0 {
			t.Errorf("%q: %s reported %v, %d carried over", edit[1], code, found, got.carried)
		}
	}
}

// TestIncrementalBlockScalarTemplateEnd: a template's error that starts
// inside a unit and runs to the end of the block scalar holding it, past
// the unit's last line break (an unterminated "${" that meets a stray
// ')'), stays with the unit when an edit elsewhere carries it over
// (TestLSPEditsEqualFresh found it dropped).
func TestIncrementalBlockScalarTemplateEnd(t *testing.T) {
	const base = `version: 2025-11-02
resources:
  myFunction:
    type: aws/lambda/function
    spec:
      functionName: mample-functon
      runtime: nodejs18.x
      handler: index.handler
      role: arn:aws:iam::123456789012:role/lambd  e
      code:
        zipFile: |
          exporxts.handler = async (eve${resources.nt) => {
            return {
              statusCode: 200,
          'JSON.stringify('Hello from Lambda!')
            };
          };

  version1:
    type: aws/lambda/functionVersion
    spec:
      functionName: ${resources.myFunction.functionName}
      description: "Version 1"

  prodAlias:
    type: aws/lambda/alias
    spec:
      functionName: ${resources.myFunction.functionName}
      name: PROD
      functionVersion: ${resources.version1.version}
      description: "Production alias"
`
	keepsDiagnostic(t, base, "subst-unexpected-token",
		[2]string{"${resources.myFunction.functionName}\n      name", "${resources.myFun:ction.functionName}\n      name"},
		[2]string{"Production alias", "Production"})
}

// TestValueBackdatingShares: a value edited only inside its value field
// offers what it offered before, so the units that read it keep sharing
// their records, which name the value's predecessor; every list and
// count reads them as naming this version's value (current). Chained
// over backdated edits, edits of the readers (the value's use count),
// an edit that moves them and one that changes the value's type, every
// version equals a full analysis.
func TestValueBackdatingShares(t *testing.T) {
	const name = "backdate.blueprint.yaml"
	text := `version: 2025-11-02
variables:
  env:
    type: string
values:
  prefix:
    type: string
    value: ${variables.env}-a
  other:
    type: string
    value: ${values.prefix}-x
resources:
  r1:
    type: example/thing
    spec:
      name: ${values.prefix}
  r2:
    type: example/thing
    spec:
      name: ${values.prefix}-2
exports:
  out:
    type: string
    field: values.other
`
	file := schema.Parse(name, []byte(text))
	res := Analyze(context.Background(), file, Options{})
	for _, step := range []struct {
		from, to string
		shared   bool // r1's records are shared with the previous version
	}{
		{"-a\n", "-b\n", true},
		{"-b\n", "-c\n", true},
		{"name: ${values.prefix}\n", "name: ${values.prefox}\n", false},
		{"-c\n", "-d\n", true},
		{"-d\n", "-dd\n", false}, // r1 moved
		{"name: ${values.prefox}\n", "name: plain\n", false},
		{"${values.prefix}-2", "${values.prefix}-3", true}, // r2's edit
		{"${values.prefix}-x", "${values.prefix}-y", true}, // other's
		{"${variables.env}-dd", "${variables.nope}", false},
		{"type: string\n    value: ${variables.nope}", "type: integer\n    value: 3", false},
	} {
		next := replaceFirst(text, step.from, step.to)
		if next == text {
			t.Fatalf("%q not found", step.from)
		}
		nf, got, diff := stepBothWays(name, file, res, []byte(next))
		if diff != "" {
			t.Fatalf("after %q -> %q: %s", step.from, step.to, diff)
		}
		r1 := got.Lookup(ResourceSymbol, "r1").index
		if shared := got.units.At(r1) == res.units.At(r1); shared != step.shared {
			t.Errorf("after %q -> %q: r1's records shared %v, want %v", step.from, step.to, shared, step.shared)
		}
		if v := got.Lookup(ValueSymbol, "prefix"); v != nil {
			for _, ref := range got.ReferencesTo(v) {
				if ref.Target != v {
					t.Errorf("after %q -> %q: a reference names a predecessor", step.from, step.to)
				}
			}
		}
		text, file, res = next, nf, got
	}
}

// TestValueEditsRandom replaces bytes inside values' value fields and
// resources' specs at random (the text keeps its length, so readers do
// not move and backdated values' readers keep sharing their records),
// chained, each version compared with a full analysis in every list the
// features read (stepBothWays).
func TestValueEditsRandom(t *testing.T) {
	const doc = `version: 2025-11-02
variables:
  env:
    type: string
  count:
    type: integer
values:
  prefix:
    type: string
    value: ${variables.env}-orders
  size:
    type: integer
    value: ${variables.count}
  flag:
    type: boolean
    value: true
  label:
    type: string
    value: ${values.prefix}-label
resources:
  q1:
    type: aws/sqs/queue
    spec:
      queueName: ${values.prefix}-q1
      delaySeconds: ${values.size}
  q2:
    type: aws/sqs/queue
    spec:
      queueName: ${values.label}
      fifoQueue: ${values.flag}
  t1:
    type: example/thing
    spec:
      name: ${values.prefix}${values.size}
exports:
  name:
    type: string
    field: values.prefix
  size:
    type: integer
    field: values.size
`
	const bytesSet = "abenvxyz019-.${}() "
	words := []string{"env", "nop", "len", "siz", "pre"}
	edit := func(rng *rand.Rand, res *Result) []byte {
		text := res.File.Content()
		var scalars []*schema.Scalar
		for _, s := range res.Sites() {
			if s.Owner != nil && (s.Owner.Kind == ValueSymbol || s.Owner.Kind == ResourceSymbol) && s.Scalar.Rng.Len() > 0 {
				scalars = append(scalars, s.Scalar)
			}
		}
		if len(scalars) == 0 {
			return nil
		}
		sc := scalars[rng.Intn(len(scalars))]
		out := bytes.Clone(text)
		at := sc.Rng.Start + rng.Intn(sc.Rng.Len())
		if w := words[rng.Intn(len(words))]; rng.Intn(3) == 0 && at+len(w) <= sc.Rng.End {
			copy(out[at:], w)
		} else {
			out[at] = bytesSet[rng.Intn(len(bytesSet))]
		}
		return out
	}
	for seed := int64(1); seed <= 8; seed++ {
		shared := 0
		replayChained(t, "values.blueprint.yaml", []byte(doc), rand.New(rand.NewSource(seed)), 60, edit, func(got *Result, _ bool) {
			if got.backdated > 0 {
				shared++
			}
		})
		t.Logf("seed %d: %d of 60 versions backdated a value", seed, shared)
		if shared < 5 {
			t.Errorf("seed %d: only %d versions backdated a value", seed, shared)
		}
	}
}

// TestIncrementalKeepsDefaultTable: an incremental analysis on the
// registry its previous version was analysed with reads that version's
// function table; on another registry (one that adds a provider's
// function) it makes the table again, so the function is known, and
// back on the first registry it is unknown again. Each version equals a
// full analysis.
func TestIncrementalKeepsDefaultTable(t *testing.T) {
	const name = "fn.blueprint.yaml"
	src := []byte(`version: 2025-11-02
resources:
  r:
    type: aws/s3/bucket
    spec:
      bucketName: ${acme_sprocket("w")}
`)
	acme := registry.NewBuiltin()
	if err := acme.AddProvider([]byte(`{"provider": "acme", "functions": {"acme_sprocket": {
  "params": [{"name": "widget", "type": "string"}], "result": "string"}}}`)); err != nil {
		t.Fatal(err)
	}
	prev := Analyze(context.Background(), schema.Parse(name, src), Options{})
	for _, step := range []struct {
		reg     *registry.Registry
		unknown bool
	}{{nil, true}, {acme, false}, {acme, false}, {nil, true}} {
		f := schema.Parse(name, src)
		opts := Options{Registry: step.reg}
		got := AnalyzeIncremental(context.Background(), prev, f, opts)
		if diff := sameAnalysis(got, Analyze(context.Background(), f, opts)); diff != "" {
			t.Fatal(diff)
		}
		unknown := false
		for _, d := range got.Diagnostics {
			unknown = unknown || d.Code == codeUnknownFunction.ID
		}
		if unknown != step.unknown {
			t.Errorf("registry %p: acme_sprocket unknown %v, want %v", step.reg, unknown, step.unknown)
		}
		if kept := got.table == prev.table; kept != (got.reg == prev.reg) {
			t.Errorf("registry %p: table kept %v, want %v", step.reg, kept, got.reg == prev.reg)
		}
		prev = got
	}
}
