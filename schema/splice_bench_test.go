package schema

import (
	"bytes"
	"fmt"
	"slices"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/internal/gen"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// BenchmarkSpliceLoadReplace is the parse side of an edit inside one
// resource in the middle of a generated blueprint: schema.SpliceAt of the
// new text, told the edit as the language server tells it, then LoadFrom
// the previous version's typed view. The edit
// replaces a digit, so the text keeps its length (analysis'
// BenchmarkEditIncremental makes the same edit and analyses it too).
func BenchmarkSpliceLoadReplace(b *testing.B) { benchSpliceLoad(b, false) }

// BenchmarkSpliceLoadInsert is BenchmarkSpliceLoadReplace with a digit
// inserted and deleted in turn: every node after the edit moves
// (analysis' BenchmarkInsertIncremental).
func BenchmarkSpliceLoadInsert(b *testing.B) { benchSpliceLoad(b, true) }

func benchSpliceLoad(b *testing.B, insert bool) {
	for _, n := range []int{1000, 5000, 20000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			data := gen.Blueprint(n, "yaml")
			const field = "visibilityTimeout: 4"
			at := bytes.Index(data[len(data)/2:], []byte(field))
			if at < 0 {
				b.Fatalf("no %q in the generated blueprint", field)
			}
			at += len(data)/2 + len(field)
			versions := [][]byte{data, bytes.Clone(data)}
			if insert {
				versions[1] = slices.Insert(versions[1], at, '7') // 45 and 475
			} else {
				versions[1][at] = '6' // 45 and 46
			}
			file := Parse("bench.blueprint.yaml", versions[0])
			bp, diags := Load(file)
			want := len(diags)
			into := [2]Change{syntax.ChangeBetween(versions[1], versions[0]), syntax.ChangeBetween(versions[0], versions[1])}
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			i := 1
			for b.Loop() {
				f := SpliceAt(file, source.NewText(versions[i%2]), into[i%2])
				if f == nil {
					b.Fatal("the edit was not spliced")
				}
				bp, diags = LoadFrom(f, bp)
				if len(diags) != want || bp.Resources.Len() != n {
					b.Fatalf("%d diagnostics (want %d), %d resources", len(diags), want, bp.Resources.Len())
				}
				file = f
				i++
			}
		})
	}
}
