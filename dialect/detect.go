package dialect

import (
	"bytes"
	"encoding/json"
	"path"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/internal/jsonscan"
)

// ConfigFileName is the project config's file name.
const ConfigFileName = ".blueprint-ls.yaml"

// manifestSchemaPrefix starts the top-level "schema" of a Cloud Assembly
// manifest.
const manifestSchemaPrefix = "cloud-assembly/"

// Detect decides the dialect of a document from its name (a path or URI;
// "" when it has none), the language the client calls it ("" for none)
// and its content. decided is false when the text broke off before its
// top level said which kind it is (being typed); a caller that has seen
// the document before keeps its previous verdict then, otherwise it
// takes the returned kind (Bluelink).
//
// The rules, in order: a file named .blueprint-ls.yaml is the project
// config; a JSON document whose top-level "schema" starts with
// "cloud-assembly/" is a manifest; a document whose top-level apiVersion
// starts with "landscaper.gardener.cloud/" and whose kind is Blueprint or
// InstallationTemplate is a Landscaper document, whatever its name (with
// no kind yet, or the start of one, undecided); a JSON object whose top
// level has typeName and properties (and no blueprint section) is a
// provider resource schema; a file
// named like a blueprint
// (blueprint.yaml, x.blueprint.json, ...) is one; so is a document whose
// top level is not a mapping with keys (empty, a scalar, a sequence: the
// blueprint's rules say what is wrong with it) or that has a key only a
// blueprint has (a section, transform, or a version that is a date).
// Any other mapping is of no known dialect.
func Detect(name, lang string, content []byte) (k Kind, decided bool) {
	base := baseName(name)
	if base == ConfigFileName {
		return Config, true
	}
	if IsLanguageName(base) {
		return Bluelink, true // only Bluelink blueprints are written in the blueprint language
	}
	var top topLevel
	jsonDoc := isJSON(base, lang)
	if jsonDoc || firstByte(content) == '{' {
		top = scanJSON(content)
	} else {
		top = scanYAML(content)
	}
	switch top.landscaper() {
	case landscaperKind:
		return Landscaper, true
	case landscaperTyping:
		return Landscaper, false // the kind is being typed
	}
	if (jsonDoc || firstByte(content) == '{') && top.typeName && top.properties && !top.evidence {
		return ProviderSchema, true
	}
	if jsonDoc {
		switch {
		case top.schemaSet && strings.HasPrefix(top.schema, manifestSchemaPrefix):
			return Manifest, true
		case !top.schemaSet && !top.complete:
			return Bluelink, false
		}
	}
	if IsBlueprintName(base) || !top.mapping || top.evidence {
		return Bluelink, true
	}
	if !top.complete {
		return Bluelink, false
	}
	if len(top.keys) == 0 {
		return Bluelink, true
	}
	return Unknown, true
}

// IsBlueprintName reports whether a file name marks a blueprint:
// blueprint.<ext> or <name>.blueprint.<ext> with ext yaml, yml, json or
// jsonc, or any blueprint-language name (IsLanguageName: project.bp,
// x.bp, x.blueprint). Discovery (check on a directory) looks for these
// names.
func IsBlueprintName(name string) bool {
	name = baseName(name)
	if IsLanguageName(name) {
		return true
	}
	ext := path.Ext(name)
	switch ext {
	case ".yaml", ".yml", ".json", ".jsonc":
	default:
		return false
	}
	stem := strings.TrimSuffix(name, ext)
	return stem == "blueprint" || strings.HasSuffix(stem, ".blueprint")
}

// IsLanguageName reports whether a file name is that of a
// blueprint-language document: extension .bp or .blueprint.
func IsLanguageName(name string) bool {
	switch strings.ToLower(path.Ext(baseName(name))) {
	case ".bp", ".blueprint":
		return true
	}
	return false
}

// baseName is the last element of a path or URI, without a query or
// fragment.
func baseName(name string) string {
	if i := strings.IndexAny(name, "?#"); i >= 0 {
		name = name[:i]
	}
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	return name
}

