// Package eval is the dry-run evaluator: it materialises an analysed
// blueprint with its inputs (variable values from files, flags and
// defaults; data source fixtures; the prior state's format) into plain
// data — every value, data source field, resource instance, child
// blueprint and export evaluated with the funcs table.
//
// Entry points: Eval (a whole blueprint, for the plan engine), NewScope
// with Scope.Template and Scope.Site (ad-hoc templates for `blueprint-ls
// eval` and the editor's inlay hints). Render values with JSON, Text or
// Plain, which mask secrets.
//
// Invariants:
//   - Evaluation is lazy and memoised per definition, so values, resources
//     and children are evaluated in dependency order whatever their order
//     in the file; a cycle (reported by analysis) yields unknown. With
//     Options.Lazy (check's rules) a resource instance's spec and metadata
//     fields are evaluated only when first read (lazy.go): the same
//     values, as no cycle is reported then, for a fraction of the work.
//   - Anything only known after deployment (resource state, data source
//     fields without fixtures, whatever is computed from them) is an
//     unknown value, never a guess; unknown conditions and each lists are
//     reported as such (ConditionUnknown, name[*]). The one exception is
//     state a deployment leaves in place: a resource instance in the prior
//     state reads the deployed state fields its Reuse allows, decided once
//     its spec is evaluated and before anything referencing it is.
//   - Secret variables and values are sensitive, and so is everything
//     derived from them (funcs propagates the flag through calls, this
//     package through interpolation and accessors); every renderer here
//     masks them.
//   - A user's mistake (missing or mistyped input, runtime error) is a
//     diagnostic on the result, reported once at its definition or
//     expression; the erroneous value becomes unknown. Go errors are for
//     I/O and cancellation only.
//   - The environment is injected (Options.Env): by default file() is
//     confined to the blueprint's folder and the network is off.
package eval
