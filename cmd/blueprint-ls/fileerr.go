package main

import (
	"errors"
	"io/fs"
	"strings"
)

// plainFileError rewrites the operating system's wording of a missing or
// unreadable file ("open x.yaml: no such file or directory") into plain
// words naming the path ("x.yaml does not exist"), keeping any context
// the error was wrapped in. Other errors pass through.
func plainFileError(err error) error {
	var pe *fs.PathError
	if err == nil || !errors.As(err, &pe) {
		return err
	}
	var plain string
	switch {
	case errors.Is(err, fs.ErrNotExist):
		plain = pe.Path + " does not exist"
	case errors.Is(err, fs.ErrPermission):
		plain = pe.Path + " cannot be read: permission denied"
	default:
		return err
	}
	return errors.New(strings.Replace(err.Error(), pe.Error(), plain, 1))
}
