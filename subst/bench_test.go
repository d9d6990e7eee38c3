package subst

import (
	"fmt"
	"strings"
	"testing"
)

// benchStrings generates the string scalars of a 5,000-resource blueprint:
// most are plain text, the rest references, interpolations and calls in
// the proportions real blueprints show.
func benchStrings(n int) []string {
	var out []string
	for i := range n {
		out = append(out,
			"aws/lambda/function",
			fmt.Sprintf("r%d handles orders", i),
			fmt.Sprintf("${resources.r%d.spec.name}", (i+1)%n),
			fmt.Sprintf("arn:${variables.env}-${trim(values.x%d)}", i),
			fmt.Sprintf("${datasources.network.subnets[%d]}", i%4),
			fmt.Sprintf(`${if(eq(variables.environment, "prod"), object(size = "large", replicas = %d), none)}`, i%5),
			fmt.Sprintf(`${join(map(values.hosts, trimprefix_g("http://")), ",")}/r%d`, i),
			fmt.Sprintf("${children.core.topics[\"t-%d\"].arn}", i),
		)
	}
	return out
}

func BenchmarkParseTemplates(b *testing.B) {
	strs := benchStrings(5000)
	bytes := 0
	for _, s := range strs {
		bytes += len(s)
	}
	b.SetBytes(int64(bytes))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, s := range strs {
			ParseTemplate(s, nil)
		}
	}
}

// BenchmarkScanBaseline is the floor: finding the substitutions without
// parsing them, so the parser's cost shows as a ratio.
func BenchmarkScanBaseline(b *testing.B) {
	strs := benchStrings(5000)
	b.ReportAllocs()
	b.ResetTimer()
	n := 0
	for b.Loop() {
		for _, s := range strs {
			n += strings.Count(s, "${")
		}
	}
	_ = n
}
