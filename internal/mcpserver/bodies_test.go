package mcpserver

import (
	"bytes"
	"fmt"
	"net"
	"net/http/httptest"
	"runtime/metrics"
	"strings"
	"sync"
	"testing"
	"time"
)

// heapBytes is the heap's object bytes now (live and not yet swept).
func heapBytes() int64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64())
}

// TestHTTPBodiesInFlightBounded: 48 connections each send all but the
// last byte of a 4 MiB body and stall. Only the body slots' worth of them
// is read (the heap grew by 4-8 MiB per connection before), and once they
// are gone the server answers again.
func TestHTTPBodiesInFlightBounded(t *testing.T) {
	const conns = 48
	h := newHTTPHandler(newServer(testTree(t)), Options{})
	srv := httptest.NewUnstartedServer(h)
	srv.Config = newHTTPServer(h, readTimeout, idleTimeout)
	srv.Start()
	defer srv.Close()
	addr := strings.TrimPrefix(srv.URL, "http://")

	body := bytes.Repeat([]byte(" "), maxMessageBytes-1)
	base := heapBytes()
	var wg sync.WaitGroup
	var mu sync.Mutex
	var open []net.Conn
	for i := 0; i < conns; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			open = append(open, c)
			mu.Unlock()
			// The writes of a connection that waits for a slot block
			// once the socket's buffers are full: the deadline ends them.
			c.SetWriteDeadline(time.Now().Add(3 * time.Second))
			fmt.Fprintf(c, "POST / HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: %d\r\n\r\n", addr, maxMessageBytes)
			c.Write(body)
		}()
	}
	peak := int64(0)
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	for sampling := true; sampling; {
		select {
		case <-done:
			sampling = false
		case <-time.After(5 * time.Millisecond):
		}
		peak = max(peak, heapBytes()-base)
	}
	// The slots fill before the writes end: one more look.
	time.Sleep(200 * time.Millisecond)
	peak = max(peak, heapBytes()-base)
	t.Logf("heap grew by at most %.1f MiB with %d stalled 4 MiB bodies", float64(peak)/(1<<20), conns)
	bound := int64(maxLargeBodies*3*maxMessageBytes + 16<<20)
	if peak > bound {
		t.Errorf("heap grew by %d bytes, want at most %d", peak, bound)
	}
	for _, c := range open {
		c.Close()
	}
	// The slots are free again.
	deadline := time.Now().Add(10 * time.Second)
	for len(h.bodies.large) > 0 || len(h.bodies.small) > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d large and %d small body slots still held", len(h.bodies.large), len(h.bodies.small))
		}
		time.Sleep(10 * time.Millisecond)
	}
	initialize(t, srv.URL, "2025-06-18")
}
