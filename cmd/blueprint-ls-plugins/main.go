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
//
//	blueprint-ls-plugins transform [-launch-timeout D] [-call-timeout D] < request.json
//
// reads one transform request ({"target", "format", "blueprint"}),
// launches the transformer and writes what it made of the blueprint
// (pluginhost.Transformed) to standard output; it costs at most the
// launch timeout plus one call timeout.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/blueprint-ls/blueprint-ls/providers/pluginhost"
	"github.com/blueprint-ls/blueprint-ls/providers/pluginhost/framework"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] != "describe" && args[0] != "transform" {
		fmt.Fprintln(stderr, "usage: blueprint-ls-plugins describe|transform [-launch-timeout D] [-call-timeout D] < targets.json|request.json")
		return 2
	}
	fs := flag.NewFlagSet(args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	launch := fs.Duration("launch-timeout", pluginhost.DefaultLaunchTimeout, "how long a plugin may take to register")
	call := fs.Duration("call-timeout", pluginhost.DefaultCallTimeout, "how long a plugin may take to answer one question")
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	// Interrupted (its caller gave up), the plugins it launched are
	// killed before it exits.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	o := framework.Options{LaunchTimeout: *launch, CallTimeout: *call, Log: slog.New(slog.NewTextHandler(stderr, nil))}
	var out any
	if args[0] == "transform" {
		var req pluginhost.TransformRequest
		dec := json.NewDecoder(stdin)
		dec.UseNumber() // integers stay integers in the parameters
		if err := dec.Decode(&req); err != nil {
			fmt.Fprintln(stderr, "blueprint-ls-plugins: reading the request:", err)
			return 2
		}
		out = framework.Transform(ctx, req, o)
	} else {
		var targets []pluginhost.Target
		if err := json.NewDecoder(stdin).Decode(&targets); err != nil {
			fmt.Fprintln(stderr, "blueprint-ls-plugins: reading the targets:", err)
			return 2
		}
		out = framework.Describe(ctx, targets, o)
	}
	if err := json.NewEncoder(stdout).Encode(out); err != nil {
		fmt.Fprintln(stderr, "blueprint-ls-plugins:", err)
		return 1
	}
	return 0
}
