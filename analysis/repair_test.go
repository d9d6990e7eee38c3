package analysis

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/schema"
)

// brokenBlueprint is a blueprint whose variable env has an unclosed quote
// on line 5.
const brokenBlueprint = `version: 2023-04-20
variables:
  env:
    type: string
    description: "the environment
  region:
    type: string
values:
  prefix:
    type: string
    value: ${variables.region}-app
resources:
  queue:
    type: aws/sqs/queue
    spec:
      queueName: ${values.prefix}
`

func TestRepair(t *testing.T) {
	tests := []struct {
		name, text string
		want       string // the lines left out, 1-based "first-last"
	}{
		{"unclosed quote", brokenBlueprint, "5-5"},
		{"unclosed single quote", strings.Replace(brokenBlueprint, `"the environment`, `'it''s the environment`, 1), "5-5"},
		{"unclosed quote, a quote further down", strings.Replace(brokenBlueprint, "${values.prefix}", `"${values.prefix}"`, 1), "5-5"},
		{"unclosed quote in an item", "version: 2023-04-20\nvariables:\n  a:\n    type: string\n    allowedValues:\n      - \"x\n      - y\n  b:\n    type: string\n", "6-6"},
		{"half-typed key in a definition", "version: 2023-04-20\nvariables:\n  a:\n    type: string\n    descrip\n  b:\n    type: string\n", "5-5"},
		{"a quoted string going on over deeper lines is no half-typed line", "version: 2023-04-20\nvariables:\n  a:\n    type: string\n    description: \"two\n      lines\"\n  b:\n    type: string\n    description: {x: y\n", "7-9"},
		{"unclosed quote and a flow mapping", strings.Replace(brokenBlueprint, "queueName: ${values.prefix}", "queueName: {a: b", 1), "5-5,13-16"},
		{"half-typed top-level key", "version: 2023-04-20\nresou\nvariables:\n  a:\n    type: string\n", "2-2"},
		{"unterminated flow mapping", "version: 2023-04-20\nresources:\n  q:\n    type: aws/sqs/queue\n    spec: {queueName: a\n  r:\n    type: aws/sqs/queue\n", "3-5"},
		{"JSON trailing comma and no closing brace", "{\n  \"version\": \"2023-04-20\",\n  \"variables\": {\"a\": {\"type\": \"string\"},\n", "3-3"},
		{"JSON open string", "{\n  \"version\": \"2023-04-20\",\n  \"variables\": {\"a\": {\"type\": \"str", "3-3"},
		{"missing colon in a definition", "version: 2023-04-20\nvariables:\n  a:\n    type string\n    default: x\n  b:\n    type: string\n", "3-5"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			uri := "file:///b.yaml"
			if strings.HasPrefix(tt.text, "{") {
				uri = "file:///b.json"
			}
			f := schema.Parse(uri, []byte(tt.text))
			rf, cut := Repair(f)
			if rf == nil {
				t.Fatalf("no repair; syntax errors %v", f.SyntaxErrors())
			}
			var got []string
			for _, r := range cut {
				got = append(got, fmt.Sprintf("%d-%d", f.Mapper.Line(r.Start)+1, f.Mapper.Line(r.End-1)+1))
			}
			if strings.Join(got, ",") != tt.want {
				t.Errorf("left out lines %s, want %s", strings.Join(got, ","), tt.want)
			}
			if len(rf.Content()) < len(f.Content()) || strings.HasPrefix(tt.text, "v") && len(rf.Content()) != len(f.Content()) {
				t.Errorf("repair moved offsets: %q", rf.Content())
			}
		})
	}
}

