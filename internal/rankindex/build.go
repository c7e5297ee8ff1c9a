package rankindex

import (
	"sync"
	"sync/atomic"

	"github.com/evgrep/evgrep/rank"
)

// inOrder indexes documents made by several workers in the order of
// their positions (0, 1, 2, ...): a worker that makes one adds to the
// builder every document ready from the next one on, when no other
// worker is adding. There is no goroutine that only adds (it woke up,
// and was woken, once a document, and the two cores spent a tenth of a
// cold GOROOT/src build switching between three goroutines), and a
// worker never waits for another unless it runs window positions ahead
// of the next document to add.
type inOrder struct {
	add    func(k int, d *rank.FileDoc) // indexes the document of position k
	window int

	docs []*rank.FileDoc // by position, until added
	made []atomic.Bool   // by position: its document is in docs
	mu   sync.Mutex      // held by the worker adding documents
	next atomic.Int64    // the position of the next document to add (written under mu)
	// A worker too far ahead waits on cond (under wmu) for next to move.
	wmu     sync.Mutex
	cond    *sync.Cond
	waiting atomic.Int32
}

func newInOrder(n, window int, add func(k int, d *rank.FileDoc)) *inOrder {
	q := &inOrder{add: add, window: max(window, 1), docs: make([]*rank.FileDoc, n), made: make([]atomic.Bool, n)}
	q.cond = sync.NewCond(&q.wmu)
	return q
}

// wait returns once position k is within the window of the next
// document to add. The documents before k are being made by workers
// that do not wait (theirs are within the window), so the next one is
// always made and added.
func (q *inOrder) wait(k int) {
	if int64(k) < q.next.Load()+int64(q.window) {
		return
	}
	q.wmu.Lock()
	q.waiting.Add(1)
	for int64(k) >= q.next.Load()+int64(q.window) {
		q.cond.Wait()
	}
	q.waiting.Add(-1)
	q.wmu.Unlock()
}

// put hands in the document of position k (nil: none) and adds what is
// ready, unless another worker is adding: that one then adds it.
func (q *inOrder) put(k int, d *rank.FileDoc) {
	q.docs[k] = d
	q.made[k].Store(true)
	q.drain()
}

// drain adds the documents ready from the next one on. After letting go
// of mu it looks again: a document made while it held mu was not added
// by its maker (whose TryLock failed), so this worker adds it.
func (q *inOrder) drain() {
	n := int64(len(q.docs))
	for {
		k := q.next.Load()
		if k >= n || !q.made[k].Load() || !q.mu.TryLock() {
			return
		}
		start := q.next.Load()
		k = start
		for k < n && q.made[k].Load() {
			q.add(int(k), q.docs[k])
			q.docs[k] = nil
			k++
			q.next.Store(k)
		}
		q.mu.Unlock()
		if k > start && q.waiting.Load() > 0 {
			q.wmu.Lock()
			q.cond.Broadcast()
			q.wmu.Unlock()
		}
	}
}

// added is how many documents were added.
func (q *inOrder) added() int { return int(q.next.Load()) }
