package analysis

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/blueprint-ls/blueprint-ls/providers/registry"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// linkTestRegistry has three types of a test provider and links between
// them with cardinality, capabilities and a link-activating field:
// test/net/vpc places a test/net/fn (providing test.net/attached on the
// function, at most one VPC per function), a fn reaches a test/net/queue
// only once attached (MustExist) and a table whenever (not MustExist), and
// a test/net/rule's targets[].arn activates the rule→fn link, and a
// test/net/hook's target the hook→fn link, which requires an annotation.
func linkTestRegistry(t *testing.T) *registry.Registry {
	t.Helper()
	reg := registry.NewBuiltin()
	for _, typ := range []string{"Fn", "Queue", "Table", "Vpc"} {
		src := fmt.Sprintf(`{"typeName": "Test::Net::%s", "properties": {"Name": {"type": "string"}, "Arn": {"type": "string"}}, "readOnlyProperties": ["/properties/Arn"]}`, typ)
		if err := reg.AddResourceSchema(typ+".json", []byte(src)); err != nil {
			t.Fatal(err)
		}
	}
	rule := `{"typeName": "Test::Net::Rule", "properties": {"Name": {"type": "string"},
		"Targets": {"type": "array", "items": {"type": "object", "properties": {"Arn": {"type": "string"}, "Label": {"type": "string"}}}}}}`
	if err := reg.AddResourceSchema("Rule.json", []byte(rule)); err != nil {
		t.Fatal(err)
	}
	hook := `{"typeName": "Test::Net::Hook", "properties": {"Target": {"type": "string"}}}`
	if err := reg.AddResourceSchema("Hook.json", []byte(hook)); err != nil {
		t.Fatal(err)
	}
	err := reg.AddProvider([]byte(`{"provider": "test",
		"resourceTypes": {"test/net/rule": {"fields": {"targets.*.arn": {"activatesLinkOnReference": true}}},
			"test/net/hook": {"fields": {"target": {"activatesLinkOnReference": true}}}},
		"links": [
		{"from": "test/net/vpc", "to": "test/net/fn", "cardinality": {"to": {"max": 1}},
		 "provides": [{"name": "test.net/attached", "on": "to"}]},
		{"from": "test/net/fn", "to": "test/net/queue",
		 "requires": [{"name": "test.net/attached", "on": "from", "mustExist": true}]},
		{"from": "test/net/fn", "to": "test/net/table",
		 "requires": [{"name": "test.net/attached", "on": "from"}]},
		{"from": "test/net/rule", "to": "test/net/fn", "cardinality": {"to": {"max": 1}},
		 "annotations": {"test.rule.retries": {"on": "from", "type": "integer"}}},
		{"from": "test/net/hook", "to": "test/net/fn",
		 "annotations": {"test.hook.mode": {"on": "from", "type": "string", "required": true}}}
	]}`))
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// linkCase is a blueprint and the link diagnostics it gets, as linkDiags
// writes them.
type linkCase struct {
	name, text string
	want       []string
	links      []string // the link graph: "from->to (activated at range)"
}

// runLinkCases checks each case against the test registry; withLinks
// checks the link graph too, and that nothing but a link is an error.
func runLinkCases(t *testing.T, cases []linkCase, withLinks bool) {
	reg := linkTestRegistry(t)
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			got, r := linkDiags(t, tt.text, reg)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s\nall: %s", diff, all(r))
			}
			if !withLinks {
				return
			}
			var links []string
			for _, l := range r.LinkGraph() {
				links = append(links, fmt.Sprintf("%s->%s (activated at %s)", l.From.Name, l.To.Name, lineSpan(r, l.At)))
			}
			if diff := cmp.Diff(tt.links, links); diff != "" {
				t.Errorf("links (-want +got)\n%s", diff)
			}
			for _, d := range r.Diagnostics {
				if d.Severity == source.Error && !strings.HasPrefix(d.Code, "link-") {
					t.Errorf("error %s %s: %s", lineSpan(r, d.Range), d.Code, d.Message)
				}
			}
		})
	}
}