// A repaired analysis reports the syntax error first and then only what
// the entry left out cannot have caused.
func TestAnalyzeRepaired(t *testing.T) {
	// An unterminated flow mapping (not a half-typed line): the entry
	// holding it, variable env, is left out.
	broken := strings.Replace(brokenBlueprint, `description: "the environment`, `description: {the: environment`, 1)
	text := strings.Replace(broken, "queueName: ${values.prefix}", "queueName: ${values.prefix}\n      visibilityTimeout: ${variables.env}\n      delaySeconds: ${values.nope}", 1) +
		"  other:\n    type: aws/sqs/queue\n    spec:\n      queueName: ${values.nope}\n"
	f := schema.Parse("file:///b.yaml", []byte(text))
	res := Analyze(context.Background(), f, Options{Repair: true})
	if res.Repaired == nil || res.Lookup(ValueSymbol, "prefix") == nil || res.Lookup(VariableSymbol, "region") == nil {
		t.Fatalf("not analysed repaired: %v", res.Repaired)
	}
	var got []string
	for _, d := range res.Diagnostics {
		got = append(got, fmt.Sprintf("%s %d", d.Code, f.Mapper.Line(d.Range.Start)+1))
	}
	if len(got) == 0 || !f.HasSyntaxErrors() || res.Diagnostics[0].Code != f.SyntaxErrors()[0].Code {
		t.Fatalf("the syntax error is not first: %v", got)
	}
	// The variable env is left out: references to variables are uncertain,
	// and so is everything in the definition holding one (queue); an
	// unknown value elsewhere is still an error.
	if want := "ref-unknown-value 22"; strings.Join(got[1:], ",") != want {
		t.Errorf("diagnostics after the syntax error %v, want %s", got[1:], want)
	}
	if plain := Analyze(context.Background(), f, Options{}); plain.Repaired != nil || len(plain.Diagnostics) != len(f.Diagnostics) {
		t.Errorf("without Repair a broken document gets its syntax errors only")
	}
}

// TestRepairInventsNothing deletes one character at random (fixed seed)
// from every testdata blueprint, many times. Whenever that breaks the
// syntax and the repaired analysis runs, no analysis diagnostic lies in a
// region left out, the analysis diagnostics are those of the document with
// the broken entries left out (parsed and analysed on its own) less the
// ones leaving out may have caused, and each of them was already reported
// on the document before the deletion, or lies on the deleted line.
func TestRepairInventsNothing(t *testing.T) {
	var files []string
	for _, g := range []string{"../testdata/*/*.blueprint.*", "../testdata/*/*/*.blueprint.*", "../testdata/*/*/*/*.blueprint.*"} {
		m, _ := filepath.Glob(g)
		files = append(files, m...)
	}
	if len(files) < 100 {
		t.Fatalf("only %d testdata blueprints", len(files))
	}
	rng := rand.New(rand.NewPCG(17, 17))
	const perFile = 25
	repaired := 0
	ctx := context.Background()
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil || len(data) < 2 {
			continue
		}
		uri := "file://" + path
		orig := Analyze(ctx, schema.Parse(uri, data), Options{})
		if orig.File.HasSyntaxErrors() {
			continue
		}
		before := map[string]bool{}
		for _, d := range orig.Diagnostics {
			before[fmt.Sprintf("%s %d %d", d.Code, d.Range.Start, d.Range.End)] = true
		}
		for range perFile {
			del := rng.IntN(len(data))
			text := append(bytes.Clone(data[:del]), data[del+1:]...)
			f := schema.Parse(uri, text)
			if !f.HasSyntaxErrors() {
				continue
			}
			res := Analyze(ctx, f, Options{Repair: true})
			if res.Repaired == nil {
				continue
			}
			repaired++
			where := fmt.Sprintf("%s without byte %d", filepath.Base(path), del)
			// The document with the broken entries left out, on its own.
			left := Analyze(ctx, schema.Parse(uri, res.File.Content()), Options{})
			var want, got []string
			for _, d := range certain(left.Diagnostics, left.File.Root, res.Repaired, sectionsLeftOut(f, res.Repaired)) {
				want = append(want, fmt.Sprint(d))
			}
			syntax := len(f.Diagnostics)
			for _, d := range res.Diagnostics[syntax:] {
				got = append(got, fmt.Sprint(d))
				if touches(d.Range, res.Repaired) {
					t.Errorf("%s: %v lies in a region left out %v", where, d, res.Repaired)
				}
				start, end := d.Range.Start, d.Range.End
				if start >= del {
					start++
				}
				if end > del {
					end++
				}
				line := f.Mapper.Line(min(del, len(text)))
				if !before[fmt.Sprintf("%s %d %d", d.Code, start, end)] && f.Mapper.Line(d.Range.Start) != line {
					t.Errorf("%s: %v was not reported before the deletion", where, d)
				}
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("%s: diagnostics\n%s\nwant those of the document with the entries left out\n%s", where, strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		}
	}
	if repaired < 50 {
		t.Errorf("only %d deletions were analysed repaired", repaired)
	}
	t.Logf("%d files, %d repaired analyses", len(files), repaired)
}
