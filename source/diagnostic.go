package source

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Severity orders diagnostics; the numbering is LSP's.
type Severity int

const (
	Error       Severity = 1
	Warning     Severity = 2
	Information Severity = 3
	Hint        Severity = 4
)

func (s Severity) String() string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	case Information:
		return "information"
	case Hint:
		return "hint"
	}
	return fmt.Sprintf("severity(%d)", int(s))
}

// ParseSeverity reads the names String produces (and "info").
func ParseSeverity(s string) (Severity, bool) {
	switch s {
	case "error":
		return Error, true
	case "warning":
		return Warning, true
	case "information", "info":
		return Information, true
	case "hint":
		return Hint, true
	}
	return 0, false
}

// Tag marks how a client may render a diagnostic; the numbering is LSP's.
type Tag int

const (
	Unnecessary Tag = 1
	Deprecated  Tag = 2
)

// Related points at another place that explains a diagnostic, such as the
// first occurrence of a duplicated key. An empty URI means the same document.
type Related struct {
	URI     string `json:"uri,omitempty"`
	Range   Range  `json:"range"`
	Message string `json:"message"`
}

// Edit replaces Range with NewText.
type Edit struct {
	Range   Range  `json:"range"`
	NewText string `json:"newText"`
}

// Suggestion is a fix a code action can offer: a title and the edits that
// apply it (all in the diagnostic's document).
type Suggestion struct {
	Title string `json:"title"`
	Edits []Edit `json:"edits,omitempty"`
}

// Diagnostic is one problem at one place. Code is stable and documented;
// Message is for people.
type Diagnostic struct {
	Range       Range        `json:"range"`
	Severity    Severity     `json:"severity"`
	Code        string       `json:"code"`
	Message     string       `json:"message"`
	Related     []Related    `json:"related,omitempty"`
	Tags        []Tag        `json:"tags,omitempty"`
	Suggestions []Suggestion `json:"suggestions,omitempty"`
}

// Moved returns a copy of d with its range and those of its related
// places and suggested edits moved by delta bytes; d is not changed.
func (d Diagnostic) Moved(delta int) Diagnostic {
	d.Range = d.Range.Moved(delta)
	if d.Related != nil {
		rel := make([]Related, len(d.Related))
		for i, r := range d.Related {
			r.Range = r.Range.Moved(delta)
			rel[i] = r
		}
		d.Related = rel
	}
	if d.Suggestions != nil {
		sugs := make([]Suggestion, len(d.Suggestions))
		for i, s := range d.Suggestions {
			edits := make([]Edit, len(s.Edits))
			for j, e := range s.Edits {
				e.Range = e.Range.Moved(delta)
				edits[j] = e
			}
			s.Edits = edits
			sugs[i] = s
		}
		d.Suggestions = sugs
	}
	return d
}

// Code declares one diagnostic code: its default severity and the text the
// generated reference (docs/diagnostics.md) shows. Each code is declared
// once, with NewCode, beside the constructor that owns its wording.
type Code struct {
	ID       string
	Severity Severity
	Summary  string // one sentence: what the problem is
	Example  string // a small snippet that triggers it (may be empty)
	// Doc is the URL of the code's own documentation page when it has
	// one (the rules of package rules); empty means its section of
	// docs/diagnostics.md.
	Doc string
}

var (
	codesMu sync.Mutex
	codes   = map[string]*Code{}
)

// NewCode registers a diagnostic code. Declaring the same ID twice is a
// programming error and panics at init time.
func NewCode(id string, sev Severity, summary, example string) *Code {
	codesMu.Lock()
	defer codesMu.Unlock()
	if _, dup := codes[id]; dup {
		panic("source: diagnostic code declared twice: " + id)
	}
	c := &Code{ID: id, Severity: sev, Summary: summary, Example: example}
	codes[id] = c
	return c
}

// Codes returns every registered code sorted by ID.
func Codes() []*Code {
	codesMu.Lock()
	defer codesMu.Unlock()
	out := make([]*Code, 0, len(codes))
	for _, c := range codes {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// LookupCode returns the registered code with id.
func LookupCode(id string) (*Code, bool) {
	codesMu.Lock()
	defer codesMu.Unlock()
	c, ok := codes[id]
	return c, ok
}

// New returns a diagnostic of code c at r with its default severity.
func (c *Code) New(r Range, format string, args ...any) Diagnostic {
	msg := format
	if len(args) > 0 {
		msg = fmt.Sprintf(format, args...)
	}
	return Diagnostic{Range: r, Severity: c.Severity, Code: c.ID, Message: msg}
}

// SortDiagnostics orders diagnostics by position, then code, then message,
// so output is deterministic; equal ones keep their order. Lists that
// are sorted already, or are two sorted lists one after the other (an
// analysis's diagnostics, then the rules' findings), cost one pass.
func SortDiagnostics(ds []Diagnostic) {
	i := sortedPrefix(ds)
	if i == len(ds) {
		return
	}
	if i+sortedPrefix(ds[i:]) == len(ds) {
		mergeDiagnostics(ds, i)
		return
	}
	slices.SortStableFunc(ds, compareDiagnostics)
}

// DiagnosticsSorted reports whether ds is in SortDiagnostics's order.
func DiagnosticsSorted(ds []Diagnostic) bool { return sortedPrefix(ds) == len(ds) }

func compareDiagnostics(a, b Diagnostic) int { return compareAt(&a, &b) }

// compareAt is compareDiagnostics without copying the two: a sorted
// report's check compares every neighbouring pair of tens of thousands.
func compareAt(a, b *Diagnostic) int {
	if a.Range.Start != b.Range.Start {
		return cmp.Compare(a.Range.Start, b.Range.Start)
	}
	if a.Range.End != b.Range.End {
		return cmp.Compare(a.Range.End, b.Range.End)
	}
	if a.Code != b.Code {
		return strings.Compare(a.Code, b.Code)
	}
	return strings.Compare(a.Message, b.Message)
}

// sortedPrefix is the length of the longest sorted prefix of ds.
func sortedPrefix(ds []Diagnostic) int {
	for i := 1; i < len(ds); i++ {
		if compareAt(&ds[i-1], &ds[i]) > 0 {
			return i
		}
	}
	return len(ds)
}

// mergeDiagnostics merges the sorted runs ds[:mid] and ds[mid:] in place,
// the first run's first among equals, as a stable sort would.
func mergeDiagnostics(ds []Diagnostic, mid int) {
	left := slices.Clone(ds[:mid])
	k, l, r := 0, 0, mid
	for l < len(left) && r < len(ds) {
		if compareDiagnostics(ds[r], left[l]) < 0 {
			ds[k] = ds[r]
			r++
		} else {
			ds[k] = left[l]
			l++
		}
		k++
	}
	copy(ds[k:], left[l:])
}
