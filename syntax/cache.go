package syntax

import (
	"container/list"
	"sync"

	"github.com/cespare/xxhash/v2"
)

// cacheKey names one source: its language, content hash and length.
type cacheKey struct {
	lang Language
	sum  uint64
	size int
}

// cacheEntry is an element value of the LRU list.
type cacheEntry struct {
	key cacheKey
	ix  *index
}

// flight is a parse in progress; later askers for the same key wait for it.
type flight struct {
	done chan struct{}
	ix   *index
	err  error
}

// parseCache keeps the indexes of recently parsed sources, least recently
// used first out, bounded by entry count and by the declarations retained
// over all entries. It is safe for concurrent use; concurrent requests for
// the same source share one parse.
type parseCache struct {
	maxEntries, maxDecls int

	mu       sync.Mutex
	lru      *list.List // of *cacheEntry, most recent at the front
	byKey    map[cacheKey]*list.Element
	decls    int
	inflight map[cacheKey]*flight
	parses   int // parses run, for tests
}

func newParseCache(maxEntries, maxDecls int) *parseCache {
	return &parseCache{
		maxEntries: maxEntries,
		maxDecls:   maxDecls,
		lru:        list.New(),
		byKey:      make(map[cacheKey]*list.Element),
		inflight:   make(map[cacheKey]*flight),
	}
}

// defaultCache serves Enclosing, Outline and HasErrors.
var defaultCache = newParseCache(cacheEntries, cacheDecls)

// get returns the index of src, calling parse on a miss. Errors are not
// cached.
func (c *parseCache) get(lang Language, src []byte, parse func(Language, []byte) (*index, error)) (*index, error) {
	key := cacheKey{lang: lang, sum: xxhash.Sum64(src), size: len(src)}
	c.mu.Lock()
	if el, ok := c.byKey[key]; ok {
		c.lru.MoveToFront(el)
		ix := el.Value.(*cacheEntry).ix
		c.mu.Unlock()
		return ix, nil
	}
	if f, ok := c.inflight[key]; ok {
		c.mu.Unlock()
		<-f.done
		return f.ix, f.err
	}
	f := &flight{done: make(chan struct{})}
	c.inflight[key] = f
	c.parses++
	c.mu.Unlock()

	func() {
		defer func() {
			// A parser bug must not leave waiters blocked forever.
			if r := recover(); r != nil {
				f.ix, f.err = nil, &Error{"parser failure"}
			}
		}()
		f.ix, f.err = parse(lang, src)
	}()

	c.mu.Lock()
	delete(c.inflight, key)
	if f.err == nil {
		c.add(key, f.ix)
	}
	c.mu.Unlock()
	close(f.done)
	return f.ix, f.err
}

// add stores ix under key and evicts down to the bounds; c.mu is held. An
// index larger than the whole declaration budget is not kept.
func (c *parseCache) add(key cacheKey, ix *index) {
	n := len(ix.recs)
	if n > c.maxDecls || c.maxEntries <= 0 {
		return
	}
	c.byKey[key] = c.lru.PushFront(&cacheEntry{key: key, ix: ix})
	c.decls += n
	for c.lru.Len() > c.maxEntries || c.decls > c.maxDecls {
		old := c.lru.Back()
		e := old.Value.(*cacheEntry)
		c.lru.Remove(old)
		delete(c.byKey, e.key)
		c.decls -= len(e.ix.recs)
	}
}

// stats reports the entries, retained declarations and parses so far.
func (c *parseCache) stats() (entries, decls, parses int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lru.Len(), c.decls, c.parses
}
