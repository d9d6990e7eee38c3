package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/assembly"
	"github.com/blueprint-ls/blueprint-ls/engine"
	"github.com/blueprint-ls/blueprint-ls/eval"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// planOut holds the flags with which plan exports a Cloud Assembly
// (docs/assembly.md).
type planOut struct {
	out, environment, signKey *string
}

func addPlanOutFlags(fs *flag.FlagSet) *planOut {
	return &planOut{
		out:         fs.String("out", "", "also write the plan as a Cloud Assembly to `FILE` (.cloud)"),
		environment: fs.String("environment", "", "with --out: the droplets' `environment` (aws://ACCOUNT/REGION); default the blueprint's metadata.environment"),
		signKey:     fs.String("sign-key", "", "with --out: sign the assembly with the armored OpenPGP private key in `FILE`"),
	}
}

// absorb drops the missing-variable errors when exporting: an input that
// was not supplied becomes an entry of the manifest's missing section.
func (o *planOut) absorb(diags []source.Diagnostic) []source.Diagnostic {
	if *o.out == "" {
		return diags
	}
	var kept []source.Diagnostic
	for _, d := range diags {
		if d.Code != eval.CodeMissingVariable.ID {
			kept = append(kept, d)
		}
	}
	return kept
}

// write exports p (planned from the file at path with the inputs in) when
// --out is set.
func (o *planOut) write(path string, content []byte, in eval.Inputs, p *engine.Plan) error {
	if *o.out == "" {
		return nil
	}
	opts := assembly.WriteOptions{Environment: *o.environment}
	if *o.signKey != "" {
		keys, err := assembly.ReadKeyRing(*o.signKey)
		if err != nil {
			return err
		}
		opts.SignKeys = keys
	}
	// The materialised blueprint for blueprint.json, the missing section
	// and metadata.environment: evaluated as PlanFile evaluates it.
	ctx := context.Background()
	res := analysis.Analyze(ctx, schema.Parse(path, content), analysis.Options{Path: path, Loader: analysis.NewLoader(nil, analysis.Options{}), Roots: cliRoots(path)})
	if res.Blueprint != nil {
		bp, err := eval.Eval(ctx, res, in, eval.Options{})
		if err != nil {
			return err
		}
		opts.Blueprint = bp
	}
	var buf bytes.Buffer
	if err := assembly.Write(&buf, p, opts); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(*o.out), ".plan-*.cloud")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(buf.Bytes()); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), *o.out); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("writing %s: %w", *o.out, err)
	}
	return nil
}
