// Command testreport condenses `go test -json` for CI logs: the package
// lines go test prints (ok, FAIL, build errors), the whole output of every
// failed test, every skipped test with the reason it gave, and a closing
// count ("go: N passed, M failed, K skipped"). scripts/test.sh pipes the
// test run through it; it exits 1 when a test or a build failed.
//
//	go test -json ./... | go run ./internal/testreport
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
)

// event is one line of `go test -json` (cmd/test2json).
type event struct {
	Action     string
	Package    string
	ImportPath string // build-output and build-fail events
	Test       string
	Output     string
}

func main() {
	os.Exit(report(os.Stdin, os.Stdout))
}

type key struct{ pkg, test string }

func report(r io.Reader, w io.Writer) int {
	var passed, failed, skipped int
	var skips []string
	out := map[key]*strings.Builder{}
	broken := false
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			fmt.Fprintln(w, sc.Text()) // not an event: go vet or a crash; show it as is
			continue
		}
		k := key{e.Package, e.Test}
		switch e.Action {
		case "build-output":
			fmt.Fprint(w, e.Output)
		case "build-fail":
			broken = true
		case "output":
			if e.Test == "" {
				if e.Output != "PASS\n" && e.Output != "FAIL\n" {
					fmt.Fprint(w, e.Output)
				}
				continue
			}
			if out[k] == nil {
				out[k] = &strings.Builder{}
			}
			out[k].WriteString(e.Output)
		case "pass":
			if e.Test != "" {
				passed++
			}
			delete(out, k)
		case "fail":
			if e.Test == "" {
				broken = true
				continue
			}
			failed++
			fmt.Fprintf(w, "--- FAIL: %s %s\n", e.Package, e.Test)
			if b := out[k]; b != nil {
				fmt.Fprint(w, b.String())
			}
			delete(out, k)
		case "skip":
			if e.Test == "" {
				continue // a package without tests
			}
			skipped++
			skips = append(skips, fmt.Sprintf("SKIP %s %s: %s", e.Package, e.Test, skipReason(out[k])))
			delete(out, k)
		}
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintf(w, "testreport: reading go test output: %v\n", err)
		broken = true
	}
	if len(skips) > 0 {
		fmt.Fprintf(w, "skipped tests (%d):\n", len(skips))
		for _, s := range skips {
			fmt.Fprintln(w, "  "+s)
		}
	}
	fmt.Fprintf(w, "go: %d passed, %d failed, %d skipped\n", passed, failed, skipped)
	if failed > 0 || broken {
		return 1
	}
	return 0
}

// skipReason is what a skipped test logged, without go test's own lines.
func skipReason(b *strings.Builder) string {
	if b == nil {
		return "(no reason given)"
	}
	var parts []string
	for _, l := range strings.Split(b.String(), "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "=== ") || strings.HasPrefix(l, "--- SKIP") {
			continue
		}
		parts = append(parts, l)
	}
	if len(parts) == 0 {
		return "(no reason given)"
	}
	return strings.Join(parts, " ")
}
