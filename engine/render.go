package engine

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/eval"
	"github.com/blueprint-ls/blueprint-ls/funcs"
)

// symbols are the action markers of the text and markdown renderings.
var symbols = map[Action]string{
	Create:  "+",
	Update:  "~",
	Replace: "-/+",
	Delete:  "-",
	Retain:  "~/-",
	NoOp:    " ",
}

var phrases = map[Action]string{
	Create:  "will be created",
	Update:  "will be updated in place",
	Replace: "must be replaced",
	Delete:  "will be deleted",
	Retain:  "will be detached and retained",
	NoOp:    "is unchanged",
}

// String renders the summary line: "3 to create, 1 to update, 1 to
// replace, 0 to delete", with retained and unchanged resources when there
// are any.
func (s Summary) String() string {
	out := fmt.Sprintf("%d to create, %d to update, %d to replace, %d to delete", s.Create, s.Update, s.Replace, s.Delete)
	if s.Retain > 0 {
		out += fmt.Sprintf(", %d to detach and retain", s.Retain)
	}
	if s.NoOp > 0 {
		out += fmt.Sprintf(" (%d unchanged)", s.NoOp)
	}
	return out
}

// A Styler decorates the parts of the text rendering that carry an action
// — a resource's symbol and name, the marker of a field or export change —
// so that a terminal can colour them by action. It returns s wrapped
// (in ANSI escapes, say); nil leaves the text plain.
type Styler func(a Action, s string) string

