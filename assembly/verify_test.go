package assembly

import (
	"archive/zip"
	"bytes"
	"context"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp"
	"github.com/ProtonMail/go-crypto/openpgp/packet"
	"github.com/google/go-cmp/cmp"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/engine"
	"github.com/blueprint-ls/blueprint-ls/eval"
	"github.com/blueprint-ls/blueprint-ls/schema"
)

// planFixture plans a testdata blueprint and returns the plan and its
// materialised blueprint.
func planFixture(t *testing.T, name string, vars ...string) (*engine.Plan, *eval.Blueprint) {
	t.Helper()
	path := "testdata/" + name
	content, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var in eval.Inputs
	for _, v := range vars {
		if err := in.AddVar(v); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	p, _, err := engine.PlanFile(ctx, path, content, in, engine.Options{})
	if err != nil || p == nil {
		t.Fatalf("plan: %v", err)
	}
	res := analysis.Analyze(ctx, schema.Parse(path, content), analysis.Options{Path: path})
	bp, err := eval.Eval(ctx, res, in, eval.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p, bp
}

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// signedAssembly writes the orders fixture signed by key at t0.
func signedAssembly(t *testing.T, key *openpgp.Entity) []byte {
	t.Helper()
	p, bp := planFixture(t, "orders.blueprint.yaml", "prefix=shop")
	var buf bytes.Buffer
	if err := Write(&buf, p, WriteOptions{Blueprint: bp, SignKeys: openpgp.EntityList{key}, Now: t0}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// unzip returns the entries of an archive.
func unzip(t *testing.T, data []byte) map[string][]byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, f := range zr.File {
		rc, _ := f.Open()
		b, _ := io.ReadAll(rc)
		rc.Close()
		out[f.Name] = b
	}
	return out
}

// rezip builds an archive of files.
func rezip(t *testing.T, files map[string][]byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		w, _ := zw.Create(n)
		w.Write(files[n])
	}
	zw.Close()
	return buf.Bytes()
}

// codes lists the codes of a report's problems at warning or above, as
// "file:line:col code".
func codes(rep *Report) []string {
	var out []string
	for _, p := range rep.Problems {
		if p.Severity > 2 {
			continue
		}
		s := p.File
		if m := rep.Mappers[p.File]; m != nil && p.File != "" {
			l, c := m.LineCol(p.Range.Start, 2)
			s += ":" + strconv.Itoa(l) + ":" + strconv.Itoa(c)
		}
		out = append(out, s+" "+p.Code)
	}
	return out
}

func TestRoundTrip(t *testing.T) {
	key := newKey(t, "Release", t0.Add(-time.Hour), 0)
	data := signedAssembly(t, key)
	rep := VerifyBytes(data, VerifyOptions{RequireSignature: true, TrustedKeys: public(t, key), Now: t0})
	if got := codes(rep); len(got) != 0 || rep.HasErrors() {
		t.Fatalf("problems: %v", got)
	}
	if rep.Signer == "" || rep.Manifest == nil || len(rep.Manifest.Droplets) != 4 {
		t.Fatalf("signer %q, manifest %+v", rep.Signer, rep.Manifest)
	}
	files := unzip(t, data)
	for _, n := range []string{ManifestName, PlanName, BlueprintName, SignatureName} {
		if files[n] == nil {
			t.Errorf("no %s in the assembly", n)
		}
	}
	fn := rep.Manifest.Droplet("fn")
	if diff := cmp.Diff([]string{"orders-0", "orders-1", "table"}, fn.DependsOn); diff != "" {
		t.Errorf("fn dependsOn (-want +got):\n%s", diff)
	}
	var refs []string
	for _, r := range fn.Refs {
		refs = append(refs, r.ID+"."+r.Attribute+" at "+r.Path)
	}
	want := []string{
		"orders-0.state.arn at $.droplets.fn.properties.code.s3Key",
		"orders-1.state.queueUrl at $.droplets.fn.properties.environment.variables.QUEUE_URL",
	}
	if diff := cmp.Diff(want, refs); diff != "" {
		t.Errorf("fn refs (-want +got):\n%s", diff)
	}
	// An interpolation with a deploy-time part keeps its shape: literal
	// text escaped around the token.
	if !bytes.Contains(files[ManifestName], []byte(`"QUEUE_URL": "C:\\\\deploy\\\\orders|${orders-1.state.queueUrl}/y"`)) {
		t.Errorf("QUEUE_URL not an escaped interpolation:\n%s", files[ManifestName])
	}
	// The Windows path default is a literal backslash, escaped.
	if !bytes.Contains(files[ManifestName], []byte(`"tableName": "C:\\\\deploy\\\\orders"`)) {
		t.Errorf("tableName not escaped:\n%s", files[ManifestName])
	}
}

func TestTampering(t *testing.T) {
	key := newKey(t, "Release", t0.Add(-time.Hour), 0)
	other := newKey(t, "Mallory", t0.Add(-time.Hour), 0)
	data := signedAssembly(t, key)
	trusted := public(t, key)
	edit := func(f func(files map[string][]byte)) []byte {
		files := unzip(t, data)
		f(files)
		return rezip(t, files)
	}
	sigLine := func(files map[string][]byte, name, field string) string {
		// The line of "name": {..."field"...} in signature.asc.
		s := string(files[SignatureName])
		i := strings.Index(s, `"`+name+`"`)
		j := i + strings.Index(s[i:], `"`+field+`"`)
		line := strings.Count(s[:j], "\n") + 1
		col := j - strings.LastIndex(s[:j], "\n")
		return SignatureName + ":" + strconv.Itoa(line) + ":" + strconv.Itoa(col+len(field)+4)
	}
	orig := unzip(t, data)
	tests := []struct {
		name string
		data []byte
		opts VerifyOptions
		want []string
	}{
		{"changed plan.json, same size", edit(func(f map[string][]byte) {
			f[PlanName] = bytes.Replace(f[PlanName], []byte("create"), []byte("delete"), 1)
		}), VerifyOptions{TrustedKeys: trusted}, []string{sigLine(orig, PlanName, "hash") + " assembly-file-hash"}},
		{"changed manifest", edit(func(f map[string][]byte) {
			f[ManifestName] = append(f[ManifestName], ' ')
		}), VerifyOptions{TrustedKeys: trusted}, []string{
			sigLine(orig, ManifestName, "size") + " assembly-file-size",
			sigLine(orig, ManifestName, "hash") + " assembly-file-hash",
		}},
		{"added file", edit(func(f map[string][]byte) { f["extra.txt"] = []byte("x") }),
			VerifyOptions{TrustedKeys: trusted}, []string{"signature.asc:8:3 assembly-file-unattested"}},
		{"removed file", edit(func(f map[string][]byte) { delete(f, BlueprintName) }),
			VerifyOptions{TrustedKeys: trusted}, []string{"signature.asc:9:5 assembly-file-missing"}},
		{"signature removed, required", edit(func(f map[string][]byte) { delete(f, SignatureName) }),
			VerifyOptions{RequireSignature: true, TrustedKeys: trusted}, []string{" assembly-signature-required"}},
		{"signature removed, not required", edit(func(f map[string][]byte) { delete(f, SignatureName) }),
			VerifyOptions{TrustedKeys: trusted}, nil},
		{"attestation edited inside the signature", edit(func(f map[string][]byte) {
			f[SignatureName] = bytes.Replace(f[SignatureName], []byte(`"algorithm": "SHA256"`), []byte(`"algorithm": "SHA512"`), 1)
		}), VerifyOptions{TrustedKeys: trusted}, []string{"signature.asc:24:1 assembly-signature-invalid"}},
		{"not a clear-signed message", edit(func(f map[string][]byte) { f[SignatureName] = []byte("hello\n") }),
			VerifyOptions{TrustedKeys: trusted}, []string{"signature.asc:1:1 assembly-signature-invalid"}},
		{"trusted key mismatch", data, VerifyOptions{TrustedKeys: public(t, other)},
			[]string{"signature.asc:24:1 assembly-signature-untrusted"}},
		{"no trusted key", data, VerifyOptions{}, []string{"signature.asc:24:1 assembly-signature-unverified"}},
		{"no trusted key, signature required", data, VerifyOptions{RequireSignature: true},
			[]string{"signature.asc:24:1 assembly-signature-unverified"}},
		{"text after the signature", edit(func(f map[string][]byte) {
			f[SignatureName] = append(f[SignatureName], "unsigned\n"...)
		}), VerifyOptions{TrustedKeys: trusted}, []string{"signature.asc:31:1 assembly-signature-extra-data"}},
		{"not a zip", []byte("PK nope"), VerifyOptions{}, []string{" assembly-archive"}},
		{"no manifest", rezip(t, map[string][]byte{"a.txt": []byte("a")}), VerifyOptions{}, []string{" assembly-manifest-missing"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.opts.Now = t0
			rep := VerifyBytes(tt.data, tt.opts)
			if diff := cmp.Diff(tt.want, codes(rep)); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
				for _, p := range rep.Problems {
					t.Log(p.Message)
				}
			}
			// An assembly that fails its signature checks is never loaded.
			if rep.Signed && rep.HasErrors() && rep.Manifest != nil {
				t.Error("manifest loaded despite a failed signature check")
			}
		})
	}
}

func TestKeyValidity(t *testing.T) {
	t.Run("expired at signing time", func(t *testing.T) {
		// Valid for an hour, expired an hour before t0: Sign refuses it.
		key := newKey(t, "Old", t0.Add(-2*time.Hour), time.Hour)
		if _, err := Sign([]byte("{}\n"), t0, openpgp.EntityList{key}); err == nil {
			t.Fatal("Sign accepted a key expired at the timestamp")
		}
	})
	t.Run("revoked", func(t *testing.T) {
		key := newKey(t, "Revoked", t0.Add(-time.Hour), 0)
		data := signedAssembly(t, key)
		if err := key.RevokeKey(packet.KeyCompromised, "lost", &packet.Config{Time: func() time.Time { return t0.Add(time.Hour) }}); err != nil {
			t.Fatal(err)
		}
		rep := VerifyBytes(data, VerifyOptions{TrustedKeys: public(t, key), Now: t0.Add(2 * time.Hour)})
		if diff := cmp.Diff([]string{"signature.asc:24:1 assembly-key-revoked"}, codes(rep)); diff != "" {
			t.Errorf("problems (-want +got):\n%s", diff)
		}
	})
	t.Run("signature made after expiry", func(t *testing.T) {
		key := newKey(t, "Short", t0.Add(-2*time.Hour), time.Hour)
		data := signedAt(t, key, t0)
		rep := VerifyBytes(data, VerifyOptions{TrustedKeys: public(t, key), Now: t0})
		got := codes(rep)
		if len(got) == 0 || !strings.HasSuffix(got[0], "assembly-key-expired") {
			t.Errorf("got %v, want assembly-key-expired first", got)
		}
	})
}

// signedAt builds a signed assembly whose signature is made at when,
// whatever the key's validity.
func signedAt(t *testing.T, key *openpgp.Entity, when time.Time) []byte {
	t.Helper()
	files := unzip(t, signedAssembly(t, newKey(t, "Tmp", t0.Add(-time.Hour), 0)))
	delete(files, SignatureName)
	att, err := NewAttestation(files, when)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	w, err := clearsignEncode(&out, key, when)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(att.Marshal())
	w.Close()
	files[SignatureName] = out.Bytes()
	return rezip(t, files)
}

func TestDeterminism(t *testing.T) {
	p, bp := planFixture(t, "orders.blueprint.yaml")
	a, err := BuildManifest(p, WriteOptions{Blueprint: bp})
	if err != nil {
		t.Fatal(err)
	}
	p2, bp2 := planFixture(t, "orders.blueprint.yaml")
	b, _ := BuildManifest(p2, WriteOptions{Blueprint: bp2})
	if !bytes.Equal(a, b) {
		t.Errorf("manifests differ:\n%s\n%s", a, b)
	}
	var w1, w2 bytes.Buffer
	Write(&w1, p, WriteOptions{Blueprint: bp})
	Write(&w2, p2, WriteOptions{Blueprint: bp2})
	if !bytes.Equal(w1.Bytes(), w2.Bytes()) {
		t.Error("unsigned archives of one plan differ")
	}
	// Signed: only the attestation's timestamp and nonce differ.
	key := newKey(t, "Release", t0.Add(-time.Hour), 0)
	s1, s2 := unzip(t, signedAssembly(t, key)), unzip(t, signedAssembly(t, key))
	if !bytes.Equal(s1[ManifestName], s2[ManifestName]) || !bytes.Equal(s1[PlanName], s2[PlanName]) {
		t.Error("signed assemblies' documents differ")
	}
	if bytes.Equal(s1[SignatureName], s2[SignatureName]) {
		t.Error("two attestations share a nonce")
	}
}

func TestNoEnvironment(t *testing.T) {
	p, _ := planFixture(t, "orders.blueprint.yaml")
	if _, err := BuildManifest(p, WriteOptions{}); err != ErrNoEnvironment {
		t.Fatalf("err = %v", err)
	}
	m, err := BuildManifest(p, WriteOptions{Environment: "aws://000000000000/us-east-1"})
	if err != nil || !bytes.Contains(m, []byte(`"environment": "aws://000000000000/us-east-1"`)) {
		t.Fatalf("err %v, manifest:\n%s", err, m)
	}
}

func TestMissingInputs(t *testing.T) {
	p, bp := planFixture(t, "orders.blueprint.yaml")
	m, err := BuildManifest(p, WriteOptions{Blueprint: bp})
	if err != nil {
		t.Fatal(err)
	}
	man, ps := CheckManifest(m)
	if len(man.Missing) != 1 || man.Missing[0].Key != "variables.prefix" {
		t.Errorf("missing: %+v", man.Missing)
	}
	for _, p := range ps {
		if p.Severity == 1 {
			t.Errorf("error: %s", p.Message)
		}
	}
}
