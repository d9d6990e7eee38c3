package project

import "testing"

func TestMatchGlob(t *testing.T) {
	tests := []struct {
		glob, path string
		want       bool
	}{
		{"vendor", "vendor/a.yaml", true},
		{"vendor", "x/vendor/a.yaml", true},
		{"vendor", "vendors/a.yaml", false},
		{"*.gen.yaml", "a/b/c.gen.yaml", true},
		{"infra/legacy", "infra/legacy/a.yaml", true},
		{"infra/legacy", "x/infra/legacy/a.yaml", false},
		{"/infra/*", "infra/a.yaml", true},
		{"apps/*/generated", "apps/web/generated/x/y.yaml", true},
		{"apps/**/gen.yaml", "apps/gen.yaml", true},
		{"apps/**/gen.yaml", "apps/a/b/gen.yaml", true},
		{"apps/**/gen.yaml", "apps/a/b/gen.yml", false},
		{"**", "anything/at/all", true},
		{"a?c", "abc", true},
		{"[ab]", "c", false},
	}
	for _, tt := range tests {
		if got := MatchGlob(tt.glob, tt.path); got != tt.want {
			t.Errorf("MatchGlob(%q, %q) = %v, want %v", tt.glob, tt.path, got, tt.want)
		}
	}
}

func TestValidGlob(t *testing.T) {
	for g, want := range map[string]bool{"a/**/b": true, "[": false, "a/[x/b": false, "/x/": true} {
		if got := ValidGlob(g); got != want {
			t.Errorf("ValidGlob(%q) = %v, want %v", g, got, want)
		}
	}
}