// TextStyled is Text with the action-bearing parts passed through style
// (see Styler); with a nil style it is Text.
func TextStyled(p *Plan, style Styler) string {
	if style == nil {
		style = func(_ Action, s string) string { return s }
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Plan for %s\n", displayPath(p.Path))
	writeText(&b, p, "", style)
	fmt.Fprintf(&b, "\nPlan: %s.\n", p.Summary())
	return b.String()
}

func writeText(b *strings.Builder, p *Plan, indent string, style Styler) {
	changed := 0
	for _, r := range p.Resources {
		if r.Action != NoOp {
			changed++
		}
	}
	if changed == 0 {
		fmt.Fprintf(b, "\n%sNo resource changes.\n", indent)
	} else {
		fmt.Fprintf(b, "\n%sResources:\n", indent)
	}
	grouped := map[string]bool{}
	for _, r := range p.Resources {
		if r.Action == NoOp {
			continue
		}
		if r.From == "" {
			writeResource(b, r, indent, style)
			continue
		}
		// The resources a transformer made from one abstract resource,
		// under it, where the first of them comes.
		if grouped[r.From] {
			continue
		}
		grouped[r.From] = true
		fmt.Fprintf(b, "%s  %s (%s), transformed into:\n", indent, r.From, r.FromType)
		for _, m := range p.Resources {
			if m.From == r.From && m.Action != NoOp {
				writeResource(b, m, indent+"  ", style)
			}
		}
	}
	if len(p.Stages) > 0 {
		fmt.Fprintf(b, "\n%sStages:\n", indent)
		for i, s := range p.Stages {
			fmt.Fprintf(b, "%s  %d. %s\n", indent, i+1, strings.Join(s, ", "))
		}
	}
	if len(p.Links) > 0 {
		fmt.Fprintf(b, "\n%sLinks:\n", indent)
		for _, l := range p.Links {
			fmt.Fprintf(b, "%s  %s\n", indent, l.String())
		}
	}
	if len(p.Exports) > 0 {
		fmt.Fprintf(b, "\n%sExports:\n", indent)
		for _, e := range p.Exports {
			switch e.Action {
			case Create:
				fmt.Fprintf(b, "%s  %s: %s\n", indent, style(Create, "+ "+e.Name), eval.Text(e.After))
			case Update:
				fmt.Fprintf(b, "%s  %s: %s -> %s\n", indent, style(Update, "~ "+e.Name), eval.Text(e.Before), eval.Text(e.After))
			case Delete:
				fmt.Fprintf(b, "%s  %s: %s\n", indent, style(Delete, "- "+e.Name), eval.Text(e.Before))
			default:
				fmt.Fprintf(b, "%s    %s: %s (unchanged)\n", indent, e.Name, eval.Text(e.After))
			}
		}
	}
	for _, c := range p.Children {
		fmt.Fprintf(b, "\n%sChild blueprint %s (%s):\n", indent, c.Name, displayPath(c.Path))
		if c.Plan == nil {
			fmt.Fprintf(b, "%s  not loaded; see the blueprint's diagnostics\n", indent)
			continue
		}
		writeText(b, c.Plan, indent+"  ", style)
	}
}

// writeResource writes one resource change and its fields.
func writeResource(b *strings.Builder, r *ResourceChange, indent string, style Styler) {
	fmt.Fprintf(b, "%s  %s (%s) %s", indent, style(r.Action, symbols[r.Action]+" "+r.Name), r.Type, phrases[r.Action])
	if r.Conditional {
		b.WriteString(" if its condition holds (known after deploy)")
	}
	if r.Stage > 0 {
		fmt.Fprintf(b, " [stage %d]", r.Stage)
	}
	b.WriteByte('\n')
	if r.Reason != "" {
		fmt.Fprintf(b, "%s      # %s\n", indent, r.Reason)
	}
	switch r.Action {
	case Create:
		for _, f := range flatten(r.Spec) {
			fmt.Fprintf(b, "%s      %s: %s\n", indent, f.path, eval.Text(f.v))
		}
	case Update, Replace:
		for _, c := range r.Changes {
			fmt.Fprintf(b, "%s      %s\n", indent, styledChangeLine(c, style))
		}
	}
}

func changeLine(c *FieldChange) string {
	return styledChangeLine(c, func(_ Action, s string) string { return s })
}

// styledChangeLine renders a field change, its marker and path styled by
// what happens to the field (added: Create, removed: Delete, changed:
// Update) and the note of a change that forces replacement by Replace.
func styledChangeLine(c *FieldChange, style Styler) string {
	var s string
	switch {
	case c.Added:
		s = fmt.Sprintf("%s: %s", style(Create, "+ "+c.Path), eval.Text(c.After))
	case c.Removed:
		s = fmt.Sprintf("%s: %s", style(Delete, "- "+c.Path), eval.Text(c.Before))
	default:
		s = fmt.Sprintf("%s: %s -> %s", style(Update, "~ "+c.Path), eval.Text(c.Before), eval.Text(c.After))
	}
	if c.ForcesReplacement {
		s += "  " + style(Replace, "# forces replacement")
	}
	return s
}

type flatField struct {
	path string
	v    funcs.Value
}

// flatten lists a spec's fields as dotted paths; arrays and masked or
// unknown values stay whole.
func flatten(v funcs.Value) []flatField {
	var out []flatField
	var walk func(path []pathSeg, v funcs.Value)
	walk = func(path []pathSeg, v funcs.Value) {
		m, ok := v.Map()
		if !ok || (v.Sensitive() && !anySensitive(m)) || m.Len() == 0 && len(path) > 0 {
			out = append(out, flatField{formatPath(path), v})
			return
		}
		for i := range m.Len() {
			k, e := m.At(i)
			walk(append(path, pathSeg{key: k}), e)
		}
	}
	walk(nil, v)
	return out
}

func anySensitive(m *funcs.Map) bool {
	for _, e := range m.Values() {
		if e.Sensitive() {
			return true
		}
	}
	return false
}

// displayPath shows a path relative to the working directory when it is
// below it.
func displayPath(p string) string {
	if p == "" {
		return "<blueprint>"
	}
	if filepath.IsAbs(p) {
		if wd, err := filepath.Abs("."); err == nil {
			if rel, err := filepath.Rel(wd, p); err == nil && !strings.HasPrefix(rel, "..") {
				return filepath.ToSlash(rel)
			}
		}
	}
	return filepath.ToSlash(p)
}

// Markdown renders the plan as markdown for the editor's plan preview: a
// summary, a table of resource changes, the field changes, the stages,
// the exports and the children's plans.
func Markdown(p *Plan) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## Plan for `%s`\n\n**%s**\n", displayPath(p.Path), p.Summary())
	writeMarkdown(&b, p, "###")
	return b.String()
}

