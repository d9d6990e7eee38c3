package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/ProtonMail/go-crypto/openpgp"

	"github.com/blueprint-ls/blueprint-ls/assembly"
	"github.com/blueprint-ls/blueprint-ls/internal/safefs"
	"github.com/blueprint-ls/blueprint-ls/source"
)

func init() {
	register(command{name: "assembly", summary: "verify or inspect a Cloud Assembly (.cloud)", run: runAssembly})
}

func runAssembly(args []string, stdout, stderr io.Writer) int {
	usage := func(w io.Writer) {
		fmt.Fprintln(w, "Usage:")
		fmt.Fprintln(w, "  blueprint-ls assembly verify FILE.cloud [--require-signature] [--trusted-key FILE]...")
		fmt.Fprintln(w, "  blueprint-ls assembly inspect FILE.cloud [--format text|json] [--trusted-key FILE]...")
		fmt.Fprintln(w, "\nDocumentation: "+docsURL("assembly.md"))
	}
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	switch args[0] {
	case "verify":
		return runAssemblyCmd("verify", args[1:], stdout, stderr)
	case "inspect":
		return runAssemblyCmd("inspect", args[1:], stdout, stderr)
	case "-h", "-help", "--help", "help":
		usage(stdout)
		return exitOK
	}
	fmt.Fprintf(stderr, "blueprint-ls assembly: unknown subcommand %q\n", args[0])
	usage(stderr)
	return exitUsage
}

func runAssemblyCmd(name string, args []string, stdout, stderr io.Writer) int {
	usage := []string{fmt.Sprintf("Usage: blueprint-ls assembly %s FILE.cloud [flags]", name)}
	if name == "verify" {
		usage = append(usage,
			"\nChecks a Cloud Assembly: the manifest's schema, Logical IDs, references, escapes and",
			"cycles, every file against the signed attestation, and the signature.")
	} else {
		usage = append(usage, "\nVerifies a Cloud Assembly and prints its droplets in deployment order.")
	}
	usage = append(usage, "Exit status: 0 no errors, 1 errors found, 2 usage or I/O failure.")
	fs := newFlagSet("assembly "+name, stderr, usage...)
	var keys listFlag
	require := fs.Bool("require-signature", false, "fail unless the assembly is signed by a trusted key")
	fs.Var(&keys, "trusted-key", "verify signatures against the armored OpenPGP keys in `FILE` (repeatable)")
	format := fs.String("format", "text", "output `format`: text or json")
	path, exit, ok := parseOneArg(fs, args)
	if !ok {
		return exit
	}
	if *format != "text" && *format != "json" {
		fmt.Fprintf(stderr, "blueprint-ls assembly %s: unknown format %q (want text or json)\n", name, *format)
		return exitUsage
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "blueprint-ls assembly %s: %v\n", name, err)
		return exitUsage
	}
	var trusted openpgp.EntityList
	for _, k := range keys {
		ks, err := assembly.ReadKeyRing(k)
		if err != nil {
			return fail(err)
		}
		trusted = append(trusted, ks...)
	}
	data, err := safefs.ReadFile(path, assembly.MaxArchiveSize)
	if err != nil {
		return fail(err)
	}
	rep := assembly.VerifyBytes(data, assembly.VerifyOptions{RequireSignature: *require, TrustedKeys: trusted})
	code := exitOK
	if rep.HasErrors() {
		code = exitProblems
	}
	if name == "verify" {
		if *format == "json" {
			if err := writeAssemblyJSON(stdout, path, rep); err != nil {
				return fail(err)
			}
			return code
		}
		for _, p := range rep.Problems {
			fmt.Fprintln(stdout, formatProblem(path, rep, p))
		}
		if code == exitOK {
			fmt.Fprintf(stderr, "%s: ok (%s)\n", path, signatureState(rep))
		}
		return code
	}
	// inspect: problems go to stderr, the droplets to stdout.
	for _, p := range rep.Problems {
		if p.Severity <= source.Warning {
			fmt.Fprintln(stderr, formatProblem(path, rep, p))
		}
	}
	if rep.Manifest == nil {
		return exitProblems
	}
	stages, err := rep.Manifest.Order()
	if err != nil {
		fmt.Fprintf(stderr, "blueprint-ls assembly inspect: %v\n", err)
		return exitProblems
	}
	if *format == "json" {
		err = writeInspectJSON(stdout, rep, stages)
	} else {
		err = writeInspectText(stdout, path, rep, stages)
	}
	if err != nil {
		return fail(err)
	}
	return code
}

