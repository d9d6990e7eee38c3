package landscaper

import (
	"bytes"
	"encoding/json"
	"strconv"

	"go.yaml.in/yaml/v3"
)

// YAML is r as a YAML document: deployItems, exports, subinstallations
// and, when something was not evaluated, unknown.
func (r *Rendered) YAML() ([]byte, error) {
	doc := struct {
		DeployItems      any       `yaml:"deployItems"`
		Exports          any       `yaml:"exports"`
		Subinstallations any       `yaml:"subinstallations"`
		Unknown          []Unknown `yaml:"unknown,omitempty"`
	}{yamlValue(r.DeployItems), yamlValue(r.Exports), yamlValue(r.Subinstallations), r.Unknown}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	err := enc.Close()
	return b.Bytes(), err
}

// JSON is r as indented JSON.
func (r *Rendered) JSON() ([]byte, error) {
	data, err := json.MarshalIndent(r, "", "  ")
	return append(data, '\n'), err
}

// yamlValue is v with its numbers as the YAML encoder writes them.
func yamlValue(v any) any {
	return mapNumbers(v, func(n json.Number) any {
		if i, err := strconv.ParseInt(string(n), 10, 64); err == nil {
			return i
		}
		f, _ := n.Float64()
		return f
	})
}
