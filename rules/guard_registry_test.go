package rules_test

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/eval"
	"github.com/blueprint-ls/blueprint-ls/providers/registry"
	"github.com/blueprint-ls/blueprint-ls/rules"
)

// The AWS Guard rules registry's own test templates (copied unchanged
// into testdata/guard-registry, see its README.md) are the reference for
// what a rule with a Guard equivalent reports. TestGuardRegistryCases
// converts every case of those files to a blueprint, runs the rules as
// `blueprint-ls check` does (analysis.Analyze, eval.Eval, rules.Run with
// the default config: the table test's check helper) and compares: a
// FAIL case must be reported by each of our rules naming the Guard rule,
// a PASS or SKIP case must not.
//
// The conversion (guardBlueprint):
//   - AWS::Service::Type becomes the registry's blueprint name
//     (registry.ResourceTypeName, aws/s3/bucket); Properties become spec,
//     every property renamed to the name the provider schema stores it
//     under (lowerCamelCase: BucketName → bucketName,
//     SSESpecification → sseSpecification), walking the schema so nested
//     properties are renamed too; keys of free-form values (IAM policy
//     documents, tags maps) and properties the schema does not know keep
//     their spelling (the rules read CloudFormation spellings too).
//   - Metadata becomes metadata.custom, so a Guard suppression
//     (Metadata.guard.SuppressedRules) is read as our rules read it.
//   - Every intrinsic function (Ref, Fn::GetAtt, Fn::Sub, Fn::If, ... in
//     long or short form) becomes ${variables.deployTime}, a string
//     variable with no default and no input: a value unknown until
//     deploy. Guard does not resolve intrinsics either (a Ref is a
//     non-string value to it), but it fails a comparison with one, where
//     our rules never report an unknown value (package doc). A FAIL case
//     our rule does not report whose resource of the rule's types holds
//     an intrinsic is therefore skipped (counted, with its reason), not
//     compared.
//   - Parameters, Conditions, Outputs, DependsOn and a resource's
//     Condition are left out (Guard does not evaluate them).
//
// Individual cases the conversion cannot express are listed in
// guardSkips with their reason; the test fails if fewer than
// guardMinCompared of the cases are compared.

const guardMinCompared = 0.70

// guardAliases maps expectation names the registry's test files spell
// differently from their rule.
var guardAliases = map[string]string{
	"S3_BUCKET_DEFAULT_LOCK_ENABLE": "S3_BUCKET_DEFAULT_LOCK_ENABLED",
}

// guardSkips: "file|case name|GUARD_RULE" → why the case, where it
// disagrees, is not compared (a conversion limit, not the rule's fault).
// Names are not unique in the registry's files: an entry applies only to
// a case of that name that disagrees.
var guardSkips = map[string]string{
	"cloudfront_origin_access_identity_enabled_tests.yml|Scenario d) 'Origins' has an S3 origin (global endpoint) configured without an 'S3OriginConfig.OriginAccessIdentity', FAIL|CLOUDFRONT_ORIGIN_ACCESS_IDENTITY_ENABLED":   "the origin's domainName is Fn::GetAtt [bucket, DomainName]: Guard follows the reference to an S3 bucket, the blueprint has a value unknown until deploy",
	"cloudfront_origin_access_identity_enabled_tests.yml|Scenario d) 'Origins' has an S3 origin (regional endpoint) configured without an 'S3OriginConfig.OriginAccessIdentity', FAIL|CLOUDFRONT_ORIGIN_ACCESS_IDENTITY_ENABLED": "the origin's domainName is Fn::GetAtt [bucket, RegionalDomainName]: Guard follows the reference to an S3 bucket, the blueprint has a value unknown until deploy",
	"s3_bucket_default_lock_enable_tests.yml|S3 Bucket with ObjectLockEnabled property missing but rule suppressed, SKIP|S3_BUCKET_DEFAULT_LOCK_ENABLED":                                                                         "the case suppresses S3_BUCKET_DEFAULT_LOCK_ENABLE, a misspelling of the rule's name that no rule of ours answers to",
}

