package schema

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/internal/gen"
	"github.com/blueprint-ls/blueprint-ls/internal/parsetest"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// movedDoc has a resource of every shape the typed view reads (metadata,
// link selector, nested conditions, dependsOn as a name and as a list, a
// definition that is not a mapping), each with a diagnostic or two, and
// the version after the resources so that an insertion moves it.
const movedDoc = `resources:
  a:
    type: aws/sqs/queue
    metadata:
      displayName: A
      labels:
        app: orders
        tier: 1
      annotations:
        x: [1]
    condition:
      and:
        - ${variables.on}
        - or:
            - ${variables.x}
            - not: ${variables.y}
        - not: [${variables.z}]
    dependsOn: [b, missing, a]
    spec:
      x: 1
      x: 2
  b:
    type: AWS::SQS::Queue
    linkSelector:
      byLabel:
        app: orders
      exclude: [a, nope]
    condition: ${variables.on}
    dependsOn: a
    each: ${variables.list}
    removalPolicy: keep
    spec: {}
  c: [not, a, mapping]
  d:
    type: aws/sqs/queue
    description: Saves ${variables.thing}
    condition:
      and: [${variables.a}]
      or: [${variables.b}]
    spec:
      ${key}: 1
  e:
    type: aws/sqs/queue
    condition: 42
    removalPolicy: retain
    spec:
      n: 1
variables:
  on:
    type: boolean
version: 2023-04-20
`

// TestLoadFromRandomEdits replays random edits on YAML and .bp documents,
// each version spliced from the one before (schema.Splice: syntax.Splice
// or bplang.Splice) and loaded from the one before
// (LoadFrom), and checks after every edit that the diagnostics and the
// typed resources are Load's of a whole parse of the text, field by
// field, and that every node the typed view points at is a node of the
// new tree (never one of the previous version's). It also checks that
// resources were taken over as they were and moved.
func TestLoadFromRandomEdits(t *testing.T) {
	docs := map[string][]byte{"moved.yaml": []byte(movedDoc), "gen.yaml": gen.Blueprint(24, "yaml"), "gen.bp": gen.Blueprint(24, "bp")}
	paths, _ := filepath.Glob("../testdata/examples/valid/*.yaml")
	bps, _ := filepath.Glob("../testdata/bp/resource-*.bp") // conditions, dependsOn, metadata, selectors
	paths = append(paths, bps...)
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		docs[p] = b
	}
	typed := []string{"x", "9", " ", "  ", "\n", "\n    ", "\n      ", ": ", "- ", "#", "${variables.x}",
		"\n    condition: ${variables.on}", "\n    dependsOn: [a, zz]", "\n      labels:\n        k: v",
		"\n  added:\n    type: x\n", "\nversion: 2025-11-02\n", "2025-11-02"}
	loads := map[*File]*Blueprint{}
	taken, moved := map[Format]int{}, map[Format]int{}
	reparse := func(prev *File, content []byte) (*File, bool) {
		prevBP := loads[prev]
		if prevBP == nil {
			prevBP, _ = Load(prev)
		}
		next := Splice(prev, content)
		spliced := next != nil
		if next == nil {
			next = Parse(prev.URI, content)
		}
		got, gotDiags := LoadFrom(next, prevBP)
		want, wantDiags := Load(Parse(prev.URI, content))
		if !reflect.DeepEqual(gotDiags, wantDiags) {
			t.Fatalf("diagnostics after editing\n%s\ninto\n%s\n%v\nwant\n%v", prev.Content(), content, gotDiags, wantDiags)
		}
		if !reflect.DeepEqual(got.Resources.Items(), want.Resources.Items()) || !reflect.DeepEqual(got.Resources.Names(), want.Resources.Names()) {
			t.Fatalf("the typed resources differ from Load's after editing\n%s\ninto\n%s", prev.Content(), content)
		}
		if err := pointsInto(next, got.Resources.Items()); err != nil {
			t.Fatalf("%v after editing\n%s\ninto\n%s", err, prev.Content(), content)
		}
		taken[next.Format] += got.takenOver
		moved[next.Format] += got.movedOver
		loads[next] = got
		return next, spliced
	}
	steps := 150
	if testing.Short() {
		steps = 40
	}
	total, spliced := parsetest.Replay(t, docs, typed, steps, Parse, reparse)
	t.Logf("%d edits, %d spliced; resources taken over %v, moved %v (by format)", total, spliced, taken, moved)
	if spliced*4 < total || taken[YAML] == 0 || moved[YAML] == 0 || taken[BP] == 0 || moved[BP] == 0 {
		t.Errorf("%d of %d edits spliced; resources taken over %v, moved %v: the test checks too little reuse", spliced, total, taken, moved)
	}
}

