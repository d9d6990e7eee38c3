// Command lspbench drives language servers over stdio the way an editor
// does and measures what a person waits for: the time from an edit that
// adds or removes an error to the diagnostics showing it (for a client that
// pulls diagnostics and for one that waits for them to be pushed), the
// latency of completion, and the server's peak resident memory. It runs any
// number of servers on the same generated blueprints (internal/gen), so our
// server and the official Bluelink one can be compared side by side; see
// docs/performance.md and scripts/bench-lsp-compare.sh.
//
//	go run ./cmd/lspbench -server ours=/path/to/blueprint-ls,serve \
//	    -server official=/path/to/official-ls -sizes 1000,5000
//
// Each (server, size, client) runs in a fresh process and a fresh temporary
// folder (the server's working directory, for servers that write logs
// there). A pull client declares textDocument.diagnostic and asks for the
// diagnostics after each edit; against a server that does not offer pull
// diagnostics it is reported as not applicable. A push client waits for
// textDocument/publishDiagnostics. Times are measured from writing the
// edit to reading the answer that shows it, so they include the transport.
package main