type guardCase struct {
	Name         string    `yaml:"name"`
	Input        yaml.Node `yaml:"input"`
	Expectations struct {
		Rules map[string]string `yaml:"rules"`
	} `yaml:"expectations"`
}

type guardTally struct {
	agree, disagree, skipped int
	notes                    []string
}

func TestGuardRegistryCases(t *testing.T) {
	byEqv := map[string][]*rules.Rule{}
	for _, r := range rules.All() {
		for _, e := range r.Equivalents {
			byEqv[e] = append(byEqv[e], r)
		}
	}
	files, err := filepath.Glob(filepath.Join("..", "testdata", "guard-registry", "*", "*_tests.yml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no registry test files: %v", err)
	}
	reg := analysis.BuiltinRegistry()
	tallies := map[string]*guardTally{} // our rule id + " = " + Guard rule
	covered := map[string]bool{}
	total, compared, agreed, skipped := 0, 0, 0, 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var cases []guardCase
		if err := yaml.Unmarshal(data, &cases); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		short := filepath.Base(file)
		for _, c := range cases {
			var src string
			var info caseInfo
			for gname, want := range c.Expectations.Rules {
				gname = strings.TrimSpace(gname)
				if a, ok := guardAliases[gname]; ok {
					gname = a
				}
				want = strings.ToUpper(strings.TrimSpace(want))
				for _, r := range byEqv[gname] {
					covered[gname] = true
					key := r.ID + " = " + gname
					tl := tallies[key]
					if tl == nil {
						tl = &guardTally{}
						tallies[key] = tl
					}
					total++
					if src == "" {
						src, info = guardBlueprint(t, reg, &c.Input, deployTime)
					}
					found, _ := check(t, src, eval.Inputs{}, nil)
					reported := len(codes(found, r.ID)) > 0
					why := ""
					switch {
					case len(info.types) > 0 && !anyOf(info.types, r.Types):
						why = "no resource of the rule's types " + strings.Join(r.Types, ", ") + " (the case's: " + strings.Join(sortedSet(info.types), ", ") + ")"
					case want == "SKIP" && reported && info.cfnNag:
						why = "suppressed by a cfn-nag rule id (Metadata.cfn_nag), which names no rule of ours"
					case want == "FAIL" && !reported && anyOf(info.intrinsicIn, r.Types):
						// Guard's view of an intrinsic: a value that is
						// not the one asked for. If our rule reports the
						// case so written, the intrinsic decided it.
						guardView, _ := guardBlueprint(t, reg, &c.Input, intrinsicLiteral)
						if found, _ := check(t, guardView, eval.Inputs{}, nil); len(codes(found, r.ID)) > 0 {
							why = "FAIL decided by an intrinsic function, unknown until deploy in a blueprint"
						}
					}
					if known, ok := guardSkips[short+"|"+c.Name+"|"+gname]; ok && why == "" && (want == "FAIL") != reported {
						why = known
					}
					if why != "" {
						tl.skipped++
						skipped++
						tl.notes = append(tl.notes, fmt.Sprintf("skipped %q: %s", c.Name, why))
						continue
					}
					compared++
					if (want == "FAIL") == reported {
						tl.agree++
						agreed++
						continue
					}
					tl.disagree++
					what := "FAIL case not reported"
					if reported {
						what = want + " case reported: " + fmt.Sprint(codes(found, r.ID))
					}
					t.Errorf("%s (%s) disagrees with %s case %q: %s\n%s", r.ID, gname, short, c.Name, what, src)
				}
			}
		}
	}
	keys := make([]string, 0, len(tallies))
	for k := range tallies {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		tl := tallies[k]
		verdict := "agree"
		if tl.disagree > 0 {
			verdict = "DISAGREE"
		}
		t.Logf("%-60s %-8s agree %d, disagree %d, skipped %d", k, verdict, tl.agree, tl.disagree, tl.skipped)
		for _, n := range tl.notes {
			t.Logf("    %s", n)
		}
	}
	t.Logf("%d Guard rules covered, %d rule/case pairs: %d compared (%d agree), %d skipped", len(covered), total, compared, agreed, skipped)
	if total == 0 || float64(compared) < guardMinCompared*float64(total) {
		t.Errorf("only %d of %d registry cases compared (want at least %.0f%%)", compared, total, guardMinCompared*100)
	}
	// Every equivalent naming a Guard rule whose tests are here must
	// have been exercised.
	for e := range byEqv {
		if guardTestsFor(files, e) && !covered[e] {
			t.Errorf("equivalent %s has registry tests but no case named it", e)
		}
	}
}

