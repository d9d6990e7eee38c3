package ide

import (
	"path/filepath"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/blueprint-ls/blueprint-ls/analysis"
)

// where renders a location as file:text@offset for comparisons.
func where(l Location) string {
	text := string(l.Mapper.Content()[l.Range.Start:l.Range.End])
	return filepath.Base(l.URI) + ":" + text + "@" + itoa(l.Range.Start)
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	neg := i < 0
	if neg {
		i = -i
	}
	var b []byte
	for i > 0 {
		b = append([]byte{byte('0' + i%10)}, b...)
		i /= 10
	}
	if neg {
		return "-" + string(b)
	}
	return string(b)
}

func wheres(ls []Location) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = where(l)
	}
	sort.Strings(out)
	return out
}

func TestDefinition(t *testing.T) {
	src := basicSource(t)
	res := analyze(t, "basic.yaml", src)
	tests := []struct {
		name     string
		at       string
		n, delta int
		want     string // text of the definition key
		wantOff  int
	}{
		{"variable reference", "variables.environment}", 0, 12, "environment", offsetOf(t, src, "environment:", 0, 0)},
		{"value reference", "values.prefix}", 0, 8, "prefix", offsetOf(t, src, "prefix:", 0, 0)},
		{"bare resource", "table.spec.tableName}", 0, 1, "table", offsetOf(t, src, "table:", 0, 0)},
		{"dependsOn", "[table]", 0, 2, "table", offsetOf(t, src, "table:", 0, 0)},
		{"export field", "resources.table.spec.tableName\n", 0, 11, "table", offsetOf(t, src, "table:", 0, 0)},
		{"definition itself", "prefix:", 0, 1, "prefix", offsetOf(t, src, "prefix:", 0, 0)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			locs := Definition(res, offsetOf(t, src, tc.at, tc.n, tc.delta))
			if len(locs) != 1 {
				t.Fatalf("got %d locations", len(locs))
			}
			if got := text(res, locs[0].Range); got != tc.want || locs[0].Range.Start != tc.wantOff {
				t.Errorf("got %q at %d, want %q at %d", got, locs[0].Range.Start, tc.want, tc.wantOff)
			}
		})
	}
}

func TestDefinitionAcrossFiles(t *testing.T) {
	parent := analyzeFile(t, "parent.yaml")
	src := string(parent.File.Content())
	tests := []struct {
		name  string
		at    string
		delta int
		want  string
	}{
		{"child export", "children.core.queueUrl}", 16, "child.yaml:queueUrl@"},
		{"child in reference", "children.core.queueUrl}", 10, "parent.yaml:core@"},
		{"include variables key", "stage:", 1, "child.yaml:stage@"},
		{"include path", "./child.yaml", 3, "child.yaml:@0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			locs := Definition(parent, offsetOf(t, src, tc.at, 0, tc.delta))
			if len(locs) != 1 {
				t.Fatalf("got %d locations", len(locs))
			}
			got := where(locs[0])
			if len(got) < len(tc.want) || got[:len(tc.want)] != tc.want {
				t.Errorf("got %s, want %s...", got, tc.want)
			}
		})
	}
}

func TestReferences(t *testing.T) {
	src := basicSource(t)
	res := analyze(t, "basic.yaml", src)
	got := wheres(References(res, offsetOf(t, src, "table:", 0, 1), true, nil))
	want := []string{
		"basic.yaml:table@" + itoa(offsetOf(t, src, "table:", 0, 0)),
		"basic.yaml:table@" + itoa(offsetOf(t, src, "[table]", 0, 1)),
		"basic.yaml:table@" + itoa(offsetOf(t, src, "${table.spec", 0, 2)),
		"basic.yaml:table@" + itoa(offsetOf(t, src, "resources.table.spec.tableName\n", 0, 10)),
	}
	sort.Strings(want)
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("references (-want +got):\n%s", d)
	}
	if n := len(References(res, offsetOf(t, src, "table:", 0, 1), false, nil)); n != 3 {
		t.Errorf("without declaration: %d", n)
	}
	hl := DocumentHighlight(res, offsetOf(t, src, "variables.environment}", 0, 12))
	writes := 0
	for _, h := range hl {
		if h.Kind == HighlightWrite {
			writes++
		}
	}
	if len(hl) != 4 || writes != 1 {
		t.Errorf("highlights %v", hl)
	}
}

func TestReferencesAcrossFiles(t *testing.T) {
	parent := analyzeFile(t, "parent.yaml")
	child := parent.Children["core"].Result
	csrc := string(child.File.Content())
	// From the child's export: the parent's children.core.queueUrl uses.
	got := wheres(References(child, offsetOf(t, csrc, "queueUrl:", 0, 1), true, []*analysis.Result{parent}))
	if len(got) != 3 {
		t.Fatalf("export references: %v", got)
	}
	// From the child's variable: the include's variables key.
	got = wheres(References(child, offsetOf(t, csrc, "stage:", 0, 1), false, []*analysis.Result{parent}))
	psrc := string(parent.File.Content())
	want := []string{
		"child.yaml:stage@" + itoa(offsetOf(t, csrc, "variables.stage", 0, 10)),
		"parent.yaml:stage@" + itoa(offsetOf(t, psrc, "stage:", 0, 0)),
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("variable references (-want +got):\n%s", d)
	}
}
