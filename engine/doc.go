// Package engine plans a deployment: from a materialised blueprint (package
// eval) and the prior state it builds the dependency graph (references,
// also through values; dependsOn; child blueprints; link selections in the
// direction the provider's link priority gives), orders it into stages of
// resources deployable in parallel, and diffs each resource instance
// against the state: create, update (field-level before/after), replace (a
// create-only property of the provider's resource schema changed, or the
// type changed), delete, retain (removalPolicy retain) or no-op. Children
// are planned recursively; export changes are listed.
//
// PlanFile is the single entry point shared by `blueprint-ls plan` and the
// language server's plan preview; Build plans an already evaluated
// blueprint. Text, Markdown and JSON render a Plan (docs/plan.md documents
// the JSON shape); all mask secrets and show unknown values as
// "(known after deploy)".
//
// Invariants: a Plan is plain immutable data once returned; planning does
// no I/O beyond what PlanFile's analysis and evaluation read; the order of
// resources, stages and changes is deterministic.
package engine