// guardTestsFor reports whether a test file of Guard rule e is present
// (file name = the rule's name in lower case).
func guardTestsFor(files []string, e string) bool {
	for _, f := range files {
		if filepath.Base(f) == strings.ToLower(e)+"_tests.yml" {
			return true
		}
	}
	return false
}

func anyOf(set map[string]bool, types []string) bool {
	for _, ty := range types {
		if set[ty] {
			return true
		}
	}
	return false
}

func sortedSet(set map[string]bool) []string {
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// caseInfo is what the comparison needs to know of a converted case.
type caseInfo struct {
	types       map[string]bool // the blueprint types of its resources
	intrinsicIn map[string]bool // those of the resources holding an intrinsic
	cfnNag      bool            // a resource carries Metadata.cfn_nag
}

// guardBlueprint converts a registry case's CloudFormation template to a
// blueprint (see the conversion notes above). It returns the blueprint's
// YAML and what the comparison needs to know of the case.
func guardBlueprint(t *testing.T, reg *registry.Registry, in *yaml.Node, intrinsic string) (string, caseInfo) {
	t.Helper()
	c := &cfnConv{as: intrinsic}
	resources := map[string]any{}
	info := caseInfo{types: map[string]bool{}, intrinsicIn: map[string]bool{}}
	root := deref(in)
	if res := mapGet(root, "Resources"); res != nil && res.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(res.Content); i += 2 {
			name, def := res.Content[i].Value, deref(res.Content[i+1])
			typ := mapGet(def, "Type")
			if typ == nil {
				continue
			}
			var rt *registry.ResourceType
			bpType := registry.ResourceTypeName(typ.Value)
			if x, ok := reg.ResourceTypeByOriginal(typ.Value); ok {
				rt, bpType = x, x.Name
			}
			out := map[string]any{"type": bpType}
			c.intrinsic = false
			if props := mapGet(def, "Properties"); props != nil {
				var s *registry.Schema
				if rt != nil {
					s = rt.Schema
				}
				if v := c.value(props, s, true); v != nil {
					out["spec"] = v
				}
			}
			info.types[bpType] = true
			if c.intrinsic {
				info.intrinsicIn[bpType] = true
			}
			if meta := mapGet(def, "Metadata"); meta != nil {
				if mapGet(meta, "cfn_nag") != nil || mapGet(meta, "cfn-nag") != nil {
					info.cfnNag = true
				}
				if v := c.value(meta, nil, false); v != nil {
					out["metadata"] = map[string]any{"custom": v}
				}
			}
			if _, ok := out["spec"]; !ok {
				out["spec"] = map[string]any{}
			}
			resources[name] = out
		}
	}
	bp := map[string]any{"version": "2025-11-02"}
	if c.used {
		bp["variables"] = map[string]any{"deployTime": map[string]any{"type": "string", "description": "stands for a CloudFormation intrinsic function"}}
	}
	if len(resources) > 0 {
		bp["resources"] = resources
	}
	data, err := yaml.Marshal(bp)
	if err != nil {
		t.Fatal(err)
	}
	return string(data), info
}

