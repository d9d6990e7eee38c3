package registry

import (
	"os"
	"testing"
)

// BenchmarkCheckSchemaFiles loads the samples of ../shared/cfn-schemas
// (skipped when absent) and checks every file against the meta-schema,
// as `check --providers` does.
func BenchmarkCheckSchemaFiles(b *testing.B) {
	const dir = "../../../shared/cfn-schemas"
	if _, err := os.Stat(dir); err != nil {
		b.Skip("../shared/cfn-schemas is absent")
	}
	for b.Loop() {
		r := New()
		_ = r.LoadDir(dir)
		if len(r.CheckSchemaFiles()) == 0 {
			b.Fatal("the cfn-lint samples lack descriptions: problems expected")
		}
	}
}
