// Package landscaper checks Gardener Landscaper blueprints and
// installation templates (dialect.Landscaper), the second blueprint
// dialect. It is a sibling of package analysis: it reads the same
// position-exact syntax tree and reports source.Diagnostics, but shares no
// rules with the Bluelink checker.
//
// Check runs in one pass over the tree: the structure against the
// Blueprint JSON schema published by the Landscaper project (embedded
// under schemas/, walked here so every problem lands on its exact node,
// with did-you-mean for unknown fields), then the rules Landscaper's own
// validation applies (unique names, types, schemas, executions,
// subinstallations), then the JSON schemas of imports, exports and
// localTypes, compiled with santhosh-tekuri/jsonschema (local://,
// blueprint:// and cd:// references resolved without the network), then
// the templates of its executions: GoTemplate parsed with text/template
// against Go's, sprig's and Landscaper's functions, Spiff expressions
// scanned, both for the imports they name. Files a blueprint references are read through
// internal/safefs, confined to the blueprint's folder; nothing reaches
// the network: component-descriptor references are checked for form only.
//
// Render (render*.go) validates import values against a checked
// blueprint and runs its executions: GoTemplate for real, under a time
// and output budget, with the functions that would need a component
// descriptor or a cluster not evaluated; Spiff where trivial. What it
// does not evaluate is listed, never guessed.
package landscaper
