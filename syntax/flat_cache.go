package syntax

// Bounds of the tree cache (see ParseFlat).
const (
	// treeCacheEntries bounds the number of parse trees kept.
	treeCacheEntries = 64
	// treeCacheNodes bounds the nodes kept over all cached trees (a node
	// is 24 bytes).
	treeCacheNodes = 1 << 20
)

// defaultTrees keeps the trees of recently parsed sources (parseFlat),
// weighed by their nodes.
var defaultTrees = newParseCache(treeCacheEntries, treeCacheNodes, func(t *Tree) int { return len(t.Nodes) })
