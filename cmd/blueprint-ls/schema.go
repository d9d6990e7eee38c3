package main

import (
	"fmt"
	"io"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/schema"
)

func init() {
	register(command{name: "schema", summary: "print the JSON Schema of blueprint files (for editors without blueprint-ls)", run: runSchema})
}

func runSchema(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("schema", stderr,
		"Usage: blueprint-ls schema [--format json-schema]",
		"\nPrints the JSON Schema (draft-07) of blueprint files, generated from the",
		"field table the checker uses, with the built-in providers' resource and",
		"data source types as examples. The repository publishes it as",
		"schemas/blueprint.schema.json.")
	format := fs.String("format", "json-schema", "output `format`: json-schema")
	if err := fs.Parse(args); err != nil {
		return parseExit(err)
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "blueprint-ls schema: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	if *format != "json-schema" {
		fmt.Fprintf(stderr, "blueprint-ls schema: unknown format %q (want json-schema)\n", *format)
		return exitUsage
	}
	if _, err := stdout.Write(blueprintJSONSchema()); err != nil {
		fmt.Fprintf(stderr, "blueprint-ls schema: %v\n", err)
		return exitUsage
	}
	return exitOK
}

// blueprintJSONSchema is the schema with the built-in registry's type names.
func blueprintJSONSchema() []byte {
	reg := analysis.BuiltinRegistry()
	return schema.JSONSchema(schema.JSONSchemaOptions{
		ResourceTypes:   reg.ResourceTypeNames(),
		DataSourceTypes: reg.DataSourceTypeNames(),
	})
}
