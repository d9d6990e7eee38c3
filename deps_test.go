package blueprintls_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/blueprint-ls/blueprint-ls"

// layers orders the packages lowest first: a package may import only
// packages of a lower rank. Siblings of one layer (funcs and
// providers/registry; eval and engine) get ranks in the order written, so
// the later may import the earlier but not the reverse. A package missing
// from the table fails the test: place it deliberately.
var layers = map[string]int{
	".":                                   0, // the licence and notices texts: embed only
	"source":                              0,
	"dialect":                             5, // which kind of document a text is, and each kind's section table: standard library only
	"syntax":                              8, // the position-exact YAML/JSON/JSONC tree and its parsers: source and the YAML library only
	"bplang":                              9, // the blueprint language front end: builds the syntax tree; source, dialect and syntax only
	"bplang/internal/bpref":               9, // the blueprint language's parser before issue 36, frozen: the oracle of bplang's differential tests
	"internal/parsetest":                  9, // the splice tests' helpers (random edits, tree comparison): syntax only
	"internal/gen":                        0, // benchmark input generator: standard library only
	"internal/slab":                       0, // values carved from blocks, for the parsers and movers: standard library only
	"internal/chunked":                    0, // a vector versions share by chunks, for analysis: standard library only
	"internal/testutil":                   0, // test helpers: standard library and go-cmp only
	"internal/jsonscan":                   0, // skips JSON text by offset (dialect detection, the server's didOpen): standard library only
	"internal/safefs":                     0, // the one place files named by checked content are opened: standard library only
	"internal/testreport":                 0, // condenses go test -json for CI logs: standard library only
	"types":                               10,
	"subst":                               20,
	"funcs":                               30,
	"providers/registry/internal/catalog": 28, // the compressed catalog format: standard library only
	"providers/resschema":                 29, // the meta-schema check of resource schemas: source, syntax and the JSON Schema library
	"providers/registry":                  31,
	"providers/registry/internal/catalog/gen":  32, // go generate: rebuilds the embedded catalog
	"providers/pluginhost":                     33, // the official Bluelink plugins behind the registry: discovery, cache, the helper run; never the framework
	"providers/pluginhost/framework":           34, // the plugin host proper: launches plugins and talks gRPC with the official plugin framework
	"providers/pluginhost/internal/testplugin": 34, // a provider plugin built with the framework's SDK, for the host's tests
	"schema":            40,
	"format":            45, // formatting: schema trees and subst printing
	"convert":           46, // a blueprint in another format (bp, YAML, JSON): syntax trees, bplang's emitter
	"analysis":          50,
	"landscaper":        51, // Landscaper blueprints (check, editor features, render): a sibling of analysis over source, syntax, dialect and safefs
	"project":           55, // .blueprint-ls.yaml and inline suppressions: syntax, dialect and source only
	"deployconfig":      56, // the deploy configuration (bluelink.deploy.jsonc, app.deploy.jsonc): found upward, read through safefs into funcs values
	"eval":              60,
	"engine":            61,
	"assembly":          62, // Cloud Assembly export and verification: may import engine, eval
	"internal/plantest": 62, // test helpers over the plan engine (what a blueprint means): engine, eval
	"rules":             63, // best-practice and security rules over the evaluated blueprint: eval, analysis, project
	"rules/policy":      64, // the project's Rego policies over the same input: rules, and OPA alone imports
	"ide":               65,
	"lsp":               70,
	"cmd/blueprint-ls":  80,

	"cmd/blueprint-ls-plugins": 80, // the plugin host's executable: the only binary linking the plugin framework

	"cmd/lspbench": 80, // benchmark driver: runs language servers as processes over stdio; internal/gen only
}

