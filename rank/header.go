package rank

// headerPrior multiplies by p.Header the chunks of the headers of a C
// project (an index with headers and no C++ source file) for a
// natural-language query: there a header declares what a source file
// does, and the question is about the doing. A C++ project's headers
// hold templates and inline code, and a symbol query may want the
// declaration, so neither is touched.
func (ix *Index) headerPrior(q *Query, p *Params, list []scored) {
	if q.Symbol || p.Header == 0 || p.Header == 1 {
		return
	}
	ix.lazy.cOnce.Do(func() {
		headers, cpp := false, false
		for i := range ix.files {
			headers = headers || isHeader(ix.files[i].path)
			cpp = cpp || isCppSource(ix.files[i].path)
		}
		ix.lazy.cHeaders = headers && !cpp
	})
	if !ix.lazy.cHeaders {
		return
	}
	for i := range list {
		if isHeader(ix.files[ix.chunkFile[list[i].chunk]].path) {
			list[i].score *= p.Header
		}
	}
}