// isJSON says whether a document may be a manifest: a .json (or .jsonc)
// file, or any document the client calls JSON.
func isJSON(base, lang string) bool {
	switch strings.ToLower(lang) {
	case "json", "jsonc":
		return true
	}
	switch strings.ToLower(path.Ext(base)) {
	case ".json", ".jsonc":
		return true
	}
	return false
}

// topLevel is what a scan of a document's top level found.
type topLevel struct {
	mapping  bool     // the top level is a mapping (possibly still empty)
	keys     []string // its keys, as far as the scan got
	evidence bool     // a key only a blueprint has
	complete bool     // the scan reached the end of the top level

	typeName, properties bool // a resource schema's keys were found

	schemaSet bool // a string "schema" member was found (JSON only)
	schema    string

	apiVersion, kind string // the top-level apiVersion and kind (Kubernetes style)
}

// LandscaperGroup starts the apiVersion of every Landscaper document.
const LandscaperGroup = "landscaper.gardener.cloud/"

// LandscaperKinds are the kinds of Landscaper document this tool checks.
var LandscaperKinds = []string{"Blueprint", "InstallationTemplate"}

// What a top level's apiVersion and kind say about Landscaper.
const (
	notLandscaper    = iota
	landscaperKind   // a Landscaper group and one of LandscaperKinds
	landscaperTyping // a Landscaper group and no kind yet, or the start of one
)

// landscaper says whether the top level is a Landscaper blueprint's or
// installation template's.
func (t *topLevel) landscaper() int {
	if !strings.HasPrefix(t.apiVersion, LandscaperGroup) {
		return notLandscaper
	}
	for _, k := range LandscaperKinds {
		if t.kind == k {
			return landscaperKind
		}
	}
	if t.kind == "Installation" {
		return notLandscaper // a kind of its own, not the start of InstallationTemplate
	}
	for _, k := range LandscaperKinds {
		if strings.HasPrefix(k, t.kind) {
			return landscaperTyping
		}
	}
	// The apiVersion says Landscaper and the kind is one of ours
	// misspelled (Blueprnt, blueprint): a Landscaper document, whose
	// check reports the kind; other Landscaper kinds (Target, DataObject)
	// are none of ours.
	if _, ok := NearLandscaperKind(t.kind); ok {
		return landscaperKind
	}
	return notLandscaper
}

// NearLandscaperKind is the one of LandscaperKinds that kind, which is
// none of them, misspells: a different case, or a typo of at most a
// third of the letters (1 to 3 edits).
func NearLandscaperKind(kind string) (string, bool) {
	for _, k := range LandscaperKinds {
		if strings.EqualFold(k, kind) {
			return k, true
		}
	}
	best, bestD := "", 0
	for _, k := range LandscaperKinds {
		limit := min(max(len(k)/3, 1), 3)
		if d := editDistance(kind, k); d <= limit && (best == "" || d < bestD) {
			best, bestD = k, d
		}
	}
	return best, best != ""
}

// editDistance is the Levenshtein distance between a and b, in runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// note records a top-level key and its scalar value ("" when it has none
// or it is not a scalar).
func (t *topLevel) note(key, value string) {
	t.keys = append(t.keys, key)
	switch key {
	case "typeName":
		t.typeName = true
	case "properties":
		t.properties = true
	}
	switch key {
	case "apiVersion":
		t.apiVersion = value
	case "kind":
		t.kind = value
	}
	switch {
	case SectionOf(key) != NoSection, key == "transform":
		t.evidence = true
	case key == "version" && versionLike(value):
		t.evidence = true
	}
}

// versionLike reports whether a top-level version value is a blueprint's:
// a date (2023-04-20), or nothing yet. A Compose file's "3.8" is not.
func versionLike(v string) bool {
	if v == "" {
		return true
	}
	if len(v) < 5 || v[4] != '-' {
		return false
	}
	for _, c := range v[:4] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// firstByte is the first byte that is not white space, or 0.
func firstByte(b []byte) byte {
	b = bytes.TrimPrefix(b, utf8BOM)
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			return c
		}
	}
	return 0
}

