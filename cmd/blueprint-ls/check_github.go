package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// GitHub Actions workflow commands: one annotation per diagnostic,
//
//	::error file=F,line=L,col=C,endLine=EL,endColumn=EC,title=CODE::MESSAGE
//
// errors as error, warnings as warning, information and hints as notice.
// Paths are relative to the working directory (run from the repository
// root) with forward slashes, so annotations land on the changed lines of
// a pull request.

// escapeGitHubData escapes a workflow command's message.
func escapeGitHubData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeGitHubProperty escapes a property value, where ':' and ',' also
// delimit.
func escapeGitHubProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

func githubCommand(s source.Severity) string {
	switch s {
	case source.Error:
		return "error"
	case source.Warning:
		return "warning"
	}
	return "notice"
}

func (rep *report) githubPath(p string) string {
	abs := p
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(rep.wd, p)
	}
	if rel := relSlash(rep.wd, abs); rel != "" {
		return rel
	}
	return filepath.ToSlash(p)
}

func writeGitHub(w io.Writer, rep *report) {
	for _, r := range rep.files {
		file := escapeGitHubProperty(rep.githubPath(r.path))
		if r.err != nil {
			fmt.Fprintf(w, "::error file=%s,title=%s::%s\n", file, escapeGitHubProperty("blueprint-ls: unreadable file"), escapeGitHubData(r.err.Error()))
		}
		for _, d := range r.diags {
			l, c := r.mapper.LineCol(d.Range.Start, outputEncoding)
			el, ec := r.mapper.LineCol(d.Range.End, outputEncoding)
			msg := d.Message
			for _, rel := range d.Related {
				msg += "\n" + rep.relatedLocation(&r, rel) + ": " + rel.Message
			}
			for _, s := range d.Suggestions {
				msg += "\nfix: " + s.Title
			}
			// GitHub takes col/endColumn only within one line.
			pos := fmt.Sprintf("line=%d,endLine=%d", l, el)
			if l == el {
				pos = fmt.Sprintf("line=%d,col=%d,endLine=%d,endColumn=%d", l, c, el, ec)
			}
			fmt.Fprintf(w, "::%s file=%s,%s,title=%s::%s\n", githubCommand(d.Severity), file, pos,
				escapeGitHubProperty(d.Code), escapeGitHubData(msg))
		}
	}
	s := rep.summary
	fmt.Fprintf(w, "blueprint-ls: files: %d, errors: %d, warnings: %d, information: %d, hints: %d\n", s.Files, s.Errors, s.Warnings, s.Infos, s.Hints)
}
