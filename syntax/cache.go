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
type cacheEntry[V any] struct {
	key    cacheKey
	v      V
	weight int
}

// flight is a parse in progress; later askers for the same key wait for it.
type flight[V any] struct {
	done chan struct{}
	v    V
	err  error
}

// parseCache keeps what parse made of recently parsed sources, least
// recently used first out, bounded by entry count and by a weight over all
// entries (weight of each value: declarations, nodes). It is safe for
// concurrent use; concurrent requests for the same source share one
// parse. Errors are not cached, and a parser that panics gives an Error.
type parseCache[V any] struct {
	maxEntries, maxWeight int
	weight                func(V) int

	mu       sync.Mutex
	lru      *list.List // of *cacheEntry[V], most recent at the front
	byKey    map[cacheKey]*list.Element
	total    int // the weight of the kept entries
	inflight map[cacheKey]*flight[V]
	parses   int // parses run, for tests
}

func newParseCache[V any](maxEntries, maxWeight int, weight func(V) int) *parseCache[V] {
	return &parseCache[V]{
		maxEntries: maxEntries,
		maxWeight:  maxWeight,
		weight:     weight,
		lru:        list.New(),
		byKey:      make(map[cacheKey]*list.Element),
		inflight:   make(map[cacheKey]*flight[V]),
	}
}

// newIndexCache is a cache of declaration indexes, weighed by their
// declarations.
func newIndexCache(maxEntries, maxDecls int) *parseCache[*index] {
	return newParseCache(maxEntries, maxDecls, func(ix *index) int { return len(ix.recs) })
}

// defaultCache serves Enclosing, Outline and HasErrors.
var defaultCache = newIndexCache(cacheEntries, cacheDecls)

// get returns parse's result for src, calling parse on a miss.
func (c *parseCache[V]) get(lang Language, src []byte, parse func(Language, []byte) (V, error)) (V, error) {
	key := cacheKey{lang: lang, sum: xxhash.Sum64(src), size: len(src)}
	c.mu.Lock()
	if el, ok := c.byKey[key]; ok {
		c.lru.MoveToFront(el)
		v := el.Value.(*cacheEntry[V]).v
		c.mu.Unlock()
		return v, nil
	}
	if f, ok := c.inflight[key]; ok {
		c.mu.Unlock()
		<-f.done
		return f.v, f.err
	}
	f := &flight[V]{done: make(chan struct{})}
	c.inflight[key] = f
	c.parses++
	c.mu.Unlock()

	func() {
		defer func() {
			// A parser bug must not leave waiters blocked forever.
			if r := recover(); r != nil {
				var zero V
				f.v, f.err = zero, &Error{"parser failure"}
			}
		}()
		f.v, f.err = parse(lang, src)
	}()

	c.mu.Lock()
	delete(c.inflight, key)
	if f.err == nil {
		c.add(key, f.v)
	}
	c.mu.Unlock()
	close(f.done)
	return f.v, f.err
}

// add stores v under key and evicts down to the bounds; c.mu is held. A
// value heavier than the whole budget is not kept.
func (c *parseCache[V]) add(key cacheKey, v V) {
	w := c.weight(v)
	if w > c.maxWeight || c.maxEntries <= 0 {
		return
	}
	c.byKey[key] = c.lru.PushFront(&cacheEntry[V]{key: key, v: v, weight: w})
	c.total += w
	for c.lru.Len() > c.maxEntries || c.total > c.maxWeight {
		old := c.lru.Back()
		e := old.Value.(*cacheEntry[V])
		c.lru.Remove(old)
		delete(c.byKey, e.key)
		c.total -= e.weight
	}
}

// stats reports the entries, their weight and the parses so far.
func (c *parseCache[V]) stats() (entries, weight, parses int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lru.Len(), c.total, c.parses
}
