package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// The AWS service spec (npm package @aws-cdk/aws-service-spec,
// Apache-2.0): a database of every CloudFormation resource type with the
// documentation the CloudFormation resource schemas that cfn-lint
// redistributes leave out. Only the parts read here are declared; the
// reader checks their shape and refuses a database that differs, so a
// refresh against a reshaped release fails instead of writing a catalog
// without documentation.

// spec is the part of db.json the generator uses.
type spec struct {
	Version   string                   // package.json version, for messages
	Resources map[string]*specResource // by CloudFormation type name
	Types     map[string]*specTypeDef  // by $id
}

type specResource struct {
	ID                 string                   `json:"$id"`
	CloudFormationType string                   `json:"cloudFormationType"`
	Documentation      string                   `json:"documentation"`
	Properties         map[string]*specProperty `json:"properties"`
	Attributes         map[string]*specProperty `json:"attributes"`
	PrimaryIdentifier  []string                 `json:"primaryIdentifier"`
	// CloudFormationTransform names the macro that expands the type
	// (AWS::Serverless-2016-10-31 for AWS::Serverless::Function).
	CloudFormationTransform string `json:"cloudFormationTransform"`
}

type specTypeDef struct {
	ID            string                   `json:"$id"`
	Name          string                   `json:"name"`
	Documentation string                   `json:"documentation"`
	Properties    map[string]*specProperty `json:"properties"`
}

type specProperty struct {
	Type              *specType `json:"type"`
	Documentation     string    `json:"documentation"`
	Required          bool      `json:"required"`
	CausesReplacement string    `json:"causesReplacement"` // yes, maybe or absent
	DefaultValue      *string   `json:"defaultValue"`      // JSON text
	Deprecated        string    `json:"deprecated"`        // WARN, IGNORE or absent
}

// specType is a property's type: a primitive (string, integer, number,
// boolean, json, date-time, tag), a ref to a type definition, an array or
// map of an element type, or a union of types.
type specType struct {
	Type      string      `json:"type"`
	Element   *specType   `json:"element"`
	Types     []*specType `json:"types"`
	Reference *struct {
		Ref string `json:"$ref"`
	} `json:"reference"`
}

// readSpec reads db.json.gz from the unpacked package folder (holding
// package.json and db.json.gz) or from the .tgz `npm pack` writes.
func readSpec(src string) (*spec, error) {
	var db, pkg []byte
	if isTarGz(src) {
		files, err := readTarGz(src, func(name string) bool {
			return name == "package/db.json.gz" || name == "package/package.json"
		})
		if err != nil {
			return nil, err
		}
		db, pkg = files["package/db.json.gz"], files["package/package.json"]
	} else {
		var err error
		if db, err = os.ReadFile(filepath.Join(src, "db.json.gz")); err != nil {
			return nil, fmt.Errorf("service spec: %w (want the unpacked @aws-cdk/aws-service-spec package folder or its .tgz)", err)
		}
		pkg, _ = os.ReadFile(filepath.Join(src, "package.json"))
	}
	if db == nil {
		return nil, fmt.Errorf("service spec %s: no package/db.json.gz inside", src)
	}
	zr, err := gzip.NewReader(bytes.NewReader(db))
	if err != nil {
		return nil, fmt.Errorf("service spec db.json.gz: %w", err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("service spec db.json.gz: %w", err)
	}
	s, err := parseSpec(raw)
	if err != nil {
		return nil, err
	}
	var meta struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	}
	if json.Unmarshal(pkg, &meta) == nil {
		if meta.Name != "" && meta.Name != "@aws-cdk/aws-service-spec" {
			return nil, fmt.Errorf("service spec: package is %s, want @aws-cdk/aws-service-spec", meta.Name)
		}
		s.Version = meta.Version
	}
	return s, nil
}

