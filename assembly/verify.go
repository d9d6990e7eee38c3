package assembly

import (
	"archive/zip"
	"bytes"
	"errors"
	"io"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp"

	"github.com/blueprint-ls/blueprint-ls/internal/safefs"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// DefaultMaxTotalSize bounds what all the entries of an archive
// decompress to together, so a hostile compression ratio (a 4 MB archive
// of four 1,000 MB entries) cannot exhaust memory: reading stops at the
// budget whatever the entries declare.
const DefaultMaxTotalSize int64 = 256 << 20

// MaxArchiveSize bounds the .cloud file itself (compressed).
const MaxArchiveSize int64 = 64 << 20

// VerifyOptions configure Verify.
type VerifyOptions struct {
	// RequireSignature makes an unsigned assembly, or one whose
	// signature could not be verified against a trusted key, an error.
	RequireSignature bool
	// TrustedKeys are the keys a signature must verify against. Without
	// any, a signature is checked for form only and reported as
	// unverified.
	TrustedKeys openpgp.EntityList
	// Now is the time revocations are judged at; zero means time.Now().
	Now time.Time
	// MaxTotalSize is the decompressed-size budget of all entries
	// together; zero means DefaultMaxTotalSize.
	MaxTotalSize int64
}

// Report is the outcome of verifying an assembly.
type Report struct {
	Problems []Problem
	// Mappers convert the offsets of problems in each file (by Problem.File).
	Mappers map[string]*source.Mapper
	// Manifest is the checked manifest, nil when it was not loaded.
	Manifest *Manifest
	// Signed says the assembly has a signature.asc; Signer names the
	// trusted key that verified it ("" when none did).
	Signed bool
	Signer string
}

// HasErrors reports whether any problem is an error.
func (r *Report) HasErrors() bool { return hasErrors(r.Problems) }

// archiveFile is one entry of an archive. Only the manifest and the
// signature are held in memory; every other entry is read as a stream,
// once to check it decompresses (within the budget) and again, through
// open, when its attested hash is computed.
type archiveFile struct {
	name string
	size int64
	open func() (io.ReadCloser, error)
}

var (
	codeArchive = source.NewCode("assembly-archive", source.Error,
		"The file is not a readable ZIP archive, or an entry of it cannot be read.", "")
	codeEntryName = source.NewCode("assembly-entry-name", source.Error,
		"An archive entry has an unsafe or ambiguous name (absolute, with .., a backslash, or a duplicate).", "")
	codeContainer = source.NewCode("assembly-container", source.Warning,
		"An archive entry does not conform to ISO/IEC 21320-1 (compression other than stored or deflated, encryption, or a name not in UTF-8).", "")
	codeManifestMissing = source.NewCode("assembly-manifest-missing", source.Error,
		"The archive has no manifest.json at its root.", "")
	codeNotLoaded = source.NewCode("assembly-not-loaded", source.Information,
		"The manifest was not loaded because the assembly's integrity or authenticity was not established.", "")
)

// Verify checks an assembly: the container, then, when signature.asc is
// present, the signature and every file against the attestation it signs
// — before any other file is parsed, as the spec requires — and then the
// manifest (CheckManifest). A manifest whose assembly fails the signature
// checks is not loaded.
func Verify(r io.ReaderAt, size int64, opts VerifyOptions) *Report {
	rep := &Report{Mappers: map[string]*source.Mapper{}}
	now := opts.Now
	if now.IsZero() {
		now = time.Now()
	}
	container := func(format string, args ...any) {
		rep.Problems = append(rep.Problems, Problem{Diagnostic: codeArchive.New(source.Range{}, format, args...)})
	}
	zr, err := zip.NewReader(r, size)
	if err != nil {
		container("not a ZIP archive: %v", err)
		return rep
	}
	var files []archiveFile
	var sig, manifest []byte
	seen := map[string]bool{}
	budget := opts.MaxTotalSize
	if budget <= 0 {
		budget = DefaultMaxTotalSize
	}
	left := budget
	for _, f := range zr.File {
		if strings.HasSuffix(f.Name, "/") {
			continue // a directory
		}
		add := func(code *source.Code, format string, args ...any) {
			rep.Problems = append(rep.Problems, Problem{Diagnostic: code.New(source.Range{}, format, args...)})
		}
		name := f.Name
		switch {
		case name == "" || strings.HasPrefix(name, "/") || strings.Contains(name, `\`) || path.Clean(name) != name || name == ".." || strings.HasPrefix(name, "../"):
			add(codeEntryName, "entry %q is not a clean relative path", name)
			continue
		case seen[name]:
			add(codeEntryName, "entry %q appears more than once", name)
			continue
		}
		seen[name] = true
		if f.Method != zip.Store && f.Method != zip.Deflate {
			add(codeContainer, "entry %q uses compression method %d; ISO/IEC 21320-1 allows only stored and deflated entries", name, f.Method)
		}
		if f.Flags&0x1 != 0 {
			add(codeContainer, "entry %q is encrypted; ISO/IEC 21320-1 forbids encryption", name)
		}
		if f.NonUTF8 {
			add(codeContainer, "entry %q does not have a UTF-8 name", name)
		}
		var content []byte
		var n int64
		var err error
		if name == SignatureName || name == ManifestName {
			content, err = readEntry(f, left)
			n = int64(len(content))
		} else {
			n, err = drainEntry(f, left)
		}
		if errors.Is(err, errOverBudget) {
			container("the entries decompress to more than the %s budget (at entry %q); the rest of the archive was not read", safefs.Size(budget), name)
			return rep
		}
		if err != nil {
			container("entry %q cannot be read: %v", name, err)
			continue
		}
		left -= n
		switch name {
		case SignatureName:
			sig = content
			continue
		case ManifestName:
			manifest = content
		}
		files = append(files, archiveFile{name: name, size: n, open: f.Open})
	}
	sort.Slice(files, func(i, j int) bool { return files[i].name < files[j].name })

	trusted := true
	if sig != nil {
		rep.Signed = true
		rep.Mappers[SignatureName] = source.NewMapper(sig)
		trusted = rep.checkSigned(sig, files, opts, now)
	} else if opts.RequireSignature {
		rep.Problems = append(rep.Problems, Problem{Diagnostic: codeSignatureRequired.New(source.Range{}, "the assembly is not signed (no %s) and a signature is required", SignatureName)})
	}

	switch {
	case manifest == nil:
		rep.Problems = append(rep.Problems, Problem{Diagnostic: codeManifestMissing.New(source.Range{}, "the assembly has no %s at its root", ManifestName)})
	case !trusted:
		rep.Problems = append(rep.Problems, Problem{Diagnostic: codeNotLoaded.New(source.Range{}, "%s was not checked: the assembly's integrity or authenticity was not established", ManifestName)})
	default:
		m, ps := CheckManifest(manifest)
		rep.Manifest = m
		rep.Mappers[ManifestName] = source.NewMapper(manifest)
		rep.Problems = append(rep.Problems, ps...)
	}
	return rep
}

// VerifyBytes is Verify of an assembly held in memory.
func VerifyBytes(data []byte, opts VerifyOptions) *Report {
	return Verify(bytes.NewReader(data), int64(len(data)), opts)
}

// checkSigned checks signature.asc and the attestation it signs; it
// reports whether the assembly may be loaded.
func (rep *Report) checkSigned(sig []byte, files []archiveFile, opts VerifyOptions, now time.Time) bool {
	c := &checker{file: SignatureName, content: sig}
	s := c.checkSignature(sig, opts.TrustedKeys, opts.RequireSignature, now)
	// An attestation whose signature failed is not evidence of anything:
	// its contents are not checked, so one bad signature is one problem.
	if s != nil && !hasErrors(c.problems) {
		ac := &checker{file: SignatureName, content: s.attestation}
		at := ac.checkAttestation(s.attestation, files)
		if at.ok {
			// The timestamp's range is found again by the shift below.
			ac.checkKeyAt(s, at.timestamp, timestampRange(s.attestation))
		}
		for _, p := range ac.problems {
			if s.shift >= 0 {
				p.Range = source.R(p.Range.Start+s.shift, p.Range.End+s.shift)
			} else {
				p.Range = source.Range{}
			}
			c.problems = append(c.problems, p)
		}
		if s.signer != nil {
			rep.Signer = Identity(s.signer)
		}
	}
	ok := !hasErrors(c.problems)
	rep.Problems = append(rep.Problems, c.done()...)
	return ok
}

func hasErrors(ps []Problem) bool {
	for _, p := range ps {
		if p.Severity == source.Error {
			return true
		}
	}
	return false
}

func timestampRange(att []byte) source.Range {
	i := bytes.Index(att, []byte(`"timestamp"`))
	if i < 0 {
		return source.Range{}
	}
	return source.R(i, i+len(`"timestamp"`))
}

// drainEntry reads one entry through to its end without holding it, and
// returns its size: at most left bytes, as readEntry.
func drainEntry(f *zip.File, left int64) (int64, error) {
	if f.UncompressedSize64 > uint64(left) {
		return 0, errOverBudget
	}
	rc, err := f.Open()
	if err != nil {
		return 0, err
	}
	defer rc.Close()
	n, err := io.Copy(io.Discard, io.LimitReader(rc, left+1))
	if err != nil {
		return 0, err
	}
	if n > left {
		return 0, errOverBudget
	}
	return n, nil
}

// errOverBudget: the entry would take the archive past its budget.
var errOverBudget = errors.New("over the decompressed-size budget")

// readEntry reads one entry of at most left bytes: refused from its
// declared size, and stopped one byte past left when the declaration
// lies.
func readEntry(f *zip.File, left int64) ([]byte, error) {
	if f.UncompressedSize64 > uint64(left) {
		return nil, errOverBudget
	}
	rc, err := f.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	b, err := safefs.ReadAll(rc, f.Name, left)
	if errors.Is(err, safefs.ErrTooLarge) {
		return nil, errOverBudget
	}
	return b, err
}
