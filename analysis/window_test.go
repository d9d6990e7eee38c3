package analysis

import (
	"bytes"
	"fmt"
	"math/rand"
	"regexp"
	"strings"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/internal/gen"
)

// windowDoc is a blueprint whose resources name each other in every way
// a resource can: references, dependsOn, linkSelector with exclude,
// link("name"), labels, a cycle, and values and a data source they read.
const windowDoc = `version: 2025-11-02
variables:
  env:
    type: string
values:
  v:
    type: string
    value: ${variables.env}
  w:
    type: string
    value: ${resources.b.spec.queueName}
  unused:
    type: integer
    value: 3
datasources:
  net:
    type: aws/vpc
    filter:
      field: tags
      operator: 'has key'
      search: ${values.v}
    exports:
      vpc:
        type: string
        aliasFor: vpcId
resources:
  a:
    type: aws/sqs/queue
    metadata:
      labels:
        app: orders
        tier: one
    spec:
      queueName: ${values.v}-a
      visibilityTimeout: 45
  b:
    type: aws/sqs/queue
    dependsOn: [a]
    linkSelector:
      byLabel:
        app: orders
      exclude: [c]
    metadata:
      labels:
        app: orders
    spec:
      queueName: ${resources.a.spec.queueName}
      delaySeconds: ${resources.a.spec.visibilityTimeout}
  c:
    type: aws/sqs/queue
    metadata:
      labels:
        app: orders
    spec:
      queueName: ${datasources.net.vpc}-${link("a", "b")}
  d:
    type: aws/sqs/queue
    spec:
      queueName: ${resources.e.spec.queueName}
  e:
    type: aws/sqs/queue
    linkSelector:
      byLabel:
        tier: one
    spec:
      queueName: ${resources.d.spec.queueName}
  f:
    type: aws/sqs/queue
    spec:
      queueName: ${values.w}
exports:
  out:
    type: string
    field: resources.a.spec.queueName
`

// resourceKey matches a resource's key line in the resources section.
var resourceKey = regexp.MustCompile(`(?m)^  [a-z][a-z0-9]*:$`)

// padResources adds pad spaces to the end of every key line of the
// resources section, as the language server does (lsp/slack.go).
func padResources(data []byte, pad int) []byte {
	sec := bytes.Index(data, []byte("\nresources:\n"))
	end := len(data)
	if e := bytes.Index(data[sec+1:], []byte("\nexports:")); e >= 0 {
		end = sec + 1 + e
	}
	body := resourceKey.ReplaceAllFunc(data[sec:end], func(k []byte) []byte {
		return append(bytes.Clone(k), bytes.Repeat([]byte{' '}, pad)...)
	})
	return concat(data[:sec], body, data[end:])
}

// randomPaddedEdit makes a random edit inside one resource's body and gives or
// takes the spaces at the end of its key line so that the text keeps
// its length; nil when the resource has too little padding left.
func randomPaddedEdit(rng *rand.Rand, res *Result) []byte {
	text := res.File.Content()
	var rs []*Symbol
	for _, s := range res.Symbols() {
		if s.Kind == ResourceSymbol {
			rs = append(rs, s)
		}
	}
	if len(rs) == 0 {
		return nil
	}
	s := rs[rng.Intn(len(rs))]
	keyEnd := s.NameRange.End + 1 // after the colon
	eol := keyEnd + bytes.IndexByte(text[keyEnd:], '\n')
	if eol < keyEnd || eol >= s.Range.End {
		return nil
	}
	pad := eol - keyEnd
	at := eol + 1 + rng.Intn(s.Range.End-eol)
	var ins []byte
	cut := at
	switch rng.Intn(4) {
	case 0:
		ins = []byte(snippets[rng.Intn(len(snippets))])
	case 1:
		cut = min(at+1+rng.Intn(4), s.Range.End)
	case 2: // a word replaced by a resource's name
		start, end := at, at
		for start > eol+1 && isWordByte(text[start-1]) {
			start--
		}
		for end < s.Range.End && isWordByte(text[end]) {
			end++
		}
		at, cut, ins = start, end, []byte(rs[rng.Intn(len(rs))].Name)
	default: // a name typed into dependsOn, exclude or a label
		for _, k := range []string{"dependsOn: [", "exclude: [", "app: "} {
			if i := bytes.Index(text[eol:s.Range.End], []byte(k)); i >= 0 {
				at, cut = eol+i+len(k), eol+i+len(k)
				ins = []byte(rs[rng.Intn(len(rs))].Name + map[bool]string{true: ", ", false: ""}[k != "app: "])
				break
			}
		}
	}
	delta := len(ins) - (cut - at)
	if delta > pad {
		return nil
	}
	out := concat(text[:keyEnd], bytes.Repeat([]byte{' '}, pad-delta), text[eol:at], ins, text[cut:])
	if len(out) != len(text) {
		panic("the padded edit changed the length")
	}
	return out
}