type cfnConv struct {
	as        string // what an intrinsic becomes
	intrinsic bool   // in the resource being converted
	used      bool   // anywhere: the blueprint declares deployTime
}

// deployTime stands for an intrinsic function: a value unknown until
// deploy. intrinsicLiteral is Guard's view of one, for telling whether
// an intrinsic decided a FAIL case: a known value that is none of the
// values a rule asks for (Guard compares the function's mapping).
const (
	deployTime       = "${variables.deployTime}"
	intrinsicLiteral = "cfn-intrinsic-function"
)

// value converts a CloudFormation value under schema s (nil: unknown to
// the schema, keys keep their spelling); rename says whether mapping keys
// are property names to rename by the schema.
func (c *cfnConv) value(n *yaml.Node, s *registry.Schema, rename bool) any {
	n = deref(n)
	if isIntrinsic(n) {
		c.intrinsic, c.used = true, c.as == deployTime
		return c.as
	}
	switch n.Kind {
	case yaml.MappingNode:
		out := map[string]any{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			key := n.Content[i].Value
			name, sub := key, (*registry.Schema)(nil)
			if rename && s != nil {
				name, sub = schemaChild(s, key)
			}
			v := c.value(n.Content[i+1], sub, rename)
			if v == nil {
				continue
			}
			out[name] = v
		}
		return out
	case yaml.SequenceNode:
		var items *registry.Schema
		if s != nil {
			items = s.Items
		}
		out := make([]any, 0, len(n.Content))
		for _, e := range n.Content {
			if v := c.value(e, items, rename); v != nil {
				out = append(out, v)
			}
		}
		return out
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return nil
		}
		var v any
		if err := n.Decode(&v); err != nil {
			return n.Value
		}
		return v
	}
	return nil
}

// schemaChild returns the blueprint name of CloudFormation key in an
// object described by s and the schema of its value.
func schemaChild(s *registry.Schema, key string) (string, *registry.Schema) {
	for _, cand := range []string{registry.LowerCamel(key), key} {
		if p, ok := s.Property(cand); ok {
			return p.Name, p.Schema
		}
	}
	for _, name := range s.PropertyNames() {
		if p, _ := s.Property(name); p.Original == key {
			return p.Name, p.Schema
		}
	}
	for _, group := range [][]*registry.Schema{s.OneOf, s.AnyOf, s.AllOf} {
		for _, b := range group {
			if name, sub := schemaChild(b, key); sub != nil {
				return name, sub
			}
		}
	}
	if sub, p, ok := s.Lookup([]string{registry.LowerCamel(key)}); ok && sub != nil && p != nil {
		return p.Name, sub
	}
	if sub, _, ok := s.Lookup([]string{key}); ok && sub != nil {
		return key, sub // a map's key: user data
	}
	return key, nil
}

// isIntrinsic reports whether n is an intrinsic function call: a short
// form tag (!Ref, !Sub, ...) or a one-key mapping Ref / Fn::*.
func isIntrinsic(n *yaml.Node) bool {
	if strings.HasPrefix(n.Tag, "!") && !strings.HasPrefix(n.Tag, "!!") {
		return true
	}
	if n.Kind == yaml.MappingNode && len(n.Content) == 2 {
		k := n.Content[0].Value
		return k == "Ref" || strings.HasPrefix(k, "Fn::")
	}
	return false
}

func deref(n *yaml.Node) *yaml.Node {
	for n != nil && (n.Kind == yaml.DocumentNode || n.Kind == yaml.AliasNode) {
		if n.Kind == yaml.AliasNode {
			n = n.Alias
		} else if len(n.Content) > 0 {
			n = n.Content[0]
		} else {
			return n
		}
	}
	return n
}

func mapGet(n *yaml.Node, key string) *yaml.Node {
	n = deref(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return deref(n.Content[i+1])
		}
	}
	return nil
}
