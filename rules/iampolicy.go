package rules

import (
	"strings"

	"github.com/blueprint-ls/blueprint-ls/funcs"
)

// statements returns the statements of the policy documents at the
// pattern p (Statement may be one mapping or a list); a document or
// statement list only known after deploy yields nothing.
func (s *subject) statements(p string) []field {
	var out []field
	for _, doc := range s.get(p) {
		if doc.state != present {
			continue
		}
		if str, ok := doc.v.Str(); ok {
			// A document written as JSON text.
			v, err := funcs.ParseJSON([]byte(str))
			if err != nil {
				continue
			}
			doc.v = v
		}
		for _, f := range lookup(doc.v, []string{"Statement"}, doc.path) {
			if f.state != present {
				continue
			}
			if _, isMap := f.v.Map(); isMap {
				out = append(out, f)
				continue
			}
			out = append(out, lookup(f.v, []string{star}, f.path)...)
		}
	}
	var known []field
	for _, f := range out {
		if f.state == present {
			known = append(known, f)
		}
	}
	return known
}

// stmt reads one statement's field (Effect, Action, ...).
func stmt(f field, key string) field { return lookup(f.v, []string{key}, f.path)[0] }

// allows reports whether a statement is known to allow.
func allows(st field) tri {
	e := stmt(st, "Effect")
	if e.state == unknown {
		return maybe
	}
	s, _ := strOf(e.v)
	return triOf(strings.EqualFold(s, "Allow"))
}

// anyString reports whether one of the strings at f satisfies pred:
// yes when a known one does, maybe when some are unknown.
func anyString(f field, pred func(string) bool) tri {
	if f.state == absent {
		return no
	}
	if f.state == unknown {
		return maybe
	}
	ss, known := stringsOf(f.v)
	for _, s := range ss {
		if pred(s) {
			return yes
		}
	}
	if !known {
		return maybe
	}
	return no
}

func isStar(s string) bool { return s == "*" || s == "*:*" }

// publicPrincipal reports whether a statement's Principal is everyone:
// "*" or {AWS: "*"}.
func publicPrincipal(st field) tri {
	p := stmt(st, "Principal")
	switch p.state {
	case absent:
		return no
	case unknown:
		return maybe
	}
	if s, ok := p.v.Str(); ok {
		return triOf(s == "*")
	}
	return anyString(lookup(p.v, []string{"AWS"}, p.path)[0], isStar)
}

// policyFieldsFor lists where each IAM resource type holds policy
// documents.
var policyFields = map[string][]string{
	"aws/iam/policy":        {"policyDocument"},
	"aws/iam/managedPolicy": {"policyDocument"},
	"aws/iam/rolePolicy":    {"policyDocument"},
	"aws/iam/userPolicy":    {"policyDocument"},
	"aws/iam/groupPolicy":   {"policyDocument"},
	"aws/iam/role":          {"policies[*].policyDocument"},
	"aws/iam/user":          {"policies[*].policyDocument"},
	"aws/iam/group":         {"policies[*].policyDocument"},
}

var iamPolicyTypes = []string{"aws/iam/policy", "aws/iam/managedPolicy", "aws/iam/rolePolicy", "aws/iam/userPolicy", "aws/iam/groupPolicy", "aws/iam/role", "aws/iam/user", "aws/iam/group"}

// allowStatements calls f with every allowing statement of the
// resource's identity policies.
func (s *subject) allowStatements(f func(st field)) {
	for _, p := range policyFields[s.res.Type] {
		for _, st := range s.statements(p) {
			if allows(st) == yes {
				f(st)
			}
		}
	}
}

// resourcePolicyOpen reports statements of a resource policy at p that
// allow everyone without a condition.
func resourcePolicyOpen(p string) func(*subject) {
	return func(s *subject) {
		for _, st := range s.statements(p) {
			if allows(st) != yes || publicPrincipal(st) != yes {
				continue
			}
			if c := stmt(st, "Condition"); c.state != absent {
				continue // conditions (source account, VPC) narrow it
			}
			s.fail(stmt(st, "Principal"), "spec.%s allows every principal (\"*\") without a condition", pathText(st.path))
		}
	}
}
