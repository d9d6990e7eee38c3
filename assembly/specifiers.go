package assembly

import (
	"strings"

	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// BlueprintProtocol is the type specifier protocol of the droplets this
// package writes: "bluelink://aws/lambda/function" for a resource of type
// aws/lambda/function, deployed by a Bluelink deploy engine.
const BlueprintProtocol = "bluelink"

var (
	codeTypeSpecifier = source.NewCode("assembly-type-specifier", source.Error,
		"A droplet's type is not a URI-like protocol://path specifier, or breaks the format of its protocol.",
		`"type": "StackDroplet"`)
	codeEnvironment = source.NewCode("assembly-environment", source.Error,
		"A droplet's environment is not a URI-like protocol://path string, or breaks the format of its protocol.",
		`"environment": "aws://eu-west-1"`)
)

// splitURI splits a URI-like "protocol://path" string.
func splitURI(s string) (proto, path string, ok bool) {
	proto, path, ok = strings.Cut(s, "://")
	if !ok || proto == "" || path == "" {
		return "", "", false
	}
	for i := 0; i < len(proto); i++ {
		c := proto[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return "", "", false
		}
	}
	return proto, path, true
}

type npmSpec struct {
	namespace, pkg, class, version string
}

func (s npmSpec) namespacePackage() string {
	if s.namespace != "" {
		return s.namespace + "/" + s.pkg
	}
	return s.pkg
}

// parseNPM parses the path of an npm type specifier,
// [@namespace/]package/ClassName[@version]. The spec's own examples
// separate the class with "." (npm://@aws-cdk/assets.FileDroplet), so
// package.ClassName is accepted as well.
func parseNPM(p string) (npmSpec, bool) {
	var s npmSpec
	if strings.HasPrefix(p, "@") {
		ns, rest, ok := strings.Cut(p, "/")
		if !ok || len(ns) < 2 {
			return s, false
		}
		s.namespace, p = ns, rest
	}
	if i := strings.LastIndexByte(p, '@'); i > 0 {
		s.version, p = p[i+1:], p[:i]
		if s.version == "" {
			return s, false
		}
	}
	if pkg, class, ok := strings.Cut(p, "/"); ok {
		s.pkg, s.class = pkg, class
	} else if i := strings.LastIndexByte(p, '.'); i >= 0 {
		s.pkg, s.class = p[:i], p[i+1:]
	}
	if s.pkg == "" || !npmName(s.pkg) || !npmName(strings.TrimPrefix(s.namespace, "@")) || !className(s.class) {
		return s, false
	}
	return s, true
}

func npmName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~') {
			return false
		}
	}
	return true
}

// className reports whether s is a fully qualified class name: dotted
// identifiers.
func className(s string) bool {
	if s == "" {
		return false
	}
	for _, part := range strings.Split(s, ".") {
		if part == "" {
			return false
		}
		for i := 0; i < len(part); i++ {
			c := part[i]
			if !(c == '_' || c == '$' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && '0' <= c && c <= '9') {
				return false
			}
		}
	}
	return true
}

func (c *checker) typeSpecifier(s *schema.Scalar, path string) {
	proto, p, ok := splitURI(s.Value)
	switch {
	case !ok:
		c.add(path, codeTypeSpecifier.New(s.Rng, "type %q is not a type specifier of the form protocol://path", s.Value))
	case proto == "npm":
		if _, ok := parseNPM(p); !ok {
			c.add(path, codeTypeSpecifier.New(s.Rng, "npm type %q does not match npm://[@namespace/]package/ClassName[@version]", s.Value))
		}
	case proto == BlueprintProtocol:
		for _, seg := range strings.Split(p, "/") {
			if seg == "" {
				c.add(path, codeTypeSpecifier.New(s.Rng, "%s type %q has an empty path segment", BlueprintProtocol, s.Value))
				return
			}
		}
	}
}

func (c *checker) environment(s *schema.Scalar, path string) {
	proto, p, ok := splitURI(s.Value)
	switch {
	case !ok:
		c.add(path, codeEnvironment.New(s.Rng, "environment %q is not of the form protocol://path", s.Value))
	case proto == "aws":
		account, region, ok := strings.Cut(p, "/")
		if !ok || !awsAccount(account) || !awsRegion(region) {
			c.add(path, codeEnvironment.New(s.Rng, "aws environment %q does not match aws://account/region (a 12-digit account ID and a region such as eu-west-1)", s.Value))
		}
	}
}

func awsAccount(s string) bool {
	if len(s) != 12 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// awsRegion accepts names such as eu-west-1, us-gov-east-1 and the spec's
// bermuda-triangle-1: lower-case words joined by "-", ending in a number.
func awsRegion(s string) bool {
	parts := strings.Split(s, "-")
	if len(parts) < 2 {
		return false
	}
	for i, part := range parts {
		if part == "" {
			return false
		}
		for j := 0; j < len(part); j++ {
			c := part[j]
			last := i == len(parts)-1
			if last && (c < '0' || c > '9') || !last && (c < 'a' || c > 'z') {
				return false
			}
		}
	}
	return true
}
