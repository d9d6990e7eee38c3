package main

import (
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// schemaValidator checks a JSON value against a JSON Schema (draft-04),
// implementing the keywords the SARIF 2.1.0 schema uses: $ref (local),
// type, properties, additionalProperties, required, enum, items, anyOf,
// oneOf, minimum, maximum, minItems, uniqueItems, pattern and format
// (uri, uri-reference, date-time). Others (description, default, title)
// are annotations. An unknown keyword fails, so the subset cannot silently
// fall behind the schema.
type schemaValidator struct {
	root map[string]any
	errs []string
}

var annotationKeywords = map[string]bool{"$schema": true, "id": true, "title": true, "description": true, "default": true, "definitions": true}

func (v *schemaValidator) fail(path, format string, args ...any) {
	v.errs = append(v.errs, path+": "+fmt.Sprintf(format, args...))
}

func (v *schemaValidator) resolve(ref string) map[string]any {
	name, ok := strings.CutPrefix(ref, "#/definitions/")
	if !ok {
		panic("unsupported $ref " + ref)
	}
	return v.root["definitions"].(map[string]any)[name].(map[string]any)
}

// validate reports whether x satisfies s; failures are recorded in v.errs
// (the caller of anyOf/oneOf branches uses a scratch validator).
func (v *schemaValidator) validate(s map[string]any, x any, path string) {
	if ref, ok := s["$ref"].(string); ok {
		v.validate(v.resolve(ref), x, path)
		return
	}
	keys := make([]string, 0, len(s))
	for k := range s {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		kw := s[k]
		switch k {
		case "type":
			if !hasType(kw, x) {
				v.fail(path, "type %v wanted, got %T", kw, x)
				return
			}
		case "properties", "additionalProperties", "required":
			obj, ok := x.(map[string]any)
			if !ok {
				continue
			}
			switch k {
			case "properties":
				for name, sub := range kw.(map[string]any) {
					if val, ok := obj[name]; ok {
						v.validate(sub.(map[string]any), val, path+"/"+name)
					}
				}
			case "additionalProperties":
				props, _ := s["properties"].(map[string]any)
				for name, val := range obj {
					if _, declared := props[name]; declared {
						continue
					}
					switch ap := kw.(type) {
					case bool:
						if !ap {
							v.fail(path, "property %q is not allowed", name)
						}
					case map[string]any:
						v.validate(ap, val, path+"/"+name)
					}
				}
			case "required":
				for _, name := range kw.([]any) {
					if _, ok := obj[name.(string)]; !ok {
						v.fail(path, "required property %q missing", name)
					}
				}
			}
		case "enum":
			found := false
			for _, e := range kw.([]any) {
				if jsonEqual(e, x) {
					found = true
				}
			}
			if !found {
				v.fail(path, "%v is not one of %v", x, kw)
			}
		case "items", "minItems", "uniqueItems":
			arr, ok := x.([]any)
			if !ok {
				continue
			}
			switch k {
			case "items":
				for i, it := range arr {
					v.validate(kw.(map[string]any), it, fmt.Sprintf("%s/%d", path, i))
				}
			case "minItems":
				if float64(len(arr)) < kw.(float64) {
					v.fail(path, "fewer than %v items", kw)
				}
			case "uniqueItems":
				for i := range arr {
					for j := i + 1; j < len(arr); j++ {
						if kw.(bool) && jsonEqual(arr[i], arr[j]) {
							v.fail(path, "items %d and %d are equal", i, j)
						}
					}
				}
			}
		case "minimum", "maximum":
			n, ok := x.(float64)
			if !ok {
				continue
			}
			if k == "minimum" && n < kw.(float64) || k == "maximum" && n > kw.(float64) {
				v.fail(path, "%v is out of range (%s %v)", n, k, kw)
			}
		case "pattern":
			if str, ok := x.(string); ok && !regexp.MustCompile(kw.(string)).MatchString(str) {
				v.fail(path, "%q does not match %s", str, kw)
			}
		case "format":
			str, ok := x.(string)
			if !ok {
				continue
			}
			switch kw {
			case "uri":
				if u, err := url.Parse(str); err != nil || !u.IsAbs() {
					v.fail(path, "%q is not an absolute URI", str)
				}
			case "uri-reference":
				if _, err := url.Parse(str); err != nil {
					v.fail(path, "%q is not a URI reference", str)
				}
			case "date-time":
			default:
				panic("unsupported format " + kw.(string))
			}
		case "anyOf", "oneOf":
			matched := 0
			for _, sub := range kw.([]any) {
				scratch := &schemaValidator{root: v.root}
				scratch.validate(sub.(map[string]any), x, path)
				if len(scratch.errs) == 0 {
					matched++
				}
			}
			if matched == 0 || k == "oneOf" && matched > 1 {
				v.fail(path, "%s matched %d alternatives", k, matched)
			}
		default:
			if !annotationKeywords[k] {
				panic("unsupported schema keyword " + k)
			}
		}
	}
}

func hasType(t any, x any) bool {
	if list, ok := t.([]any); ok {
		for _, e := range list {
			if hasType(e, x) {
				return true
			}
		}
		return false
	}
	switch t {
	case "object":
		_, ok := x.(map[string]any)
		return ok
	case "array":
		_, ok := x.([]any)
		return ok
	case "string":
		_, ok := x.(string)
		return ok
	case "boolean":
		_, ok := x.(bool)
		return ok
	case "number":
		_, ok := x.(float64)
		return ok
	case "integer":
		n, ok := x.(float64)
		return ok && n == math.Trunc(n)
	case "null":
		return x == nil
	}
	panic(fmt.Sprintf("unsupported type %v", t))
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

func loadSARIFSchema(t *testing.T) map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "sarif", "sarif-2.1.0-rtm.5.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s map[string]any
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	return s
}

func validateSARIF(t *testing.T, schema map[string]any, doc []byte) []string {
	t.Helper()
	var x any
	if err := json.Unmarshal(doc, &x); err != nil {
		t.Fatalf("SARIF output is not JSON: %v", err)
	}
	v := &schemaValidator{root: schema}
	v.validate(schema, x, "")
	return v.errs
}

// TestSARIFValidatesAgainstSchema checks the SARIF output for the invalid
// examples (every result kind: related locations, fixes, notes) and for an
// unreadable file against the official SARIF 2.1.0 schema.
func TestSARIFValidatesAgainstSchema(t *testing.T) {
	schema := loadSARIFSchema(t)
	root := filepath.Join("..", "..")
	t.Chdir(root)
	code, out, errs := runArgs("check", "--format", "sarif", "--severity-threshold", "hint", "testdata/examples/invalid", "testdata/examples/valid")
	if code != exitProblems {
		t.Fatalf("exit %d, want 1\n%s", code, errs)
	}
	for _, e := range validateSARIF(t, schema, []byte(out)) {
		t.Error(e)
	}
	var log sarifLog
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatal(err)
	}
	res := log.Runs[0].Results
	var fixes, related int
	for _, r := range res {
		fixes += len(r.Fixes)
		related += len(r.RelatedLocations)
		if got := log.Runs[0].Tool.Driver.Rules[r.RuleIndex].ID; got != r.RuleID {
			t.Errorf("result %s points at rule %s", r.RuleID, got)
		}
	}
	if len(res) < 40 || fixes == 0 || related == 0 {
		t.Errorf("SARIF run too thin to prove much: %d results, %d fixes, %d related", len(res), fixes, related)
	}
}