func writeMarkdown(b *strings.Builder, p *Plan, h string) {
	var rows []*ResourceChange
	for _, r := range p.Resources {
		if r.Action != NoOp {
			rows = append(rows, r)
		}
	}
	if len(rows) == 0 {
		b.WriteString("\nNo resource changes.\n")
	} else {
		fmt.Fprintf(b, "\n%s Resources\n\n| | Resource | Type | Action | Stage | Notes |\n|---|---|---|---|---|---|\n", h)
		for _, r := range rows {
			stage := ""
			if r.Stage > 0 {
				stage = fmt.Sprint(r.Stage)
			}
			note := r.Reason
			if r.Conditional {
				note = strings.TrimPrefix(note+"; only if its condition holds (known after deploy)", "; ")
			}
			if r.From != "" {
				note = strings.TrimPrefix(note+"; transformed from "+r.From+" ("+r.FromType+")", "; ")
			}
			fmt.Fprintf(b, "| `%s` | `%s` | `%s` | %s | %s | %s |\n", symbols[r.Action], cell(r.Name), cell(r.Type), r.Action, stage, cell(note))
		}
		for _, r := range rows {
			var lines []string
			switch r.Action {
			case Create:
				for _, f := range flatten(r.Spec) {
					lines = append(lines, fmt.Sprintf("%s: %s", f.path, eval.Text(f.v)))
				}
			case Update, Replace:
				for _, c := range r.Changes {
					lines = append(lines, changeLine(c))
				}
			}
			if len(lines) > 0 {
				fmt.Fprintf(b, "\n<details><summary><code>%s</code> %s</summary>\n\n```\n%s\n```\n\n</details>\n", r.Name, phrases[r.Action], strings.Join(lines, "\n"))
			}
		}
	}
	if len(p.Stages) > 0 {
		fmt.Fprintf(b, "\n%s Stages\n\n", h)
		for i, s := range p.Stages {
			fmt.Fprintf(b, "%d. `%s`\n", i+1, strings.Join(s, "`, `"))
		}
	}
	if len(p.Links) > 0 {
		fmt.Fprintf(b, "\n%s Links\n\n", h)
		for _, l := range p.Links {
			fmt.Fprintf(b, "- `%s`\n", l.String())
		}
	}
	if len(p.Exports) > 0 {
		fmt.Fprintf(b, "\n%s Exports\n\n| Export | Action | Before | After |\n|---|---|---|---|\n", h)
		for _, e := range p.Exports {
			before, after := "", ""
			if e.Action != Create {
				before = "`" + cell(eval.Text(e.Before)) + "`"
			}
			if e.Action != Delete {
				after = "`" + cell(eval.Text(e.After)) + "`"
			}
			fmt.Fprintf(b, "| `%s` | %s | %s | %s |\n", cell(e.Name), e.Action, before, after)
		}
	}
	for _, c := range p.Children {
		fmt.Fprintf(b, "\n%s Child blueprint `%s` (`%s`)\n", h, c.Name, displayPath(c.Path))
		if c.Plan == nil {
			b.WriteString("\nNot loaded; see the blueprint's diagnostics.\n")
			continue
		}
		writeMarkdown(b, c.Plan, h+"#")
	}
}

// String is the link as the plan shows it: "a → b (x/a::x/b)", with ",
// by reference" when a reference made it.
func (l *PlannedLink) String() string {
	s := l.From + " → " + l.To + " (" + l.Type
	if l.Via == "reference" {
		s += ", by reference"
	}
	return s + ")"
}

