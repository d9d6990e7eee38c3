package assembly

import (
	"bytes"
	"crypto"
	"io"
	"testing"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp"
	"github.com/ProtonMail/go-crypto/openpgp/armor"
	"github.com/ProtonMail/go-crypto/openpgp/clearsign"
	"github.com/ProtonMail/go-crypto/openpgp/packet"
)

// newKey generates a signing key for tests, created at created and
// valid for lifetime (0: forever). Ed25519 keeps generation fast.
func newKey(t *testing.T, name string, created time.Time, lifetime time.Duration) *openpgp.Entity {
	t.Helper()
	cfg := &packet.Config{
		Algorithm:   packet.PubKeyAlgoEdDSA,
		DefaultHash: crypto.SHA256,
		Time:        func() time.Time { return created },
	}
	if lifetime > 0 {
		cfg.KeyLifetimeSecs = uint32(lifetime / time.Second)
	}
	e, err := openpgp.NewEntity(name, "", name+"@example.com", cfg)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// armored returns the armored private (or public) key of e.
func armored(t *testing.T, e *openpgp.Entity, private bool) []byte {
	t.Helper()
	var b bytes.Buffer
	typ := openpgp.PublicKeyType
	if private {
		typ = openpgp.PrivateKeyType
	}
	w, err := armor.Encode(&b, typ, nil)
	if err != nil {
		t.Fatal(err)
	}
	if private {
		err = e.SerializePrivate(w, nil)
	} else {
		err = e.Serialize(w)
	}
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	return b.Bytes()
}

// public returns e as a keyring holding its public key only.
func public(t *testing.T, e *openpgp.Entity) openpgp.EntityList {
	t.Helper()
	keys, err := openpgp.ReadArmoredKeyRing(bytes.NewReader(armored(t, e, false)))
	if err != nil {
		t.Fatal(err)
	}
	return keys
}

// clearsignEncode clear-signs with e's primary key, the signature made at
// when whatever the key's validity then (Sign would refuse).
func clearsignEncode(w io.Writer, e *openpgp.Entity, when time.Time) (io.WriteCloser, error) {
	return clearsign.Encode(w, e.PrivateKey, &packet.Config{DefaultHash: crypto.SHA256, Time: func() time.Time { return when }})
}
