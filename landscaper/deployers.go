package landscaper

import (
	"embed"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// The provider configuration schemas of Landscaper's helm, manifest and
// container deployers, as published (apis/.schemes of gardener/landscaper,
// Apache-2.0; see THIRD_PARTY_NOTICES.md).
//
//go:embed schemas/deployer-helm-ProviderConfiguration.json schemas/manifest-v1alpha1-ProviderConfiguration.json schemas/manifest-v1alpha2-ProviderConfiguration.json schemas/container-v1alpha1-ProviderConfiguration.json
var deployerSchemaFS embed.FS

// deployerSchemas are the provider configuration schemas by deploy item
// type and configuration apiVersion.
var deployerSchemas = map[string]map[string]string{
	"landscaper.gardener.cloud/helm": {"helm.deployer.landscaper.gardener.cloud/v1alpha1": "deployer-helm-ProviderConfiguration.json"},
	"landscaper.gardener.cloud/kubernetes-manifest": {
		"manifest.deployer.landscaper.gardener.cloud/v1alpha1": "manifest-v1alpha1-ProviderConfiguration.json",
		"manifest.deployer.landscaper.gardener.cloud/v1alpha2": "manifest-v1alpha2-ProviderConfiguration.json",
	},
	"landscaper.gardener.cloud/container": {"container.deployer.landscaper.gardener.cloud/v1alpha1": "container-v1alpha1-ProviderConfiguration.json"},
}

var (
	deployerOnce  sync.Once
	deployerNodes map[string]*node // by file name
)

// deployerSchema is the decoded schema of a deploy item's configuration,
// or nil when it is of no deployer we know.
func deployerSchema(itemType, apiVersion string) *node {
	deployerOnce.Do(func() {
		deployerNodes = map[string]*node{}
		for _, versions := range deployerSchemas {
			for _, file := range versions {
				data, err := deployerSchemaFS.ReadFile("schemas/" + file)
				if err != nil {
					panic("landscaper: embedded deployer schema: " + err.Error())
				}
				var root node
				if err := json.Unmarshal(data, &root); err != nil {
					panic("landscaper: embedded deployer schema " + file + ": " + err.Error())
				}
				prepare(&root, root.Definitions, map[*node]bool{})
				deployerNodes[file] = &root
			}
		}
	})
	return deployerNodes[deployerSchemas[itemType][apiVersion]]
}

// checkDeployItems checks the configuration of each rendered deploy item
// of the helm, manifest and container deployers against its provider
// configuration schema: unknown fields (with did-you-mean) and values of
// the wrong type. Required fields are not asked for: the deployers'
// decoders take a configuration without them. Values render did not
// evaluate are not checked.
func checkDeployItems(items []any) []string {
	var out []string
	for i, it := range items {
		m, _ := it.(map[string]any)
		t, _ := m["type"].(string)
		cfg, _ := m["config"].(map[string]any)
		av, _ := cfg["apiVersion"].(string)
		s := deployerSchema(t, av)
		if s == nil {
			continue
		}
		name, _ := m["name"].(string)
		if name == "" {
			name = fmt.Sprint(i)
		}
		for _, msg := range checkValue(cfg, s, "") {
			out = append(out, fmt.Sprintf("deploy item %q: config%s", name, msg))
		}
	}
	return out
}

// checkValue walks v against s and words each problem with its path.
func checkValue(v any, s *node, at string) []string {
	if s == nil || v == nil || s.Format == "byte" {
		return nil // format byte: a json.RawMessage in Go, any JSON
	}
	if str, ok := v.(string); ok && strings.HasPrefix(str, unknownPrefix) {
		return nil
	}
	if len(s.types) > 0 && !valueHasType(v, s.types) {
		return []string{fmt.Sprintf("%s: expected %s, found %s", at, typeList(s.types), valueKind(v))}
	}
	var out []string
	switch v := v.(type) {
	case map[string]any:
		for _, k := range sortedKeys(v) {
			p := s.Properties[k]
			if p == nil {
				p = s.AdditionalProperties
			}
			if p == nil && s.Properties != nil {
				msg := fmt.Sprintf("%s: unknown field %q", at, k)
				if near := source.Closest(k, s.keys); len(near) > 0 {
					msg += fmt.Sprintf("; did you mean %q?", near[0])
				}
				out = append(out, msg)
				continue
			}
			out = append(out, checkValue(v[k], p, at+"."+k)...)
		}
	case []any:
		for i, x := range v {
			out = append(out, checkValue(x, s.Items, fmt.Sprintf("%s[%d]", at, i))...)
		}
	}
	return out
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sortStrings(keys)
	return keys
}

// valueHasType reports whether v is one of the JSON types.
func valueHasType(v any, types []string) bool {
	k := valueKind(v)
	for _, t := range types {
		switch {
		case t == "object" && k == "a mapping", t == "array" && k == "a list", t == "string" && k == "a string",
			t == "boolean" && k == "a boolean", (t == "number" || t == "integer") && k == "a number":
			return true
		}
	}
	return false
}

// valueKind names what v is, for messages.
func valueKind(v any) string {
	switch v.(type) {
	case map[string]any:
		return "a mapping"
	case []any:
		return "a list"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case json.Number, float64, int64:
		return "a number"
	}
	return "null"
}