func cell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ", "`", "'").Replace(s)
}

// JSON renders the plan in the stable shape docs/plan.md documents.
// Values are masked and marked as eval.JSON does.
func JSON(p *Plan) []byte {
	data, _ := json.MarshalIndent(toJSON(p), "", "  ")
	return append(data, '\n')
}

type jsonPlan struct {
	Path      string         `json:"path"`
	Summary   jsonSummary    `json:"summary"`
	Stages    [][]string     `json:"stages"`
	Links     []jsonLink     `json:"links,omitempty"`
	Resources []jsonResource `json:"resources"`
	Exports   []jsonExport   `json:"exports"`
	Children  []jsonChild    `json:"children"`
}

type jsonSummary struct {
	Create  int `json:"create"`
	Update  int `json:"update"`
	Replace int `json:"replace"`
	Delete  int `json:"delete"`
	Retain  int `json:"retain"`
	NoOp    int `json:"noop"`
}

type jsonResource struct {
	Name          string          `json:"name"`
	Type          string          `json:"type"`
	Action        Action          `json:"action"`
	Reason        string          `json:"reason,omitempty"`
	Conditional   bool            `json:"conditional,omitempty"`
	Stage         int             `json:"stage"`
	DependsOn     []string        `json:"dependsOn"`
	RemovalPolicy string          `json:"removalPolicy"`
	Spec          json.RawMessage `json:"spec"`
	Changes       []jsonChange    `json:"changes"`
	From          string          `json:"from,omitempty"`
	FromType      string          `json:"fromType,omitempty"`
}

type jsonChange struct {
	Path              string          `json:"path"`
	Before            json.RawMessage `json:"before"`
	After             json.RawMessage `json:"after"`
	Added             bool            `json:"added,omitempty"`
	Removed           bool            `json:"removed,omitempty"`
	ForcesReplacement bool            `json:"forcesReplacement,omitempty"`
}

type jsonExport struct {
	Name   string          `json:"name"`
	Action Action          `json:"action"`
	Before json.RawMessage `json:"before"`
	After  json.RawMessage `json:"after"`
}

type jsonLink struct {
	From string `json:"from"`
	To   string `json:"to"`
	Type string `json:"type"`
	Via  string `json:"via"`
}

type jsonChild struct {
	Name string    `json:"name"`
	Path string    `json:"path"`
	Plan *jsonPlan `json:"plan"`
}

func raw(v funcs.Value) json.RawMessage {
	return json.RawMessage(eval.JSON(v))
}

func toJSON(p *Plan) *jsonPlan {
	s := p.Summary()
	out := &jsonPlan{
		Path:      displayPath(p.Path),
		Summary:   jsonSummary(s),
		Stages:    p.Stages,
		Resources: []jsonResource{},
		Exports:   []jsonExport{},
		Children:  []jsonChild{},
	}
	if out.Stages == nil {
		out.Stages = [][]string{}
	}
	for _, l := range p.Links {
		out.Links = append(out.Links, jsonLink(*l))
	}
	for _, r := range p.Resources {
		jr := jsonResource{Name: r.Name, Type: r.Type, Action: r.Action, Reason: r.Reason, Conditional: r.Conditional,
			Stage: r.Stage, DependsOn: r.DependsOn, RemovalPolicy: r.RemovalPolicy, Spec: raw(r.Spec), Changes: []jsonChange{},
			From: r.From, FromType: r.FromType}
		if jr.DependsOn == nil {
			jr.DependsOn = []string{}
		}
		for _, c := range r.Changes {
			jr.Changes = append(jr.Changes, jsonChange{Path: c.Path, Before: raw(c.Before), After: raw(c.After), Added: c.Added, Removed: c.Removed, ForcesReplacement: c.ForcesReplacement})
		}
		out.Resources = append(out.Resources, jr)
	}
	for _, e := range p.Exports {
		out.Exports = append(out.Exports, jsonExport{Name: e.Name, Action: e.Action, Before: raw(e.Before), After: raw(e.After)})
	}
	for _, c := range p.Children {
		jc := jsonChild{Name: c.Name, Path: displayPath(c.Path)}
		if c.Plan != nil {
			jc.Plan = toJSON(c.Plan)
		}
		out.Children = append(out.Children, jc)
	}
	return out
}
