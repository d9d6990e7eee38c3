package source

import (
	"fmt"
	"testing"
)

func TestMergeRanges(t *testing.T) {
	got := MergeRanges([]Range{R(10, 12), R(0, 3), R(3, 5), R(11, 20), R(30, 31)})
	want := []Range{R(0, 5), R(10, 20), R(30, 31)}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("MergeRanges = %v, want %v", got, want)
	}
	if got := MergeRanges(nil); len(got) != 0 {
		t.Errorf("MergeRanges(nil) = %v", got)
	}
}
