// Package rules is the best-practice and security linter over what a
// blueprint deploys: one table of rules (rule.go and the files named
// after the services they cover), each run over the resource instances
// package eval materialises (every `each` element, conditions applied,
// substitutions resolved from defaults, inputs and fixtures), plus
// blueprint-level rules over the analysis (secrets flowing into plain
// fields, redundant dependsOn, link selectors matching nothing).
//
// Invariants:
//   - Three-valued logic: a value only known after deployment (or only
//     known as an unknown each list or condition) is never reported as
//     bad; a rule reports only what the known values decide.
//   - Every rule is a registered diagnostic code (source.NewCode), so the
//     project config's severity table and inline blueprint-ls:ignore
//     comments apply to rules as to any other code; Rule.Doc is the page
//     the finding links to (LSP codeDescription, SARIF helpUri).
//   - A finding is positioned at the source node that decides it: the
//     field's value (or the ${..} it came from), the nearest written
//     ancestor of a missing field, or the resource's type when nothing of
//     the setting is written.
//   - Run never modifies the evaluated blueprint and does no I/O. It reads
//     specs and metadata field by field (eval.Resource.Field,
//     MetadataField; a whole spec only where a rule needs it, and for
//     secret-in-plain-field only when something can be secret), so that
//     a lazy evaluation (check's) evaluates only what the rules read.
//
// Package rules/policy runs the project's own Rego policies over the
// same evaluated input (Input, docs/policies.md).
package rules
