// Command gen rebuilds the built-in resource type catalog from a folder
// of CloudFormation resource schemas or a .tar.gz of them, and the AWS
// service spec package (@aws-cdk/aws-service-spec) for documentation
// and the types the schema set does not have yet:
//
//	go run ./internal/catalog/gen -src us-east-1-all.tar.gz -spec aws-service-spec.tgz -out builtin/catalog
//
// (from providers/registry; go generate runs it on the shared copy).
// Every *.json member with a typeName of three ::-separated segments
// becomes one type, its JSON compacted; others (cfn-lint's generic
// "Module") are left out. The output is deterministic.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/providers/registry"
	"github.com/blueprint-ls/blueprint-ls/providers/registry/internal/catalog"
)

func main() {
	src := flag.String("src", "", "folder of resource schema *.json files, or a .tar.gz of them")
	svc := flag.String("spec", "", "the @aws-cdk/aws-service-spec package: its unpacked folder or the .tgz npm pack writes")
	out := flag.String("out", "builtin/catalog", "folder to write index.tsv, dict.bin and data.bin to")
	flag.Parse()
	if *src == "" || *svc == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: gen -src DIR|FILE.tar.gz -spec DIR|FILE.tgz [-out DIR]")
		fmt.Fprintln(os.Stderr, "  get the service spec with: npm pack @aws-cdk/aws-service-spec (in a temporary folder)")
		os.Exit(2)
	}
	st, err := run(*src, *svc, *out)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	fmt.Printf("gen: %d resource types written to %s (%d from the schema set, %d more from service spec %s; %d documented)\n",
		st.types, *out, st.schemas, st.specOnly, st.specVersion, st.documented)
}

// stats says what a run wrote.
type stats struct {
	types, schemas, specOnly, documented int
	specVersion                          string
}

// run reads both sources completely before writing anything, so a bad
// input leaves the catalog as it was.
func run(src, svc, out string) (stats, error) {
	var st stats
	docs, err := readSource(src)
	if err != nil {
		return st, err
	}
	records, err := Records(docs)
	if err != nil {
		return st, err
	}
	sp, err := readSpec(svc)
	if err != nil {
		return st, err
	}
	st.schemas = len(records)
	if records, err = sp.merge(records); err != nil {
		return st, err
	}
	st.types, st.specOnly, st.specVersion = len(records), len(records)-st.schemas, sp.Version
	for _, r := range records {
		if r.Doc != nil {
			st.documented++
		}
	}
	schemas := make([][]byte, len(records))
	for i, r := range records {
		schemas[i] = r.Schema
	}
	dict := catalog.Dictionary(schemas, 32<<10)
	index, data, err := catalog.Build(records, dict)
	if err != nil {
		return st, err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return st, err
	}
	for name, b := range map[string][]byte{"index.tsv": index, "dict.bin": dict, "data.bin": data} {
		if err := os.WriteFile(filepath.Join(out, name), b, 0o644); err != nil {
			return st, err
		}
	}
	return st, nil
}

// merge adds each schema's documentation record and a synthesized schema
// for every type only the service spec knows.
func (s *spec) merge(records []catalog.Record) ([]catalog.Record, error) {
	have := map[string]bool{}
	for i := range records {
		r := &records[i]
		have[r.TypeName] = true
		sr := s.Resources[r.TypeName]
		if sr == nil {
			continue
		}
		var schema map[string]any
		if err := json.Unmarshal(r.Schema, &schema); err != nil {
			return nil, fmt.Errorf("%s: %w", r.TypeName, err)
		}
		doc, err := s.documentType(schema, sr)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", r.TypeName, err)
		}
		r.Doc = doc
	}
	for _, tn := range sortedKeys(s.Resources) {
		if have[tn] {
			continue
		}
		sr := s.Resources[tn]
		if sr.CloudFormationTransform != "" {
			continue // AWS::Serverless::*: input to a CloudFormation macro, not a resource type
		}
		schema, err := s.synthesize(sr)
		if err != nil {
			return nil, fmt.Errorf("service spec %s: %w", tn, err)
		}
		data, err := json.Marshal(schema)
		if err != nil {
			return nil, fmt.Errorf("service spec %s: %w", tn, err)
		}
		// Round-trip so the walker sees the same shapes as for a schema
		// read from a file.
		var generic map[string]any
		_ = json.Unmarshal(data, &generic)
		doc, err := s.documentType(generic, sr)
		if err != nil {
			return nil, fmt.Errorf("service spec %s: %w", tn, err)
		}
		records = append(records, catalog.Record{Name: registry.ResourceTypeName(tn), TypeName: tn, Schema: data, Doc: doc})
	}
	return records, nil
}

// Records turns schema documents (file name → content) into catalog
// records.
func Records(docs map[string][]byte) ([]catalog.Record, error) {
	var out []catalog.Record
	var errs []error
	for file, data := range docs {
		var head struct {
			TypeName string `json:"typeName"`
		}
		if err := json.Unmarshal(data, &head); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", file, err))
			continue
		}
		if strings.Count(head.TypeName, "::") != 2 {
			continue
		}
		var buf bytes.Buffer
		if err := json.Compact(&buf, data); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", file, err))
			continue
		}
		out = append(out, catalog.Record{Name: registry.ResourceTypeName(head.TypeName), TypeName: head.TypeName, Schema: buf.Bytes()})
	}
	if len(out) == 0 && len(errs) == 0 {
		errs = append(errs, errors.New("no resource schemas found"))
	}
	return out, errors.Join(errs...)
}

func readSource(src string) (map[string][]byte, error) {
	docs := map[string][]byte{}
	if isTarGz(src) {
		return readTarGz(src, func(name string) bool { return strings.HasSuffix(name, ".json") })
	}
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") {
			return err
		}
		data, err := os.ReadFile(p)
		docs[p] = data
		return err
	})
	return docs, err
}
