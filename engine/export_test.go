package engine

// Helpers only tests use: kept out of the production build (deadcode,
// scripts/test.sh).

// Text renders the plan for people, in the manner of an infrastructure
// plan: one line per resource with its action symbol, the fields it sets
// or changes, the deployment stages, the exports, the children, and the
// summary line. Secrets print as (sensitive), values only known after
// deployment as (known after deploy).
func Text(p *Plan) string { return TextStyled(p, nil) }
