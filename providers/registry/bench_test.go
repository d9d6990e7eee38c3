package registry

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// genSchemaDir writes n schemas to dir, copies of the built-in ones under
// distinct type names.
func genSchemaDir(tb testing.TB, dir string, n int) []string {
	tb.Helper()
	cat := builtinTypes().cat
	var names []string
	for i := 0; i < n; i++ {
		src := i % cat.Len()
		data, err := cat.Schema(src)
		if err != nil {
			tb.Fatal(err)
		}
		orig := cat.Entry(src).TypeName
		typeName := fmt.Sprintf("Gen::Service%d::Thing%d", i/50, i)
		out := strings.Replace(string(data), `"typeName":"`+orig+`"`, `"typeName":"`+typeName+`"`, 1)
		if out == string(data) {
			tb.Fatalf("typeName not replaced in %s", orig)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("gen-%04d.json", i)), []byte(out), 0o644); err != nil {
			tb.Fatal(err)
		}
		names = append(names, ResourceTypeName(typeName))
	}
	return names
}

func heapAlloc() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// BenchmarkLoadDir1500 measures indexing 1,500 schemas (a scan for each
// typeName, no parsing) and reports the heap the registry holds after
// indexing and after touching 10 types.
func BenchmarkLoadDir1500(b *testing.B) {
	dir := b.TempDir()
	names := genSchemaDir(b, dir, 1500)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r := New()
		if err := r.LoadDir(dir); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()

	before := heapAlloc()
	r := New()
	if err := r.LoadDir(dir); err != nil {
		b.Fatal(err)
	}
	indexed := heapAlloc()
	for _, n := range names[:10] {
		if rt, ok := r.ResourceType(n); !ok || rt.Err != nil {
			b.Fatalf("%s: %v", n, rt.Err)
		}
	}
	touched := heapAlloc()
	runtime.KeepAlive(r)
	b.ReportMetric(float64(indexed-before)/1024, "KB-heap-indexed")
	b.ReportMetric(float64(touched-before)/1024, "KB-heap-10-types")
}

// BenchmarkFirstUse measures parsing one large schema (aws/s3/bucket) on
// first look-up.
func BenchmarkFirstUse(b *testing.B) {
	data, err := builtinSchema("aws/s3/bucket")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := parseResourceType(data); err != nil {
			b.Fatal(err)
		}
	}
}

// TestLoadDirLazy checks that indexing parses nothing: a schema broken
// after its typeName is only reported on first use, and a 1,500-schema
// index holds little memory.
func TestLoadDirLazy(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 1,500 files")
	}
	dir := t.TempDir()
	names := genSchemaDir(t, dir, 1500)
	before := heapAlloc()
	r := New()
	if err := r.LoadDir(dir); err != nil {
		t.Fatal(err)
	}
	held := heapAlloc() - before
	if len(r.ResourceTypeNames()) != 1500 {
		t.Fatalf("indexed %d", len(r.ResourceTypeNames()))
	}
	if held > 4<<20 {
		t.Errorf("index of 1,500 schemas holds %d KB", held/1024)
	}
	for _, e := range r.resources {
		if e.rt != nil {
			t.Fatalf("%s parsed at index time", e.name)
		}
	}
	if _, ok := r.ResourceType(names[0]); !ok || r.resources[names[0]].rt == nil {
		t.Error("first use did not parse")
	}
	runtime.KeepAlive(r)
}
