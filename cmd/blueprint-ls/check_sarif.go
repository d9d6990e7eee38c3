package main

import (
	"encoding/json"
	"io"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// SARIF 2.1.0 output (OASIS Static Analysis Results Interchange Format),
// the input of GitHub code scanning and most CI dashboards. Every
// diagnostic code reported is a rule; each diagnostic is a result.
// Columns are UTF-16 code units, SARIF's default columnKind, and endColumn
// is the column just past the region, so a half-open byte range maps
// directly.

const (
	informationURI = "https://github.com/blueprint-ls/blueprint-ls"
	diagnosticsURI = docsBase + "diagnostics.md"
	sarifSchemaURI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
	srcRoot        = "%SRCROOT%"
)

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool               sarifTool                   `json:"tool"`
	Invocations        []sarifInvocation           `json:"invocations"`
	OriginalURIBaseIDs map[string]sarifArtifactLoc `json:"originalUriBaseIds"`
	ColumnKind         string                      `json:"columnKind"`
	Results            []sarifResult               `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifText struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifRule struct {
	ID                   string           `json:"id"`
	ShortDescription     sarifText        `json:"shortDescription"`
	FullDescription      sarifText        `json:"fullDescription"`
	Help                 sarifText        `json:"help"`
	HelpURI              string           `json:"helpUri"`
	DefaultConfiguration sarifRuleDefault `json:"defaultConfiguration"`
}

type sarifRuleDefault struct {
	Level string `json:"level"`
}

type sarifInvocation struct {
	ExecutionSuccessful bool                `json:"executionSuccessful"`
	Notifications       []sarifNotification `json:"toolExecutionNotifications,omitempty"`
}

type sarifNotification struct {
	Level     string          `json:"level"`
	Message   sarifText       `json:"message"`
	Locations []sarifLocation `json:"locations"`
}

type sarifResult struct {
	RuleID           string          `json:"ruleId"`
	RuleIndex        int             `json:"ruleIndex"`
	Level            string          `json:"level"`
	Message          sarifText       `json:"message"`
	Locations        []sarifLocation `json:"locations"`
	RelatedLocations []sarifLocation `json:"relatedLocations,omitempty"`
	Fixes            []sarifFix      `json:"fixes,omitempty"`
}

type sarifLocation struct {
	ID               *int          `json:"id,omitempty"`
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
	Message          *sarifText    `json:"message,omitempty"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifactLoc `json:"artifactLocation"`
	Region           *sarifRegion     `json:"region,omitempty"`
}

type sarifArtifactLoc struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
	EndLine     int `json:"endLine"`
	EndColumn   int `json:"endColumn"`
}

type sarifFix struct {
	Description     sarifText             `json:"description"`
	ArtifactChanges []sarifArtifactChange `json:"artifactChanges"`
}

type sarifArtifactChange struct {
	ArtifactLocation sarifArtifactLoc   `json:"artifactLocation"`
	Replacements     []sarifReplacement `json:"replacements"`
}

type sarifReplacement struct {
	DeletedRegion   sarifRegion `json:"deletedRegion"`
	InsertedContent sarifText   `json:"insertedContent"`
}

func sarifLevel(s source.Severity) string {
	switch s {
	case source.Error:
		return "error"
	case source.Warning:
		return "warning"
	}
	return "note" // information and hint
}

// sarifRules builds one rule per diagnostic code the report contains, in
// code order, and the index results refer to. Listing only reported codes
// keeps a clean run's log small and its rule indexes independent of codes
// added elsewhere.
func sarifRules(rep *report) ([]sarifRule, map[string]int) {
	used := map[string]bool{}
	for _, r := range rep.files {
		for _, d := range r.diags {
			used[d.Code] = true
		}
	}
	var rules []sarifRule
	index := map[string]int{}
	for _, c := range source.Codes() {
		if !used[c.ID] {
			continue
		}
		index[c.ID] = len(rules)
		help := c.Summary
		md := c.Summary
		if c.Example != "" {
			help += "\n\nExample:\n\n" + strings.TrimRight(c.Example, "\n")
			md += "\n\nExample:\n\n```yaml\n" + strings.TrimRight(c.Example, "\n") + "\n```"
		}
		doc := diagnosticsURI + "#" + c.ID
		if c.Doc != "" {
			doc = c.Doc // a rule's own page (docs/rules.md)
		}
		md += "\n\n[Reference](" + doc + ")"
		rules = append(rules, sarifRule{
			ID:                   c.ID,
			ShortDescription:     sarifText{Text: c.Summary},
			FullDescription:      sarifText{Text: c.Summary},
			Help:                 sarifText{Text: help, Markdown: md},
			HelpURI:              doc,
			DefaultConfiguration: sarifRuleDefault{Level: sarifLevel(c.Severity)},
		})
	}
	if rules == nil {
		rules = []sarifRule{}
	}
	return rules, index
}

