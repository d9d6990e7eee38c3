// Package deployconfig finds and reads a project's deploy configuration:
// the file the Bluelink deploy engine (or the Celerity CLI in front of
// it) takes its provider and transformer configuration, context
// variables and blueprint variable values from.
//
// Discovery (Find) looks in the blueprint's directory and each parent up
// to the first boundary: a workspace root when the caller names any,
// otherwise a repository root (a directory holding .git); it never goes
// above one, and stops after maxWalk directories. In each directory it
// probes, in order, an explicitly named file (Options.File, relative
// names resolved in every directory of the walk so that
// "bluelink.deploy.staging.jsonc" names the project's staging file), or
// else the candidate names (Options.Names, or DefaultNames:
// bluelink.deploy.jsonc, bluelink.deploy.json, app.deploy.jsonc,
// app.deploy.json, .celerity/deploy-config.json). An absolute
// Options.File is the answer without a walk. Environment variants
// (bluelink.deploy.dev.jsonc, app.deploy.staging.jsonc) and templates are
// never picked up by themselves: nothing on disk says which environment
// is meant, so they are named.
//
// Formats: a file whose name starts with "app.deploy." is Celerity's
// authoring format (appName, deployTarget{name, appEnv, config},
// contextVariables, blueprintVariables) and is converted to the canonical
// one as the Celerity CLI converts it; any other file is the canonical
// format (providers, transformers, contextVariables, blueprintVariables).
// Both are JSONC. Values are scalars; anything else is dropped with a
// warning.
//
// Invariants:
//   - Every read goes through internal/safefs, inside the caller's roots
//     (a file outside the project is not read, and Find says why).
//   - A mistake in the file is a diagnostic at its position in that file
//     (Config.Diagnostics, with the file's Mapper); Load never returns a
//     Go error for the file's content.
package deployconfig
