package schema

import (
	"fmt"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/source"
)

var (
	codeDataSourceTypeFormat = source.NewCode("datasource-type-format", source.Error,
		"A data source type that is not of the form {provider}/{type}.",
		"datasources:\n  network:\n    type: vpc")
	codeDataSourceExportType = source.NewCode("datasource-export-type", source.Error,
		"A data source export type other than string, integer, float, boolean or array.",
		"exports:\n  vpc:\n    type: map")
	codeFilterOperator = source.NewCode("datasource-filter-operator", source.Error,
		"A data source filter operator the spec does not define.",
		"filter:\n  field: tags\n  operator: roughly equals\n  search: prod")
	codeFilterSearch = source.NewCode("datasource-filter-search", source.Error,
		"A filter search value whose shape the operator does not accept (for example in without a list, or a list mixing types).",
		"filter:\n  field: id\n  operator: in\n  search: vpc-1")
)

func (l *loader) loadDataSource(e *Entry) {
	if e.Key == nil {
		return
	}
	what := fmt.Sprintf("data source %q", e.Key.Value)
	l.checkName(e.Key, "data source")
	ds := &DataSource{Def: Def{Name: e.Key.Value, Entry: e}}
	if m := l.mappingOf(e, what); m != nil {
		ds.Mapping = m
		fs := l.fields(m, KindDataSource, what, e.Key.Rng)
		ds.Type = l.field(fs.at("type"))
		ds.Description = l.field(fs.at("description"))
		ds.Filter = l.field(fs.at("filter"))
		l.description(ds.Description, what)
		if f := l.field(fs.at("metadata")); f != nil {
			ds.Metadata = l.loadDataSourceMetadata(f, what)
		}
		if ds.Type != nil && l.noSubst(ds.Type, "a data source type") {
			if t := ds.Type.Scalar(); !IsCustomType(t.Value) {
				l.report(codeDataSourceTypeFormat.New(t.Rng, "data source type %q must be a provider type {provider}/{type}, such as aws/vpc", t.Value))
			}
		}
		l.loadFilters(ds, what)
		l.loadDataSourceExports(ds, fs.at("exports"), what)
	}
	l.bp.DataSources.add(ds.Name, ds)
}

func (l *loader) loadDataSourceMetadata(f *Field, what string) *DataSourceMetadata {
	fs := l.fields(f.Mapping(), KindDataSourceMetadata, "the metadata of "+what, f.KeyRange())
	md := &DataSourceMetadata{
		Field:       f,
		DisplayName: l.field(fs.at("displayName")),
		Annotations: l.field(fs.at("annotations")),
		Custom:      l.field(fs.at("custom")),
	}
	l.scalarValues(md.Annotations, false)
	return md
}

func (l *loader) loadFilters(ds *DataSource, what string) {
	f := ds.Filter
	if f == nil {
		return
	}
	switch n := f.Node().(type) {
	case *Mapping:
		ds.Filters = append(ds.Filters, l.loadFilter(n, f.KeyRange(), "the filter of "+what))
	case *Sequence:
		if l.version == Version20230420 {
			l.report(codeFieldType.New(n.Rng, "a list of filters needs spec version %s; in %s the filter of %s must be one mapping with field, operator and search", Version20251102, l.version, what))
			return
		}
		if len(n.Items) == 0 {
			l.report(codeFieldType.New(n.Rng, "the filter list of %s is empty: it needs at least one filter with field, operator and search", what))
		}
		for i, it := range n.Items {
			m, ok := it.(*Mapping)
			if !ok {
				l.report(codeFieldType.New(it.Range(), "each filter of %s must be a mapping with field, operator and search, found %s", what, describeNode(it)))
				continue
			}
			ds.Filters = append(ds.Filters, l.loadFilter(m, m.Rng, fmt.Sprintf("filter %d of %s", i+1, what)))
		}
	default:
		allowed := "a mapping with field, operator and search"
		if l.version != Version20230420 {
			allowed += " (or a list of them)"
		}
		l.report(codeFieldType.New(f.ValueRange(), "the filter of %s must be %s, found %s", what, allowed, describeNode(n)))
		ds.Filter = nil
	}
}

func (l *loader) loadFilter(m *Mapping, owner source.Range, what string) *Filter {
	fs := l.fields(m, KindFilter, what, owner)
	flt := &Filter{
		Mapping:  m,
		Field:    l.field(fs.at("field")),
		Operator: l.field(fs.at("operator")),
		Search:   l.field(fs.at("search")),
	}
	l.noSubst(flt.Field, "a filter field")
	op := ""
	if flt.Operator != nil && l.oneOf(flt.Operator, FilterOperators, codeFilterOperator, "filter operator") {
		op = flt.Operator.Text()
	}
	if flt.Search != nil {
		l.checkSearch(flt.Search, op)
	}
	return flt
}

