package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/blueprint-ls/blueprint-ls/lsp"
)

func init() {
	register(command{name: "serve", summary: "run the language server over stdio", run: runServe})
}

// runServe runs the language server on stdin/stdout. stdout carries the
// protocol and nothing else: the log goes to stderr or --log.
func runServe(args []string, _, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	logFile := fs.String("log", "", "write the log to `file` instead of stderr")
	logLevel := fs.String("log-level", "info", "log `level`: debug, info, warn or error")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: blueprint-ls serve [--log FILE] [--log-level LEVEL]")
		fmt.Fprintln(stderr, "\nRuns the language server, speaking LSP over stdin and stdout.")
		fs.PrintDefaults()
		fmt.Fprintln(stderr, "\nDocumentation: "+docsURL(commandDocs["serve"]))
	}
	if err := fs.Parse(args); err != nil {
		return parseExit(err)
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "blueprint-ls serve: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		fmt.Fprintf(stderr, "blueprint-ls serve: bad --log-level %q: %v\n", *logLevel, err)
		return exitUsage
	}
	var w io.Writer = stderr
	if *logFile != "" {
		f, err := os.OpenFile(*logFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			fmt.Fprintf(stderr, "blueprint-ls serve: %v\n", err)
			return exitUsage
		}
		defer f.Close()
		w = f
	}
	logger := slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: level}))
	slog.SetDefault(logger)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// The collector's pacing is the server's to hold during a large
	// open (lsp/gcpace.go) when the process is its own and the
	// environment does not set it.
	pace := processOwned && os.Getenv("GOGC") == "" && os.Getenv("GOMEMLIMIT") == ""
	code, err := lsp.Serve(ctx, stdio{}, lsp.Options{Logger: logger, Version: buildInfo().version, PaceCollector: pace})
	if err != nil {
		logger.Error("server stopped", "err", err)
	}
	return code
}

// stdio joins stdin and stdout into the stream the server speaks over.
type stdio struct{}

func (stdio) Read(p []byte) (int, error)  { return os.Stdin.Read(p) }
func (stdio) Write(p []byte) (int, error) { return os.Stdout.Write(p) }
func (stdio) Close() error {
	err := os.Stdin.Close()
	if err2 := os.Stdout.Close(); err == nil {
		err = err2
	}
	return err
}
