package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/blueprint-ls/blueprint-ls/rules"
)

func init() {
	register(command{name: "rules", summary: "list the best-practice and security rules", run: runRules})
}

func runRules(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("rules", stderr,
		"Usage: blueprint-ls rules [--format text|json|markdown]",
		"\nLists every built-in rule check runs over the evaluated blueprint: its id,",
		"set, default severity, resource types and the equivalent AWS Config / Guard",
		"rules registry identifiers. docs/rules.md is the markdown form.")
	format := fs.String("format", "text", "output `format`: text, json or markdown")
	if err := fs.Parse(args); err != nil {
		return parseExit(err)
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "blueprint-ls rules: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	var err error
	switch *format {
	case "json":
		_, err = stdout.Write(rules.JSON())
	case "markdown":
		_, err = io.WriteString(stdout, rules.Markdown())
	case "text":
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "RULE\tSET\tSEVERITY\tEQUIVALENTS\tTITLE")
		for _, e := range rules.Entries() {
			eq := strings.Join(e.Equivalents, ",")
			if eq == "" {
				eq = "-"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", e.ID, e.Set, e.Severity, eq, e.Title)
		}
		err = tw.Flush()
	default:
		fmt.Fprintf(stderr, "blueprint-ls rules: unknown format %q (want text, json or markdown)\n", *format)
		return exitUsage
	}
	if err != nil {
		fmt.Fprintf(stderr, "blueprint-ls rules: %v\n", err)
		return exitUsage
	}
	return exitOK
}
