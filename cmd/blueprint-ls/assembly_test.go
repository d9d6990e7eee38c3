package main

import (
	"bytes"
	"crypto"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp"
	"github.com/ProtonMail/go-crypto/openpgp/armor"
	"github.com/ProtonMail/go-crypto/openpgp/packet"
)

// writeKey generates a signing key and writes its armored private and
// public halves into dir.
func writeKey(t *testing.T, dir, name string) (priv, pub string) {
	t.Helper()
	e, err := openpgp.NewEntity(name, "", name+"@example.com", &packet.Config{Algorithm: packet.PubKeyAlgoEdDSA, DefaultHash: crypto.SHA256, Time: func() time.Time { return time.Now().Add(-time.Minute) }})
	if err != nil {
		t.Fatal(err)
	}
	write := func(path, typ string, ser func(w *bytes.Buffer) error) {
		var b bytes.Buffer
		w, _ := armor.Encode(&b, typ, nil)
		var inner bytes.Buffer
		if err := ser(&inner); err != nil {
			t.Fatal(err)
		}
		w.Write(inner.Bytes())
		w.Close()
		if err := os.WriteFile(path, b.Bytes(), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	priv, pub = filepath.Join(dir, name+".key"), filepath.Join(dir, name+".pub")
	write(priv, openpgp.PrivateKeyType, func(w *bytes.Buffer) error { return e.SerializePrivate(w, nil) })
	write(pub, openpgp.PublicKeyType, func(w *bytes.Buffer) error { return e.Serialize(w) })
	return priv, pub
}

func TestPlanOutAndVerify(t *testing.T) {
	dir := t.TempDir()
	bp := filepath.Join(dir, "app.blueprint.yaml")
	os.WriteFile(bp, []byte(`version: 2025-11-02
variables:
  name:
    type: string
resources:
  q:
    type: aws/sqs/queue
    spec:
      queueName: ${variables.name}
  dlq:
    type: aws/sqs/queue
    spec:
      queueName: ${q.state.arn}
`), 0o600)
	priv, pub := writeKey(t, dir, "release")
	_, otherPub := writeKey(t, dir, "other")
	out := filepath.Join(dir, "plan.cloud")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"plan", bp, "--out", out, "--environment", "aws://123456789012/eu-west-1", "--sign-key", priv}, &stdout, &stderr); code != exitOK {
		t.Fatalf("plan exit %d: %s", code, stderr.String())
	}
	stdout.Reset()
	stderr.Reset()
	if code := run([]string{"assembly", "verify", out, "--require-signature", "--trusted-key", pub}, &stdout, &stderr); code != exitOK {
		t.Fatalf("verify exit %d:\n%s%s", code, stdout.String(), stderr.String())
	}
	if !strings.Contains(stdout.String(), `warning[assembly-missing-context]: context "variables.name" is missing`) {
		t.Errorf("verify output:\n%s", stdout.String())
	}
	stdout.Reset()
	if code := run([]string{"assembly", "verify", out, "--trusted-key", otherPub}, &stdout, &stderr); code != exitProblems {
		t.Fatalf("verify against another key: exit %d", code)
	}
	if !strings.Contains(stdout.String(), "plan.cloud!/signature.asc:") || !strings.Contains(stdout.String(), "error[assembly-signature-untrusted]") {
		t.Errorf("verify output:\n%s", stdout.String())
	}
	stdout.Reset()
	if code := run([]string{"assembly", "inspect", out, "--trusted-key", pub}, &stdout, &stderr); code != exitOK {
		t.Fatalf("inspect exit %d: %s", code, stderr.String())
	}
	text := stdout.String()
	if i, j := strings.Index(text, "  q  bluelink://aws/sqs/queue"), strings.Index(text, "  dlq  bluelink://aws/sqs/queue"); i < 0 || j < i {
		t.Errorf("inspect order:\n%s", text)
	}
	stdout.Reset()
	if code := run([]string{"assembly", "inspect", out, "--format", "json"}, &stdout, &stderr); code != exitOK {
		t.Fatalf("inspect json exit %d", code)
	}
	if !strings.Contains(stdout.String(), `"queueName": "${q.state.arn}"`) {
		t.Errorf("inspect json:\n%s", stdout.String())
	}
	if code := run([]string{"assembly", "verify", filepath.Join(dir, "nope.cloud")}, &stdout, &stderr); code != exitUsage {
		t.Errorf("missing file: exit %d", code)
	}
	if code := run([]string{"plan", bp, "--out", filepath.Join(dir, "x.cloud")}, &stdout, &stderr); code != exitUsage {
		t.Errorf("no environment: exit %d", code)
	}
}
