package safefs

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// ErrNotRegular marks a path that names something other than a regular
// file: a directory, device, named pipe or socket.
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge marks a file past its size budget.
var ErrTooLarge = errors.New("larger than the size limit")

// Limits are the per-file size budgets, in bytes. A zero field means the
// default.
type Limits struct {
	Document int64 // blueprints, configs, variable, state and data files, file()
	Schema   int64 // provider and resource schema files
}

// Default budgets (docs/security.md): documents are hand-written and small;
// provider schemas are generated and some run to tens of MiB.
const (
	DefaultDocumentLimit int64 = 8 << 20
	DefaultSchemaLimit   int64 = 64 << 20
)

// DocumentLimit returns the document budget, the default when unset.
func (l Limits) DocumentLimit() int64 {
	if l.Document > 0 {
		return l.Document
	}
	return DefaultDocumentLimit
}

// SchemaLimit returns the schema budget, the default when unset.
func (l Limits) SchemaLimit() int64 {
	if l.Schema > 0 {
		return l.Schema
	}
	return DefaultSchemaLimit
}

// Kind names what a file mode is, for messages: "a directory", "a
// device", "a named pipe (FIFO)", "a socket", "a regular file".
func Kind(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "a regular file"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&(fs.ModeDevice|fs.ModeCharDevice) != 0:
		return "a device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "not a regular file"
}

// Size formats a byte count the way budgets are written in messages.
func Size(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// notRegular is the error for a path that is not a regular file.
func notRegular(path string, m fs.FileMode) error {
	return &fs.PathError{Op: "read", Path: path, Err: fmt.Errorf("%w: it is %s", ErrNotRegular, Kind(m))}
}

// tooLarge is the error for a file past limit.
func tooLarge(path string, limit int64) error {
	return &fs.PathError{Op: "read", Path: path, Err: fmt.Errorf("%w of %s", ErrTooLarge, Size(limit))}
}

// Open opens a regular file for reading. It stats path first (following
// symbolic links) and refuses anything else without opening it; the open
// does not block (a FIFO swapped in after the stat) and is re-checked with
// fstat against the first stat. The caller closes the file.
func Open(path string) (*os.File, fs.FileInfo, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, nil, notRegular(path, st.Mode())
	}
	f, err := os.OpenFile(path, os.O_RDONLY|oNonblock, 0)
	if err != nil {
		return nil, nil, err
	}
	fst, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !fst.Mode().IsRegular() || !os.SameFile(st, fst) {
		f.Close()
		return nil, nil, notRegular(path, fst.Mode())
	}
	return f, fst, nil
}

// ReadFile reads a regular file of at most limit bytes (limit <= 0: the
// document default). A file past the budget is refused from its size when
// the file system reports one, and otherwise stopped at limit+1 bytes, so
// no read allocates more than the budget.
func ReadFile(path string, limit int64) ([]byte, error) {
	if limit <= 0 {
		limit = DefaultDocumentLimit
	}
	f, st, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st.Size() > limit {
		return nil, tooLarge(path, limit)
	}
	return readLimited(f, path, st.Size(), limit)
}

// ReadAll reads r up to limit bytes; more is ErrTooLarge (limit < 0: the
// document default). name is for the message. It is for readers that are
// not files (standard input, an archive entry).
func ReadAll(r io.Reader, name string, limit int64) ([]byte, error) {
	if limit < 0 {
		limit = DefaultDocumentLimit
	}
	return readLimited(r, name, 0, limit)
}

func readLimited(r io.Reader, name string, hint, limit int64) ([]byte, error) {
	if hint < 0 || hint > limit {
		hint = 0
	}
	buf := make([]byte, 0, hint+1)
	for {
		if int64(len(buf)) > limit {
			return nil, tooLarge(name, limit)
		}
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		room := int64(cap(buf) - len(buf))
		if over := int64(len(buf)) + room - (limit + 1); over > 0 {
			room -= over
		}
		n, err := r.Read(buf[len(buf) : int64(len(buf))+room])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			if int64(len(buf)) > limit {
				return nil, tooLarge(name, limit)
			}
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
}
