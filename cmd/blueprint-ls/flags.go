package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/eval"
)

// listFlag is a repeatable flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(s string) error { *l = append(*l, s); return nil }

// newFlagSet returns a subcommand's flag set: parse errors go to stderr, and
// its usage prints the usage lines, then the flags.
func newFlagSet(name string, stderr io.Writer, usage ...string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		for _, l := range usage {
			fmt.Fprintln(stderr, l)
		}
		fmt.Fprintln(stderr, "\nFlags:")
		fs.PrintDefaults()
		if page, ok := commandDocs[strings.Fields(name)[0]]; ok {
			fmt.Fprintln(stderr, "\nDocumentation: "+docsURL(page))
		}
	}
	return fs
}

// commandDocs names the page of docs/ that documents each command; its
// usage points at the page's online address.
var commandDocs = map[string]string{
	"assembly": "assembly.md",
	"check":    "cli.md",
	"convert":  "blueprint-language.md",
	"eval":     "plan.md",
	"fmt":      "formatting.md",
	"inspect":  "guide.md",
	"plan":     "plan.md",
	"schema":   "editors.md",
	"serve":    "lsp.md",
	"version":  "guide.md",
}

// parseExit is the exit status after a flag parse error: asking for help
// succeeds, anything else is a usage failure.
func parseExit(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	return exitUsage
}

// parseInterleaved parses flags that may come before, between or after
// the positional arguments, which it returns in order. "--" ends flags.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// parseOneArg parses flags placed anywhere around exactly one positional
// argument. When ok is false the command ends with code: help was asked
// for, or the arguments were wrong (and the usage is printed).
func parseOneArg(fs *flag.FlagSet, args []string) (arg string, code int, ok bool) {
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return "", parseExit(err), false
	}
	if len(pos) != 1 {
		fs.Usage()
		return "", exitUsage, false
	}
	return pos[0], exitOK, true
}

// varFlags are --var and --vars, the variable inputs of eval and plan.
type varFlags struct{ vars, files listFlag }

func addVarFlags(fs *flag.FlagSet) *varFlags {
	v := new(varFlags)
	fs.Var(&v.vars, "var", "set a variable: `name=value` (repeatable)")
	fs.Var(&v.files, "vars", "read variables from a JSON or YAML `file` (repeatable; later files win, --var wins over files)")
	return v
}

// inputs reads the --vars files in order, then the --var settings, so a
// setting wins over a file.
func (v *varFlags) inputs() (eval.Inputs, error) {
	var in eval.Inputs
	for _, f := range v.files {
		if err := in.AddVarsFile(f); err != nil {
			return eval.Inputs{}, err
		}
	}
	for _, s := range v.vars {
		if err := in.AddVar(s); err != nil {
			return eval.Inputs{}, err
		}
	}
	return in, nil
}
