package mcpserver

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// bodySlots bound the POST bodies read at once (limits.go): small ones
// (a known Content-Length of at most smallBodyBytes) and the others.
type bodySlots struct {
	small, large chan struct{}
}

func newBodySlots() bodySlots {
	return bodySlots{small: make(chan struct{}, maxSmallBodies), large: make(chan struct{}, maxLargeBodies)}
}

// take waits for a slot for r's body (at most bodyWait) and returns its
// release, which may be called any number of times. Without a slot it
// answers 503 (or nothing, when the client went away) and returns false.
func (b bodySlots) take(w http.ResponseWriter, r *http.Request) (func(), bool) {
	pool := b.large
	if r.ContentLength >= 0 && r.ContentLength <= smallBodyBytes {
		pool = b.small
	}
	select {
	case pool <- struct{}{}:
	default:
		t := time.NewTimer(bodyWait)
		defer t.Stop()
		select {
		case pool <- struct{}{}:
		case <-r.Context().Done():
			return nil, false
		case <-t.C:
			w.Header().Set("Retry-After", strconv.Itoa(int(bodyWait/time.Second)))
			http.Error(w, fmt.Sprintf("service unavailable: %d request bodies are being read", cap(pool)), http.StatusServiceUnavailable)
			return nil, false
		}
	}
	var once sync.Once
	return func() { once.Do(func() { <-pool }) }, true
}

// readBody reads r's body, at most maxMessageBytes (a longer one is an
// *http.MaxBytesError), into a buffer of its Content-Length when known.
func readBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	rd := http.MaxBytesReader(w, r.Body, maxMessageBytes)
	if r.ContentLength < 0 || r.ContentLength > maxMessageBytes {
		return io.ReadAll(rd)
	}
	// ReadFrom wants MinRead bytes free before each read: with them the
	// buffer never grows.
	buf := bytes.NewBuffer(make([]byte, 0, r.ContentLength+bytes.MinRead))
	_, err := buf.ReadFrom(rd)
	return buf.Bytes(), err
}

// slotBody is a body already read, handed to the SDK: its slot is
// released, and the bytes let go, once the SDK has read them all (or
// closes it).
type slotBody struct {
	r       *bytes.Reader
	release func()
}

func (s *slotBody) Read(p []byte) (int, error) {
	if s.r == nil {
		return 0, io.EOF
	}
	n, err := s.r.Read(p)
	if err == io.EOF {
		s.Close()
	}
	return n, err
}

func (s *slotBody) Close() error {
	s.r = nil
	s.release()
	return nil
}