// TestWindowEqualsFull replays random edits inside padded resources,
// which keep the text's length, so that most versions are analysed in
// window mode (window.go), chained, each from the one before; after
// every step the result must be a full analysis's, in every list the
// features read.
func TestWindowEqualsFull(t *testing.T) {
	docs := map[string][]byte{
		"links.blueprint.yaml": []byte(windowDoc),
		"gen.blueprint.yaml":   gen.Blueprint(40, "yaml"),
	}
	for name, data := range docs {
		t.Run(name, func(t *testing.T) {
			for seed := int64(1); seed <= 6; seed++ {
				windowed := 0
				replayChained(t, name, padResources(data, 64), rand.New(rand.NewSource(seed)), 80, randomPaddedEdit, func(got *Result, _ bool) {
					if got.windowed {
						windowed++
					}
				})
				if windowed < 10 {
					t.Errorf("seed %d: only %d versions analysed in window mode", seed, windowed)
				}
			}
		})
	}
}

// TestLinkGraphKeptEqualsFull: random edits inside padded Celerity
// resources whose links break a cardinality bound, chained; an edit that
// keeps every selection and type takes the previous version's links over
// (keptLinks), and every version's links and diagnostics must be a full
// analysis's (the cardinality error sits at a byLabel key that typing in
// its resource moves).
func TestLinkGraphKeptEqualsFull(t *testing.T) {
	doc := `version: 2025-11-02
resources:
  api1:
    type: celerity/api
    linkSelector:
      byLabel:
        app: orders
    spec:
      protocols: [http]
  api2:
    type: celerity/api
    linkSelector:
      byLabel:
        app: orders
    spec:
      protocols: [http]
  handler:
    type: celerity/handler
    metadata:
      labels:
        app: orders
    linkSelector:
      byLabel:
        cfg: shared
    spec:
      handlerName: orders
  c1:
    type: celerity/handlerConfig
    metadata:
      labels:
        cfg: shared
  c2:
    type: celerity/handlerConfig
    metadata:
      labels:
        cfg: shared
`
	for seed := int64(1); seed <= 6; seed++ {
		kept := 0
		replayChained(t, "links.blueprint.yaml", padResources([]byte(doc), 64), rand.New(rand.NewSource(seed)), 60, randomPaddedEdit, func(got *Result, _ bool) {
			if got.linksMade && got.carried > 0 && len(got.checked) > 0 {
				kept++
			}
		})
		if kept == 0 {
			t.Errorf("seed %d: no version checked links", seed)
		}
	}
}

// FuzzWindowEqualsFull is TestWindowEqualsFull with the fuzzer choosing
// the document, the random edits' seed and how many are chained.
func FuzzWindowEqualsFull(f *testing.F) {
	f.Add(false, int64(1), uint8(20))
	f.Add(true, int64(7), uint8(40))
	docs := [2][]byte{padResources([]byte(windowDoc), 64), padResources(gen.Blueprint(12, "yaml"), 64)}
	f.Fuzz(func(t *testing.T, generated bool, seed int64, steps uint8) {
		data := docs[0]
		if generated {
			data = docs[1]
		}
		replayChained(t, "fuzz.blueprint.yaml", data, rand.New(rand.NewSource(seed)), int(steps%64), randomPaddedEdit, func(*Result, bool) {})
	})
}

// listsOf prints what the features read of r's lists and diagnostics.
func listsOf(r *Result) string {
	var b strings.Builder
	sym := func(s *Symbol) string {
		if s == nil {
			return "-"
		}
		own := ""
		if s.index >= len(r.Symbols()) || r.Symbols()[s.index] != s {
			own = "(stale)"
		}
		return fmt.Sprintf("%s:%s%s", s.Kind, s.Name, own)
	}
	for _, s := range r.Sites() {
		fmt.Fprintf(&b, "site %v %s %v %v\n", s.Scalar.Rng, sym(s.Owner), s.Type, s.ExprTypes)
	}
	for _, x := range r.References() {
		fmt.Fprintf(&b, "ref %v %s %s %v\n", x.Expr.Rng, sym(x.Target), sym(x.Field), x.Type)
	}
	for _, c := range r.Calls() {
		fmt.Fprintf(&b, "call %s %v\n", c.Func.Name, c.Type)
	}
	for _, n := range r.NameRefs() {
		fmt.Fprintf(&b, "name %v %s %d\n", n.Range, sym(n.Target), n.Kind)
	}
	for _, e := range r.Edges() {
		fmt.Fprintf(&b, "edge %s %s %v %d\n", sym(e.From), sym(e.To), e.Range, e.Kind)
	}
	for _, l := range r.Links() {
		names := make([]string, len(l.Selected))
		for i, s := range l.Selected {
			names[i] = sym(s)
		}
		fmt.Fprintf(&b, "link %s %v\n", sym(l.From), names)
	}
	for _, l := range r.LinkGraph() {
		fmt.Fprintf(&b, "graph %s %s %s %v %v\n", sym(l.From), sym(l.To), sym(l.Origin), l.At, l.Activated)
	}
	for _, d := range r.Diagnostics {
		fmt.Fprintf(&b, "diag %v %s %s %v\n", d.Range, d.Code, d.Message, d.Related)
	}
	return b.String()
}

func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range min(len(g), len(w)) {
		if g[i] != w[i] {
			return fmt.Sprintf("line %d:\n got %s\nwant %s", i, g[i], w[i])
		}
	}
	return fmt.Sprintf("%d lines, want %d", len(g), len(w))
}
