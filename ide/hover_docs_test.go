package ide

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/providers/registry"
)

// TestHoverDocumentsCatalog hovers, in 200 resource types drawn with a
// fixed seed from the built-in catalog, the type, one spec field (at a
// random depth) and one attribute read through `.state.`, and counts the
// hovers that show AWS's documentation: its first sentence, verbatim.
// The share must be at least 95%; the test logs it.
func TestHoverDocumentsCatalog(t *testing.T) {
	reg := Options{}.registry()
	names := reg.ResourceTypeNames()
	rng := rand.New(rand.NewPCG(23, 2026))
	rng.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
	var hovers, documented int
	var misses []string
	count := func(what, md, desc string) {
		hovers++
		if first := firstSentence(desc); first != "" && strings.Contains(md, first) {
			documented++
		} else if len(misses) < 15 {
			misses = append(misses, what)
		}
	}
	for _, name := range names[:200] {
		rt, ok := reg.ResourceType(name)
		if !ok || rt.Err != nil {
			t.Fatalf("%s: %v", name, rt.Err)
		}
		field, fieldSchema := randomSpecField(rng, rt)
		attr := randomAttribute(rng, rt)
		src, at := hoverBlueprint(name, field, attr)
		res := analyze(t, "docs.yaml", src)
		hover := func(off int) string {
			if h := Hover(res, off, Options{}); h != nil {
				return h.Markdown
			}
			return ""
		}
		count(name, hover(at["type"]), rt.Description)
		if field != nil {
			count(name+" spec."+strings.Join(field, "."), hover(at["field"]), fieldSchema.Description)
		}
		if attr != "" {
			count(name+" state."+attr, hover(at["attr"]), rt.StateDoc([]string{attr}))
		}
	}
	share := float64(documented) / float64(hovers)
	t.Logf("documented hovers: %d of %d (%.1f%%); first misses: %v", documented, hovers, 100*share, misses)
	if share < 0.95 {
		t.Errorf("only %.1f%% of hovers documented", 100*share)
	}
}

// firstSentence is the text up to the first full stop followed by a
// space, or the first line.
func firstSentence(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if i := strings.Index(s, ". "); i > 0 {
		return s[:i+1]
	}
	return strings.TrimSpace(s)
}

// randomSpecField picks a spec field, descending into objects (and
// arrays of objects) half of the time.
func randomSpecField(rng *rand.Rand, rt *registry.ResourceType) ([]string, *registry.Schema) {
	s := rt.Schema
	var path []string
	for depth := 0; depth < 4; depth++ {
		var cands []string
		for _, n := range s.PropertyNames() {
			if !rt.Marks(append(append([]string(nil), path...), n)).Has(registry.ReadOnly) && plainWord(n) {
				cands = append(cands, n)
			}
		}
		if len(cands) == 0 {
			break
		}
		n := cands[rng.IntN(len(cands))]
		p, _ := s.Property(n)
		path = append(path, n)
		next := p.Schema
		if next.Items != nil && next.Items.IsObject() {
			path, next = append(path, "*"), next.Items
		}
		if len(next.PropertyNames()) == 0 || rng.IntN(2) == 0 {
			if path[len(path)-1] == "*" {
				path = path[:len(path)-1]
			}
			return path, p.Schema
		}
		s = next
	}
	if len(path) == 0 {
		return nil, nil
	}
	f, _ := rt.Lookup(path)
	return path, f.Schema
}

// randomAttribute picks a top-level read-only property: what
// `${resources.x.state.name}` reads.
func randomAttribute(rng *rand.Rand, rt *registry.ResourceType) string {
	var cands []string
	for _, p := range rt.ReadOnlyPaths {
		if len(p) == 1 && plainWord(p[0]) {
			cands = append(cands, p[0])
		}
	}
	if len(cands) == 0 {
		return ""
	}
	return cands[rng.IntN(len(cands))]
}

// hoverBlueprint writes a blueprint with a resource of the type setting
// the field, and a second resource reading the attribute; at holds the
// offsets to hover.
func hoverBlueprint(typ string, field []string, attr string) (string, map[string]int) {
	var b strings.Builder
	at := map[string]int{}
	b.WriteString("version: 2025-11-02\nresources:\n  r:\n    type: ")
	at["type"] = b.Len() + 1
	b.WriteString(typ + "\n")
	if field != nil {
		b.WriteString("    spec:\n")
		indent := "      "
		for i, seg := range field {
			if seg == "*" {
				continue
			}
			b.WriteString(indent)
			if i > 0 && field[i-1] == "*" {
				b.WriteString("- ")
				indent += "  "
			}
			if i == len(field)-1 {
				at["field"] = b.Len() + 1
				b.WriteString(seg + ": x\n")
			} else {
				b.WriteString(seg + ":\n")
			}
			indent += "  "
		}
	}
	if attr != "" {
		b.WriteString("  q:\n    type: aws/sqs/queue\n    spec:\n      queueName: ${resources.r.state.")
		at["attr"] = b.Len() + 1
		fmt.Fprintf(&b, "%s}\n", attr)
	}
	return b.String(), at
}

