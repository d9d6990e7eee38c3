package funcs

import (
	"strconv"
	"strings"
	"testing"
)

func benchStrings(n int) Value {
	out := make([]Value, n)
	for i := range out {
		out[i] = String("http://host-" + strconv.Itoa(i) + ".example.com")
	}
	return Array(out)
}

func benchCall(b *testing.B, name string, args ...Value) {
	c := newTestCtx(nil)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Call(name, args, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkJoin10k(b *testing.B) { benchCall(b, "join", benchStrings(10_000), String(",")) }

func BenchmarkSplit10k(b *testing.B) {
	s, _ := mustCall(b, newTestCtx(nil), "join", benchStrings(10_000), String(",")).Str()
	benchCall(b, "split", String(s), String(","))
}

func BenchmarkMapTrimprefix10k(b *testing.B) {
	g := mustCall(b, newTestCtx(nil), "trimprefix_g", String("http://"))
	benchCall(b, "map", benchStrings(10_000), g)
}

func BenchmarkMapToUpper10k(b *testing.B) {
	benchCall(b, "map", benchStrings(10_000), must(Core().FuncValue("to_upper")))
}

func BenchmarkSort10k(b *testing.B) {
	items := make([]Value, 10_000)
	for i := range items {
		items[i] = String(strconv.Itoa((i * 7919) % 10_007))
	}
	benchCall(b, "sort", Array(items), compareStrings)
}

func BenchmarkFromjson(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`{"meta":{"v":1},"items":[`)
	for i := 0; i < 1000; i++ {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(`{"id":"` + strconv.Itoa(i) + `","tags":["a","b"]}`)
	}
	sb.WriteString(`],"host":"cache.internal"}`)
	benchCall(b, "fromjson", String(sb.String()), String("/items/500/id"))
}

func BenchmarkJsondecode(b *testing.B) {
	s, _ := mustCall(b, newTestCtx(nil), "join", benchStrings(1000), String(`","`)).Str()
	benchCall(b, "jsondecode", String(`{"hosts":["`+s+`"]}`))
}

func BenchmarkFilterHasPrefix10k(b *testing.B) {
	g := mustCall(b, newTestCtx(nil), "has_prefix_g", String("http://host-1"))
	benchCall(b, "filter", benchStrings(10_000), g)
}
