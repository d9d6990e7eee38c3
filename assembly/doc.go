// Package assembly owns Cloud Assemblies (spec/cloud-assembly-spec.txt):
// exporting a plan as a .cloud ZIP (Write), the attestation and its
// OpenPGP clear signature, and checking assemblies from anyone (Verify,
// CheckManifest) with every problem a coded diagnostic at its exact place
// in manifest.json or signature.asc.
//
// Invariants: a signed assembly's files are hashed and its signature
// verified before any file but signature.asc is parsed, and a manifest
// whose assembly fails those checks is never loaded. Logical IDs from
// LogicalIDs are valid, unique and a pure function of the resource names.
// Property strings are written through Escape, so only the tokens the
// writer means are tokens.
package assembly
