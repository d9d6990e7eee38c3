package schema_test

import (
	"slices"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/schema"
)

// TestPadPointsFormats: each format's points, as the name (or, without
// an extension, the content) decides it.
func TestPadPointsFormats(t *testing.T) {
	const yaml = "resources:\n  a:\n    type: x\n"
	const bp = "resource a: aws/s3/bucket {\n}\n"
	const json = "{\"resources\": {\"a\":\n  {\"type\": \"x\"}}}\n"
	for _, c := range []struct {
		uri, content string
		want         []int
	}{
		{"file:///b.yaml", yaml, []int{15}},
		{"file:///b.yml", yaml, []int{15}},
		{"file:///b", yaml, []int{15}},
		{"file:///b.bp", bp, []int{27}},
		{"file:///b.blueprint", bp, []int{27}},
		{"file:///b.json", yaml, nil},
		{"file:///b.jsonc", json, nil},
		{"file:///b", json, nil},
		{"file:///b.yaml", bp, nil},
	} {
		if got := schema.PadPoints(schema.Parse(c.uri, []byte(c.content))); !slices.Equal(got, c.want) {
			t.Errorf("%s %q: %v, want %v", c.uri, c.content, got, c.want)
		}
	}
}
