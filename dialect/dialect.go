package dialect

// Kind identifies a dialect.
type Kind int

const (
	// Unknown is a document of no known dialect (a GitHub workflow, a
	// Kubernetes manifest, a Compose file): it gets no diagnostics and no
	// blueprint features.
	Unknown Kind = iota
	// Bluelink is a Bluelink (Celerity) blueprint.
	Bluelink
	// Manifest is a Cloud Assembly manifest (JSON whose top-level
	// "schema" starts with "cloud-assembly/").
	Manifest
	// Config is the project config, .blueprint-ls.yaml.
	Config
	// Landscaper is a Gardener Landscaper blueprint or installation
	// template (apiVersion landscaper.gardener.cloud/..., kind Blueprint
	// or InstallationTemplate).
	Landscaper
	// ProviderSchema is a CloudFormation resource schema of a provider
	// directory (JSON whose top level has typeName and properties),
	// checked against the Resource Provider Definition meta-schema.
	ProviderSchema
)

// Dialect is what one kind of document knows about itself.
type Dialect struct {
	Kind Kind
	// Name names the kind in messages ("a Cloud Assembly manifest").
	Name string
	// Source is the source of the dialect's diagnostics when it is not
	// the server's own ("" for blueprints and configs).
	Source string
	// Blueprint says whether blueprint analysis and the blueprint
	// features (completion, hover, rename, ...) apply.
	Blueprint bool
	// Formatted says whether the blueprint formatter applies (to every
	// dialect of ours; a document of no known dialect keeps its own style).
	Formatted bool
	// Sections are the top-level sections that hold named definitions,
	// in the spec's order (nil when Blueprint is false).
	Sections []Section
}

// The dialects.
var (
	UnknownDialect  = &Dialect{Kind: Unknown, Name: "a document of no known kind"}
	BluelinkDialect = &Dialect{Kind: Bluelink, Name: "a Bluelink blueprint", Blueprint: true, Formatted: true,
		Sections: []Section{Variables, Values, DataSources, Resources, Include, Exports}}
	ManifestDialect = &Dialect{Kind: Manifest, Name: "a Cloud Assembly manifest", Source: "cloud-assembly", Formatted: true}
	ConfigDialect   = &Dialect{Kind: Config, Name: "a project config", Formatted: true}
	// LandscaperDialect has its own analysis (package landscaper); the
	// Bluelink features do not apply to it.
	LandscaperDialect = &Dialect{Kind: Landscaper, Name: "a Landscaper blueprint", Source: "landscaper", Formatted: true}
	// ProviderSchemaDialect is checked by package resschema; the
	// blueprint formatter leaves its JSON alone.
	ProviderSchemaDialect = &Dialect{Kind: ProviderSchema, Name: "a provider resource schema", Source: "provider-schema"}
)

// Of returns the dialect of kind k.
func Of(k Kind) *Dialect {
	switch k {
	case Bluelink:
		return BluelinkDialect
	case Manifest:
		return ManifestDialect
	case Config:
		return ConfigDialect
	case Landscaper:
		return LandscaperDialect
	case ProviderSchema:
		return ProviderSchemaDialect
	}
	return UnknownDialect
}

func (k Kind) String() string {
	switch k {
	case Bluelink:
		return "bluelink"
	case Manifest:
		return "manifest"
	case Config:
		return "config"
	case Landscaper:
		return "landscaper"
	case ProviderSchema:
		return "provider-schema"
	}
	return "unknown"
}

// Section is one top-level section of a blueprint that holds named
// definitions.
type Section int

const (
	NoSection   Section = iota
	Variables           // variables: inputs
	Values              // values: static and computed values
	DataSources         // datasources: data from outside the blueprint
	Resources           // resources: what the blueprint deploys
	Include             // include: child blueprints
	Exports             // exports: fields exported from the blueprint
)

// sectionRow is one row of the section table.
type sectionRow struct {
	key       string // the top-level key
	namespace string // the reference keyword of its definitions ("" for none)
	doc       string // one sentence for hover and completion
}

// sectionTable is the one table of section keys.
var sectionTable = [...]sectionRow{
	Variables:   {"variables", "variables", "Inputs to the blueprint, keyed by name."},
	Values:      {"values", "values", "Static and computed values, keyed by name."},
	DataSources: {"datasources", "datasources", "Data sourced from outside the blueprint, keyed by name."},
	Resources:   {"resources", "resources", "The resources the blueprint deploys, keyed by name."},
	Include:     {"include", "children", "Child blueprints, keyed by name."},
	Exports:     {"exports", "", "Fields exported from the blueprint, keyed by name."},
}

// Key is the section's top-level key ("datasources").
func (s Section) Key() string { return s.row().key }

// Namespace is the keyword references to the section's definitions start
// with ("children" for include; "" for exports, which nothing references).
func (s Section) Namespace() string { return s.row().namespace }

// Doc is one sentence describing the section.
func (s Section) Doc() string { return s.row().doc }

func (s Section) String() string { return s.Key() }

func (s Section) row() sectionRow {
	if s <= NoSection || int(s) >= len(sectionTable) {
		return sectionRow{}
	}
	return sectionTable[s]
}

// SectionOf returns the section whose key is key, or NoSection.
func SectionOf(key string) Section {
	for s := Variables; int(s) < len(sectionTable); s++ {
		if sectionTable[s].key == key {
			return s
		}
	}
	return NoSection
}
