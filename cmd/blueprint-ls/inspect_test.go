package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestInspectSubst(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"inspect", "subst", "arn:${trim(values.x)}"}, &out, &errb); code != exitOK {
		t.Fatalf("exit %d, stderr %s", code, errb.String())
	}
	var got struct {
		Pure  bool
		Parts []struct {
			Kind  string
			Range [2]int
			Pos   string
			Expr  *struct{ Kind, Name string }
		}
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if got.Pure || len(got.Parts) != 2 || got.Parts[1].Kind != "Sub" || got.Parts[1].Range != [2]int{4, 21} ||
		got.Parts[1].Pos != "1:5-1:22" || got.Parts[1].Expr.Kind != "Call" || got.Parts[1].Expr.Name != "trim" {
		t.Errorf("unexpected output:\n%s", out.String())
	}
	if errb.Len() != 0 {
		t.Errorf("stderr: %s", errb.String())
	}
}

func TestInspectSubstErrors(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"inspect", "subst", "x: ${trim(values.x}\n${y"}, &out, &errb)
	if code != exitProblems {
		t.Fatalf("exit %d, want %d", code, exitProblems)
	}
	want := "1:19: error[subst-unclosed-call]: expected ')' to close the call to trim started at 1:6, found '}'\n" +
		"2:1: error[subst-unterminated]: unterminated substitution: expected '}' to close the '${' at 2:1\n"
	if errb.String() != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", errb.String(), want)
	}
	if !strings.Contains(out.String(), `"unclosed": true`) {
		t.Errorf("stdout lacks the partial tree:\n%s", out.String())
	}
}

func TestInspectField(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"inspect", "subst", "-field", "trim(x)"}, &out, &errb); code != exitProblems {
		t.Fatalf("exit %d", code)
	}
	if !strings.Contains(errb.String(), "error[subst-export-field-call]") {
		t.Errorf("stderr: %s", errb.String())
	}
}

func TestInspectUsage(t *testing.T) {
	for _, args := range [][]string{{"inspect"}, {"inspect", "yaml", "x"}, {"inspect", "subst"}, {"inspect", "subst", "a", "b"}, {"inspect", "subst", "-nope", "a"}} {
		var out, errb bytes.Buffer
		if code := run(args, &out, &errb); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
		if !strings.Contains(errb.String(), "usage: blueprint-ls inspect subst") && !strings.Contains(errb.String(), "flag provided but not defined") {
			t.Errorf("%v: stderr %q", args, errb.String())
		}
	}
}
