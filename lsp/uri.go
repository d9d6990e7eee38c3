package lsp

import (
	"path/filepath"
	"strings"

	"go.lsp.dev/uri"
)

// canonicalURI returns the key under which a document is stored. Clients
// spell the same file differently (`file:///C%3A/x` and `file:///c:/x`,
// `%7E` and `~`); go.lsp.dev/uri normalises percent-encoding and the
// drive-letter case the way vscode-uri does. A string that does not parse
// is used as given so a strange URI still names exactly one document.
func canonicalURI(s string) string {
	u, err := uri.Parse(s)
	if err != nil || u.IsZero() {
		return s
	}
	return string(u)
}

// uriPath returns the file-system path of a file URI, or "" for other
// schemes.
func uriPath(s string) string {
	if s == "" {
		return ""
	}
	u, err := uri.Parse(s)
	if err != nil || !strings.EqualFold(u.Scheme(), "file") {
		return ""
	}
	return u.FsPath()
}

// fileURI turns what analysis uses as a document's name into a URI: a
// child blueprint loaded from disk is named by its file path.
func fileURI(name string) string {
	if filepath.IsAbs(name) {
		return string(uri.File(name))
	}
	return name
}
