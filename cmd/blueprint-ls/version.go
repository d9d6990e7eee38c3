package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	blueprintls "github.com/blueprint-ls/blueprint-ls"
)

// Build stamps, set by the release build (see .goreleaser.yaml):
//
//	-ldflags "-X main.version=1.2.3 -X main.commit=abc1234 -X main.date=2026-01-02T03:04:05Z"
//
// A plain `go build` or `go install` leaves them empty and buildInfo fills
// them from what the Go toolchain recorded.
var version, commit, date string

// buildStamp is what `version` prints.
type buildStamp struct{ version, commit, date string }

// buildInfo returns the stamps set by -ldflags, each missing one taken from
// the module and VCS information the toolchain embedded (`go install
// ...@v1.2.3` records the version; a build in a git checkout records the
// revision and its time), else "unknown" (the version: "dev").
func buildInfo() buildStamp {
	b := buildStamp{version: version, commit: commit, date: date}
	if bi, ok := debug.ReadBuildInfo(); ok {
		if b.version == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			b.version = bi.Main.Version
		}
		modified := false
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				if b.commit == "" {
					b.commit = s.Value
				}
			case "vcs.time":
				if b.date == "" {
					b.date = s.Value
				}
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
		if modified && commit == "" && b.commit != "" {
			b.commit += "-dirty"
		}
	}
	if b.version == "" {
		b.version = "dev"
	}
	if b.commit == "" {
		b.commit = "unknown"
	}
	if b.date == "" {
		b.date = "unknown"
	}
	return b
}

func init() {
	register(command{name: "version", summary: "print the version, commit and build date (--notices: third-party notices)", run: runVersion})
}

func runVersion(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("version", stderr,
		"Usage: blueprint-ls version [--notices | --license]",
		"\nPrints the version, the commit and the date of the build.")
	notices := fs.Bool("notices", false, "print the licences and notices of the third-party code and data in the binary")
	license := fs.Bool("license", false, "print the licence of blueprint-ls (Apache-2.0)")
	if err := fs.Parse(args); err != nil {
		return parseExit(err)
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "blueprint-ls version: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	switch {
	case *notices:
		io.WriteString(stdout, blueprintls.Notices)
	case *license:
		io.WriteString(stdout, blueprintls.License)
	default:
		b := buildInfo()
		fmt.Fprintf(stdout, "blueprint-ls %s\ncommit: %s\nbuilt:  %s\ngo:     %s %s/%s\n", b.version, b.commit, b.date, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	}
	return exitOK
}
