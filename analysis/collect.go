package analysis

import (
	"slices"

	"github.com/blueprint-ls/blueprint-ls/internal/chunked"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/subst"
)

// collectSites parses every string scalar where substitutions are
// allowed, unit by unit in symbol order, the document level's last.
func (a *analyzer) collectSites() {
	bp := a.bp
	if a.reuse != nil {
		a.collectByUnits()
	} else {
		a.recs = chunked.Make[*unitRecs](a.res.syms.Len())
		for k, v := range bp.Values.Items() {
			a.collectValue(a.owner(ValueSymbol, k, v.Name), v)
		}
		for _, d := range bp.DataSources.Items() {
			a.collectDataSource(a.lookup(DataSourceSymbol, d.Name), d)
		}
		if a.fan != nil {
			a.collectResources(a.fan)
		} else {
			for k, r := range bp.Resources.Items() {
				a.collectResource(a.owner(ResourceSymbol, k, r.Name), r)
			}
		}
		for _, inc := range bp.Include.Items() {
			a.collectInclude(a.lookup(ChildSymbol, inc.Name), inc)
		}
		for k, e := range bp.Exports.Items() {
			a.collectExport(a.owner(ExportSymbol, k, e.Name), e)
		}
	}
	a.sitesIn(SiteOther, nil, bp.Metadata)
}

// collectByUnits collects the sites when units are carried over: a unit
// that shares its records (or has none) takes the previous version's,
// and each other unit is collected from its symbol's typed view. In this
// mode every definition has its own symbol, in the order a full analysis
// collects them.
func (a *analyzer) collectByUnits() {
	prev, syms := a.reuse.prev, a.res.syms
	a.recs = prev.units.Edit()
	for _, i := range a.toMake() {
		a.recs.Set(int(i), nil) // made again: never added to the previous version's
		s := syms.At(int(i))
		switch s.Kind {
		case ValueSymbol:
			a.collectValue(s, s.Value)
		case DataSourceSymbol:
			a.collectDataSource(s, s.DataSource)
		case ResourceSymbol:
			a.collectResource(s, s.Resource)
		case ChildSymbol:
			a.collectInclude(s, s.Include)
		case ExportSymbol:
			a.collectExport(s, s.Export)
		}
		if _, carried := a.carriedOver(s); !carried {
			a.open = append(a.open, i)
		}
		a.made = append(a.made, i)
	}
}

// toMake returns, in index order, the units whose records this version
// makes (collected afresh, or made again from the previous version's):
// those that do not keep their records.
func (a *analyzer) toMake() []int32 {
	var out []int32
	if a.reuse.at != nil {
		for i := range a.res.syms.Len() {
			if !a.keepsRecords(i) {
				out = append(out, int32(i))
			}
		}
		return out
	}
	for i := range a.reuse.changed {
		if !a.keepsRecords(int(i)) {
			out = append(out, i)
		}
	}
	slices.Sort(out)
	return out
}

// keepsRecords reports whether unit i's records are the previous
// version's: it shares them, or it is a kind that has none (variables,
// data source fields).
func (a *analyzer) keepsRecords(i int) bool {
	switch a.res.syms.At(i).Kind {
	case VariableSymbol, DataSourceFieldSymbol:
		return true
	}
	return a.reuse.get(i).share
}

func (a *analyzer) collectValue(owner *Symbol, v *schema.Value) {
	if a.sharedSites(owner, v.Entry) {
		return
	}
	a.sitesIn(SiteValue, owner, v.Value)
	a.sitesIn(SiteDescription, owner, v.Description)
}

func (a *analyzer) collectDataSource(owner *Symbol, d *schema.DataSource) {
	if a.sharedSites(owner, d.Entry) {
		return
	}
	for _, f := range d.Filters {
		a.sitesIn(SiteDataSource, owner, f.Search)
	}
	if m := d.Metadata; m != nil {
		a.sitesIn(SiteDataSource, owner, m.DisplayName, m.Annotations, m.Custom)
	}
	a.sitesIn(SiteDescription, owner, d.Description)
	for _, e := range d.Exports.Items() {
		a.sitesIn(SiteDescription, owner, e.Description)
	}
}

func (a *analyzer) collectResource(owner *Symbol, r *schema.Resource) {
	if a.sharedSites(owner, r.Entry) {
		return
	}
	resourceSites(r, func(kind SiteKind, n *schema.Scalar) { a.scalarSite(n, kind, owner) })
}

// resourceSites calls site with each string scalar of r that may hold a
// site, in the order its sites are collected.
func resourceSites(r *schema.Resource, site func(SiteKind, *schema.Scalar)) {
	siteScalars(SiteEach, site, r.Each)
	siteScalars(SiteResourceSpec, site, r.Spec)
	if m := r.Metadata; m != nil {
		siteScalars(SiteResourceMeta, site, m.DisplayName, m.Annotations, m.Custom)
	}
	siteScalars(SiteCondition, site, r.ConditionNode)
	siteScalars(SiteDescription, site, r.Description)
}

func (a *analyzer) collectInclude(owner *Symbol, inc *schema.Include) {
	a.sitesIn(SiteInclude, owner, inc.Path, inc.Variables, inc.Metadata)
	a.sitesIn(SiteDescription, owner, inc.Description)
}

func (a *analyzer) collectExport(owner *Symbol, e *schema.Export) {
	a.sitesIn(SiteDescription, owner, e.Description)
	if e.Field == nil {
		return
	}
	s := e.Field.Scalar()
	if s == nil || !s.IsString() {
		return
	}
	expr, diags := subst.ParseReferenceWith(s.Value, s.OffsetMap(), subst.Options{Mapper: a.res.File.Mapper})
	for _, d := range diags {
		// schema already reports ${..} in an export field.
		if d.Code != subst.CodeExportFieldSubstitution.ID {
			a.report(d)
		}
	}
	t := &subst.Template{Rng: s.ValueRange()}
	site := &Site{Kind: SiteExportField, Scalar: s, Template: t, Owner: owner}
	site.Template.Parts = []subst.Part{&subst.Sub{Expr: expr, Rng: expr.Range(), Closed: true}}
	a.addSite(site)
}