// linkDiags runs the analysis of text and returns its diagnostics whose
// code starts with "link-", as "line:col-line:col code: message".
func linkDiags(t *testing.T, text string, reg *registry.Registry) ([]string, *Result) {
	t.Helper()
	f := schema.Parse("a.blueprint.yaml", []byte(text))
	r := Analyze(context.Background(), f, Options{Registry: reg})
	var got []string
	for _, d := range r.Diagnostics {
		if strings.HasPrefix(d.Code, "link-") {
			got = append(got, lineSpan(r, d.Range)+" "+d.Code+": "+d.Message)
		}
	}
	return got, r
}

func lineSpan(r *Result, rng source.Range) string {
	l1, c1 := r.File.Mapper.LineCol(rng.Start, source.UTF16)
	l2, c2 := r.File.Mapper.LineCol(rng.End, source.UTF16)
	return fmt.Sprintf("%d:%d-%d:%d", l1, c1, l2, c2)
}

// res writes one resource of a test blueprint.
func res(name, typ, labels, selector, spec string) string {
	s := "  " + name + ":\n    type: " + typ + "\n"
	if labels != "" {
		s += "    metadata:\n      labels: {" + labels + "}\n"
	}
	if selector != "" {
		s += "    linkSelector:\n      byLabel: {" + selector + "}\n"
	}
	if spec == "" && strings.HasPrefix(typ, "test/") {
		spec = "      name: x\n"
	}
	if spec != "" {
		s += "    spec:\n" + spec
	}
	return s
}

// TestLinkCardinality: a resource in more links of a type than the link
// type allows on its side is reported at the selectors making the links
// past the bound; within the bound, nothing.
func TestLinkCardinality(t *testing.T) {
	const head = "version: 2025-11-02\nresources:\n"
	runLinkCases(t, []linkCase{
		{name: "a handler linking to a datastore passes", text: head +
			res("handler", "celerity/handler", "", "store: orders", "      handlerName: orders\n") +
			res("store", "celerity/datastore", "store: orders", "", "      keys: {partitionKey: id}\n")},
		{name: "two APIs for one handler", text: head +
			res("api1", "celerity/api", "", "app: orders", "      protocols: [http]\n") +
			res("api2", "celerity/api", "", "app: orders", "      protocols: [http]\n") +
			res("handler", "celerity/handler", "app: orders", "", "      handlerName: orders\n"),
			want: []string{`12:7-12:14 link-cardinality: "handler" is linked from 2 resources of type celerity/api ("api1", "api2"), but the link between celerity/api and celerity/handler allows at most 1 per celerity/handler`}},
		{name: "one handler, two handler configs", text: head +
			res("handler", "celerity/handler", "", "cfg: shared", "      handlerName: orders\n") +
			res("c1", "celerity/handlerConfig", "cfg: shared", "", "") +
			res("c2", "celerity/handlerConfig", "cfg: shared", "", ""),
			want: []string{`6:7-6:14 link-cardinality: "handler" links to 2 resources of type celerity/handlerConfig ("c1", "c2"), but the link between celerity/handler and celerity/handlerConfig allows at most 1 per celerity/handler`}},
		{name: "a reference past the bound", text: head +
			res("fn", "test/net/fn", "", "", "") +
			res("r1", "test/net/rule", "", "", "      targets:\n        - arn: ${resources.fn.state.arn}\n") +
			res("r2", "test/net/rule", "", "", "      targets:\n        - arn: ${resources.fn.state.arn}\n"),
			want: []string{`16:18-16:40 link-cardinality: "fn" is linked from 2 resources of type test/net/rule ("r1", "r2"), but the link between test/net/rule and test/net/fn allows at most 1 per test/net/fn`}},
	}, false)
}

