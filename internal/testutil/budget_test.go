package testutil

import (
	"testing"
	"time"
)

var sink [][]byte

func TestWithinBudgetMeasures(t *testing.T) {
	spent := WithinBudget(t, Budget{Time: 10 * time.Second, Heap: 1 << 30}, func(testing.TB) {
		for range 8 {
			sink = append(sink, make([]byte, 4<<20))
		}
		time.Sleep(20 * time.Millisecond)
	})
	if spent == (Spent{}) {
		return // the child
	}
	if spent.Heap < 16<<20 || spent.Time < 20*time.Millisecond {
		t.Errorf("spent %+v, want at least 16 MiB and 20ms", spent)
	}
}

// TestWithinBudgetStopsGrowth: a loop that doubles a string without end
// is stopped in the child, and the budget fails.
func TestWithinBudgetStopsGrowth(t *testing.T) {
	rec := &recorder{TB: t}
	func() {
		defer func() { recover() }()
		WithinBudget(rec, Budget{Time: 10 * time.Second, Heap: 64 << 20}, func(testing.TB) {
			s := "ab"
			for {
				s += s
				sink = append(sink, []byte(s[:1]))
			}
		})
	}()
	if !rec.failed {
		t.Error("unbounded growth passed the budget")
	}
}
