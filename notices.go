// Package blueprintls holds the texts every copy of blueprint-ls carries:
// its licence and the notices of the third-party code and data built into
// the binary, printed by `blueprint-ls version --notices`.
//
// THIRD_PARTY_NOTICES.md has two parts. The first, written by hand, covers
// the data embedded in the binary (the CloudFormation resource schemas of
// the built-in AWS provider); a new embedded data set (such as Landscaper
// or aws-service-spec schemas) adds its section there. The second, after
// [ModulesHeading], is generated from the Go modules linked into the
// binary and kept fresh by TestNoticesFresh (`go test . -run Notices
// -update` rewrites it).
package blueprintls

import _ "embed"

// License is the Apache License 2.0 that blueprint-ls is distributed under.
//
//go:embed LICENSE
var License string

// Notices is THIRD_PARTY_NOTICES.md: the licences and notices of the data
// and code from other projects that the binary contains.
//
//go:embed THIRD_PARTY_NOTICES.md
var Notices string

// ModulesHeading starts the generated part of THIRD_PARTY_NOTICES.md.
const ModulesHeading = "## Go modules linked into the binary"
