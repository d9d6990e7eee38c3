package main

import (
	"strings"
	"testing"
)

func TestReport(t *testing.T) {
	in := strings.Join([]string{
		`{"Action":"start","Package":"p"}`,
		`{"Action":"run","Package":"p","Test":"TestA"}`,
		`{"Action":"output","Package":"p","Test":"TestA","Output":"=== RUN   TestA\n"}`,
		`{"Action":"pass","Package":"p","Test":"TestA"}`,
		`{"Action":"run","Package":"p","Test":"TestB"}`,
		`{"Action":"output","Package":"p","Test":"TestB","Output":"=== RUN   TestB\n"}`,
		`{"Action":"output","Package":"p","Test":"TestB","Output":"    b_test.go:9: shared data absent: ../shared/x\n"}`,
		`{"Action":"output","Package":"p","Test":"TestB","Output":"--- SKIP: TestB (0.00s)\n"}`,
		`{"Action":"skip","Package":"p","Test":"TestB"}`,
		`{"Action":"run","Package":"p","Test":"TestC/sub"}`,
		`{"Action":"output","Package":"p","Test":"TestC/sub","Output":"    c_test.go:3: got 1, want 2\n"}`,
		`{"Action":"fail","Package":"p","Test":"TestC/sub"}`,
		`{"Action":"output","Package":"p","Output":"PASS\n"}`,
		`{"Action":"output","Package":"p","Output":"ok  \tp\t0.1s\n"}`,
		`{"Action":"pass","Package":"p"}`,
		`{"Action":"skip","Package":"q"}`,
		`not json`,
	}, "\n")
	var out strings.Builder
	code := report(strings.NewReader(in), &out)
	want := "--- FAIL: p TestC/sub\n    c_test.go:3: got 1, want 2\n" +
		"ok  \tp\t0.1s\n" +
		"not json\n" +
		"skipped tests (1):\n  SKIP p TestB: b_test.go:9: shared data absent: ../shared/x\n" +
		"go: 1 passed, 1 failed, 1 skipped\n"
	if code != 1 || out.String() != want {
		t.Errorf("exit %d, output:\n%s\nwant:\n%s", code, out.String(), want)
	}
	out.Reset()
	if code := report(strings.NewReader(`{"Action":"build-output","ImportPath":"p","Output":"p.go:1: bad\n"}`+"\n"+`{"Action":"build-fail","ImportPath":"p"}`), &out); code != 1 || !strings.Contains(out.String(), "p.go:1: bad") {
		t.Errorf("build failure: exit %d, output:\n%s", code, out.String())
	}
}
