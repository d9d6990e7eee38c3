package main

import (
	"encoding/json"
	"path/filepath"
	"testing"
)

// TestCheckJSONOffsetsWholeCharacter: in check --format json, a range
// that ends after a multi-byte character (a .bp multi-line string's line
// indented less than its closer, a two-byte é after the indentation) has
// its end offset after the character, at the same place as its column
// (end.offset was 59, inside the é, while the column said after it).
func TestCheckJSONOffsetsWholeCharacter(t *testing.T) {
	dir := writeFiles(t, map[string]string{"m.bp": "version \"2025-11-02\"\n\nvalue v: string {\n    value = \"\"\"\n  é\n        \"\"\"\n}\n"})
	_, out, errs := runArgs("check", "--format", "json", "--no-summary", filepath.Join(dir, "m.bp"))
	type pos struct{ Line, Column, Offset int }
	var report struct {
		Files []struct {
			Diagnostics []struct {
				Code  string
				Range struct{ Start, End pos }
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &report); err != nil || len(report.Files) != 1 || len(report.Files[0].Diagnostics) != 1 {
		t.Fatalf("%v\n%s%s", err, out, errs)
	}
	d := report.Files[0].Diagnostics[0]
	if d.Code != "bp-syntax" || d.Range.Start != (pos{5, 1, 56}) || d.Range.End != (pos{5, 4, 60}) {
		t.Errorf("got %s %+v, want bp-syntax from 5:1 (offset 56) to 5:4 (offset 60)", d.Code, d.Range)
	}
}
