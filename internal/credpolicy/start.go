package credpolicy

import (
	"os"
	"sync"
	"sync/atomic"
)

// started is the computation Start began: set is written before done is
// closed.
type started struct {
	done chan struct{}
	set  *Set
}

var (
	startOnce sync.Once
	early     atomic.Pointer[started]
)

// Start begins, once, computing the set for this process's HOME in a
// goroutine of its own, for a later Take. It is meant to be called while
// the program initialises: the computation then runs beside the other
// packages' initialisation.
func Start() {
	startOnce.Do(func() {
		s := &started{done: make(chan struct{})}
		home := os.Getenv("HOME")
		early.Store(s)
		go func() {
			s.set = Compute(home)
			close(s.done)
		}()
	})
}

// Take returns the set that Start computed, once it is computed, when it
// is for HOME value home; ok is false when Start was not called or HOME
// was another value. The caller decides whether the set is still fresh
// (Set.At).
func Take(home string) (s *Set, ok bool) {
	st := early.Load()
	if st == nil {
		return nil, false
	}
	<-st.done
	if st.set.Home != home {
		return nil, false
	}
	return st.set, true
}
