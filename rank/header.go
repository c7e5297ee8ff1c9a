package rank

import "path"

// headerPrior multiplies by p.Header the chunks of a C project's API
// headers (an index with headers and no C++ source file) for a
// natural-language query: there a header declares what a source file
// does, and the question is about the doing. An API header is one in a
// folder without C sources (musl's include/); a header beside the
// sources it serves (src/malloc/mallocng/meta.h, src/internal/libm.h)
// holds their own types and inline code, the implementation, and is left
// alone. A C++ project's headers hold templates and inline code, and a
// symbol query may want the declaration, so neither is touched.
func (ix *Index) headerPrior(q *Query, p *Params, list []scored) {
	if q.Symbol || p.Header == 0 || p.Header == 1 {
		return
	}
	ix.lazy.cOnce.Do(ix.findAPIHeaders)
	if ix.lazy.apiHeaders == nil {
		return
	}
	for i := range list {
		if ix.lazy.apiHeaders[ix.chunkFile[list[i].chunk]] {
			list[i].score *= p.Header
		}
	}
}

// findAPIHeaders marks the API headers of a C project in
// lazy.apiHeaders (nil for another project, or none).
func (ix *Index) findAPIHeaders() {
	headers, cpp := false, false
	sources := map[string]bool{} // folders holding C sources
	for i := range ix.files {
		p := ix.files[i].path
		headers = headers || isHeader(p)
		cpp = cpp || isCppSource(p)
		if extOf(p) == ".c" {
			sources[path.Dir(p)] = true
		}
	}
	if !headers || cpp {
		return
	}
	marks := make([]bool, len(ix.files))
	for i := range ix.files {
		p := ix.files[i].path
		marks[i] = isHeader(p) && !sources[path.Dir(p)]
	}
	ix.lazy.apiHeaders = marks
}
