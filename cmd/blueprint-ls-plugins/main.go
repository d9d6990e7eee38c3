// Command blueprint-ls-plugins is blueprint-ls's plugin host: the one
// program that links the official Bluelink plugin framework (gRPC), run
// by blueprint-ls only when plugins are turned on, so that blueprint-ls
// starts as fast without plugins as before them.
//
//	blueprint-ls-plugins describe [-launch-timeout D] [-call-timeout D] < targets.json
//
// reads a JSON array of plugin executables ({"path", "id", "version"}),
// launches each with the host's plugin service, and writes to standard
// output a JSON array of what each offers in blueprint-ls's registry
// formats, or why it could not say (package providers/pluginhost). Each
// plugin costs at most its launch timeout plus one call timeout per
// question. Its progress goes to standard error.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/blueprint-ls/blueprint-ls/providers/pluginhost"
	"github.com/blueprint-ls/blueprint-ls/providers/pluginhost/framework"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] != "describe" {
		fmt.Fprintln(stderr, "usage: blueprint-ls-plugins describe [-launch-timeout D] [-call-timeout D] < targets.json")
		return 2
	}
	fs := flag.NewFlagSet("describe", flag.ContinueOnError)
	fs.SetOutput(stderr)
	launch := fs.Duration("launch-timeout", pluginhost.DefaultLaunchTimeout, "how long a plugin may take to register")
	call := fs.Duration("call-timeout", pluginhost.DefaultCallTimeout, "how long a plugin may take to answer one question")
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	var targets []pluginhost.Target
	if err := json.NewDecoder(stdin).Decode(&targets); err != nil {
		fmt.Fprintln(stderr, "blueprint-ls-plugins: reading the targets:", err)
		return 2
	}
	log := slog.New(slog.NewTextHandler(stderr, nil))
	out := framework.Describe(context.Background(), targets, framework.Options{LaunchTimeout: *launch, CallTimeout: *call, Log: log})
	if err := json.NewEncoder(stdout).Encode(out); err != nil {
		fmt.Fprintln(stderr, "blueprint-ls-plugins:", err)
		return 1
	}
	return 0
}