// checkSearch applies the operator behaviours of the spec to the shape of
// a literal search value; whether the field's type fits needs the data
// source type's schema and is checked later.
func (l *loader) checkSearch(f *Field, op string) {
	switch n := f.Node().(type) {
	case *Mapping:
		l.report(codeFieldType.New(n.Rng, "search must be a value or a list of values (strings, integers, floats or booleans), found a mapping"))
	case *Sequence:
		l.checkSearchList(n)
		switch op {
		case "in", "not in", "=", "!=", "":
		default:
			l.report(codeFilterSearch.New(n.Rng, "operator %q compares the field with one value, not a list", op))
		}
	case *Scalar:
		if hasSubst(n) {
			return
		}
		switch op {
		case "in", "not in":
			d := codeFilterSearch.New(n.Rng, "operator %q needs a list of values to search in, found %s", op, describeNode(n))
			if n.Style != Literal && n.Style != Folded {
				d.Suggestions = []source.Suggestion{{Title: "Wrap the value in a list", Edits: []source.Edit{
					{Range: source.Range{Start: n.Rng.Start, End: n.Rng.Start}, NewText: "["},
					{Range: source.Range{Start: n.Rng.End, End: n.Rng.End}, NewText: "]"},
				}}}
			}
			l.report(d)
		case "has key", "not has key", "starts with", "not starts with", "ends with", "not ends with":
			if n.Tag != StringTag {
				l.report(codeFilterSearch.New(n.Rng, "operator %q needs a string to search for, found %s", op, describeNode(n)))
			}
		}
	}
}

// checkSearchList wants scalars of one type (integers and floats are
// distinct primitives, as in the spec's operator behaviours).
func (l *loader) checkSearchList(seq *Sequence) {
	var first *Scalar
	for _, it := range seq.Items {
		s, ok := it.(*Scalar)
		if !ok || s.Tag == NullTag {
			l.report(codeFilterSearch.New(it.Range(), "search values must be strings, integers, floats or booleans, found %s", describeNode(it)))
			continue
		}
		if hasSubst(s) {
			continue
		}
		if first == nil {
			first = s
			continue
		}
		if s.Tag != first.Tag {
			d := codeFilterSearch.New(s.Rng, "search values must all have the same type: this is a %s, the first is a %s", s.Tag, first.Tag)
			d.Related = []source.Related{{Range: first.Rng, Message: "the first search value"}}
			l.report(d)
		}
	}
}

func (l *loader) loadDataSourceExports(ds *DataSource, e *Entry, what string) {
	if e == nil {
		return
	}
	ds.Exports.Field = l.field(e)
	switch n := e.Value.(type) {
	case *Mapping:
		for _, x := range n.Entries {
			l.loadDataSourceExport(ds, x, what)
		}
		return
	case *Scalar:
		if n.Tag == StringTag && strings.TrimSpace(n.Value) == "*" {
			if l.version == Version20230420 {
				l.report(codeFieldType.New(n.Rng, "exports: \"*\" needs spec version %s; in %s list the exported fields in a mapping", Version20251102, l.version))
			}
			// Read as meant even when the version is wrong, so references
			// to its fields do not repeat the one mistake.
			ds.ExportAll = true
			return
		}
	}
	allowed := "a mapping of field names to export definitions"
	if l.version != Version20230420 {
		allowed += ` or "*"`
	}
	l.report(codeFieldType.New(e.Value.Range(), "exports of %s must be %s, found %s", what, allowed, describeNode(e.Value)))
}

func (l *loader) loadDataSourceExport(ds *DataSource, e *Entry, dsWhat string) {
	if e.Key == nil {
		return
	}
	what := fmt.Sprintf("export %q of %s", e.Key.Value, dsWhat)
	l.checkName(e.Key, "data source export")
	x := &DataSourceExport{Def: Def{Name: e.Key.Value, Entry: e}}
	if m := l.mappingOf(e, what); m != nil {
		x.Mapping = m
		fs := l.fields(m, KindDataSourceExport, what, e.Key.Rng)
		x.Type = l.field(fs.at("type"))
		x.AliasFor = l.field(fs.at("aliasFor"))
		x.Description = l.field(fs.at("description"))
		if x.Type != nil {
			l.oneOf(x.Type, DataSourceExportTypes, codeDataSourceExportType, "data source export type")
		}
		l.noSubst(x.AliasFor, "aliasFor")
		l.description(x.Description, what)
	}
	ds.Exports.add(x.Name, x)
}
