package lsp

import (
	"bytes"
	"encoding/json"
	"path"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/assembly"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// An open JSON document whose top-level "schema" member starts with
// manifestSchemaPrefix is a Cloud Assembly manifest, whatever its name: it
// is checked with assembly.CheckManifest instead of blueprint analysis,
// and gets only the features the syntax tree supports (folding, document
// symbols, formatting). Every other document is a blueprint.
const manifestSchemaPrefix = "cloud-assembly/"

// manifestSource is the "source" of a manifest's diagnostics.
const manifestSource = "cloud-assembly"

// manifestCheck is a manifest's checked form: the Manifest (nil when the
// content is not a JSON object) and its problems as diagnostics.
type manifestCheck struct {
	manifest    *assembly.Manifest
	diagnostics []source.Diagnostic
}

// checkManifest runs assembly.CheckManifest; every problem it finds is in
// the manifest itself, so its range is an offset into content.
func checkManifest(content []byte) *manifestCheck {
	m, problems := assembly.CheckManifest(content)
	ds := make([]source.Diagnostic, len(problems))
	for i, p := range problems {
		ds[i] = p.Diagnostic
	}
	return &manifestCheck{manifest: m, diagnostics: ds}
}

// isJSONDocument says whether a document may be a manifest: a .json (or
// .jsonc) file, or any document the client calls JSON.
func isJSONDocument(uri, lang string) bool {
	switch strings.ToLower(lang) {
	case "json", "jsonc":
		return true
	}
	u := uri
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	switch strings.ToLower(path.Ext(u)) {
	case ".json", ".jsonc":
		return true
	}
	return false
}

// manifestVerdict is what the content of a JSON document says about it.
type manifestVerdict int

const (
	notManifest manifestVerdict = iota
	isManifest
	// undecided: the text broke off before the top level said either
	// way (being typed); the document's previous verdict stands.
	undecided
)

// detectManifest scans the top level of a JSON object for a "schema"
// member, skipping every other member's value without decoding it, so a
// large blueprint costs one pass over its bytes and no allocation.
func detectManifest(content []byte) manifestVerdict {
	i := skipJSONSpace(content, 0)
	if i >= len(content) {
		return undecided
	}
	if content[i] != '{' {
		return notManifest
	}
	i++
	for {
		i = skipJSONSpace(content, i)
		if i >= len(content) {
			return undecided
		}
		if content[i] == '}' {
			return notManifest
		}
		if content[i] != '"' {
			return undecided
		}
		end := skipJSONString(content, i)
		if end < 0 {
			return undecided
		}
		key := content[i:end]
		i = skipJSONSpace(content, end)
		if i >= len(content) || content[i] != ':' {
			return undecided
		}
		i = skipJSONSpace(content, i+1)
		if i >= len(content) {
			return undecided
		}
		if jsonStringIs(key, "schema") {
			if content[i] != '"' {
				return notManifest
			}
			end := skipJSONString(content, i)
			if end < 0 {
				return undecided
			}
			var v string
			if json.Unmarshal(content[i:end], &v) != nil {
				return undecided
			}
			if strings.HasPrefix(v, manifestSchemaPrefix) {
				return isManifest
			}
			return notManifest
		}
		if i = skipJSONValue(content, i); i < 0 {
			return undecided
		}
		i = skipJSONSpace(content, i)
		switch {
		case i >= len(content):
			return undecided
		case content[i] == ',':
			i++
		case content[i] == '}':
			return notManifest
		default:
			return undecided
		}
	}
}

// jsonStringIs reports whether the quoted JSON string q decodes to s.
func jsonStringIs(q []byte, s string) bool {
	if bytes.IndexByte(q, '\\') < 0 {
		return len(q) == len(s)+2 && string(q[1:len(q)-1]) == s
	}
	var v string
	return json.Unmarshal(q, &v) == nil && v == s
}

func skipJSONSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipJSONString returns the offset after the string starting at b[i]
// (a '"'), or -1 when it is not terminated on its line.
func skipJSONString(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		case '\n':
			return -1
		}
	}
	return -1
}

// skipJSONValue returns the offset after the value starting at b[i], or
// -1 when the text ends first. Scalars end at a delimiter; objects and
// arrays at their matching bracket, strings inside them skipped whole.
func skipJSONValue(b []byte, i int) int {
	switch b[i] {
	case '"':
		return skipJSONString(b, i)
	case '{', '[':
		depth := 0
		for ; i < len(b); i++ {
			switch b[i] {
			case '"':
				end := skipJSONString(b, i)
				if end < 0 {
					return -1
				}
				i = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
		}
		return -1
	}
	for ; i < len(b); i++ {
		switch b[i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return i
		}
	}
	return -1
}
