package schema

func (l *loader) loadDataSource(e *Entry) {}
func (l *loader) loadResource(e *Entry)   {}
func (l *loader) loadInclude(e *Entry)    {}
func (l *loader) loadExport(e *Entry)     {}
func (l *loader) checkResourceNames()     {}