// scanJSON reads the members of a top-level JSON object, skipping every
// value without decoding it, so a large document costs one pass over its
// bytes.
func scanJSON(content []byte) (t topLevel) {
	content = bytes.TrimPrefix(content, utf8BOM)
	i := jsonscan.Space(content, 0)
	if i >= len(content) {
		return topLevel{} // nothing typed yet
	}
	if content[i] != '{' {
		return topLevel{complete: true}
	}
	t.mapping = true
	i++
	for {
		i = jsonscan.Space(content, i)
		if i >= len(content) {
			return t
		}
		if content[i] == '}' {
			t.complete = true
			return t
		}
		if content[i] != '"' {
			return t
		}
		end := jsonscan.String(content, i)
		if end < 0 {
			return t
		}
		key, ok := jsonString(content[i:end])
		if !ok {
			return t
		}
		i = jsonscan.Space(content, end)
		if i >= len(content) || content[i] != ':' {
			return t
		}
		i = jsonscan.Space(content, i+1)
		if i >= len(content) {
			return t
		}
		value := ""
		if content[i] == '"' {
			end := jsonscan.String(content, i)
			if end < 0 {
				return t
			}
			if value, ok = jsonString(content[i:end]); !ok {
				return t
			}
			if key == "schema" && !t.schemaSet {
				t.schemaSet, t.schema = true, value
			}
			i = end
		} else if i = jsonscan.Value(content, i); i < 0 {
			return t
		}
		t.note(key, value)
		i = jsonscan.Space(content, i)
		switch {
		case i >= len(content):
			return t
		case content[i] == ',':
			i++
		case content[i] == '}':
			t.complete = true
			return t
		default:
			return t
		}
	}
}

// jsonString decodes the quoted JSON string q.
func jsonString(q []byte) (string, bool) {
	if bytes.IndexByte(q, '\\') < 0 {
		return string(q[1 : len(q)-1]), true
	}
	var v string
	return v, json.Unmarshal(q, &v) == nil
}

// scanYAML reads the keys of a top-level block mapping: the lines that
// start in column 0 with a key and a colon. A top level that starts with
// a sequence entry, a flow collection or a scalar is not a mapping.
func scanYAML(content []byte) (t topLevel) {
	content = bytes.TrimPrefix(content, utf8BOM)
	t.complete = true
	first := true
	for len(content) > 0 {
		line := content
		if i := bytes.IndexByte(content, '\n'); i >= 0 {
			line, content = content[:i], content[i+1:]
		} else {
			content = nil
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		switch c := line[0]; {
		case c == '#' || c == ' ' || c == '\t' || c == '%':
			continue
		case bytes.HasPrefix(line, []byte("---")) || bytes.HasPrefix(line, []byte("...")):
			continue
		}
		key, value, ok := yamlKey(line)
		if !ok {
			if first {
				return topLevel{complete: true} // a scalar, sequence or flow collection
			}
			continue
		}
		first = false
		t.mapping = true
		t.note(key, value)
		if t.evidence && t.apiVersion == "" {
			return t // a blueprint: only a Landscaper apiVersion could say otherwise
		}
	}
	return t
}

// yamlKey splits a column-0 line "key: value" into its key and its scalar
// value (unquoted, comment dropped).
func yamlKey(line []byte) (key, value string, ok bool) {
	s := string(line)
	switch s[0] {
	case '-', '[', '{', '?', '&', '*', '!', '|', '>':
		return "", "", false
	case '"', '\'':
		end := strings.IndexByte(s[1:], s[0])
		if end < 0 {
			return "", "", false
		}
		key, s = s[1:end+1], s[end+2:]
		s = strings.TrimLeft(s, " \t")
		if !strings.HasPrefix(s, ":") {
			return "", "", false
		}
		s = s[1:]
	default:
		i := strings.Index(s, ": ")
		if i < 0 {
			i = strings.Index(s, ":\t")
		}
		if i < 0 {
			if !strings.HasSuffix(s, ":") {
				return "", "", false
			}
			i = len(s) - 1
		}
		key, s = strings.TrimRight(s[:i], " \t"), s[i+1:]
	}
	if s != "" && s[0] != ' ' && s[0] != '\t' {
		return "", "", false
	}
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "#") {
		s = ""
	} else if i := strings.Index(s, " #"); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		s = s[1 : len(s)-1]
	}
	return key, s, true
}
