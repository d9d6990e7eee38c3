package rules

import (
	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/eval"
	"github.com/blueprint-ls/blueprint-ls/funcs"
	"github.com/blueprint-ls/blueprint-ls/providers/registry"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// bpSubject is the whole evaluated blueprint under one blueprint-level
// rule.
type bpSubject struct {
	rule *Rule
	bp   *eval.Blueprint
	reg  *registry.Registry
	out  []source.Diagnostic
}

func (s *bpSubject) report(r source.Range, format string, args ...any) {
	s.out = append(s.out, s.rule.Code.New(r, format, args...))
}

func checkBlueprint(bp *eval.Blueprint, opts Options) []source.Diagnostic {
	reg := opts.Registry
	if reg == nil {
		reg = analysis.BuiltinRegistry()
	}
	var out []source.Diagnostic
	for _, r := range table {
		if r.blueprint == nil || !opts.Config.Enabled(r) {
			continue
		}
		s := &bpSubject{rule: r, bp: bp, reg: reg}
		r.blueprint(s)
		out = append(out, s.out...)
	}
	return out
}

var (
	_ = define(&Rule{
		ID: "secret-in-plain-field", Title: "A secret reaches only fields the provider keeps secret",
		Severity: source.Warning, Set: Security,
		Rationale: "A secret variable (or anything derived from one) written into an ordinary resource field is stored in plain text in the deployed resource's configuration and state, visible to anyone who can describe the resource (a Lambda function's environment, a tag, a description). Fields the provider marks write-only, such as database passwords, are not read back.",
		Fix:       "Pass a reference to the secret instead (a Secrets Manager or SSM parameter ARN the code reads at run time), or use the provider's write-only field for it.",
		Bad:       []string{"variables:\n  token:\n    type: string\n    secret: true\n    default: t0ken\nresources:\n  fn:\n    type: aws/lambda/function\n    spec:\n      role: arn:aws:iam::123456789012:role/r\n      code: {zipFile: x}\n      environment:\n        variables:\n          TOKEN: ${variables.token}\n"},
		Good:      []string{"variables:\n  password:\n    type: string\n    secret: true\n    default: pw\nresources:\n  db:\n    type: aws/rds/dbInstance\n    spec:\n      masterUserPassword: ${variables.password}\n"},
		blueprint: checkSecretFields,
	})
	_ = define(&Rule{
		ID: "export-secret-value", Title: "Exports carry no secret-derived value",
		Severity: source.Warning, Set: Security,
		Rationale: "An export is readable by every blueprint and tool that reads the deployment's outputs; a value computed from a secret (a connection string holding a password, a token) leaks it there.",
		Fix:       "Export the secret's reference (a secret ARN) rather than its value, or drop the export.",
		Bad:       []string{"variables:\n  password:\n    type: string\n    secret: true\n    default: pw\nresources:\n  q:\n    type: aws/sqs/queue\n    spec: {sqsManagedSseEnabled: true, queueName: \"${variables.password}\"}\nexports:\n  queue:\n    type: string\n    field: resources.q.spec.queueName\n"},
		Good:      []string{"variables:\n  host:\n    type: string\n    default: db\nresources:\n  q:\n    type: aws/sqs/queue\n    spec: {sqsManagedSseEnabled: true}\nexports:\n  host:\n    type: string\n    field: variables.host\n"},
		blueprint: checkSecretExports,
	})
	_ = define(&Rule{
		ID: "redundant-depends-on", Title: "dependsOn names only resources the references do not already imply",
		Severity: source.Information, Set: Reliability,
		Rationale: "A resource that references another (directly or through values) is already deployed after it; listing it in dependsOn too adds nothing, and it stays behind, misleading, when the reference is removed.",
		Fix:       "Remove the name from dependsOn.",
		Bad:       []string{"resources:\n  q:\n    type: aws/sqs/queue\n    spec: {sqsManagedSseEnabled: true}\n  t:\n    type: aws/sns/topic\n    dependsOn: [q]\n    spec:\n      kmsMasterKeyId: alias/aws/sns\n      displayName: ${resources.q.spec.queueName}\n"},
		Good:      []string{"resources:\n  q:\n    type: aws/sqs/queue\n    spec: {sqsManagedSseEnabled: true}\n  t:\n    type: aws/sns/topic\n    dependsOn: [q]\n    spec:\n      kmsMasterKeyId: alias/aws/sns\n"},
		blueprint: checkRedundantDependsOn,
	})
)

// checkSecretFields reports sensitive values in spec fields the
// provider does not mark write-only.
func checkSecretFields(s *bpSubject) {
	if !s.bp.HasSecrets() {
		return // nothing is sensitive: no spec need be read whole
	}
	for _, r := range s.bp.Resources {
		if r.Condition == eval.Excluded || r.Symbol == nil || r.Symbol.Resource == nil {
			continue
		}
		spec := r.FullSpec()
		if !spec.Sensitive() { // containers carry their elements' flag
			continue
		}
		rt, _ := s.reg.ResourceType(r.Type)
		walkSensitive(spec, nil, func(path []seg) {
			if rt != nil {
				var names []string
				for _, p := range path {
					if p.key == "" {
						names = append(names, "*")
					} else {
						names = append(names, p.key)
					}
				}
				if f, ok := rt.Lookup(names); ok && f.Marks.Has(registry.WriteOnly) {
					return
				}
			}
			at := locate(r.Symbol.Resource, path, false)
			s.report(at.rng, "%s: a secret flows into spec.%s, which the provider stores in plain text (%s)", r.Template, pathText(path), s.rule.Title)
		})
	}
}

// walkSensitive calls f with the path of every sensitive leaf (or the
// outermost sensitive container) of v.
func walkSensitive(v funcs.Value, at []seg, f func([]seg)) {
	if m, ok := v.Map(); ok {
		for i := 0; i < m.Len(); i++ {
			k, e := m.At(i)
			walkSensitive(e, appendSeg(at, seg{key: k, idx: -1}), f)
		}
		return
	}
	if es, ok := v.Elems(); ok {
		for i, e := range es {
			walkSensitive(e, appendSeg(at, seg{idx: i}), f)
		}
		return
	}
	if v.Sensitive() {
		f(at)
	}
}

// checkSecretExports reports exports whose evaluated value is secret;
// where the analysis already reported the leak (secret-leak), once is
// enough.
func checkSecretExports(s *bpSubject) {
	leaks := map[int]bool{}
	for _, d := range s.bp.Result.Diagnostics {
		if d.Code == "secret-leak" {
			leaks[d.Range.Start] = true
		}
	}
	for _, x := range s.bp.Result.Blueprint.Exports.Items() {
		n := s.bp.Export(x.Name)
		if n == nil || !n.Value.Sensitive() {
			continue
		}
		rng := x.NameRange()
		if x.Field != nil {
			rng = x.Field.ValueRange()
		}
		dup := false
		for off := range leaks {
			if off >= x.Entry.Key.Rng.Start && off <= x.Entry.Value.Range().End {
				dup = true
			}
		}
		if !dup {
			s.report(rng, "export %s: its value is derived from a secret (%s)", x.Name, s.rule.Title)
		}
	}
}

// checkRedundantDependsOn reports a dependsOn entry naming a resource the
// resource already references, directly or through values. It reads the
// edges of the resources listed (a partial evaluation lists the ones to
// check) and of the values they reach, not every definition's.
func checkRedundantDependsOn(s *bpSubject) {
	res := s.bp.Result
	reaches := func(from, to *analysis.Symbol) bool {
		seen := map[*analysis.Symbol]bool{}
		var walk func(*analysis.Symbol) bool
		walk = func(x *analysis.Symbol) bool {
			for e := range res.EdgesFromSeq(x) {
				if e.Kind != analysis.EdgeReference || e.From != x || e.To == nil {
					continue
				}
				if t := e.To; t == to {
					return true
				} else if t.Kind == analysis.ValueSymbol && !seen[t] {
					seen[t] = true
					if walk(t) {
						return true
					}
				}
			}
			return false
		}
		return walk(from)
	}
	var done map[string]bool
	for _, r := range s.bp.Resources {
		// Only a resource that names others in dependsOn has a dependsOn
		// edge (the analysis makes them from those names): the others'
		// edges need not be read, nor their symbols looked up (most
		// resources of a large blueprint name none).
		if len(r.DependsOn) == 0 {
			continue
		}
		if done == nil {
			done = map[string]bool{}
		}
		if done[r.Template] {
			continue
		}
		done[r.Template] = true
		from := res.Lookup(analysis.ResourceSymbol, r.Template)
		for e := range res.EdgesFromSeq(from) {
			if e.Kind == analysis.EdgeDependsOn && e.From == from && e.To != nil && e.To.Kind == analysis.ResourceSymbol && reaches(from, e.To) {
				s.report(e.Range, "%s: dependsOn %s is implied by its references to %s (%s)", from.Name, e.To.Name, e.To.Name, s.rule.Title)
			}
		}
	}
}