// TestTypeCompletionListsBothSources: `type: aws/` offers every
// resource type the registry has, those of the schema set and those only
// the AWS service spec knows.
func TestTypeCompletionListsBothSources(t *testing.T) {
	src := "version: 2025-11-02\nresources:\n  r:\n    type: aws/\n"
	res := analyze(t, "types.yaml", src)
	offered := map[string]bool{}
	for _, it := range Completion(res, []byte(src), strings.Index(src, "aws/")+len("aws/"), Options{}) {
		if it.Detail == resourceTypeDetail {
			offered[it.Label] = true
		}
	}
	names := Options{}.registry().ResourceTypeNames()
	for _, name := range names {
		if !offered[name] {
			t.Errorf("%s not offered", name)
		}
	}
	t.Logf("%d types offered of %d", len(offered), len(names))
	// 1,503 from the schema set and 318 from the service spec (among
	// them aws/bedrockagentcore/harness), besides the provider files'.
	if len(offered) < 1821 || !offered["aws/bedrockagentcore/harness"] || !offered["aws/sqs/queue"] {
		t.Errorf("%d types offered", len(offered))
	}
}

// TestHoverEnumValue: a spec value of an enumerated field is described
// by its field: AWS's text and the allowed values; a value outside them
// is said to be so.
func TestHoverEnumValue(t *testing.T) {
	src := "version: 2025-11-02\nresources:\n  a:\n    type: aws/accessanalyzer/analyzer\n    spec:\n      type: ACCOUNT\n  b:\n    type: aws/accessanalyzer/analyzer\n    spec:\n      type: GALAXY\n"
	res := analyze(t, "enum.yaml", src)
	for _, tc := range []struct {
		at   string
		want []string
	}{
		{"ACCOUNT", []string{"`ACCOUNT`: one of the allowed values of **type**", "The type represents the zone of trust",
			"Allowed values: `ACCOUNT`, `ACCOUNT_INTERNAL_ACCESS`", "create-only", "[Read more](https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-resource-accessanalyzer-analyzer.html)"}},
		{"GALAXY", []string{"`GALAXY`: not one of the allowed values of **type**"}},
	} {
		off := strings.Index(src, tc.at) + 2
		h := Hover(res, off, Options{})
		if h == nil {
			t.Fatalf("no hover on %s", tc.at)
		}
		for _, w := range tc.want {
			if !strings.Contains(h.Markdown, w) {
				t.Errorf("hover on %s lacks %q:\n%s", tc.at, w, h.Markdown)
			}
		}
		if got := text(res, h.Range); got != tc.at {
			t.Errorf("range covers %q", got)
		}
	}
}

// TestEnumCompletionDocumented: the allowed values offered for a spec
// field carry the field's documentation.
func TestEnumCompletionDocumented(t *testing.T) {
	src := "version: 2025-11-02\nresources:\n  a:\n    type: aws/accessanalyzer/analyzer\n    spec:\n      type: \n"
	res := analyze(t, "enum.yaml", src)
	n := 0
	for _, it := range Completion(res, []byte(src), strings.Index(src, "type: \n")+len("type: "), Options{}) {
		if it.Label == "ACCOUNT" || it.Label == "ORGANIZATION" {
			n++
			if !strings.Contains(it.Documentation, "The type represents the zone of trust") || !strings.Contains(it.Documentation, "Allowed values: `ACCOUNT`") {
				t.Errorf("%s: %q", it.Label, it.Documentation)
			}
		}
	}
	if n != 2 {
		t.Errorf("%d of the values offered", n)
	}
}

// TestHoverLinkSemantics: hover on a link annotation's key documents the
// annotation; on a spec field the provider computes when omitted, or
// where a reference activates a link, says so.
func TestHoverLinkSemantics(t *testing.T) {
	src := `version: 2025-11-02
resources:
  fn:
    type: aws/lambda/function
    metadata:
      annotations:
        aws.lambda.dynamodb.accessType: read
    spec:
      functionName: orders
  rule:
    type: aws/events/rule
    spec:
      targets:
        - arn: x
`
	res := analyze(t, "links.yaml", src)
	for _, tc := range []struct {
		at, want string
	}{
		{"aws.lambda.dynamodb.accessType", "(link annotation)"},
		{"functionName", "computed by the provider when omitted"},
		{"arn: x", "a reference to another resource here links the two"},
	} {
		h := Hover(res, strings.Index(src, tc.at)+1, Options{})
		if h == nil || !strings.Contains(h.Markdown, tc.want) {
			t.Errorf("hover on %s: %v, want it to contain %q", tc.at, h, tc.want)
		}
	}
}
