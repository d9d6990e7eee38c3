package main

import (
	"fmt"
	"io"
	"runtime/debug"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

func init() {
	register(command{name: "version", summary: "print the version", run: runVersion})
}

func runVersion(args []string, stdout, stderr io.Writer) int {
	v := version
	if v == "dev" {
		if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			v = bi.Main.Version
		}
	}
	fmt.Fprintf(stdout, "blueprint-ls %s\n", v)
	return exitOK
}