// TestLinkCapabilities: a link requiring a capability it can not do
// without (MustExist) is reported at its selector when no link provides
// it on that resource; one that may do without is not.
func TestLinkCapabilities(t *testing.T) {
	const head = "version: 2025-11-02\nresources:\n"
	fn := res("fn", "test/net/fn", "net: a", "data: a", "")
	runLinkCases(t, []linkCase{
		{name: "required and missing", text: head + fn + res("q", "test/net/queue", "data: a", "", ""),
			want: []string{`8:7-8:14 link-capability-missing: the link between "fn" and "q" requires the capability "test.net/attached" on "fn", which no link in this blueprint provides`}},
		{name: "provided by the placement", text: head + fn + res("q", "test/net/queue", "data: a", "", "") + res("vpc", "test/net/vpc", "", "net: a", "")},
		{name: "provided on another function only", text: head + fn + res("q", "test/net/queue", "data: a", "", "") +
			res("fn2", "test/net/fn", "net: b", "", "") + res("vpc", "test/net/vpc", "", "net: b", ""),
			want: []string{`8:7-8:14 link-capability-missing: the link between "fn" and "q" requires the capability "test.net/attached" on "fn", which no link in this blueprint provides`}},
		{name: "not MustExist: met by absence", text: head + fn + res("t", "test/net/table", "data: a", "", "")},
	}, false)
}

// TestActivatedLinks: a reference placed in a field that activates links
// links the two resources when a link type joins their types, with no
// linkSelector: the link is in the graph and its annotations are checked;
// a reference elsewhere, or to a type no link joins, links nothing and is
// no error.
func TestActivatedLinks(t *testing.T) {
	const head = "version: 2025-11-02\nresources:\n"
	rule := func(annotation, spec string) string {
		s := "  rule:\n    type: test/net/rule\n"
		if annotation != "" {
			s += "    metadata:\n      annotations:\n        test.rule.retries: " + annotation + "\n"
		}
		return s + "    spec:\n" + spec
	}
	fn := res("fn", "test/net/fn", "", "", "")
	runLinkCases(t, []linkCase{
		{name: "activated", text: head + fn + rule("", "      targets:\n        - arn: ${resources.fn.state.arn}\n"), links: []string{"rule->fn (activated at 11:18-11:40)"}},
		{name: "its annotations are checked", text: head + fn + rule("often", "      targets:\n        - arn: ${resources.fn.state.arn}\n"),
			links: []string{"rule->fn (activated at 14:18-14:40)"},
			want:  []string{`11:28-11:33 link-annotation: annotation "test.rule.retries" of the link between test/net/rule and test/net/fn must be an integer, not "often"`}},
		{name: "a field that does not activate", text: head + fn + rule("", "      targets:\n        - label: ${resources.fn.state.arn}\n")},
		{name: "the official AWS provider's wiring slot", text: head +
			"  fn:\n    type: aws/lambda/function\n    spec:\n      role: arn:aws:iam::123456789012:role/x\n      code: {zipFile: x}\n" +
			"  rule:\n    type: aws/events/rule\n    spec:\n      targets:\n        - id: t1\n          arn: ${resources.fn.state.arn}\n",
			links: []string{"rule->fn (activated at 13:18-13:40)"}},
		{name: "a required annotation missing, at the reference", text: head + fn + "  hook:\n    type: test/net/hook\n    spec:\n      target: ${resources.fn.state.arn}\n",
			links: []string{"hook->fn (activated at 10:17-10:39)"},
			want:  []string{`10:17-10:39 link-annotation: the link between test/net/hook and test/net/fn requires the annotation "test.hook.mode" on "hook"`}},
		{name: "no link type joins the types", text: head + res("q", "test/net/queue", "", "", "") + rule("", "      targets:\n        - arn: ${resources.q.state.arn}\n")},
	}, true)
}
