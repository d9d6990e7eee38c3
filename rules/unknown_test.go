package rules_test

import (
	"strings"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/eval"
	"github.com/blueprint-ls/blueprint-ls/funcs"
)

const threeValued = `version: 2025-11-02
variables:
  versioning:
    type: string
    default: Suspended
resources:
  fromVariable:
    type: aws/s3/bucket
    spec:
      versioningConfiguration:
        status: ${variables.versioning}
  fromState:
    type: aws/s3/bucket
    spec:
      versioningConfiguration:
        status: ${resources.fromVariable.state.versioningConfiguration.status}
`

// TestUnknownNeverReported: the same bucket setting is reported when it
// comes from a variable's default, not when --vars overrides it with a
// good value, and never when it comes from another resource's state
// (unknown until deploy). The finding points at the ${..} it came from.
func TestUnknownNeverReported(t *testing.T) {
	const rule = "s3-bucket-versioning"
	at := func(src string, start int) string {
		end := strings.IndexByte(src[start:], '\n')
		return src[start : start+end]
	}

	found, errs := check(t, threeValued, eval.Inputs{}, nil)
	if len(errs) > 0 {
		t.Fatalf("analysis errors: %v", errs)
	}
	got := codes(found, rule)
	if len(got) != 1 {
		t.Fatalf("default Suspended: want one %s finding (fromVariable only), got %v", rule, got)
	}
	if s := at(threeValued, got[0].Range.Start); s != "${variables.versioning}" {
		t.Errorf("finding at %q, want the ${variables.versioning} it came from", s)
	}
	if !strings.Contains(got[0].Message, `fromVariable: spec.versioningConfiguration.status is "Suspended", want "Enabled" (S3 buckets keep object versions)`) {
		t.Errorf("message %q", got[0].Message)
	}

	in := eval.Inputs{Vars: map[string]eval.Input{"versioning": {Value: funcs.String("Enabled"), Origin: "--vars"}}}
	found, _ = check(t, threeValued, in, nil)
	if got := codes(found, rule); len(got) != 0 {
		t.Errorf("--vars versioning=Enabled: want no %s finding, got %v", rule, got)
	}

	// Text input, as `--var versioning=Suspended` gives it, is reported
	// again: the rule reads the value, not the text of the blueprint.
	in = eval.Inputs{Vars: map[string]eval.Input{"versioning": {Value: funcs.String("Suspended"), Text: true, Origin: "--var"}}}
	found, _ = check(t, threeValued, in, nil)
	if got := codes(found, rule); len(got) != 1 {
		t.Errorf("--var versioning=Suspended: want one finding, got %v", got)
	}
}

// TestMissingSettingAtType: a required setting with nothing written is
// reported at the resource's type; a partly written one at the nearest
// written key.
func TestMissingSettingAtType(t *testing.T) {
	src := "version: 2025-11-02\nresources:\n  b:\n    type: aws/s3/bucket\n    spec:\n      publicAccessBlockConfiguration:\n        blockPublicAcls: true\n  c:\n    type: aws/s3/bucket\n"
	found, _ := check(t, src, eval.Inputs{}, nil)
	var texts []string
	for _, d := range codes(found, "s3-bucket-public-access-blocked") {
		texts = append(texts, src[d.Range.Start:d.Range.End])
	}
	want := []string{"publicAccessBlockConfiguration", "aws/s3/bucket"}
	if strings.Join(texts, "|") != strings.Join(want, "|") {
		t.Errorf("findings at %q, want %q", texts, want)
	}
}

// TestEachInstances: a rule reads every each instance with its own
// element; a list known only after deploy is not reported.
func TestEachInstances(t *testing.T) {
	src := `version: 2025-11-02
variables:
  statuses:
    type: string
    default: '["Enabled", "Suspended"]'
resources:
  buckets:
    type: aws/s3/bucket
    each: ${jsondecode(variables.statuses)}
    spec:
      versioningConfiguration:
        status: ${elem}
  later:
    type: aws/s3/bucket
    each: ${resources.buckets[0].state.tags}
    spec:
      versioningConfiguration:
        status: ${elem.value}
`
	found, errs := check(t, src, eval.Inputs{}, nil)
	if len(errs) > 0 {
		t.Fatalf("analysis errors: %v", errs)
	}
	got := codes(found, "s3-bucket-versioning")
	if len(got) != 1 || !strings.Contains(got[0].Message, "buckets: ") {
		t.Errorf("want one finding for buckets[1], got %v", got)
	}
}

