// Command gen rebuilds the built-in resource type catalog from a folder
// of CloudFormation resource schemas or a .tar.gz of them:
//
//	go run ./internal/catalog/gen -src us-east-1-all.tar.gz -out builtin/catalog
//
// (from providers/registry; go generate runs it on the shared copy).
// Every *.json member with a typeName of three ::-separated segments
// becomes one type, its JSON compacted; others (cfn-lint's generic
// "Module") are left out. The output is deterministic.
package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/providers/registry"
	"github.com/blueprint-ls/blueprint-ls/providers/registry/internal/catalog"
)

func main() {
	src := flag.String("src", "", "folder of resource schema *.json files, or a .tar.gz of them")
	out := flag.String("out", "builtin/catalog", "folder to write index.tsv, dict.bin and data.bin to")
	flag.Parse()
	if *src == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: gen -src DIR|FILE.tar.gz [-out DIR]")
		os.Exit(2)
	}
	n, err := run(*src, *out)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	fmt.Printf("gen: %d resource types written to %s\n", n, *out)
}

func run(src, out string) (int, error) {
	docs, err := readSource(src)
	if err != nil {
		return 0, err
	}
	records, err := Records(docs)
	if err != nil {
		return 0, err
	}
	schemas := make([][]byte, len(records))
	for i, r := range records {
		schemas[i] = r.Schema
	}
	dict := catalog.Dictionary(schemas, 32<<10)
	index, data, err := catalog.Build(records, dict)
	if err != nil {
		return 0, err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return 0, err
	}
	for name, b := range map[string][]byte{"index.tsv": index, "dict.bin": dict, "data.bin": data} {
		if err := os.WriteFile(filepath.Join(out, name), b, 0o644); err != nil {
			return 0, err
		}
	}
	return len(records), nil
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
	if strings.HasSuffix(src, ".tar.gz") || strings.HasSuffix(src, ".tgz") {
		f, err := os.Open(src)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		zr, err := gzip.NewReader(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", src, err)
		}
		tr := tar.NewReader(zr)
		for {
			h, err := tr.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				return nil, fmt.Errorf("%s: %w", src, err)
			}
			if h.Typeflag != tar.TypeReg || !strings.HasSuffix(h.Name, ".json") {
				continue
			}
			data, err := io.ReadAll(tr)
			if err != nil {
				return nil, fmt.Errorf("%s: %s: %w", src, h.Name, err)
			}
			docs[h.Name] = data
		}
		return docs, nil
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