// external says which packages may import an external module path prefix.
var external = map[string][]string{
	"go.lsp.dev/":         {"lsp"},
	"go.yaml.in/yaml":     {"syntax", "landscaper"}, // landscaper: render's output and toYaml (encoding only)
	"gopkg.in/yaml":       {"syntax"},
	"github.com/goccy/go": {"syntax"},
	"golang.org/x/term":   {"cmd/blueprint-ls"},
	// Test-only (the scan reads non-test files): the JSON Schema tests of
	// cmd/blueprint-ls validate with an independent implementation.
	// providers/resschema validates resource schemas against the
	// meta-schema with it.
	"github.com/santhosh-tekuri/jsonschema": {"cmd/blueprint-ls", "providers/resschema", "landscaper"},
	// Landscaper's GoTemplate executions run with sprig's functions.
	"github.com/Masterminds/sprig": {"landscaper"},
	// The project's own Rego policies run with Open Policy Agent.
	"github.com/open-policy-agent/opa": {"rules/policy"},
	// The official Bluelink plugins are launched and spoken to with the
	// official plugin framework (gRPC), and nowhere else.
	// blueprint-ls itself never links them (startup time): they live in
	// the blueprint-ls-plugins executable.
	"github.com/newstack-cloud/bluelink/": {"providers/pluginhost/framework", "providers/pluginhost/internal/testplugin"},
	"google.golang.org/grpc":              {"providers/pluginhost/framework"},
}

// packageImports returns, for every package directory of the module, the
// imports of its non-test Go files.
func packageImports(t *testing.T) map[string]map[string]bool {
	t.Helper()
	pkgs := map[string]map[string]bool{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch name := d.Name(); {
			case path != "." && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "node_modules" || name == "editors"):
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		dir := filepath.ToSlash(filepath.Dir(path))
		if pkgs[dir] == nil {
			pkgs[dir] = map[string]bool{}
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			pkgs[dir][p] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return pkgs
}

func TestImportDirection(t *testing.T) {
	if _, err := os.Stat("go.mod"); err != nil {
		t.Skip("not at the module root")
	}
	pkgs := packageImports(t)
	if !pkgs["schema"][module+"/source"] || !pkgs["cmd/blueprint-ls"][module+"/schema"] {
		t.Fatalf("import scan found too little (schema → source, cmd → schema missing): %v", pkgs)
	}
	for dir, imports := range pkgs {
		rank, ok := layers[dir]
		if !ok {
			t.Errorf("package %s is not in the layer table of deps_test.go", dir)
			continue
		}
		for imp := range imports {
			if imp == module {
				imp = module + "/."
			}
			if rel, ok := strings.CutPrefix(imp, module+"/"); ok {
				r, known := layers[rel]
				switch {
				case !known:
					t.Errorf("%s imports %s, which is not in the layer table", dir, rel)
				case r >= rank:
					t.Errorf("%s imports %s: imports must point down (source → types → subst → funcs, providers/registry → schema → analysis → eval, engine → lsp → cmd/blueprint-ls)", dir, rel)
				}
				continue
			}
			for prefix, allowed := range external {
				if strings.HasPrefix(imp, prefix) && !contains(allowed, dir) {
					t.Errorf("%s imports %s: only %s may", dir, imp, strings.Join(allowed, ", "))
				}
			}
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestSectionKeysInOneTable keeps the blueprint's section keys in package
// dialect's table: no other non-test file of the module spells the
// section-only keys "datasources" or "resources" as a Go string literal
// (internal/gen writes test documents and is exempt). The keys shared with
// nested fields (variables, exports) are kept honest by review.
func TestSectionKeysInOneTable(t *testing.T) {
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch name := d.Name(); {
			case path != "." && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules" || name == "editors"):
				return filepath.SkipDir
			}
			return nil
		}
		dir := filepath.ToSlash(filepath.Dir(path))
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || dir == "dialect" || dir == "internal/gen" {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		text := string(src)
		for _, key := range []string{`"datasources"`, `"resources"`} {
			for from := 0; ; {
				i := strings.Index(text[from:], key)
				if i < 0 {
					break
				}
				i += from
				from = i + len(key)
				l := strings.TrimSpace(lineAt(text, i))
				if strings.HasPrefix(l, "//") || strings.Contains(l, "`json:") {
					continue // documentation, or a JSON field of another format
				}
				t.Errorf("%s:%d: section key %s outside dialect's table (use dialect.Section)", path, 1+strings.Count(text[:i], "\n"), key)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// lineAt returns the line of s holding offset i.
func lineAt(s string, i int) string {
	start := strings.LastIndexByte(s[:i], '\n') + 1
	end := strings.IndexByte(s[i:], '\n')
	if end < 0 {
		return s[start:]
	}
	return s[start : i+end]
}
