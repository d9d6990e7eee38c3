package main

import (
	"fmt"
	"os"
	"path/filepath"
)

// writeAtomic replaces the file at path with data so that a failure part
// way (disk full, a file-size limit, a crash) leaves the original whole: a
// temporary file in the same directory is written, synced and renamed
// over the original, keeping its permission bits. A symbolic link is
// written through to its target, which stays a link, when the target is
// inside the project (cliRoots); discovery has already refused links that
// leave the tree walked (findBlueprints).
func writeAtomic(path string, data []byte) (err error) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return err
	}
	if st, err := os.Lstat(path); err == nil && st.Mode()&os.ModeSymlink != 0 {
		if err := cliRoots(path).Check(real); err != nil {
			return fmt.Errorf("%s is a symbolic link leading outside its project: not written", path)
		}
	}
	info, err := os.Stat(real)
	if err != nil {
		return err
	}
	if !info.Mode().IsRegular() {
		return fmt.Errorf("%s: not a regular file", path)
	}
	tmp, err := os.CreateTemp(filepath.Dir(real), "."+filepath.Base(real)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return fmt.Errorf("%s: writing the formatted text: %w (the file is unchanged)", path, err)
	}
	if err = tmp.Chmod(info.Mode().Perm()); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return fmt.Errorf("%s: writing the formatted text: %w (the file is unchanged)", path, err)
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), real)
}
