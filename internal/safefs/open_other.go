//go:build !unix

package safefs

// oNonblock: other systems have no FIFOs to block on in the file system.
const oNonblock = 0