// parseSpec decodes db.json and checks the shape the generator relies
// on; every departure is reported with where it is.
func parseSpec(raw []byte) (*spec, error) {
	var db struct {
		Schema *struct {
			Resource *struct {
				Entities []*specResource `json:"entities"`
			} `json:"resource"`
			TypeDefinition *struct {
				Entities []*specTypeDef `json:"entities"`
			} `json:"typeDefinition"`
		} `json:"schema"`
	}
	if err := json.Unmarshal(raw, &db); err != nil {
		return nil, fmt.Errorf("service spec: not the expected shape: %w", err)
	}
	if db.Schema == nil || db.Schema.Resource == nil || db.Schema.TypeDefinition == nil {
		return nil, fmt.Errorf("service spec: not the expected shape: want schema.resource.entities and schema.typeDefinition.entities")
	}
	s := &spec{Resources: map[string]*specResource{}, Types: map[string]*specTypeDef{}}
	for i, td := range db.Schema.TypeDefinition.Entities {
		if td == nil || td.ID == "" || td.Name == "" {
			return nil, fmt.Errorf("service spec: typeDefinition %d has no $id or name", i)
		}
		for n, p := range td.Properties {
			if err := checkProperty(p); err != nil {
				return nil, fmt.Errorf("service spec: type %s (%s) property %s: %w", td.Name, td.ID, n, err)
			}
		}
		s.Types[td.ID] = td
	}
	for i, r := range db.Schema.Resource.Entities {
		if r == nil || strings.Count(r.CloudFormationType, "::") != 2 {
			return nil, fmt.Errorf("service spec: resource %d has no cloudFormationType of the form A::B::C", i)
		}
		if _, dup := s.Resources[r.CloudFormationType]; dup {
			return nil, fmt.Errorf("service spec: %s appears twice", r.CloudFormationType)
		}
		for _, group := range []map[string]*specProperty{r.Properties, r.Attributes} {
			for n, p := range group {
				if err := checkProperty(p); err != nil {
					return nil, fmt.Errorf("service spec: %s %s: %w", r.CloudFormationType, n, err)
				}
			}
		}
		s.Resources[r.CloudFormationType] = r
	}
	if len(s.Resources) == 0 {
		return nil, fmt.Errorf("service spec: no resources (schema.resource.entities is empty)")
	}
	// Every reference must lead to a type definition.
	for _, r := range s.Resources {
		for n, p := range r.Properties {
			if err := s.checkRefs(p.Type); err != nil {
				return nil, fmt.Errorf("service spec: %s %s: %w", r.CloudFormationType, n, err)
			}
		}
	}
	return s, nil
}

func checkProperty(p *specProperty) error {
	if p == nil || p.Type == nil {
		return fmt.Errorf("no type")
	}
	return checkType(p.Type, 0)
}

func checkType(t *specType, depth int) error {
	if t == nil || depth > 16 {
		return fmt.Errorf("type missing or nested too deep")
	}
	switch t.Type {
	case "ref":
		if t.Reference == nil || t.Reference.Ref == "" {
			return fmt.Errorf("ref type without reference.$ref")
		}
	case "array", "map":
		return checkType(t.Element, depth+1)
	case "union":
		if len(t.Types) == 0 {
			return fmt.Errorf("union type without types")
		}
		for _, u := range t.Types {
			if err := checkType(u, depth+1); err != nil {
				return err
			}
		}
	case "":
		return fmt.Errorf("type without a kind")
	}
	return nil
}

func (s *spec) checkRefs(t *specType) error {
	switch t.Type {
	case "ref":
		if s.Types[t.Reference.Ref] == nil {
			return fmt.Errorf("reference %s leads to no type definition", t.Reference.Ref)
		}
	case "array", "map":
		return s.checkRefs(t.Element)
	case "union":
		for _, u := range t.Types {
			if err := s.checkRefs(u); err != nil {
				return err
			}
		}
	}
	return nil
}

// typeDef returns the definition a ref (possibly inside arrays and maps)
// leads to; nil for other types.
func (s *spec) typeDef(t *specType) *specTypeDef {
	for t != nil && (t.Type == "array" || t.Type == "map") {
		t = t.Element
	}
	if t == nil || t.Type != "ref" {
		return nil
	}
	return s.Types[t.Reference.Ref]
}
