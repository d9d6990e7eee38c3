// Package project is the project's own policy over diagnostics: the
// .blueprint-ls.yaml config (discovered upward from each file) and the
// inline `blueprint-ls:ignore` comments. The check command and the
// language server both go through it, so CI and the editor report the
// same problems at the same severities.
//
// # Invariants
//
//   - A mistake in a config is a positioned diagnostic of the config file
//     (code config-invalid); a Go error is only for I/O. Parse keeps going
//     after a mistake and returns the config built from the valid entries;
//     callers that must not run with half a config (check) refuse it.
//   - Paths in a Config are absolute; relative ones in the file are
//     relative to its directory.
//   - Apply never modifies its input slice: the language server shares
//     analysis results between requests.
//   - Apply's order is fixed: strict types, then suppressions, then the
//     severity overrides, so a config can lower a strict-type error and
//     turn off suppress-unused.
package project
