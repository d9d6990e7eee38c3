// Package safefs is the one place blueprint-ls opens a file whose name
// comes from content it checks: an include path, a provider directory or
// a config named by a .blueprint-ls.yaml, a file found by discovery,
// file(), --state, --vars and --data, a .cloud archive.
//
// Its invariants: only regular files are read (a device, FIFO or socket
// is refused after a stat and never opened for reading; the open itself is
// non-blocking and re-checked with fstat, so a file swapped for a FIFO in
// between cannot hang the tool); every read has a size budget and goes
// through a limited reader, so /dev/zero or a 10 GB file stops at the
// budget; and Roots confines paths to the project after resolving
// symbolic links. Errors say what was found ("a named pipe (FIFO)"),
// never what a file contains.
//
// docs/security.md lists every budget with its default and setting.
package safefs