// TestQuickFixes: a boolean or a single allowed word written as a literal
// gets a fix that replaces it (keeping a JSON string's quotes); a value
// from a ${..} gets none.
func TestQuickFixes(t *testing.T) {
	src := "version: 2025-11-02\nvariables:\n  s:\n    type: string\n    default: Suspended\nresources:\n  a:\n    type: aws/s3/bucket\n    spec:\n      objectLockEnabled: false\n      versioningConfiguration: {status: \"Suspended\"}\n  b:\n    type: aws/s3/bucket\n    spec:\n      versioningConfiguration: {status: \"${variables.s}\"}\n"
	found, _ := check(t, src, eval.Inputs{}, nil)
	var got []string
	for _, d := range found {
		if d.Code != "s3-bucket-object-lock" && d.Code != "s3-bucket-versioning" {
			continue
		}
		fix := "no fix"
		if len(d.Suggestions) == 1 && len(d.Suggestions[0].Edits) == 1 {
			e := d.Suggestions[0].Edits[0]
			fixed := src[:e.Range.Start] + e.NewText + src[e.Range.End:]
			line := strings.LastIndexByte(fixed[:d.Range.Start], '\n') + 1
			fix = strings.TrimSpace(strings.Split(fixed[line:], "\n")[0])
		}
		got = append(got, d.Code+": "+fix)
	}
	want := []string{
		"s3-bucket-object-lock: objectLockEnabled: true",
		`s3-bucket-versioning: versioningConfiguration: {status: "Enabled"}`,
		"s3-bucket-object-lock: no fix", // nothing written to replace
		"s3-bucket-versioning: no fix",  // from a variable
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestConditions: a resource whose condition is false is not deployed and
// not judged; one whose condition is only known after deploy is judged on
// what it would deploy.
func TestConditions(t *testing.T) {
	src := `version: 2025-11-02
variables:
  public:
    type: boolean
    default: false
resources:
  off:
    type: aws/s3/bucket
    condition: ${variables.public}
    spec:
      accessControl: PublicReadWrite
  maybe:
    type: aws/s3/bucket
    condition: ${eq(resources.off.state.bucketName, "x")}
    spec:
      accessControl: PublicReadWrite
`
	found, errs := check(t, src, eval.Inputs{}, nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var got []string
	for _, d := range codes(found, "s3-bucket-public-write-acl") {
		got = append(got, d.Message)
	}
	if len(got) != 1 || !strings.HasPrefix(got[0], "maybe:") {
		t.Errorf("want maybe's finding only, got %v", got)
	}
}

// TestStandaloneIngress: the security group rules read a standalone
// ingress resource as one rule; an address only known after deploy is
// not judged.
func TestStandaloneIngress(t *testing.T) {
	src := `version: 2025-11-02
resources:
  ssh:
    type: aws/ec2/securityGroupIngress
    spec:
      groupId: sg-1
      ipProtocol: tcp
      fromPort: 22
      toPort: 22
      cidrIp: 0.0.0.0/0
  later:
    type: aws/ec2/securityGroupIngress
    spec:
      groupId: sg-1
      ipProtocol: tcp
      fromPort: 22
      toPort: 22
      cidrIp: ${resources.ssh.state.cidrIp}
`
	found, errs := check(t, src, eval.Inputs{}, nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	got := codes(found, "sg-no-ssh-from-internet")
	if len(got) != 1 || src[got[0].Range.Start:got[0].Range.End] != "0.0.0.0/0" {
		t.Errorf("want one finding at ssh's cidrIp, got %v", got)
	}
}
