// Package policy runs a project's own rules, written in Rego and
// evaluated with Open Policy Agent's Go library, over the same evaluated
// blueprint as the built-in rules (package rules). The input document is
// documented in docs/policies.md (Input builds it); a policy reports
// with deny and warn rules, whose findings become diagnostics at the
// field they name.
//
// Invariants:
//   - Policies never reach the network or the host: http.send, the net.*
//     and opa.runtime builtins are not in the capabilities the policies
//     are compiled against, so a policy using one does not compile (a
//     positioned policy-invalid diagnostic in the .rego file).
//   - Every evaluation runs under a budget (Options.Budget, a deadline on
//     the context OPA's evaluator checks): a policy that loops or
//     allocates without bound is stopped and reported (policy-budget),
//     and the other policies still run.
//   - A mistake in a policy file is a diagnostic of that file at its
//     line; a Go error is for I/O only.
package policy
