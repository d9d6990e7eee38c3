// Package lsp is the language server: transport, ordered dispatch,
// sessions and snapshots, the diagnostics pipeline, and the conversion of
// the language packages' results to protocol types. It is the only package
// that imports go.lsp.dev.
//
// # Dispatch
//
// The connection is a jsonrpc2.Conn built with our codec (codec.go) and a
// preempter (dispatch.go). The preempter runs on the read loop, in arrival
// order, for every message: it enforces the lifecycle (ServerNotInitialized
// before initialize, InvalidRequest after shutdown) and handles the
// ordered methods — initialize, initialized, shutdown, exit, text sync,
// configuration, watched files, $/cancelRequest. Every other request goes
// to handle, which captures the current view and registers the request for
// cancellation while still on the read loop, then releases it to run
// concurrently. A request answers RequestCancelled when cancelled and
// ContentModified when a snapshot it read was superseded before it
// finished; a panic becomes an InternalError answer and a log line.
// At most 1,000 answers are owed at once, counted until the response is
// written (backpressure.go): past that a request is answered at once with
// ServerCancelled on the read loop, which stops reading while the client
// does not read, and the memory of such a burst is returned afterwards.
// Frames are read by our own reader (framing.go), not jsonrpc2's, which
// ends the connection at the first malformed frame: a body that is not
// JSON, a Content-Length that lies, a missing or malformed header or a
// frame past 64 MiB is answered Parse error (-32700; Invalid Request for
// JSON that is not a message), with the request's id when it can be read
// and null otherwise, and reading resumes at the next Content-Length
// header. Only the end of the input ends the connection.
// Feature methods implement protocol.Server and are reached through
// protocol.ServerHandler; unknown methods answer MethodNotFound.
//
// # State
//
// The session (session.go) owns all mutable state — open documents keyed
// by canonical URI, and the settings — and changes it only in its methods,
// under one lock, by publishing a new immutable view. A Snapshot is one
// version of one document: text, mapper, settings, and lazily, at most
// once, the parsed file (syntax phase) and the Analysis (full phase).
// Snapshots never change; a newer one cancels the older one's context.
//
// # The analysis seam
//
// Analyzer (analyze.go) is the only way the server learns about a
// blueprint: Parse (syntax phase) and Analyze (full phase, analysis.Analyze
// in production). Analyze reads an Env: the settings, the document's path
// and the document's workspace (workspace.go) — the provider registry built
// from providerDirs followed by its project config's providers, and an
// analysis.Loader whose reads see open buffers before the disk; documents
// with the same provider list share one workspace. A reverse include index, fed by every completed full
// phase, says which open documents to re-check (new snapshots, same
// version) when a file they include changes: an edit, open, close or
// watched-file event. Text with syntax errors is analysed repaired
// (analysis.Options.Repair): its Result, with the broken entries left out
// at unchanged offsets, serves the reading features (current refuses it to
// the editing ones: rename, code actions but for the diagnostics' own
// fixes, edits of the text as it is). Each document keeps its last
// Result whose text parsed (docState); Snapshot.Result falls back to it,
// marked stale, when even the repair does not parse.
//
// A snapshot's Text is the client's text exactly. Each version starts
// from the one before (issue 16): docState keeps the newest parse, which
// the next syntax phase splices the edited entry into (Reparser,
// schema.SpliceAt), told where the text changed since that parse's
// version: each snapshot folds the client's changes into where its text
// differs from each recent version's (edits.go), so that no keystroke
// compares the whole text. The parse of a Bluelink blueprint is in
// padded coordinates (padding.go, parse.go): every open definition's key
// line is followed by spaces the client's text lacks, which an edit in
// the definition takes or gives, so that typing moves nothing after it;
// Snapshot.Mapper skips them, and is what converts every position read
// from the parse or the analysis. The full phase is
// analysis.AnalyzeIncremental from the last good Result (Env.Prev). Only
// that parse and that Result are kept per document, so older snapshots'
// trees are dropped with them.
//
// # Dialects
//
// Each snapshot's dialect (dialect.go) is decided once, by package dialect
// from its name, language and content (through the Analyzer when it is a
// Detector); a snapshot whose text is too broken to tell keeps the
// document's last verdict. The dialect selects one docKind, the only place
// the server branches on the kind of document: a Bluelink blueprint is
// parsed, analysed and has the project config applied; a Cloud Assembly
// manifest (a JSON document whose top-level "schema" starts with
// "cloud-assembly/", manifest.go) never reaches the Analyzer, and both
// phases publish assembly.CheckManifest's problems; a project config gets
// its own mistakes; a Landscaper blueprint or installation template is
// checked by package landscaper (landscaper.go) with the project config
// applied, and again when a file in its folder changes on disk, and gets
// completion, hover, definition, semantic tokens and the render lens and
// command (blueprint.render, landscaper_render.go) from that package
// (featureDoc, viewDoc); a provider resource schema gets package resschema's
// meta-schema check, and completion and hover of the meta-schema's
// keywords (provschema.go, featureDoc); a document of no known dialect (a GitHub workflow
// opened by an editor that attaches the server to every YAML file) gets no
// diagnostics, and formatting leaves it alone (Dialect().Formatted).
// Features ask Dialect().Blueprint: the others answer empty,
// and Result is nil for them; folding and document symbols (ide.Folds,
// ide.Outline) read the syntax tree of every dialect.
//
// # Project config
//
// Each snapshot is placed (project.go) under the .blueprint-ls.yaml that
// governs its file on disk, found through one project.Finder per session
// and fixed for the snapshot; a watched config change invalidates the
// finder and renews every snapshot. An open config document never reaches
// the Analyzer: its diagnostics are project.Parse's (dialect.Config).
//
// # Features
//
// Feature logic lives in package ide, over *analysis.Result (or, for
// folding and the outline, the syntax tree) in byte offsets; this package
// has none of its own. The handlers here (features*.go, formatting.go, command_*.go)
// pick the snapshot and the Result, and convert in convert*.go. Position
// features read a stale Result only before the first changed byte;
// editing features (rename, code actions) only a current one.
//
// # Diagnostics
//
// Pushed (diagnostics.go) unless the client pulls (diagnostics_pull.go):
// syntax diagnostics at once, full ones as soon as the version is
// analysed — the analysis starts with the edit, a newer edit cancels it
// (the analysis checks its context between entries), and only the user's
// debounceMs setting (default 0) delays it — each only if its snapshot is
// still current and the set differs from the last one sent, with the
// document version; [] on close. A pull answers from the same analysis,
// started at the edit. Both phases, the pull
// handler and code actions see the diagnostics through
// Snapshot.projectDiagnostics (the config's strict types, suppressions and
// severity table, as check applies them); the client's severity setting
// applies after, at conversion, and wins. All protocol conversion lives in convert*.go; positions go
// through source.Mapper in the negotiated encoding.
//
// # Semantic tokens
//
// Full answers carry a result id; semantic_delta.go keeps the last two
// arrays per open document (dropped on close) and answers full/delta with
// the single edit between the named array and the current one, aligned to
// whole tokens, or with the full array when the id is no longer kept.
//
// # Adding a feature
//
// Implement the protocol.Server method in <feature>.go, get the snapshot
// with s.snapshot(ctx, uri) (never from the session directly, so
// ContentModified works), convert results in convert_<feature>.go, and set
// the provider in serverCapabilities (capabilities.go).
package lsp