func signatureState(rep *assembly.Report) string {
	switch {
	case rep.Signer != "":
		return "signed by " + rep.Signer
	case rep.Signed:
		return "signed, signature not verified"
	}
	return "unsigned"
}

// formatProblem renders a problem as path!/entry:line:col: severity[code]: message (at JSONPATH).
func formatProblem(path string, rep *assembly.Report, p assembly.Problem) string {
	where := path
	if p.File != "" {
		where += "!/" + p.File
		if m := rep.Mappers[p.File]; m != nil {
			line, col := m.LineCol(p.Range.Start, source.UTF32)
			where += fmt.Sprintf(":%d:%d", line, col)
		}
	}
	msg := fmt.Sprintf("%s: %s[%s]: %s", where, p.Severity, p.Code, p.Message)
	if p.Path != "" {
		msg += " (at " + p.Path + ")"
	}
	for _, r := range p.Related {
		if m := rep.Mappers[p.File]; m != nil {
			line, col := m.LineCol(r.Range.Start, source.UTF32)
			msg += fmt.Sprintf("\n    %s!/%s:%d:%d: %s", path, p.File, line, col, r.Message)
		}
	}
	return msg
}

type assemblyJSONProblem struct {
	File     string `json:"file,omitempty"`
	Path     string `json:"path,omitempty"`
	Line     int    `json:"line,omitempty"`
	Column   int    `json:"column,omitempty"`
	Severity string `json:"severity"`
	Code     string `json:"code"`
	Message  string `json:"message"`
}

func writeAssemblyJSON(w io.Writer, path string, rep *assembly.Report) error {
	out := struct {
		Assembly string                `json:"assembly"`
		Signed   bool                  `json:"signed"`
		Signer   string                `json:"signer,omitempty"`
		Problems []assemblyJSONProblem `json:"problems"`
	}{Assembly: path, Signed: rep.Signed, Signer: rep.Signer, Problems: []assemblyJSONProblem{}}
	for _, p := range rep.Problems {
		jp := assemblyJSONProblem{File: p.File, Path: p.Path, Severity: p.Severity.String(), Code: p.Code, Message: p.Message}
		if m := rep.Mappers[p.File]; m != nil && p.File != "" {
			jp.Line, jp.Column = m.LineCol(p.Range.Start, source.UTF32)
		}
		out.Problems = append(out.Problems, jp)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func writeInspectText(w io.Writer, path string, rep *assembly.Report, stages []assembly.Stage) error {
	var b strings.Builder
	m := rep.Manifest
	fmt.Fprintf(&b, "%s: %d droplets, %s\n", path, len(m.Droplets), signatureState(rep))
	for i, s := range stages {
		fmt.Fprintf(&b, "\nStage %d:\n", i+1)
		for _, d := range s {
			fmt.Fprintf(&b, "  %s  %s  %s\n", d.ID, d.Type, d.Environment)
			if deps := m.Dependencies(d); len(deps) > 0 {
				fmt.Fprintf(&b, "      after: %s\n", strings.Join(deps, ", "))
			}
		}
	}
	if len(m.Missing) > 0 {
		b.WriteString("\nMissing context:\n")
		for _, ms := range m.Missing {
			fmt.Fprintf(&b, "  %s (provider %s)\n", ms.Key, ms.Provider)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeInspectJSON(w io.Writer, rep *assembly.Report, stages []assembly.Stage) error {
	type droplet struct {
		ID          string          `json:"id"`
		Stage       int             `json:"stage"`
		Type        string          `json:"type"`
		Environment string          `json:"environment"`
		DependsOn   []string        `json:"dependsOn"`
		Properties  json.RawMessage `json:"properties,omitempty"`
	}
	out := struct {
		Signed   bool      `json:"signed"`
		Signer   string    `json:"signer,omitempty"`
		Droplets []droplet `json:"droplets"`
		Missing  []string  `json:"missing,omitempty"`
	}{Signed: rep.Signed, Signer: rep.Signer, Droplets: []droplet{}}
	for i, s := range stages {
		for _, d := range s {
			deps := rep.Manifest.Dependencies(d)
			if deps == nil {
				deps = []string{}
			}
			out.Droplets = append(out.Droplets, droplet{ID: d.ID, Stage: i + 1, Type: d.Type, Environment: d.Environment, DependsOn: deps, Properties: d.Properties})
		}
	}
	for _, ms := range rep.Manifest.Missing {
		out.Missing = append(out.Missing, ms.Key)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
