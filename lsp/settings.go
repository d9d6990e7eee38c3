package lsp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// settingsSection is the configuration section the server asks for with
// workspace/configuration and looks for in initializationOptions and
// didChangeConfiguration.
const settingsSection = "blueprint"

// defaultDebounce is the delay between the last edit and full analysis:
// none, the analysis starts with the edit and a newer edit cancels it.
const defaultDebounce = 0

// Settings are the user's options. A Settings value is immutable once
// published in a view: updates build a new one.
type Settings struct {
	// ProviderDirs are extra directories of provider schemas.
	ProviderDirs []string `json:"providerDirs,omitempty"`
	// Severity overrides a diagnostic code's severity: "error", "warning",
	// "information" (or "info"), "hint", or "off" to hide it.
	Severity map[string]string `json:"severity,omitempty"`
	// DebounceMS is a delay in milliseconds before full analysis; nil
	// means the default (0: analyse at once, cancelling stale work).
	DebounceMS *int `json:"debounceMs,omitempty"`
	// InlayHints turns inlay hints on or off; nil means on.
	InlayHints *bool `json:"inlayHints,omitempty"`
	// PlanInputs are files of variable values for evaluation and the plan
	// preview (later files win).
	PlanInputs []string `json:"planInputs,omitempty"`
	// PlanVariables are variable values that win over PlanInputs.
	PlanVariables map[string]json.RawMessage `json:"planVariables,omitempty"`
	// PlanDataFiles are data source fixtures for the plan preview.
	PlanDataFiles []string `json:"planDataFiles,omitempty"`
	// PlanStateFile is the prior deployment state a plan diffs against.
	PlanStateFile string `json:"planStateFile,omitempty"`
	// DeployConfigFile names the deploy configuration explicitly (an
	// environment's file such as bluelink.deploy.staging.jsonc): absolute,
	// or relative and probed from the blueprint's folder upwards.
	DeployConfigFile string `json:"deployConfigFile,omitempty"`
	// DeployConfigFileNames replace the conventional deploy configuration
	// names probed in each folder (package deployconfig).
	DeployConfigFileNames []string `json:"deployConfigFileNames,omitempty"`
	// Plugins turn on the Bluelink provider plugins (plugins.go).
	Plugins *PluginSettings `json:"plugins,omitempty"`
}

// Debounce returns the configured delay before full analysis.
func (s *Settings) Debounce() time.Duration {
	if s == nil || s.DebounceMS == nil || *s.DebounceMS < 0 {
		return defaultDebounce
	}
	return time.Duration(*s.DebounceMS) * time.Millisecond
}

// InlayHintsEnabled reports whether inlay hints are on.
func (s *Settings) InlayHintsEnabled() bool {
	return s == nil || s.InlayHints == nil || *s.InlayHints
}

// severityFor applies the override for code; ok is false when the code is
// turned off.
func (s *Settings) severityFor(code string, def source.Severity) (sev source.Severity, ok bool) {
	if s == nil || s.Severity == nil {
		return def, true
	}
	v, found := s.Severity[code]
	if !found {
		return def, true
	}
	if strings.EqualFold(v, "off") || strings.EqualFold(v, "none") {
		return 0, false
	}
	if sev, ok := source.ParseSeverity(strings.ToLower(v)); ok {
		return sev, true
	}
	return def, true
}

// parseSettings reads settings from any JSON a client may send: the
// settings object itself or one wrapped in {"blueprint": {...}}. Fields of
// the wrong type are skipped with a note in problems rather than
// discarding the whole object; null, missing or non-object input yields
// nil settings (meaning "no opinion").
func parseSettings(raw []byte) (s *Settings, problems []string) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return nil, nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, []string{fmt.Sprintf("settings: %v", err)}
	}
	if inner, ok := obj[settingsSection]; ok {
		return parseSettings(inner)
	}
	s = &Settings{}
	field := func(name string, dst any) {
		v, ok := obj[name]
		if !ok || bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
			return
		}
		if err := json.Unmarshal(v, dst); err != nil {
			problems = append(problems, fmt.Sprintf("settings: %s: %v", name, err))
		}
	}
	field("providerDirs", &s.ProviderDirs)
	if s.ProviderDirs == nil {
		field("providers", &s.ProviderDirs) // the name the issue uses
	}
	field("severity", &s.Severity)
	field("debounceMs", &s.DebounceMS)
	field("inlayHints", &s.InlayHints)
	field("planInputs", &s.PlanInputs)
	field("planVariables", &s.PlanVariables)
	field("planDataFiles", &s.PlanDataFiles)
	field("planStateFile", &s.PlanStateFile)
	field("deployConfigFile", &s.DeployConfigFile)
	field("deployConfigFileNames", &s.DeployConfigFileNames)
	field("plugins", &s.Plugins)
	return s, problems
}

// merge returns s with every field o sets replacing s's.
func (s *Settings) merge(o *Settings) *Settings {
	out := &Settings{}
	if s != nil {
		*out = *s
	}
	if o == nil {
		return out
	}
	if o.ProviderDirs != nil {
		out.ProviderDirs = o.ProviderDirs
	}
	if o.Severity != nil {
		out.Severity = o.Severity
	}
	if o.DebounceMS != nil {
		out.DebounceMS = o.DebounceMS
	}
	if o.InlayHints != nil {
		out.InlayHints = o.InlayHints
	}
	if o.PlanInputs != nil {
		out.PlanInputs = o.PlanInputs
	}
	if o.PlanVariables != nil {
		out.PlanVariables = o.PlanVariables
	}
	if o.PlanDataFiles != nil {
		out.PlanDataFiles = o.PlanDataFiles
	}
	if o.PlanStateFile != "" {
		out.PlanStateFile = o.PlanStateFile
	}
	if o.DeployConfigFile != "" {
		out.DeployConfigFile = o.DeployConfigFile
	}
	if o.DeployConfigFileNames != nil {
		out.DeployConfigFileNames = o.DeployConfigFileNames
	}
	if o.Plugins != nil {
		out.Plugins = o.Plugins
	}
	return out
}
