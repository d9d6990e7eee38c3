//go:build !linux

package analysis

import "time"

// threadCPU is unknown where the system does not count a thread's CPU.
func threadCPU() (time.Duration, bool) { return 0, false }
