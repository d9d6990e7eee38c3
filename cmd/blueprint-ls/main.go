// Command blueprint-ls is the blueprint language server, checker, evaluator
// and plan engine. This package holds flags and subcommands only; each
// subcommand lives in its own file and registers itself in init.
package main

import (
	"fmt"
	"io"
	"os"
	"sort"

	"golang.org/x/term"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// Exit codes shared by every subcommand.
const (
	exitOK       = 0 // success, no errors found
	exitProblems = 1 // the input has errors (diagnostics at or above the threshold)
	exitUsage    = 2 // bad usage or an I/O failure
)

// command is one subcommand. run receives the arguments after the
// subcommand name and returns the process exit code.
type command struct {
	name    string
	summary string
	run     func(args []string, stdout, stderr io.Writer) int
}

var commands = map[string]command{}

func register(c command) {
	if _, dup := commands[c.name]; dup {
		panic("duplicate subcommand " + c.name)
	}
	commands[c.name] = c
}

func main() {
	processOwned = true
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run dispatches to a subcommand; it is main without the process exit, for
// tests.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		if c, ok := commands["serve"]; ok && !isTerminal(os.Stdin) {
			return c.run(nil, stdout, stderr)
		}
		usage(stderr)
		return exitUsage
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		usage(stdout)
		return exitOK
	case "-version", "--version":
		return runVersion(args[1:], stdout, stderr)
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "blueprint-ls: unknown command %q", args[0])
		if near := source.Closest(args[0], commandNames()); len(near) > 0 {
			fmt.Fprintf(stderr, "; did you mean %q?", near[0])
		}
		fmt.Fprint(stderr, "\n\n")
		usage(stderr)
		return exitUsage
	}
	return c.run(args[1:], stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "blueprint-ls: language server, checker and plan engine for Bluelink blueprints")
	fmt.Fprintln(w, "\nUsage:\n  blueprint-ls <command> [flags] [arguments]\n\nCommands:")
	for _, n := range commandNames() {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'blueprint-ls <command> -h' for a command's flags.")
	fmt.Fprintln(w, "With no command and stdin not a terminal, runs the language server (serve).")
	fmt.Fprintln(w, "Documentation: "+docsURL("guide.md"))
}

// commandNames lists the subcommands in order.
func commandNames() []string {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// docsURL is the online address of a page of docs/: an installed binary
// has no docs folder beside it.
func docsURL(page string) string { return docsBase + page }

// docsBase is the online address of docs/.
const docsBase = informationURI + "/blob/main/docs/"

// isTerminal reports whether f is a terminal. A character device is not
// enough: /dev/null is one, and `blueprint-ls </dev/null` must serve like
// any other non-terminal stdin.
func isTerminal(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }
