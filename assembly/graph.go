package assembly

import (
	"fmt"
	"sort"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/source"
)

var codeCycle = source.NewCode("assembly-cycle", source.Error,
	"Droplets depend on each other in a cycle, through dependsOn entries or references.",
	`"A": {"dependsOn": ["B"]}, "B": {"properties": {"x": "${A.out}"}}`)

// edge is one dependency of a droplet: what it needs and where it says so.
type edge struct {
	to    string
	at    source.Range
	path  string
	label string // "dependsOn" or the token
}

// edges returns each droplet's dependencies on droplets of m, dependsOn
// entries first, in document order, one edge per target.
func (m *Manifest) edges(d *Droplet) []edge {
	var out []edge
	seen := map[string]bool{}
	for i, dep := range d.DependsOn {
		if m.byID[dep] != nil && !seen[dep] {
			seen[dep] = true
			out = append(out, edge{to: dep, at: d.dependsAt[i], path: index(child(child("$.droplets", d.ID), "dependsOn"), i), label: "dependsOn"})
		}
	}
	for _, r := range d.Refs {
		if m.byID[r.ID] != nil && !seen[r.ID] {
			seen[r.ID] = true
			out = append(out, edge{to: r.ID, at: r.Range, path: r.Path, label: Token(r.ID, r.Attribute)})
		}
	}
	return out
}

// cycles reports each cycle once, at the first dependency in document
// order that lies on it, with the rest of the cycle as related
// information.
func (c *checker) cycles(m *Manifest) {
	for _, comp := range m.components() {
		in := map[string]bool{}
		for _, id := range comp {
			in[id] = true
		}
		start := m.byID[comp[0]]
		var first *edge
		for _, e := range m.edges(start) {
			if in[e.to] {
				first = &e
				break
			}
		}
		if first == nil {
			continue
		}
		// Walk back from first.to to start, inside the component.
		path := m.shortestPath(first.to, start.ID, in)
		steps := append([]edge{*first}, path...)
		names := []string{start.ID}
		var related []source.Related
		from := start.ID
		for i, e := range steps {
			names = append(names, e.to)
			if i > 0 {
				related = append(related, source.Related{Range: e.at, Message: fmt.Sprintf("%s depends on %s here (%s)", from, e.to, e.label)})
			}
			from = e.to
		}
		d := codeCycle.New(first.at, "dependency cycle: %s", strings.Join(names, " → "))
		d.Related = related
		c.add(first.path, d)
	}
}

// shortestPath returns the edges of a shortest path from a to b staying
// inside the set in (empty when a == b).
func (m *Manifest) shortestPath(a, b string, in map[string]bool) []edge {
	if a == b {
		return nil
	}
	prev := map[string]edge{}
	from := map[string]string{}
	queue := []string{a}
	seen := map[string]bool{a: true}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		for _, e := range m.edges(m.byID[cur]) {
			if !in[e.to] || seen[e.to] {
				continue
			}
			seen[e.to] = true
			prev[e.to], from[e.to] = e, cur
			if e.to == b {
				var out []edge
				for n := b; n != a; n = from[n] {
					out = append([]edge{prev[n]}, out...)
				}
				return out
			}
			queue = append(queue, e.to)
		}
	}
	return nil
}

// components returns the strongly connected components that form cycles
// (more than one droplet, or one that depends on itself), each listed in
// document order, ordered by their first droplet.
func (m *Manifest) components() [][]string {
	pos := map[string]int{}
	for i, d := range m.Droplets {
		pos[d.ID] = i
	}
	// Tarjan's algorithm, iteratively deep enough for any manifest:
	// recursion depth is bounded by the number of droplets.
	indexOf := map[string]int{}
	low := map[string]int{}
	onStack := map[string]bool{}
	var stack []string
	var out [][]string
	next := 0
	var visit func(id string)
	visit = func(id string) {
		indexOf[id], low[id] = next, next
		next++
		stack = append(stack, id)
		onStack[id] = true
		for _, e := range m.edges(m.byID[id]) {
			if _, ok := indexOf[e.to]; !ok {
				visit(e.to)
				low[id] = min(low[id], low[e.to])
			} else if onStack[e.to] {
				low[id] = min(low[id], indexOf[e.to])
			}
		}
		if low[id] != indexOf[id] {
			return
		}
		var comp []string
		for {
			n := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			onStack[n] = false
			comp = append(comp, n)
			if n == id {
				break
			}
		}
		self := false
		if len(comp) == 1 {
			for _, e := range m.edges(m.byID[id]) {
				self = self || e.to == id
			}
		}
		if len(comp) > 1 || self {
			sort.Slice(comp, func(i, j int) bool { return pos[comp[i]] < pos[comp[j]] })
			out = append(out, comp)
		}
	}
	for _, d := range m.Droplets {
		if _, ok := indexOf[d.ID]; !ok {
			visit(d.ID)
		}
	}
	sort.Slice(out, func(i, j int) bool { return pos[out[i][0]] < pos[out[j][0]] })
	return out
}

// Stage is one step of a deployment: droplets whose dependencies are all
// deployed by earlier stages.
type Stage []*Droplet

// Order returns the droplets in deployment order, grouped in stages,
// each stage sorted by Logical ID. It fails when droplets form a cycle.
// Dependencies on droplets that do not exist are ignored.
func (m *Manifest) Order() ([]Stage, error) {
	if comps := m.components(); len(comps) > 0 {
		return nil, fmt.Errorf("droplets %s form a dependency cycle", strings.Join(comps[0], ", "))
	}
	level := map[string]int{}
	var depth func(id string) int
	depth = func(id string) int {
		if l, ok := level[id]; ok {
			return l
		}
		l := 0
		for _, e := range m.edges(m.byID[id]) {
			l = max(l, depth(e.to)+1)
		}
		level[id] = l
		return l
	}
	var stages []Stage
	for _, d := range m.Droplets {
		l := depth(d.ID)
		for len(stages) <= l {
			stages = append(stages, nil)
		}
		stages[l] = append(stages[l], d)
	}
	for _, s := range stages {
		sort.Slice(s, func(i, j int) bool { return s[i].ID < s[j].ID })
	}
	return stages, nil
}

// Dependencies returns the Logical IDs d depends on (dependsOn entries
// and references to droplets of m), sorted.
func (m *Manifest) Dependencies(d *Droplet) []string {
	var out []string
	for _, e := range m.edges(d) {
		out = append(out, e.to)
	}
	sort.Strings(out)
	return out
}
