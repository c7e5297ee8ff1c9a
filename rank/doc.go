// Package rank is evgrep's ranked code retrieval: it cuts files into
// chunks along their declarations (package syntax), turns text into
// identifier-aware tokens, scores chunks for a query with BM25 and then
// reranks them with code-aware evidence (query type, definitions, file
// evidence, the names a file declares, path priors, diminishing returns
// per file).
//
// The package never walks folders or opens source files: callers hand it
// each file's bytes and revision (NewFileDoc) and build an Index from the
// documents; Encode and Decode keep documents in a cache, so that only a
// changed file is chunked again. It knows nothing of flags or printing.
// A ranking is evidence for where to look, not proof of relevance.
package rank
