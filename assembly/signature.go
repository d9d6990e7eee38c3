package assembly

import (
	"bytes"
	"crypto"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp"
	"github.com/ProtonMail/go-crypto/openpgp/clearsign"
	pgperrors "github.com/ProtonMail/go-crypto/openpgp/errors"
	"github.com/ProtonMail/go-crypto/openpgp/packet"

	"github.com/blueprint-ls/blueprint-ls/internal/safefs"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// ReadKeyRing reads armored OpenPGP keys (public or private) from a file.
func ReadKeyRing(path string) (openpgp.EntityList, error) {
	b, err := safefs.ReadFile(path, safefs.DefaultDocumentLimit)
	if err != nil {
		return nil, err
	}
	keys, err := openpgp.ReadArmoredKeyRing(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("reading OpenPGP keys from %s: %w", path, err)
	}
	return keys, nil
}

// Sign clear-signs the attestation document with the first key of keys
// that holds a usable private signing key valid at the attestation's
// timestamp (the spec requires the key to be valid then).
func Sign(attestation []byte, timestamp time.Time, keys openpgp.EntityList) ([]byte, error) {
	for _, e := range keys {
		if e.PrivateKey == nil {
			continue
		}
		k, ok := e.SigningKey(timestamp)
		if !ok || k.PrivateKey == nil {
			continue
		}
		if k.PrivateKey.Encrypted {
			return nil, fmt.Errorf("signing key %s is protected by a passphrase; export it without one for signing", k.PublicKey.KeyIdString())
		}
		var out bytes.Buffer
		cfg := &packet.Config{DefaultHash: crypto.SHA256, Time: func() time.Time { return timestamp }}
		w, err := clearsign.Encode(&out, k.PrivateKey, cfg)
		if err != nil {
			return nil, fmt.Errorf("signing the attestation: %w", err)
		}
		if _, err := w.Write(attestation); err != nil {
			return nil, fmt.Errorf("signing the attestation: %w", err)
		}
		if err := w.Close(); err != nil {
			return nil, fmt.Errorf("signing the attestation: %w", err)
		}
		out.WriteByte('\n')
		return out.Bytes(), nil
	}
	return nil, errors.New("no private key valid for signing now (expired, revoked, public only, or not a signing key)")
}

var (
	codeSignatureRequired = source.NewCode("assembly-signature-required", source.Error,
		"A signature is required (--require-signature) but the assembly has no signature.asc.", "")
	codeSignatureInvalid = source.NewCode("assembly-signature-invalid", source.Error,
		"signature.asc is not a clear-signed OpenPGP message, or its signature does not verify.", "")
	codeSignatureExtra = source.NewCode("assembly-signature-extra-data", source.Error,
		"signature.asc holds text outside the signed message, which nothing authenticates.", "")
	codeSignatureUntrusted = source.NewCode("assembly-signature-untrusted", source.Error,
		"The assembly is signed by a key that is not among the trusted keys.", "")
	codeSignatureUnverified = source.NewCode("assembly-signature-unverified", source.Warning,
		"The assembly is signed but no trusted key was given, so its authenticity was not verified (an error with --require-signature).", "")
	codeKeyExpired = source.NewCode("assembly-key-expired", source.Error,
		"The signing key had expired at the signature's time, or was not valid at the attestation's timestamp.", "")
	codeKeyRevoked = source.NewCode("assembly-key-revoked", source.Error,
		"The signing key is known to have been revoked.", "")
)

// signed is the outcome of checking signature.asc.
type signed struct {
	attestation []byte // the signed text
	shift       int    // offset of the signed text in signature.asc, -1 when not verbatim
	signer      *openpgp.Entity
	keyID       uint64
	sigTime     time.Time
}

// checkSignature decodes and verifies signature.asc. It returns nil when
// no attestation could be recovered from it.
func (c *checker) checkSignature(content []byte, trusted openpgp.EntityList, require bool, now time.Time) *signed {
	begin := bytes.Index(content, []byte("-----BEGIN PGP SIGNED MESSAGE-----"))
	b, rest := clearsign.Decode(content)
	if b == nil {
		msg := "signature.asc is not a clear-signed OpenPGP message"
		if begin < 0 && bytes.Contains(content, []byte("-----BEGIN PGP SIGNATURE-----")) {
			msg = "signature.asc holds a detached signature; the attestation must be signed inline (clear-signed)"
		}
		c.add("", codeSignatureInvalid.New(source.R(0, lineEnd(content, 0)), "%s", msg))
		return nil
	}
	sigAt := bytes.Index(content, []byte("-----BEGIN PGP SIGNATURE-----"))
	sigRange := source.R(sigAt, lineEnd(content, sigAt))
	if len(bytes.TrimSpace(content[:begin])) > 0 {
		c.add("", codeSignatureExtra.New(source.R(0, begin), "text before the signed message is not covered by the signature"))
	}
	if t := bytes.TrimSpace(rest); len(t) > 0 {
		at := len(content) - len(rest)
		c.add("", codeSignatureExtra.New(source.R(at, len(content)), "text after the signature is not covered by it"))
	}
	s := &signed{attestation: b.Plaintext, shift: -1}
	if i := bytes.Index(content[begin:], b.Plaintext); i >= 0 && len(b.Plaintext) > 0 {
		s.shift = begin + i
	}
	sigBytes, err := io.ReadAll(b.ArmoredSignature.Body)
	if err != nil {
		c.add("", codeSignatureInvalid.New(sigRange, "the signature block does not decode: %v", err))
		return s
	}
	var sig *packet.Signature
	pr := packet.NewReader(bytes.NewReader(sigBytes))
	for {
		p, err := pr.Next()
		if err != nil {
			break
		}
		if ps, ok := p.(*packet.Signature); ok {
			sig = ps
			break
		}
	}
	if sig == nil || sig.IssuerKeyId == nil {
		c.add("", codeSignatureInvalid.New(sigRange, "the signature block holds no signature with an issuer"))
		return s
	}
	s.keyID, s.sigTime = *sig.IssuerKeyId, sig.CreationTime
	keyID := fmt.Sprintf("%016X", s.keyID)
	if len(trusted) == 0 {
		d := codeSignatureUnverified.New(sigRange, "signed by key %s at %s, but no trusted key was given (--trusted-key), so the signature was not verified", keyID, s.sigTime.UTC().Format(time.RFC3339))
		if require {
			d.Severity = source.Error
			d.Message += "; a verified signature is required"
		}
		c.add("", d)
		return s
	}
	cfg := &packet.Config{Time: func() time.Time { return s.sigTime }}
	var hashes []crypto.Hash
	for _, name := range b.Headers.Values("Hash") {
		if h, ok := pgpHashes[name]; ok {
			hashes = append(hashes, h)
		}
	}
	var signer *openpgp.Entity
	if len(hashes) > 0 {
		_, signer, err = openpgp.VerifyDetachedSignatureAndHash(trusted, bytes.NewReader(b.Bytes), bytes.NewReader(sigBytes), hashes, cfg)
	} else {
		_, signer, err = openpgp.VerifyDetachedSignature(trusted, bytes.NewReader(b.Bytes), bytes.NewReader(sigBytes), cfg)
	}
	switch {
	case errors.Is(err, pgperrors.ErrUnknownIssuer):
		c.add("", codeSignatureUntrusted.New(sigRange, "signed by key %s, which is not among the trusted keys", keyID))
		return s
	case errors.Is(err, pgperrors.ErrKeyExpired):
		c.add("", codeKeyExpired.New(sigRange, "key %s had expired when the signature was made (%s)", keyID, s.sigTime.UTC().Format(time.RFC3339)))
		return s
	case errors.Is(err, pgperrors.ErrKeyRevoked):
		c.add("", codeKeyRevoked.New(sigRange, "key %s is revoked", keyID))
		return s
	case err != nil:
		c.add("", codeSignatureInvalid.New(sigRange, "the signature by key %s does not verify: %v", keyID, err))
		return s
	}
	if signer.Revoked(now) {
		c.add("", codeKeyRevoked.New(sigRange, "key %s has been revoked", keyID))
		return s
	}
	s.signer = signer
	return s
}

// checkKeyAt reports a signing key that was not valid at the
// attestation's timestamp.
func (c *checker) checkKeyAt(s *signed, ts time.Time, at source.Range) {
	if s.signer == nil {
		return
	}
	if _, ok := s.signer.SigningKeyById(ts, s.keyID); !ok {
		c.add("$.timestamp", codeKeyExpired.New(at, "key %016X was not valid for signing at the attestation's timestamp %s", s.keyID, ts.UTC().Format(time.RFC3339)))
	}
}

// pgpHashes maps the Hash header values of clear-signed messages.
var pgpHashes = map[string]crypto.Hash{
	"SHA1": crypto.SHA1, "SHA224": crypto.SHA224, "SHA256": crypto.SHA256,
	"SHA384": crypto.SHA384, "SHA512": crypto.SHA512,
	"SHA3-256": crypto.SHA3_256, "SHA3-512": crypto.SHA3_512,
}

// Identity describes an entity for people: its primary user ID and key ID.
func Identity(e *openpgp.Entity) string {
	id := e.PrimaryKey.KeyIdString()
	if pi := e.PrimaryIdentity(); pi != nil {
		return strings.TrimSpace(pi.Name) + " (" + strings.ToUpper(id) + ")"
	}
	return strings.ToUpper(id)
}

func lineEnd(b []byte, off int) int {
	if off < 0 {
		return 0
	}
	if i := bytes.IndexByte(b[off:], '\n'); i >= 0 {
		return off + i
	}
	return len(b)
}
