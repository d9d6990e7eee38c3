package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

const shared = "../../../../../../shared/cfn-schemas/us-east-1-all.tar.gz"

// TestCommittedCatalogIsFresh regenerates the catalog from the shared
// schema set and the service spec package named by
// $BLUEPRINT_SERVICE_SPEC (the unpacked folder or the .tgz of
// `npm pack @aws-cdk/aws-service-spec`) and compares it with the
// committed files, so the embedded data and its generator never drift
// apart. Without both sources it skips: tests never fetch.
func TestCommittedCatalogIsFresh(t *testing.T) {
	if testing.Short() {
		t.Skip("regenerates the whole catalog")
	}
	if _, err := os.Stat(shared); err != nil {
		t.Skipf("shared schema set absent: %v", err)
	}
	svc := os.Getenv("BLUEPRINT_SERVICE_SPEC")
	if svc == "" {
		t.Skip("BLUEPRINT_SERVICE_SPEC unset (see builtin/catalog/README.md)")
	}
	out := t.TempDir()
	st, err := run(shared, svc, out)
	if err != nil {
		t.Fatal(err)
	}
	if st.schemas < 1500 || st.specOnly < 300 || st.documented < st.types*95/100 {
		t.Errorf("%+v", st)
	}
	for _, f := range []string{"index.tsv", "dict.bin", "data.bin"} {
		got, _ := os.ReadFile(filepath.Join(out, f))
		want, err := os.ReadFile(filepath.Join("../../../builtin/catalog", f))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("builtin/catalog/%s is stale: run go generate ./providers/registry", f)
		}
	}
}

func TestRecordsSkipsNonResourceSchemasAndReportsBrokenOnes(t *testing.T) {
	recs, err := Records(map[string][]byte{
		"module.json": []byte(`{"typeName": "Module"}`),
		"a.json":      []byte(`{"typeName": "AWS::IAM::User", "properties": {}}`),
		"bad.json":    []byte(`{"typeName": `),
	})
	if err == nil || !bytes.Contains([]byte(err.Error()), []byte("bad.json")) {
		t.Errorf("error %v does not name bad.json", err)
	}
	if len(recs) != 1 || recs[0].Name != "aws/iam/user" || string(recs[0].Schema) != `{"typeName":"AWS::IAM::User","properties":{}}` {
		t.Errorf("records %+v", recs)
	}
}
