package syntax

import (
	"container/list"
	"sync"

	"github.com/cespare/xxhash/v2"
)

// Bounds of the tree cache (see ParseFlat).
const (
	// treeCacheEntries bounds the number of parse trees kept.
	treeCacheEntries = 64
	// treeCacheNodes bounds the nodes kept over all cached trees (a node
	// is 24 bytes).
	treeCacheNodes = 1 << 20
)

// treeCache keeps the trees of recently parsed sources, least recently
// used first out, bounded by entries and by nodes; concurrent requests for
// the same source share one parse.
type treeCache struct {
	mu       sync.Mutex
	lru      *list.List // of *treeEntry, most recent at the front
	byKey    map[cacheKey]*list.Element
	nodes    int
	inflight map[cacheKey]*treeFlight
	parses   int
}

type treeEntry struct {
	key  cacheKey
	tree *Tree
}

type treeFlight struct {
	done chan struct{}
	tree *Tree
	err  error
}

var defaultTrees = &treeCache{lru: list.New(), byKey: map[cacheKey]*list.Element{}, inflight: map[cacheKey]*treeFlight{}}

func (c *treeCache) get(lang Language, src []byte) (*Tree, error) {
	key := cacheKey{lang: lang, sum: xxhash.Sum64(src), size: len(src)}
	c.mu.Lock()
	if el, ok := c.byKey[key]; ok {
		c.lru.MoveToFront(el)
		t := el.Value.(*treeEntry).tree
		c.mu.Unlock()
		return t, nil
	}
	if f, ok := c.inflight[key]; ok {
		c.mu.Unlock()
		<-f.done
		return f.tree, f.err
	}
	f := &treeFlight{done: make(chan struct{})}
	c.inflight[key] = f
	c.parses++
	c.mu.Unlock()
	func() {
		defer func() {
			if r := recover(); r != nil {
				f.tree, f.err = nil, &Error{"parser failure"}
			}
		}()
		f.tree, f.err = parseFlat(lang, src)
	}()
	c.mu.Lock()
	delete(c.inflight, key)
	if f.err == nil && len(f.tree.Nodes) <= treeCacheNodes {
		c.byKey[key] = c.lru.PushFront(&treeEntry{key: key, tree: f.tree})
		c.nodes += len(f.tree.Nodes)
		for c.lru.Len() > treeCacheEntries || c.nodes > treeCacheNodes {
			old := c.lru.Back()
			e := old.Value.(*treeEntry)
			c.lru.Remove(old)
			delete(c.byKey, e.key)
			c.nodes -= len(e.tree.Nodes)
		}
	}
	c.mu.Unlock()
	close(f.done)
	return f.tree, f.err
}

// treeStats reports the cached trees, their nodes and the parses so far.
func (c *treeCache) stats() (entries, nodes, parses int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lru.Len(), c.nodes, c.parses
}
