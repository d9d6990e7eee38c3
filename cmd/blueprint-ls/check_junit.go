package main

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"
)

// JUnit XML, the report format CI servers (Jenkins, GitLab, Azure
// Pipelines, CircleCI) show as test results: one test case per file. A
// file with problems at or above --severity-threshold fails, its failure
// listing those problems one per line in the text format; problems below
// the threshold go to the case's system-out. A file that could not be read
// is an error.

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	File      string        `xml:"file,attr"`
	Failure   *junitProblem `xml:"failure,omitempty"`
	Error     *junitProblem `xml:"error,omitempty"`
	SystemOut *junitText    `xml:"system-out,omitempty"`
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",cdata"`
}

// junitText keeps line breaks readable (CDATA) where chardata would
// escape them.
type junitText struct {
	Text string `xml:",cdata"`
}

func writeJUnit(w io.Writer, rep *report) error {
	suite := junitSuite{Name: "blueprint-ls check"}
	for _, r := range rep.files {
		c := junitCase{Name: r.path, Classname: "blueprint-ls.check", File: r.path}
		suite.Tests++
		if r.err != nil {
			c.Error = &junitProblem{Message: r.err.Error(), Type: "io"}
			suite.Errors++
		}
		var failing, below strings.Builder
		n := 0
		for _, d := range r.diags {
			l, col := r.mapper.LineCol(d.Range.Start, outputEncoding)
			b := &below
			if d.Severity <= rep.threshold {
				b = &failing
				n++
			}
			fmt.Fprintf(b, "%s:%d:%d: %s[%s]: %s\n", r.path, l, col, d.Severity, d.Code, d.Message)
			for _, rel := range d.Related {
				fmt.Fprintf(b, "    %s: %s\n", rep.relatedLocation(&r, rel), rel.Message)
			}
		}
		if n > 0 && c.Error == nil {
			msg := fmt.Sprintf("%d problems at or above %s", n, rep.threshold)
			if n == 1 {
				msg = fmt.Sprintf("1 problem at or above %s", rep.threshold)
			}
			c.Failure = &junitProblem{Message: msg, Type: rep.threshold.String(), Text: failing.String()}
			suite.Failures++
		}
		if below.Len() > 0 {
			c.SystemOut = &junitText{Text: below.String()}
		}
		suite.Cases = append(suite.Cases, c)
	}
	doc := junitSuites{Name: "blueprint-ls", Tests: suite.Tests, Failures: suite.Failures, Errors: suite.Errors, Suites: []junitSuite{suite}}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