// pointsInto reports a node that v (a typed view) points at and that is
// not a node of f's tree.
func pointsInto(f *File, v any) error {
	nodes := map[any]bool{}
	var walk func(n Node)
	walk = func(n Node) {
		nodes[n] = true
		switch n := n.(type) {
		case *Mapping:
			for _, e := range n.Entries {
				nodes[e] = true
				nodes[e.Key] = true
				if e.Value != nil {
					walk(e.Value)
				}
			}
		case *Sequence:
			for _, it := range n.Items {
				walk(it)
			}
		}
	}
	if f.Root != nil {
		walk(f.Root)
	}
	seen := map[uintptr]bool{}
	var check func(v reflect.Value) error
	check = func(v reflect.Value) error {
		switch v.Kind() {
		case reflect.Pointer:
			if v.IsNil() || seen[v.Pointer()] {
				return nil
			}
			seen[v.Pointer()] = true
			switch p := v.Interface().(type) {
			case *syntax.Entry, *syntax.Scalar, *syntax.Mapping, *syntax.Sequence:
				if !nodes[p] {
					return fmt.Errorf("the typed view points at a %T outside the tree", p)
				}
				return nil
			}
			return check(v.Elem())
		case reflect.Interface:
			if v.IsNil() {
				return nil
			}
			return check(v.Elem())
		case reflect.Slice:
			for i := 0; i < v.Len(); i++ {
				if err := check(v.Index(i)); err != nil {
					return err
				}
			}
		case reflect.Struct:
			for i := 0; i < v.NumField(); i++ {
				if err := check(v.Field(i)); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return check(reflect.ValueOf(v))
}

// TestLoadFromKeyEdits edits the name of a resource between two others,
// keeping the text's length and changing it, into a duplicate of
// another, a substitution and a fresh name: LoadFrom checks the
// section's keys again only where the splice re-parsed, and must still
// report what Load reports.
func TestLoadFromKeyEdits(t *testing.T) {
	res := func(name string) string {
		return "  " + name + ":\n    type: aws/sqs/queue\n    spec:\n      n: 1\n"
	}
	base := "version: 2025-11-02\nresources:\n" + res("a") + res("b") + res("c") + "exports:\n  e:\n    type: string\n    field: resources.a.spec.n\n"
	for _, name := range []string{"a", "c", "d", "cc", "${x}", "b"} {
		next := strings.Replace(base, "\n  b:\n", "\n  "+name+":\n", 1)
		prevFile := Parse("k.blueprint.yaml", []byte(base))
		prev, _ := Load(prevFile)
		file := Splice(prevFile, []byte(next))
		if file == nil {
			t.Fatalf("%s: the edit was not spliced", name)
		}
		got, gotDiags := LoadFrom(file, prev)
		want, wantDiags := Load(Parse("k.blueprint.yaml", []byte(next)))
		if !reflect.DeepEqual(gotDiags, wantDiags) || !reflect.DeepEqual(got.Resources.Names(), want.Resources.Names()) {
			t.Errorf("%s: diagnostics %v, names %v; want %v, %v", name, gotDiags, got.Resources.Names(), wantDiags, want.Resources.Names())
		}
		if got.resourceKeysPlain != want.resourceKeysPlain {
			t.Errorf("%s: keys plain %v, want %v", name, got.resourceKeysPlain, want.resourceKeysPlain)
		}
	}
}

// TestLoadFromBulk makes a chain of edits that keep the text's length,
// each inside another resource of a document where several resources
// have diagnostics (walkKeys', loadResource's and those of names in
// dependsOn and linkSelector.exclude, checked once all are loaded), so
// that each version is loaded in bulk from the one before (bulk.go) and
// the lists of resources with diagnostics and with names are handed on
// from version to version; every version must give Load's diagnostics
// and typed resources.
func TestLoadFromBulk(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("version: 2025-11-02\nresources:\n")
	for i := range 12 {
		fmt.Fprintf(&sb, "  r%02d:\n    type: aws/sqs/queue\n    spec:\n      n: %d\n", i, 10+i)
		switch i % 4 {
		case 1:
			sb.WriteString("      n: 2\n") // a duplicate key (walkKeys)
		case 2:
			sb.WriteString("    removalPolicy: keep\n    dependsOn: [r00, nope]\n") // loadResource's, a name's
		case 3:
			sb.WriteString("    linkSelector:\n      exclude: [r01, zz]\n") // a name's
		}
	}
	sb.WriteString("exports:\n  e:\n    type: string\n    field: resources.r00.spec.n\n")
	text := []byte(sb.String())
	file := Parse("b.blueprint.yaml", text)
	bp, _ := Load(file)
	for step, i := range []int{3, 7, 1, 2, 11, 0, 5, 5, 9, 6, 10, 3} {
		at := bytes.Index(text, []byte(fmt.Sprintf("  r%02d:", i)))
		at += bytes.Index(text[at:], []byte("n: ")) + len("n: 1")
		text = bytes.Clone(text)
		text[at] = '0' + (text[at]-'0'+1)%10 // another digit: the same length
		next := Splice(file, text)
		if next == nil {
			t.Fatalf("step %d: the edit was not spliced", step)
		}
		got, gotDiags := LoadFrom(next, bp)
		want, wantDiags := Load(Parse("b.blueprint.yaml", text))
		if !reflect.DeepEqual(gotDiags, wantDiags) || !reflect.DeepEqual(got.Resources.Items(), want.Resources.Items()) {
			t.Fatalf("step %d: diagnostics\n%v\nwant\n%v", step, gotDiags, wantDiags)
		}
		if !got.inBulk || got.takenOver != 11 || len(wantDiags) != 12 {
			t.Fatalf("step %d: in bulk %v, %d taken over, %d diagnostics; want bulk, 11, 12", step, got.inBulk, got.takenOver, len(wantDiags))
		}
		file, bp = next, got
	}
}
