package assembly

import (
	"crypto"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	_ "crypto/sha256" // hash implementations for the attestation algorithms
	_ "crypto/sha512"

	_ "crypto/sha3"

	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// NonceSize is the length of the nonces this package generates: the
// spec's minimum, and the output size of SHA256.
const NonceSize = 32

// Attestation is the attestation document: a cryptographic summary of
// every file of an assembly except signature.asc.
type Attestation struct {
	Timestamp string              `json:"timestamp"`
	Algorithm string              `json:"algorithm"`
	Nonce     string              `json:"nonce"`
	Items     map[string]FileData `json:"items"`
}

// FileData is the summary of one attested file.
type FileData struct {
	Size string `json:"size"`
	Hash string `json:"hash"`
}

// algorithms maps the standard identifiers of hash algorithms, with
// dashes removed and upper-cased ("SHA-256" and "SHA256" are one), to
// their implementations. weak marks those with known collision attacks.
var algorithms = map[string]struct {
	h    crypto.Hash
	weak bool
}{
	"MD5":        {crypto.MD5, true},
	"SHA1":       {crypto.SHA1, true},
	"SHA224":     {crypto.SHA224, false},
	"SHA256":     {crypto.SHA256, false},
	"SHA384":     {crypto.SHA384, false},
	"SHA512":     {crypto.SHA512, false},
	"SHA512/224": {crypto.SHA512_224, false},
	"SHA512/256": {crypto.SHA512_256, false},
	"SHA3224":    {crypto.SHA3_224, false},
	"SHA3256":    {crypto.SHA3_256, false},
	"SHA3384":    {crypto.SHA3_384, false},
	"SHA3512":    {crypto.SHA3_512, false},
}

func lookupAlgorithm(name string) (crypto.Hash, bool, bool) {
	a, ok := algorithms[strings.ToUpper(strings.ReplaceAll(name, "-", ""))]
	if !ok || !a.h.Available() {
		return 0, false, false
	}
	return a.h, a.weak, true
}

// FileHash is the attestation hash of a file: the base64 encoding of
// H(content ‖ nonce), the nonce as bytes (the base64 of the document's
// nonce field decoded).
func FileHash(h crypto.Hash, content, nonce []byte) string {
	hh := h.New()
	hh.Write(content)
	hh.Write(nonce)
	return base64.StdEncoding.EncodeToString(hh.Sum(nil))
}

// streamHash is FileHash of an archive entry, read as a stream; "" when
// it can not be read again.
func streamHash(h crypto.Hash, file archiveFile, nonce []byte) string {
	rc, err := file.open()
	if err != nil {
		return ""
	}
	defer rc.Close()
	hh := h.New()
	if n, err := io.Copy(hh, io.LimitReader(rc, file.size+1)); err != nil || n != file.size {
		return ""
	}
	hh.Write(nonce)
	return base64.StdEncoding.EncodeToString(hh.Sum(nil))
}

// NewAttestation attests files (archive path → content) with SHA256 and a
// fresh nonce from crypto/rand, timestamped now.
func NewAttestation(files map[string][]byte, now time.Time) (*Attestation, error) {
	nonce := make([]byte, NonceSize)
	if _, err := rand.Read(nonce); err != nil {
		return nil, fmt.Errorf("generating the attestation nonce: %w", err)
	}
	a := &Attestation{
		Timestamp: now.UTC().Format(time.RFC3339),
		Algorithm: "SHA256",
		Nonce:     base64.StdEncoding.EncodeToString(nonce),
		Items:     map[string]FileData{},
	}
	for name, content := range files {
		a.Items[name] = FileData{Size: strconv.Itoa(len(content)), Hash: FileHash(crypto.SHA256, content, nonce)}
	}
	return a, nil
}

// Marshal renders the attestation as indented JSON with sorted keys and
// a final newline.
func (a *Attestation) Marshal() []byte {
	b, _ := json.MarshalIndent(a, "", "  ") // maps marshal with sorted keys
	return append(b, '\n')
}

var (
	codeTimestamp = source.NewCode("assembly-attestation-timestamp", source.Error,
		"The attestation's timestamp is not an ISO 8601 date and time.",
		`"timestamp": "yesterday"`)
	codeAlgorithm = source.NewCode("assembly-attestation-algorithm", source.Error,
		"The attestation's algorithm is not a supported standard hash algorithm.",
		`"algorithm": "CRC32"`)
	codeWeakAlgorithm = source.NewCode("assembly-attestation-weak-algorithm", source.Warning,
		"The attestation uses a hash algorithm with known collision attacks (MD5, SHA1).",
		`"algorithm": "SHA1"`)
	codeNonce = source.NewCode("assembly-attestation-nonce", source.Error,
		"The attestation's nonce is not base64, or shorter than 32 bytes.",
		`"nonce": "abc="`)
	codeNonceShort = source.NewCode("assembly-attestation-nonce-short", source.Warning,
		"The attestation's nonce is shorter than the output of its hash algorithm.", "")
	codeUnattested = source.NewCode("assembly-file-unattested", source.Error,
		"A file of the assembly has no entry in the attestation's items.", "")
	codeFileMissing = source.NewCode("assembly-file-missing", source.Error,
		"The attestation lists a file the assembly does not contain.", "")
	codeFileSize = source.NewCode("assembly-file-size", source.Error,
		"A file's size differs from the size the attestation records.", "")
	codeFileHash = source.NewCode("assembly-file-hash", source.Error,
		"A file's hash differs from the hash the attestation records: the file was changed.", "")
)

// attested is a checked attestation: its timestamp, when valid.
type attested struct {
	timestamp time.Time
	ok        bool // the timestamp parsed
}

// parseTimestamp reads the ISO 8601 forms the spec shows: with a zone
// (RFC 3339) or without one (taken as UTC), with optional fractions.
func parseTimestamp(s string) (time.Time, bool) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// checkAttestation checks the attestation document content (whose
// offsets the checker maps through shift) against the files of the
// archive, in archive order. Its problems go to c.
func (c *checker) checkAttestation(content []byte, files []archiveFile) attested {
	var out attested
	f := syntax.ParseJSON(content, false)
	for _, d := range f.Diagnostics {
		c.add("", d)
	}
	if f.Root == nil {
		return out
	}
	fs := c.object(f.Root, source.Range{}, "$", attestationFields)
	if fs == nil {
		return out
	}
	if e := fs["timestamp"]; e != nil {
		if t, ok := parseTimestamp(str(e)); ok {
			out.timestamp, out.ok = t, true
		} else {
			c.add("$.timestamp", codeTimestamp.New(e.Value.Range(), "timestamp %q is not an ISO 8601 date and time such as 2018-11-06T14:56:23Z", str(e)))
		}
	}
	var h crypto.Hash
	if e := fs["algorithm"]; e != nil {
		hh, weak, ok := lookupAlgorithm(str(e))
		switch {
		case !ok:
			c.add("$.algorithm", codeAlgorithm.New(e.Value.Range(), "algorithm %q is not a supported hash algorithm (use SHA256, SHA384, SHA512 or SHA3-256)", str(e)))
		case weak:
			c.add("$.algorithm", codeWeakAlgorithm.New(e.Value.Range(), "algorithm %q has known collision attacks and should not be used; use SHA256 or stronger", str(e)))
		}
		h = hh
	}
	var nonce []byte
	if e := fs["nonce"]; e != nil {
		b, err := base64.StdEncoding.DecodeString(str(e))
		switch {
		case err != nil:
			c.add("$.nonce", codeNonce.New(e.Value.Range(), "nonce is not base64: %v", err))
		case len(b) < NonceSize:
			c.add("$.nonce", codeNonce.New(e.Value.Range(), "nonce is %d bytes long; it must be at least %d", len(b), NonceSize))
		default:
			nonce = b
			if h != 0 && len(b) < h.Size() {
				c.add("$.nonce", codeNonceShort.New(e.Value.Range(), "nonce is %d bytes long, shorter than the %d-byte output of %s", len(b), h.Size(), str(fs["algorithm"])))
			}
		}
	}
	e := fs["items"]
	if e == nil {
		return out
	}
	items, order := c.entries(e.Value.(*schema.Mapping), "$.items")
	present := map[string]bool{}
	for _, file := range files {
		present[file.name] = true
		item, ok := items[file.name]
		if !ok {
			c.add("$.items", codeUnattested.New(keyRange(e.Value.(*schema.Mapping), e.Key.Rng), "%s is in the assembly but not in the attestation", file.name))
			continue
		}
		p := child("$.items", file.name)
		fd := c.object(item.Value, item.Key.Rng, p, fileDataFields)
		if s := fd["size"]; s != nil {
			if n, err := strconv.ParseUint(str(s), 10, 63); err != nil || strconv.FormatUint(n, 10) != str(s) {
				c.add(child(p, "size"), codeFieldType.New(s.Value.Range(), "size %q is not a decimal number of bytes", str(s)))
			} else if n != uint64(file.size) {
				c.add(child(p, "size"), codeFileSize.New(s.Value.Range(), "%s is %d bytes; the attestation says %d", file.name, file.size, n))
			}
		}
		if s := fd["hash"]; s != nil && h != 0 && nonce != nil {
			if got := streamHash(h, file, nonce); got != str(s) {
				c.add(child(p, "hash"), codeFileHash.New(s.Value.Range(), "%s does not match its attested hash: it was changed after signing", file.name))
			}
		}
	}
	for _, name := range order {
		if !present[name] && name != SignatureName {
			c.add(child("$.items", name), codeFileMissing.New(items[name].Key.Rng, "the attestation lists %s, which is not in the assembly", name))
		}
	}
	return out
}
