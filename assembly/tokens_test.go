package assembly

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestScanTokens(t *testing.T) {
	tests := []struct {
		in     string
		refs   []string
		issues []string // "start-end escape|token"
	}{
		{"plain", nil, nil},
		{"${A.b}", []string{"A.b@0"}, nil},
		{"x ${A.output.name} y ${B/c.d}", []string{"A.output.name@2", "B/c.d@21"}, nil},
		{`\${A.b}`, nil, nil},
		{`\\${A.b}`, []string{"A.b@2"}, nil},
		{`a\b`, nil, []string{"1-3 escape"}},
		{`a\`, nil, []string{"1-2 escape"}},
		{`\é`, nil, []string{"0-3 escape"}},
		{"${A}", nil, []string{"0-4 token"}},
		{"${.b}", nil, []string{"0-5 token"}},
		{"${A.}", nil, []string{"0-5 token"}},
		{"${a b.c}", nil, []string{"0-8 token"}},
		{"x${A.b", nil, []string{"1-6 token"}},
	}
	for _, tt := range tests {
		refs, issues := scanTokens(tt.in)
		var gotRefs, gotIssues []string
		for _, r := range refs {
			gotRefs = append(gotRefs, r.ID+"."+r.Attribute+"@"+itoa(r.Start))
		}
		for _, is := range issues {
			kind := "token"
			if is.escape {
				kind = "escape"
			}
			gotIssues = append(gotIssues, itoa(is.start)+"-"+itoa(is.end)+" "+kind)
		}
		if diff := cmp.Diff(tt.refs, gotRefs); diff != "" {
			t.Errorf("%q refs (-want +got):\n%s", tt.in, diff)
		}
		if diff := cmp.Diff(tt.issues, gotIssues); diff != "" {
			t.Errorf("%q issues (-want +got):\n%s", tt.in, diff)
		}
	}
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var d []byte
	for ; n > 0; n /= 10 {
		d = append([]byte{byte('0' + n%10)}, d...)
	}
	return string(d)
}

func TestEscapeRoundTrip(t *testing.T) {
	for _, s := range []string{"", "plain", `C:\temp`, "${literal}", `\${`, `a\\b`, `$$ {} \ ${`} {
		e := Escape(s)
		refs, issues := scanTokens(e)
		if len(refs) != 0 || len(issues) != 0 {
			t.Errorf("Escape(%q) = %q reads as refs %v issues %v", s, e, refs, issues)
		}
		if got := Unescape(e); got != s {
			t.Errorf("Unescape(Escape(%q)) = %q", s, got)
		}
	}
}

func TestLogicalIDs(t *testing.T) {
	names := []string{"orders[0]", "orders[1]", "orders-0", "net.vpc", "my queue", "", "a[0].b", strings.Repeat("x", 300), "é"}
	got := LogicalIDs(names)
	want := []string{"orders-0-2", "orders-1", "orders-0", "net/vpc", "my-queue", "droplet", "a-0/b", strings.Repeat("x", 256), "-"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	for _, id := range got {
		if !ValidLogicalID(id) {
			t.Errorf("%q is not valid", id)
		}
	}
	if diff := cmp.Diff(got, LogicalIDs(names)); diff != "" {
		t.Errorf("not stable:\n%s", diff)
	}
}
