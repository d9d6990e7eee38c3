package blueprintls

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// helixLanguageKeys and helixServerKeys are the keys Helix documents for
// a [[language]] entry and a [language-server.NAME] table
// (docs.helix-editor.com/languages.html, Helix 25.01).
var (
	helixLanguageKeys = map[string]bool{
		"name": true, "language-id": true, "scope": true, "injection-regex": true, "file-types": true,
		"shebangs": true, "roots": true, "auto-format": true, "comment-token": true, "comment-tokens": true,
		"block-comment-tokens": true, "indent": true, "grammar": true, "formatter": true, "soft-wrap": true,
		"text-width": true, "rulers": true, "workspace-lsp-roots": true, "language-servers": true,
		"auto-pairs": true, "persistent-diagnostic-sources": true, "debugger": true,
	}
	helixServerKeys = map[string]bool{
		"command": true, "args": true, "config": true, "timeout": true, "environment": true, "required-root-patterns": true,
	}
)

// The Helix configuration (editors/helix/languages.toml) uses only the
// keys Helix documents, names its own languages (never "blueprint" or
// "source.blueprint": Helix's built-in GNOME Blueprint), covers YAML,
// JSON and the blueprint language, and is what docs/editors.md shows.
// editors/helix/test/run.sh checks it in a real Helix.
func TestHelixConfig(t *testing.T) {
	b, err := os.ReadFile("editors/helix/languages.toml")
	if err != nil {
		t.Fatal(err)
	}
	conf := string(b)
	table := ""
	var names, scopes []string
	servers := 0
	for i, line := range strings.Split(conf, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case line == "[[language]]":
			table = "language"
		case strings.HasPrefix(line, "[language-server.") && strings.HasSuffix(line, "]"):
			table = "server"
			servers++
		case strings.HasPrefix(line, "["):
			t.Errorf("line %d: table %s is not one of languages.toml's", i+1, line)
		default:
			key, value, ok := strings.Cut(line, " = ")
			allowed := map[string]map[string]bool{"language": helixLanguageKeys, "server": helixServerKeys}[table]
			if !ok || !allowed[key] {
				t.Errorf("line %d: %q is not a documented key of a %s", i+1, key, table)
			}
			if key == "name" {
				names = append(names, strings.Trim(value, `"`))
			}
			if key == "scope" {
				scopes = append(scopes, strings.Trim(value, `"`))
			}
		}
	}
	if got := strings.Join(names, ","); got != "bluelink-yaml,bluelink-json,bluelink-lang" || servers != 1 {
		t.Errorf("languages %s, %d servers", got, servers)
	}
	for _, s := range scopes {
		if s == "source.blueprint" || !strings.HasPrefix(s, "source.bluelink.") {
			t.Errorf("scope %s", s)
		}
	}
	for _, glob := range []string{`"*.blueprint.yaml"`, `"*.blueprint.json"`, `"*.bp"`, `"*.blueprint"`} {
		if !strings.Contains(conf, "{ glob = "+glob+" }") {
			t.Errorf("no file type %s", glob)
		}
	}
	docs, err := os.ReadFile("docs/editors.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)### Helix\n.*?```toml\n(.*?)```").FindSubmatch(docs)
	if m == nil || string(m[1]) != conf {
		t.Errorf("docs/editors.md does not show editors/helix/languages.toml as it is")
	}
}