// TestSARIFValidatorRejects proves the validator can fail: each mutation
// breaks one rule of the schema.
func TestSARIFValidatorRejects(t *testing.T) {
	schema := loadSARIFSchema(t)
	good := `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[{"message":{"text":"m"},"level":"error","locations":[{"physicalLocation":{"artifactLocation":{"uri":"a.yaml"},"region":{"startLine":1,"startColumn":1}}}]}]}]}`
	if errs := validateSARIF(t, schema, []byte(good)); len(errs) > 0 {
		t.Fatalf("minimal log rejected: %v", errs)
	}
	bad := map[string]string{
		"wrong version":      strings.Replace(good, `"2.1.0"`, `"2.0.0"`, 1),
		"level not in enum":  strings.Replace(good, `"error"`, `"fatal"`, 1),
		"line zero":          strings.Replace(good, `"startLine":1`, `"startLine":0`, 1),
		"unknown property":   strings.Replace(good, `"level"`, `"severity"`, 1),
		"missing driver":     strings.Replace(good, `"driver":{"name":"x"}`, `"x":{}`, 1),
		"message not object": strings.Replace(good, `{"text":"m"}`, `"m"`, 1),
		"column not integer": strings.Replace(good, `"startColumn":1`, `"startColumn":1.5`, 1),
	}
	for name, doc := range bad {
		t.Run(name, func(t *testing.T) {
			if errs := validateSARIF(t, schema, []byte(doc)); len(errs) == 0 {
				t.Errorf("accepted:\n%s", doc)
			}
		})
	}
}
