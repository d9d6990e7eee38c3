package main

import (
	"bufio"
	"bytes"
	"os"
	"strings"
	"testing"
	"time"
)

func TestReadFrame(t *testing.T) {
	tests := []struct {
		name, in, want, err string
	}{
		{"plain", "Content-Length: 2\r\n\r\n{}", "{}", ""},
		{"other headers, any case", "Content-Type: application/vscode-jsonrpc\r\ncontent-length: 4\r\n\r\nnull", "null", ""},
		{"no length", "Content-Type: x\r\n\r\n{}", "", "frame without Content-Length"},
		{"bad length", "Content-Length: -1\r\n\r\n", "", "bad Content-Length"},
		{"short body", "Content-Length: 9\r\n\r\n{}", "", "unexpected EOF"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := readFrame(bufio.NewReader(strings.NewReader(tt.in)))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil || string(got) != tt.want {
				t.Fatalf("got %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

func TestNewDocument(t *testing.T) {
	for _, format := range []string{"yaml", "json", "bp"} {
		for _, place := range []string{editExport, editResource} {
			t.Run(format+"/"+place, func(t *testing.T) {
				d, err := newDocument(20, format, place)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Contains(d.text, []byte("2025-11-02")) || bytes.Contains(d.text, []byte("version: '2023-04-20'")) || bytes.Contains(d.text, []byte(`"version": "2023-04-20"`)) || bytes.Contains(d.text, []byte(`version "2023-04-20"`)) {
					t.Errorf("version not moved to 2025-11-02")
				}
				lines := strings.Split(string(d.text), "\n")
				broken := strings.Split(string(d.broken), "\n")
				if len(lines) != len(broken) {
					t.Fatalf("the edit changed the line count")
				}
				for i := range lines {
					want := lines[i]
					if i == d.line {
						want = lines[i][:d.col] + "X" + lines[i][d.col:]
						if !strings.Contains(broken[i], "variables."+marker) {
							t.Errorf("edited line %q does not name %s", broken[i], marker)
						}
					}
					if broken[i] != want {
						t.Errorf("line %d: %q, want %q", i, broken[i], want)
					}
				}
				if place == editExport && !strings.Contains(lines[d.line-2], "envName") && !strings.Contains(lines[d.line-1], "envName") {
					t.Errorf("export edit on line %d, not in envName: %q", d.line, lines[d.line])
				}
				if place == editResource {
					// The middle resource (r10 of 20) is the last one declared
					// before the edit.
					before := strings.ReplaceAll(strings.Join(lines[:d.line], "\n"), `"`, "")
					i := strings.LastIndex(before, "r10:")
					if i < 0 || strings.Contains(before[i:], "r11:") {
						t.Errorf("resource edit on line %d is not in r10: %q", d.line, lines[d.line])
					}
				}
				if got := lines[d.compLine][:d.compCol]; !strings.HasSuffix(got, "${variables.") {
					t.Errorf("completion asked after %q, want after ${variables.", got)
				}
			})
		}
	}
}

func TestPercentile(t *testing.T) {
	ms := func(ns ...int) []time.Duration {
		var out []time.Duration
		for _, n := range ns {
			out = append(out, time.Duration(n)*time.Millisecond)
		}
		return out
	}
	tests := []struct {
		ds   []time.Duration
		p    float64
		want time.Duration
	}{
		{nil, 95, 0},
		{ms(7), 50, 7 * time.Millisecond},
		{ms(5, 1, 4, 2, 3), 50, 3 * time.Millisecond},
		{ms(5, 1, 4, 2, 3), 95, 5 * time.Millisecond},
		{ms(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20), 95, 19 * time.Millisecond},
		{ms(1, 2, 3, 4), 0, 1 * time.Millisecond},
	}
	for _, tt := range tests {
		if got := percentile(tt.ds, tt.p); got != tt.want {
			t.Errorf("percentile(%v, %v) = %v, want %v", tt.ds, tt.p, got, tt.want)
		}
	}
}

// TestMeasure drives the fake servers of fake_test.go as real processes:
// every edit is seen, completion answers once the configuration request
// was answered, and a pull client of a push-only server is skipped.
func TestMeasure(t *testing.T) {
	d, err := newDocument(8, "yaml", editExport)
	if err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	o := options{edits: 2, completions: 5, timeout: 20 * time.Second}
	tests := []struct {
		mode    string
		pull    bool
		skipped bool
	}{
		{"push", false, false},
		{"push", true, true},
		{"pull", true, false},
		{"full", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			t.Setenv("LSPBENCH_FAKE", tt.mode)
			r := measure(serverSpec{name: "fake", argv: []string{self}}, tt.pull, d, o)
			if r.err != nil {
				t.Fatal(r.err)
			}
			if tt.skipped {
				if r.skipped == "" {
					t.Fatal("a pull client of a push-only server was measured")
				}
				return
			}
			if r.skipped != "" || len(r.edits) != 2*o.edits || len(r.completions) != o.completions || r.items != 2 || r.rss <= 0 {
				t.Fatalf("result %+v: want %d edits, %d completions of 2 items, a peak RSS", r, 2*o.edits, o.completions)
			}
			var out bytes.Buffer
			writeTable(&out, []result{r})
			if row := strings.Split(out.String(), "\n")[2]; !strings.HasPrefix(row, "| fake | 8 | ") || strings.Contains(row, "failed") {
				t.Errorf("table row %q", row)
			}
		})
	}
}
