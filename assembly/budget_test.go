package assembly

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"hash/crc32"
	"runtime"
	"testing"
)

// bomb builds an archive of n deflated entries of size zero bytes each,
// declaring declared as each entry's size.
func bomb(t *testing.T, n int, size, declared uint64) []byte {
	t.Helper()
	var body bytes.Buffer
	fw, _ := flate.NewWriter(&body, flate.BestCompression)
	zeros := make([]byte, size)
	fw.Write(zeros)
	fw.Close()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i := range n {
		w, err := zw.CreateRaw(&zip.FileHeader{Name: string(rune('a' + i)), Method: zip.Deflate,
			CRC32: crc32.ChecksumIEEE(zeros), CompressedSize64: uint64(body.Len()), UncompressedSize64: declared})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(body.Bytes())
	}
	zw.Close()
	return buf.Bytes()
}

// TestDecompressedBudget: the budget is for all entries together (an
// entry that lies about its size is refused by archive/zip itself).
func TestDecompressedBudget(t *testing.T) {
	tests := []struct {
		name string
		data []byte
		opts VerifyOptions
		want string
	}{
		{"four entries declaring 1,000 MB each", bomb(t, 4, 1<<10, 1000<<20), VerifyOptions{},
			`the entries decompress to more than the 256 MiB budget (at entry "a"); the rest of the archive was not read`},
		{"together past the budget", bomb(t, 4, 300<<10, 300<<10), VerifyOptions{MaxTotalSize: 1 << 20},
			`the entries decompress to more than the 1 MiB budget (at entry "d"); the rest of the archive was not read`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := VerifyBytes(tt.data, tt.opts)
			if len(rep.Problems) == 0 || rep.Problems[len(rep.Problems)-1].Message != tt.want || !rep.HasErrors() {
				t.Fatalf("problems %+v, want last %q", rep.Problems, tt.want)
			}
		})
	}
}

// TestEntriesStreamed: verifying an archive with a 32 MiB entry allocates
// far less than the entry: it is read as a stream, never held.
func TestEntriesStreamed(t *testing.T) {
	data := bomb(t, 1, 32<<20, 32<<20)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	rep := VerifyBytes(data, VerifyOptions{})
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > 4<<20 {
		t.Errorf("verifying allocated %d bytes for a 32 MiB entry", got)
	}
	if len(rep.Problems) != 1 || rep.Problems[0].Code != codeManifestMissing.ID {
		t.Errorf("problems: %+v", rep.Problems)
	}
}
