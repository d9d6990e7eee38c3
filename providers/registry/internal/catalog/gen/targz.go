package main

import (
	"archive/tar"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"strings"
)

// isTarGz reports whether src names a gzipped tar archive (the shared
// schema set, or the .tgz `npm pack` writes).
func isTarGz(src string) bool {
	return strings.HasSuffix(src, ".tar.gz") || strings.HasSuffix(src, ".tgz")
}

// readTarGz returns the regular files of the archive src whose names keep
// accepts, by name.
func readTarGz(src string, keep func(name string) bool) (map[string][]byte, error) {
	f, err := os.Open(src)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", src, err)
	}
	files := map[string][]byte{}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return files, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", src, err)
		}
		if h.Typeflag != tar.TypeReg || !keep(h.Name) {
			continue
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", src, h.Name, err)
		}
		files[h.Name] = data
	}
}
