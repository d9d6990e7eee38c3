package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/blueprint-ls/blueprint-ls/convert"
	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/internal/safefs"
	"github.com/blueprint-ls/blueprint-ls/schema"
)

func init() {
	register(command{name: "convert", summary: "write a blueprint in another format (bp, yaml, json)", run: runConvert})
}

func runConvert(args []string, stdout, stderr io.Writer) int {
	flags := newFlagSet("convert", stderr,
		"Usage: blueprint-ls convert FILE --to bp|yaml|json [-o OUT]",
		"\nWrites the blueprint in FILE (the blueprint language, YAML, JSON or",
		"JSONC) in another format: the blueprint language (bp), YAML or JSON.",
		"Comments are kept where the target can hold them (bp and YAML); the",
		"meaning is kept exactly. Without -o the result is printed.",
		"Exit status: 0 success, 1 the blueprint has syntax errors or holds",
		"something the target cannot say, 2 usage or I/O errors.")
	to := flags.String("to", "", "the target format: bp, yaml or json")
	out := flags.String("o", "", "write the result to this `file` instead of printing it")
	// The file may come before the flags (convert app.yaml --to bp).
	var file string
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		file, args = args[0], args[1:]
	}
	if err := flags.Parse(args); err != nil {
		return parseExit(err)
	}
	if file == "" && flags.NArg() > 0 {
		file = flags.Arg(0)
	} else if flags.NArg() > 0 {
		fmt.Fprintf(stderr, "blueprint-ls convert: one file at a time (%q is extra)\n", flags.Arg(0))
		return exitUsage
	}
	target, ok := convert.ParseFormat(*to)
	if file == "" || !ok {
		if *to != "" && !ok {
			fmt.Fprintf(stderr, "blueprint-ls convert: --to must be bp, yaml or json, not %q\n", *to)
		}
		flags.Usage()
		return exitUsage
	}
	content, err := safefs.ReadFile(file, safefs.DefaultDocumentLimit)
	if err != nil {
		fmt.Fprintf(stderr, "blueprint-ls convert: %v\n", err)
		return exitUsage
	}
	if k, _ := dialect.Detect(file, "", content); k != dialect.Bluelink {
		fmt.Fprintln(stderr, notBlueprint(file, k))
		return exitProblems
	}
	res, err := convert.To(schema.Parse(file, content), target)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", file, err)
		return exitProblems
	}
	if *out == "" {
		if _, err := stdout.Write(res); err != nil {
			return exitUsage
		}
		return exitOK
	}
	write := writeAtomic // an existing file is replaced whole or not at all
	if _, err := os.Lstat(*out); errors.Is(err, fs.ErrNotExist) {
		write = func(path string, data []byte) error { return os.WriteFile(path, data, 0o644) }
	}
	if err := write(*out, res); err != nil {
		fmt.Fprintf(stderr, "blueprint-ls convert: %v\n", err)
		return exitUsage
	}
	return exitOK
}