// artifact names a file relative to %SRCROOT% (the working directory)
// when it is below it, else by an absolute file URI.
func (rep *report) artifact(p string) sarifArtifactLoc {
	abs := p
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(rep.wd, p)
	}
	if rel := relSlash(rep.wd, abs); rel != "" {
		return sarifArtifactLoc{URI: (&url.URL{Path: rel}).EscapedPath(), URIBaseID: srcRoot}
	}
	return sarifArtifactLoc{URI: fileURI(abs)}
}

func fileURI(abs string) string {
	p := filepath.ToSlash(abs)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // a Windows drive letter
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

func sarifRegionOf(m *source.Mapper, r source.Range) sarifRegion {
	sl, sc := m.LineCol(r.Start, source.UTF16)
	el, ec := m.LineCol(r.End, source.UTF16)
	return sarifRegion{StartLine: sl, StartColumn: sc, EndLine: el, EndColumn: ec}
}

func writeSARIF(w io.Writer, rep *report) error {
	rules, index := sarifRules(rep)
	root := fileURI(rep.wd)
	if !strings.HasSuffix(root, "/") {
		root += "/"
	}
	run := sarifRun{
		Tool:               sarifTool{Driver: sarifDriver{Name: "blueprint-ls", Version: buildInfo().version, InformationURI: informationURI, Rules: rules}},
		OriginalURIBaseIDs: map[string]sarifArtifactLoc{srcRoot: {URI: root}},
		ColumnKind:         "utf16CodeUnits",
		Results:            []sarifResult{},
	}
	inv := sarifInvocation{ExecutionSuccessful: true}
	for _, r := range rep.files {
		art := rep.artifact(r.path)
		if r.err != nil {
			inv.ExecutionSuccessful = false
			inv.Notifications = append(inv.Notifications, sarifNotification{
				Level: "error", Message: sarifText{Text: r.err.Error()},
				Locations: []sarifLocation{{PhysicalLocation: sarifPhysical{ArtifactLocation: art}}},
			})
		}
		for _, d := range r.diags {
			reg := sarifRegionOf(r.mapper, d.Range)
			res := sarifResult{
				RuleID: d.Code, RuleIndex: index[d.Code], Level: sarifLevel(d.Severity),
				Message:   sarifText{Text: d.Message},
				Locations: []sarifLocation{{PhysicalLocation: sarifPhysical{ArtifactLocation: art, Region: &reg}}},
			}
			if _, ok := index[d.Code]; !ok {
				res.RuleIndex = -1 // an unregistered code (a bug): no rule to point at
			}
			for i, rel := range d.Related {
				id := i + 1
				p, m := r.relatedMapper(rel)
				loc := sarifLocation{ID: &id, Message: &sarifText{Text: rel.Message},
					PhysicalLocation: sarifPhysical{ArtifactLocation: rep.artifact(p)}}
				if m != nil {
					rr := sarifRegionOf(m, rel.Range)
					loc.PhysicalLocation.Region = &rr
				}
				res.RelatedLocations = append(res.RelatedLocations, loc)
			}
			for _, s := range d.Suggestions {
				if len(s.Edits) == 0 {
					continue
				}
				ch := sarifArtifactChange{ArtifactLocation: art}
				for _, e := range s.Edits {
					ch.Replacements = append(ch.Replacements, sarifReplacement{
						DeletedRegion: sarifRegionOf(r.mapper, e.Range), InsertedContent: sarifText{Text: e.NewText}})
				}
				res.Fixes = append(res.Fixes, sarifFix{Description: sarifText{Text: s.Title}, ArtifactChanges: []sarifArtifactChange{ch}})
			}
			run.Results = append(run.Results, res)
		}
	}
	run.Invocations = []sarifInvocation{inv}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(sarifLog{Schema: sarifSchemaURI, Version: "2.1.0", Runs: []sarifRun{run}})
}
